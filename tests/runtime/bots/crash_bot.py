"""Plays its first three decisions, then exits with code 3 in the middle of the game."""

import os

import _common

from bots.python.kit import serve

_common.record_pid()
calls = 0


def choose(request):
    global calls
    calls += 1
    if calls > 3:
        os._exit(3)
    return 0


serve(choose, name="crasher", games=["tapa", "durak"])
