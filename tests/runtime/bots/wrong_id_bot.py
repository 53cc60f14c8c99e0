"""Answers an id that is never in the list."""

import _common

from bots.python.kit import serve

_common.record_pid()
serve(lambda request: len(request.legal_actions) + 7, name="wrong-id", games=["tapa"])
