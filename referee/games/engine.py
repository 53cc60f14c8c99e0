"""Which engine core runs by default: the compiled one (``kafana_native.engine``, Rust, built from ``native/``)
or the Python engines, chosen here once from ``KAFANA_ENGINE=python|native`` (default: native when it
is installed), without a word: a command settles the choice before it works (:func:`referee.choices.settle`),
which refuses a mistyped value in one line and says once when the Python engines play for want of the native core.
Whoever makes a game may choose otherwise: ``make_game(..., engine="python")``, ``game.on("native")``. The shipped
bots' accelerators (``kafana_native.bots``) go with the choice: :data:`ACCELERATORS`.

The Python engines are the reference; the native core gives the same results behind the same entry points, and
tests compare the two on every kind of position.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

NOTED = "KAFANA_ENGINE_NOTED"
"""Set once the fallback has been reported, so that the referee's child processes do not repeat it."""


class EngineError(RuntimeError):
    """``KAFANA_ENGINE`` names an engine that is not there."""


def _native() -> ModuleType | None:
    try:
        from kafana_native import engine
    except ImportError:
        return None
    return engine


def choose(wanted: str | None) -> tuple[str, ModuleType | None]:
    """The engine for ``wanted`` (the variable's value, None when unset) and the engine core's module
    (``kafana_native.engine``) if it runs.

    Raises:
        EngineError: an unknown value, or ``native`` without the package.
    """
    if wanted not in (None, "", "python", "native"):
        raise EngineError(f"KAFANA_ENGINE={wanted!r}: use python or native")
    module = _native() if wanted != "python" else None
    if wanted == "native" and module is None:
        raise EngineError("KAFANA_ENGINE=native, but the native core is not installed (pip install ./native)")
    return ("native" if module is not None else "python"), module


def _chosen() -> tuple[str, ModuleType | None, str | None]:
    """The engine the environment asks for, the native module when it is the native one, and what is wrong with
    the variable (then the Python engines, which every machine has)."""
    try:
        return (*choose(os.environ.get("KAFANA_ENGINE")), None)
    except EngineError as exc:
        return "python", None, str(exc)


ENGINE, NATIVE, PROBLEM = _chosen()
"""The engine in use, the engine core's module (``kafana_native.engine``) when it is the native one, and what is
wrong with ``KAFANA_ENGINE``."""


def _accelerators() -> ModuleType | None:
    if NATIVE is None:
        return None
    from kafana_native import bots
    return bots


ACCELERATORS = _accelerators()
"""The shipped bots' accelerators (``kafana_native.bots``) when the native core is the engine in use, else None
(the bots then compute in Python what these compute)."""


def note_fallback() -> None:
    """Say on standard error that the Python engines play because the native core is not installed, when that is
    so and nobody asked for them, once for a command and the processes it starts (:data:`NOTED`)."""
    if ENGINE == "python" and not os.environ.get("KAFANA_ENGINE") and not os.environ.get(NOTED):
        os.environ[NOTED] = "1"
        print("kafana: the native engine core is not installed (pip install ./native, with a Rust toolchain); "
              "using the Python engines", file=sys.stderr)
