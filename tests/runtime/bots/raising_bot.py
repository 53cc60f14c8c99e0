"""Plays its first three decisions, then its own code raises KeyError('oops') (the process lives on)."""

import _common

from bots.python.kit import serve

_common.record_pid()
calls = 0


def choose(request):
    global calls
    calls += 1
    if calls > 3:
        raise KeyError("oops")
    return 0


serve(choose, name="raiser", games=["tapa", "durak"])
