"""Plays every Tabla-family game well enough, but crashes whenever it is asked to play Gjul Bara."""

import os

import _common

from bots.python.kit import serve
from bots.python.random_bot import choose

_common.record_pid()


def decide(request):
    if request.view.variant == "gjul-bara":
        os._exit(4)
    return choose(request)


serve(decide, name="gjul-crasher", games=["tapa", "gjul-bara"])
