"""Building a bot: the manifest's optional ``build`` command, run in the bot's folder before the bot is started.

A compiled bot (the C++ and Go starters) names its build, e.g. ``build = ["make", "--silent"]``. It runs once, in
the bot's prepared copy (:mod:`referee.runtime.prepare`); the ladder runs it in the sandbox, since a build runs a
stranger's code as much as the bot does.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from .manifest import BotSpec
from .printable import printable
from .sandbox import BUILD_LIMITS, Sandbox, UidClaim, bot_environment
from .seccomp import program_fd

BUILD_TIMEOUT = 900.0
"""Seconds a build may take."""
OUTPUT_TAIL = 3000
"""Characters of build output kept in an error message."""


class BuildError(RuntimeError):
    """A bot's build command failed; the message carries the command and the end of its output."""


def _chown_tree(folder: Path, uid: int) -> None:
    for path in [folder, *folder.rglob("*")]:
        os.lchown(path, uid, uid)


def build_bot(spec: BotSpec, timeout: float = BUILD_TIMEOUT, sandboxed: bool = False) -> str | None:
    """Run ``spec``'s build command in its folder; return what it printed, control characters escaped (None when
    the bot needs no build). ``sandboxed`` runs it in the sandbox as an unprivileged uid of its own, its folder the
    only place it may write, with the network (a build fetches packages) and the larger :data:`BUILD_LIMITS`.

    Raises:
        BuildError: the command is missing, fails, or runs longer than ``timeout`` seconds.
    """
    if not spec.build:
        return None
    shown = " ".join(spec.build)
    command, env, claim, rules = list(spec.build), {**os.environ, **dict(spec.env)}, None, None
    if sandboxed:
        claim = UidClaim(os.getpid() * 8 + 7)
        _chown_tree(spec.cwd, claim.uid)
        rules = program_fd()
        command = Sandbox(BUILD_LIMITS, claim.uid).command(spec.build, spec.cwd, rules, building=True)
        env = bot_environment("", dict(spec.env), sandboxed=True)
    try:
        done = subprocess.run(
            command, cwd=spec.cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace",
            timeout=timeout, env=env, pass_fds=() if rules is None else (rules,),
        )
    except FileNotFoundError:
        raise BuildError(f"{spec.label}: build command {shown!r} not found (is its toolchain installed?)") from None
    except subprocess.TimeoutExpired:
        raise BuildError(f"{spec.label}: build {shown!r} took more than {timeout:g}s") from None
    finally:
        if rules is not None:
            os.close(rules)
        if claim is not None:
            _chown_tree(spec.cwd, 0)
            claim.release()
    output = printable((done.stdout + done.stderr).strip(), lines=True)
    if done.returncode != 0:
        tail = output[-OUTPUT_TAIL:]
        raise BuildError(f"{spec.label}: build {shown!r} failed with exit code {done.returncode}:\n{tail}")
    return output
