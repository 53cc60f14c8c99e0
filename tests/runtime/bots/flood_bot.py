"""Plays, while a thread floods stdout without end."""

import sys
import threading

import _common

from bots.python.kit import serve

_common.record_pid()


def flood():
    line = "x" * 1023 + "\n"
    while True:
        sys.stdout.write(line)


def choose(request):
    threading.Thread(target=flood, daemon=True).start()
    return 0


serve(choose, name="flooder", games=["tapa"])
