"""Answers Hello, then on its first Act closes its server (dropping the connection) and stays alive."""

import threading
import time

import _common

from bots.python.kit import make_server

_common.record_pid()
holder = {}


def choose(request):
    threading.Thread(target=holder["server"].stop, args=(0,)).start()
    time.sleep(2)
    return 0


holder["server"] = make_server(choose, name="hangup", games=["tapa"])
time.sleep(3600)
