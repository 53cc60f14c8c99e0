"""Which engine core runs: the compiled one (the ``kafana_native`` package, Rust, built from ``native/``) or the
Python engines, chosen once at import by ``KAFANA_ENGINE=python|native`` (default: native when it is installed).

The Python engines are the reference; the native core gives the same results behind the same entry points
(``stage_ends``), and tests compare the two on every kind of position.
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
        import kafana_native
    except ImportError:
        return None
    return kafana_native


def choose(wanted: str | None) -> tuple[str, ModuleType | None]:
    """The engine for ``wanted`` (the variable's value, None when unset) and the native module if it runs.

    Raises:
        EngineError: an unknown value, or ``native`` without the package.
    """
    if wanted not in (None, "", "python", "native"):
        raise EngineError(f"KAFANA_ENGINE={wanted!r}: use python or native")
    module = _native() if wanted != "python" else None
    if wanted == "native" and module is None:
        raise EngineError("KAFANA_ENGINE=native, but the native core is not installed (pip install ./native)")
    return ("native" if module is not None else "python"), module


ENGINE, NATIVE = choose(os.environ.get("KAFANA_ENGINE"))
"""The engine in use, and the native module when it is the native one."""

if ENGINE == "python" and not os.environ.get("KAFANA_ENGINE") and not os.environ.get(NOTED):
    os.environ[NOTED] = "1"
    print("kafana: the native engine core is not installed (pip install ./native, with a Rust toolchain); "
          "using the Python engines", file=sys.stderr)
