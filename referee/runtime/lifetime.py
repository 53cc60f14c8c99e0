"""Child processes that do not outlive their parent: on Linux the kernel sends them SIGKILL when the parent dies,
even when the parent itself is SIGKILLed (so a killed ladder leaves no referee behind, and a killed referee no
bot). Elsewhere it does nothing."""

from __future__ import annotations

import ctypes
import signal
import sys
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1


def _load_prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _load_prctl()
"""Looked up once, before any fork: the child then makes a plain C call."""


def die_with_parent() -> None:
    """A ``preexec_fn``: ask the kernel to SIGKILL this child when its parent thread exits."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL)
