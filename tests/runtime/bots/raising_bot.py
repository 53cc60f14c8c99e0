"""Plays its first three decisions, then its own code raises KeyError('oops') (the process lives on)."""

import _common


def fail() -> None:
    raise KeyError("oops")


_common.serve_then(fail, after=3, name="raiser", games=["tapa", "durak"])
