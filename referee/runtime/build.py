"""Building a bot: its dependencies fetched, then the manifest's optional ``build`` command, with no network.

A compiled bot (the C++ and Go starters) names its build, e.g. ``build = ["make", "--silent"]``. It runs once, in
the bot's prepared copy (:mod:`referee.runtime.prepare`), in two phases:

1. **fetch** (:mod:`.fetch`): the language's package tool, its scripts disabled, downloads what the bot's lock
   files name into the shared caches. It runs none of the bot's code, and only it has the network.
2. **build**: the manifest's command, told where the caches are and that it is offline. In the sandbox (the
   ladder's builds, and every build where the sandbox is on) it has no network at all, the caches are read-only
   and the bot's copy is the only place it may write, as an unprivileged uid of its own: a build runs a stranger's
   code as much as the bot does.

Both phases stream their output (``echo``) with the seconds elapsed, and say so every half minute when quiet.
A build given a bound on its disk (``limit``: a ladder's bound on a bot's copy) is measured while it runs and
stopped as soon as it is over (:class:`DiskBound`).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from .fetch import build_environment, ecosystems, fetching, give_caches, open_to_builds
from .manifest import BotSpec
from .printable import printable
from .sandbox import BUILD_LIMITS, FETCH_UID, Sandbox, UidClaim, bot_environment
from .seccomp import program_fd

BUILD_TIMEOUT = 900.0
"""Seconds each phase of a build may take (``--build-timeout``)."""
OUTPUT_TAIL = 3000
"""Characters of build output kept in an error message."""
QUIET_SECONDS = 30.0
"""How long a phase may print nothing before a line says it is still at work."""
DISK_POLL = 1.0
"""Least seconds between two measures of what a build wrote (more when a measure itself takes long)."""

COLOURS = re.compile(r"\x1b\[[0-9;]*m")
"""Terminal colour codes, which some tools print even when told not to (Maven's ``--quiet``)."""

Echo = Callable[[str], None]


class BuildError(RuntimeError):
    """A bot's build failed; the message carries the phase, the command and the end of its output."""


class TooLarge(BuildError):
    """A bot's build wrote more than its bound on disk (stopped while it ran, or measured once it ended)."""


def disk_bytes(folder: Path) -> int:
    """The bytes of the files below ``folder`` (their sizes, links not followed: a sparse file counts whole)."""
    total = 0
    for parent, _, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(parent, name)).st_size
    return total


class DiskBound:
    """A bound on what one phase of a build writes: the bot's copy ``folder`` in all, and what a shared cache
    ``cache`` grows by while the phase runs, together at most ``limit`` bytes. Measured every :data:`DISK_POLL`
    seconds or more (four times as long as a measure takes, so that measuring a large cache costs a quarter of
    the time at most), so a build can pass the bound by what it writes between two measures."""

    def __init__(self, limit: int, folder: Path, cache: Path | None = None) -> None:
        self.limit, self.folder, self.cache = limit, folder, cache
        self.cache_before = disk_bytes(cache) if cache is not None else 0
        self.every = DISK_POLL

    def over(self) -> str | None:
        """What the phase has written, in words, when it is over the bound; else None."""
        start = time.monotonic()
        written = disk_bytes(self.folder)
        if self.cache is not None:
            written += max(0, disk_bytes(self.cache) - self.cache_before)
        self.every = max(DISK_POLL, 4 * (time.monotonic() - start))
        if written <= self.limit:
            return None
        return f"wrote {written / 1e6:.1f} MB, more than the {self.limit / 1e6:.0f} MB a bot may take"


def _chown_tree(folder: Path, uid: int) -> None:
    for path in [folder, *folder.rglob("*")]:
        os.lchown(path, uid, uid)


def _run(command: Sequence[str], shown: str, cwd: Path, env: dict[str, str], timeout: float, echo: Echo | None,
         pass_fds: Sequence[int] = (), bound: DiskBound | None = None) -> tuple[int | None, str]:
    """Run ``command`` in a session of its own, its output (both streams) passed to ``echo`` line by line as it
    comes, with a line naming ``shown`` when it has been quiet for :data:`QUIET_SECONDS`; return its exit code
    (None when it ran past ``timeout`` seconds and was killed) and its output.

    Raises:
        TooLarge: it went over ``bound`` (it was killed).
    """
    start = time.monotonic()
    lines: list[str] = []
    heard = [start]
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, errors="replace", start_new_session=True, pass_fds=tuple(pass_fds),
    )

    def say(line: str) -> None:
        heard[0] = time.monotonic()
        if echo is not None:
            echo(f"[{heard[0] - start:.0f}s] {line}")

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            text = printable(COLOURS.sub("", line).rstrip())
            if text:
                lines.append(text)
                say(text)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    code: int | None = None
    over: str | None = None
    while code is None and over is None:
        left = timeout - (time.monotonic() - start)
        if left <= 0:
            break
        try:
            code = process.wait(timeout=min(QUIET_SECONDS, left, bound.every if bound else QUIET_SECONDS))
        except subprocess.TimeoutExpired:
            if time.monotonic() - heard[0] >= QUIET_SECONDS:
                say(f"still at work: {shown}")
            over = bound.over() if bound is not None else None
    if code is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    reader.join(timeout=5)
    if over is not None:
        raise TooLarge(f"{shown!r} {over} (stopped)")
    return code, "\n".join(lines)


