"""Running an untrusted bot inside a sandbox: bubblewrap namespaces, an unprivileged uid and resource limits.

A sandboxed bot sees a read-only system (``/usr``, ``/etc``, the Python installation and the referee's own
packages), its own folder read-only, a private ``/tmp`` of limited size, and one writable folder holding nothing
but its Unix socket. It has no network (a new network namespace: the socket is its only way out), no view of other
processes (a new PID namespace: everything it spawns dies with it), and runs as its own unprivileged uid under
resource limits (address space, CPU time, processes, file size, open files). Other bots' folders, the league
database and the replays are simply not there.

Modes: ``off`` (a developer's own trusted bots), ``on`` (refuse to run when the sandbox cannot work here) and
``auto`` (use it when it can work, and say so). docs/security.md says what this guarantees and what it does not.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

MODES = ("auto", "on", "off")
SANDBOX_ENV = "KAFANA_SANDBOX"
"""The environment variable that sets the default mode of ``--sandbox`` (a test run sets ``auto``)."""

FIRST_UID = 61000
"""Sandboxed bots run as uids from here on, one per seat of a game, so that they share no process count."""
UID_SPAN = 4000

_TOOLS = ("bwrap", "prlimit", "setpriv")
CPU_GRACE = 5
"""Seconds of CPU between the soft limit's SIGXCPU and the hard limit's SIGKILL."""


class SandboxUnavailable(RuntimeError):
    """``--sandbox on`` was asked for but bubblewrap cannot work on this machine; the message says why."""


@dataclass(frozen=True)
class Limits:
    """Per-bot resource limits (rlimits of the sandboxed process tree, a size cap on its /tmp)."""

    memory_bytes: int = 4 << 30
    """Address space (RLIMIT_AS). Go and Node reserve much more than they use: below ~1 GiB they fail to start."""
    resident_bytes: int = 2 << 30
    """Memory all of the bot's processes may use together (a memory cgroup, where one can be made)."""
    cpu_seconds: int = 3600
    """CPU time of the bot process over its whole life (RLIMIT_CPU; SIGXCPU ends it)."""
    processes: int = 64
    """Processes and threads of the bot's uid (RLIMIT_NPROC)."""
    file_bytes: int = 64 << 20
    """Largest file it may write (RLIMIT_FSIZE; SIGXFSZ ends it)."""
    open_files: int = 256
    """Open file descriptors (RLIMIT_NOFILE)."""
    tmp_bytes: int = 64 << 20
    """Size of its private /tmp."""


DEFAULT_LIMITS = Limits()


def limits_from_json(changes: dict) -> Limits:
    """The default limits with ``changes`` ({field: value}) applied.

    Raises:
        ValueError: an unknown field or a value that is not a positive integer.

    >>> limits_from_json({"cpu_seconds": 60}).cpu_seconds
    60
    """
    known = {field.name for field in dataclasses.fields(Limits)}
    for key, value in changes.items():
        if key not in known:
            raise ValueError(f"unknown limit {key!r} (known: {', '.join(sorted(known))})")
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValueError(f"limit {key} must be a positive integer, not {value!r}")
    return dataclasses.replace(DEFAULT_LIMITS, **changes)


@functools.cache
def sandbox_problem() -> str | None:
    """Why the sandbox cannot work on this machine, or None when it can (tried once, with a real sandbox)."""
    missing = [tool for tool in _TOOLS if shutil.which(tool) is None]
    if missing:
        return f"missing {', '.join(missing)} (Debian: apt-get install bubblewrap util-linux)"
    if os.geteuid() != 0:
        return "the sandbox switches each bot to its own uid, which needs the referee to run as root"
    trial = Sandbox(DEFAULT_LIMITS, FIRST_UID).command(["true"], Path(sys.prefix), None)
    try:
        done = subprocess.run(trial, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap failed to start: {exc}"
    if done.returncode != 0:
        return f"bubblewrap cannot create its namespaces here: {done.stderr.strip()[:300]}"
    return None


def resolve_mode(mode: str) -> bool:
    """Whether to sandbox under ``mode``.

    Raises:
        SandboxUnavailable: ``mode`` is ``on`` and the sandbox cannot work here.
        ValueError: an unknown mode.
    """
    if mode not in MODES:
        raise ValueError(f"sandbox mode must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == "off":
        return False
    problem = sandbox_problem()
    if problem is not None and mode == "on":
        raise SandboxUnavailable(f"--sandbox on, but the sandbox cannot work here: {problem}")
    return problem is None


def _readable_roots() -> list[Path]:
    """What every sandboxed bot may read: the Python installation and the referee's own packages."""
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix)}
    roots.add(Path(os.path.realpath(sys.executable)).parent)
    package_root = Path(__file__).resolve().parents[2]
    if not str(package_root).startswith(tuple(str(p) for p in roots)):  # an editable install: the source tree
        roots |= {package_root / "referee", package_root / "bots"}
    return sorted(roots)


