"""Child processes that do not outlive their parent: on Linux the kernel sends them SIGKILL when the parent dies,
even when the parent itself is SIGKILLed. The ladder starts referees with it as ``preexec_fn`` (the ladder holds
no gRPC threads), and the Python bot kit calls it first thing, so a killed referee takes its Python bots along.
The referee itself never forks with a ``preexec_fn``: with gRPC's threads running, a Python-level fork can abort
the child. Elsewhere than Linux it does nothing."""

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
    """Ask the kernel to SIGKILL this process when its parent thread exits (usable as a ``preexec_fn``)."""
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL)
