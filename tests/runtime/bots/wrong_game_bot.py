"""Claims only a game that is not being played."""

import _common

from bots.python.kit import serve

_common.record_pid()
serve(lambda request: 0, name="wrong-game", games=["chess"])