def _phase(spec: BotSpec, name: str, command: Sequence[str], env: dict[str, str], timeout: float,
           echo: Echo | None, sandbox: tuple[int, list[tuple[str, Path]], bool] | None,
           bound: DiskBound | None) -> str:
    """Run one phase of the build of ``spec`` (``sandbox``: its uid, binds and network, else on the host).

    Raises:
        TooLarge: it wrote more than ``bound``.
        BuildError: the command is missing, fails, or runs past ``timeout``.
    """
    shown = " ".join(command)
    argv, rules = list(command), None
    fds: tuple[int, ...] = ()
    if sandbox is not None:
        uid, binds, network = sandbox
        rules = program_fd()
        argv = Sandbox(BUILD_LIMITS, uid).command(command, spec.cwd, rules, building=True, network=network,
                                                  binds=binds)
        fds = (rules,)
    try:
        code, output = _run(argv, shown, spec.cwd, env, timeout, echo, fds, bound)
    except TooLarge as exc:
        raise TooLarge(f"{spec.label}: {name} {exc}") from None
    except FileNotFoundError:
        raise BuildError(f"{spec.label}: {name} command {shown!r} not found (is its toolchain installed?)") from None
    finally:
        if rules is not None:
            os.close(rules)
    if code is None:
        raise BuildError(f"{spec.label}: {name} {shown!r} took more than {timeout:g}s (raise the limit with "
                         "--build-timeout SECONDS; what it fetched and compiled is kept, so running it again "
                         "resumes)")
    if code != 0:
        raise BuildError(f"{spec.label}: {name} {shown!r} failed with exit code {code}:\n{output[-OUTPUT_TAIL:]}")
    return output


def needs_build(spec: BotSpec) -> bool:
    """Whether the folder bot ``spec`` has anything to build or fetch."""
    return bool(spec.build) or bool(ecosystems(spec.cwd))


def build_bot(spec: BotSpec, deps: Path, timeout: float = BUILD_TIMEOUT, sandboxed: bool = False,
              echo: Echo | None = None, limit: int | None = None) -> str | None:
    """Fetch the dependencies of the bot ``spec`` into the caches in ``deps``, then run its build command in its
    folder; return what they printed, control characters escaped (None when there is nothing to do). ``sandboxed``
    runs both in the sandbox: the fetch as :data:`.sandbox.FETCH_UID` with the network, the build as an
    unprivileged uid of its own with none, both with the larger :data:`BUILD_LIMITS`. ``echo`` is given each line
    of output as it comes. With ``limit``, each phase is stopped as soon as the bot's folder, and what the fetch
    adds to its cache, take more than ``limit`` bytes (:class:`DiskBound`).

    Raises:
        TooLarge: a phase wrote more than ``limit``.
        BuildError: a phase failed, or ran longer than ``timeout`` seconds.
    """
    used = ecosystems(spec.cwd)
    if not spec.build and not used:
        return None
    outputs = []
    base = bot_environment("", {}, sandboxed=True) if sandboxed else dict(os.environ)
    if used:
        with fetching(deps):
            if sandboxed:
                give_caches(deps, used, FETCH_UID)
                _chown_tree(spec.cwd, FETCH_UID)
            try:
                for ecosystem in used:
                    cache = deps / ecosystem.name
                    cache.mkdir(parents=True, exist_ok=True)
                    env = {**base, **ecosystem.fetch_env(cache)}
                    if echo is not None:
                        echo(f"fetching the {ecosystem.name} dependencies (the build itself runs offline)")
                    bound = DiskBound(limit, spec.cwd, cache) if limit is not None else None
                    outputs.append(_phase(spec, "fetch", ecosystem.fetch(spec.cwd), env, timeout, echo,
                                          (FETCH_UID, [("--bind", cache)], True) if sandboxed else None, bound))
                    open_to_builds(cache)
            finally:
                if sandboxed:
                    _chown_tree(spec.cwd, 0)
    if spec.build:
        declared = {**dict(spec.env), **build_environment(spec.cwd, deps)}
        env = bot_environment("", declared, sandboxed=True) if sandboxed else {**os.environ, **declared}
        claim = UidClaim(os.getpid() * 8 + 7) if sandboxed else None
        binds = [("--ro-bind", deps / ecosystem.name) for ecosystem in used]
        try:
            if claim is not None:
                _chown_tree(spec.cwd, claim.uid)
            outputs.append(_phase(spec, "build", spec.build, env, timeout, echo,
                                  (claim.uid, binds, False) if claim is not None else None,
                                  DiskBound(limit, spec.cwd) if limit is not None else None))
        finally:
            if claim is not None:
                _chown_tree(spec.cwd, 0)
                claim.release()
    return "\n".join(output for output in outputs if output).strip()
