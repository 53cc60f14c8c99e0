"""Plays its first three decisions, then exits with code 3 in the middle of the game."""

import os

import _common

_common.serve_then(lambda: os._exit(3), after=3, name="crasher", games=["tapa", "durak"])
