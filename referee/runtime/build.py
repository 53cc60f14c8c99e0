"""Building a bot: the manifest's optional ``build`` command, run in the bot's folder before the bot is started.

A compiled bot (the C++ and Go starters) names its build, e.g. ``build = ["make", "--silent"]``; the command must
be cheap when nothing changed (make, ``go build`` and ``npm ci`` guarded by a check all are). ``referee play``,
``referee hello`` and ``referee check-bot`` build first, so the ladder builds its own copy of a bot at submission.
"""

from __future__ import annotations

import subprocess

from .manifest import BotSpec
from .printable import printable

BUILD_TIMEOUT = 900.0
"""Seconds a build may take."""
OUTPUT_TAIL = 3000
"""Characters of build output kept in an error message."""


class BuildError(RuntimeError):
    """A bot's build command failed; the message carries the command and the end of its output."""


def build_bot(spec: BotSpec, timeout: float = BUILD_TIMEOUT) -> str | None:
    """Run ``spec``'s build command in its folder; return what it printed, control characters escaped (None when
    the bot needs no build).

    Raises:
        BuildError: the command is missing, fails, or runs longer than ``timeout`` seconds.
    """
    if not spec.build:
        return None
    shown = " ".join(spec.build)
    try:
        done = subprocess.run(
            spec.build, cwd=spec.cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace",
            timeout=timeout,
        )
    except FileNotFoundError:
        raise BuildError(f"{spec.label}: build command {shown!r} not found (is its toolchain installed?)") from None
    except subprocess.TimeoutExpired:
        raise BuildError(f"{spec.label}: build {shown!r} took more than {timeout:g}s") from None
    output = printable((done.stdout + done.stderr).strip(), lines=True)
    if done.returncode != 0:
        tail = output[-OUTPUT_TAIL:]
        raise BuildError(f"{spec.label}: build {shown!r} failed with exit code {done.returncode}:\n{tail}")
    return output
