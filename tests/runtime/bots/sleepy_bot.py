"""Answers its first decision, then sleeps far past any deadline."""

import time

import _common

from bots.python.kit import serve

_common.record_pid()
calls = 0


def choose(request):
    global calls
    calls += 1
    if calls > 1:
        time.sleep(60)
    return 0


serve(choose, name="sleeper", games=["tapa"])