class Sandbox:
    """Builds the command that runs one bot sandboxed as ``uid`` under ``limits``."""

    def __init__(self, limits: Limits, uid: int) -> None:
        self.limits = limits
        self.uid = uid

    def command(self, command: Sequence[str], bot_dir: Path, socket_dir: Path | None) -> list[str]:
        """``command`` wrapped: rlimits (prlimit), the namespaces and mounts (bwrap, run as root so that it can
        mount what the bot may read wherever it lies), then the bot's own uid (setpriv, inside the sandbox)."""
        limits = self.limits
        wrapped = [
            "prlimit",
            f"--as={limits.memory_bytes}",
            f"--cpu={limits.cpu_seconds}:{limits.cpu_seconds + CPU_GRACE}",  # SIGXCPU first, SIGKILL after
            f"--nproc={limits.processes}",
            f"--fsize={limits.file_bytes}",
            f"--nofile={limits.open_files}",
            "--",
            "bwrap",
            "--unshare-ipc",
            "--unshare-pid",
            "--unshare-net",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--die-with-parent",
            "--new-session",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--ro-bind",
            "/usr",
            "/usr",
            "--ro-bind",
            "/etc",
            "/etc",
        ]
        for link in ("bin", "lib", "lib64", "sbin"):
            target = Path("/") / link
            if target.is_symlink():
                wrapped += ["--symlink", os.readlink(target), str(target)]
            elif target.exists():
                wrapped += ["--ro-bind", str(target), str(target)]
        # A writable /tmp for everybody (before the binds that may lie below it), then the folders to read, each
        # with the folders above it created open to pass through (bwrap would make them root-only).
        wrapped += ["--perms", "1777", "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp"]
        binds = [("--ro-bind", root) for root in _readable_roots()] + [("--ro-bind", bot_dir)]
        if socket_dir is not None:
            binds.append(("--bind", socket_dir))
        made: set[Path] = {Path("/"), Path("/tmp")}
        for option, folder in binds:
            for parent in reversed(folder.parents):
                if parent not in made:
                    wrapped += ["--perms", "0755", "--dir", str(parent)]
                    made.add(parent)
            wrapped += [option, str(folder), str(folder)]
            made.add(folder)
        wrapped += [
            "--setenv",
            "HOME",
            "/tmp",
            "--setenv",
            "PYTHONDONTWRITEBYTECODE",
            "1",
            "--chdir",
            str(bot_dir),
            "--",
            "setpriv",
            f"--reuid={self.uid}",
            f"--regid={self.uid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--",
            *command,
        ]
        return wrapped

    def prepare_socket_dir(self, socket_dir: Path) -> None:
        """Give the sandboxed uid the folder its socket goes in (and nothing else)."""
        os.chown(socket_dir, self.uid, self.uid)
        socket_dir.chmod(0o700)


def unreadable(folder: Path) -> bool:
    """True when other users cannot list and enter ``folder``: a sandboxed bot runs as another user and must read
    its own folder (the folders above it need not be open: the sandbox mounts the folder itself)."""
    return (folder.stat().st_mode & 0o005) != 0o005


def seat_uid(seat: int) -> int:
    """The uid for ``seat`` of a game run by this referee process (distinct per seat and, mostly, per game)."""
    return FIRST_UID + (os.getpid() * 8 + seat) % UID_SPAN
