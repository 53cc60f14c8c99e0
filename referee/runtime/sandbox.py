"""Running an untrusted bot inside a sandbox: bubblewrap namespaces, an unprivileged uid and resource limits.

A sandboxed bot sees a read-only system (``/usr``, ``/etc``, the Python installation and the referee's own
packages), its own folder read-only, and a private ``/tmp`` of limited size, in memory, which holds its Unix socket
too: nothing it can write lives on the host's disk. The referee reaches the socket through the sandbox's root as
the kernel shows it (``/proc/PID/root``), following no link (:mod:`.sandbox_socket`). The bot has no network (a
new network namespace, whose loopback reaches only its own processes), no view of other processes (a new PID
namespace: everything it spawns dies with it), no system call that reaches beyond its sandbox (:mod:`.seccomp`),
an environment made by the referee (:func:`bot_environment`), and runs as its own unprivileged uid under resource
limits (address space, CPU time, processes, file size, open files). Other bots' folders, the league database and
the replays are simply not there.

Modes: ``off`` (a developer's own trusted bots), ``on`` (refuse to run when the sandbox cannot work here) and
``auto`` (use it when it can work, and say so). docs/security.md says what this guarantees and what it does not.
"""

from __future__ import annotations

import dataclasses
import fcntl
import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .seccomp import SeccompUnavailable, program_fd

MODES = ("auto", "on", "off")
ADDRESS_ENV = "KAFANA_BOT_ADDRESS"
"""The environment variable that tells a bot where to listen."""
SANDBOX_ENV = "KAFANA_SANDBOX"
"""The environment variable that sets the default mode of ``--sandbox`` (a test run sets ``auto``)."""

FETCH_UID = 60998
"""The uid that fetches every build's dependencies into the shared caches (:mod:`.fetch`): only its fetches may
write there; builds and bots (uids from :data:`FIRST_UID`) read them."""
FIRST_UID = 61000
"""Sandboxed bots run as uids from here on, each bot its own, so that they share no process count."""
UID_SPAN = 4000
UID_LOCKS = Path("/run/kafana-uids")
"""One lock file per uid in use: a bot's uid is locked while it runs (the kernel releases a dead holder's lock)."""
SOCKET_FOLDER, SOCKET_NAME = "tmp", "kafana-bot.sock"
SOCKET_PATH = f"/{SOCKET_FOLDER}/{SOCKET_NAME}"
"""Where a sandboxed bot listens, inside its sandbox."""
RUST_ROOT = Path("/opt/rust")
"""Where a sandbox shows the host's Rust toolchain when it lies outside the system folders (rustup's, under the
operator's home): read-only, its ``bin`` on the search path, so that a Rust bot's build finds cargo."""
PATH = f"/usr/local/bin:/usr/local/go/bin:{RUST_ROOT}/bin:/usr/bin:/bin"
"""The command search path of a sandboxed bot (and its build), with the Go project's and Rust's own install
locations ahead of the distribution's (a Go module or a crate may need a newer toolchain than a distribution
carries)."""
LANG = "C.UTF-8"
"""The locale of every bot."""

HIDDEN_PROC = ("/proc/keys", "/proc/key-users")
"""Files of /proc that show the kernel keyring, which is not namespaced: empty in a sandbox (as in Docker's)."""

_TOOLS = ("bwrap", "prlimit", "setpriv")
CPU_GRACE = 5
"""Seconds of CPU between the soft limit's SIGXCPU and the hard limit's SIGKILL."""


_LIFELINE_CHECK = (
    "import os, select, sys\n"
    "fd = int(sys.argv[1])\n"
    "poll = select.poll()\n"
    "poll.register(fd, select.POLLIN)\n"
    "if poll.poll(0):\n"  # readable or hung up: nothing is ever written, so the referee's end is closed
    "    os._exit(70)\n"
    "os.close(fd)\n"
    "os.execvp(sys.argv[2], sys.argv[2:])\n"
)
"""Run inside the sandbox before the bot: go on only while the referee holds the lifeline's write end."""


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
    """Size of its private /tmp (in memory; filling it is a ``disk`` resource limit)."""


DEFAULT_LIMITS = Limits()
BUILD_LIMITS = Limits(cpu_seconds=1800, processes=512, resident_bytes=4 << 30, memory_bytes=16 << 30,
                      file_bytes=1 << 30, open_files=4096, tmp_bytes=2 << 30)
"""The limits of a sandboxed build (compilers and package managers need more than a bot)."""


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
    try:
        rules = program_fd()
    except SeccompUnavailable as exc:
        return str(exc)
    trial = Sandbox(DEFAULT_LIMITS, FIRST_UID).command(["true"], Path(sys.prefix), rules)
    try:
        done = subprocess.run(trial, capture_output=True, text=True, timeout=20, env={"PATH": PATH},
                              pass_fds=(rules,))
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap failed to start: {exc}"
    finally:
        os.close(rules)
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


@functools.cache
def rust_toolchain() -> Path | None:
    """The host's Rust toolchain (the sysroot of the ``rustc`` on the referee's PATH) when it lies outside the
    folders every sandbox shows anyway; None without one."""
    rustc = shutil.which("rustc")
    if rustc is None:
        return None
    try:
        done = subprocess.run([rustc, "--print", "sysroot"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    sysroot = Path(done.stdout.strip())
    if done.returncode != 0 or not (sysroot / "bin" / "cargo").exists() or sysroot.is_relative_to("/usr"):
        return None
    return sysroot


def system_mounts() -> list[str]:
    """bubblewrap's arguments that show the system read-only: ``/usr``, ``/etc`` and the top folders that are
    links into ``/usr`` (or folders) on this machine."""
    mounts = ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc"]
    for link in ("bin", "lib", "lib64", "sbin"):
        target = Path("/") / link
        if target.is_symlink():
            mounts += ["--symlink", os.readlink(target), str(target)]
        elif target.exists():
            mounts += ["--ro-bind", str(target), str(target)]
    return mounts


def mounted(binds: Sequence[tuple[str, Path]]) -> list[str]:
    """bubblewrap's arguments that bind each (``--bind`` or ``--ro-bind``, folder or file) at its own path, in
    turn, each with the folders above it created open to pass through (bwrap would make them root-only); ``/``
    and ``/tmp`` are taken as made."""
    arguments: list[str] = []
    made: set[Path] = {Path("/"), Path("/tmp")}
    for kind, path in binds:
        for parent in reversed(path.parents):
            if parent not in made:
                arguments += ["--perms", "0755", "--dir", str(parent)]
                made.add(parent)
        arguments += [kind, str(path), str(path)]
        made.add(path)
    return arguments


def readable_roots() -> list[Path]:
    """What every sandboxed bot may read: the Python installation and the referee's own packages (and the bot
    kit's)."""
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix)}
    roots.add(Path(os.path.realpath(sys.executable)).parent)
    package_root = Path(__file__).resolve().parents[2]
    if not str(package_root).startswith(tuple(str(p) for p in roots)):  # an editable install: the source tree
        roots |= {package_root / "referee", package_root / "bots", package_root / "kit"}
    return sorted(roots)


class Sandbox:
    """Builds the command that runs one bot sandboxed as ``uid`` under ``limits``."""

    def __init__(self, limits: Limits, uid: int) -> None:
        self.limits = limits
        self.uid = uid

    def command(
        self,
        command: Sequence[str],
        bot_dir: Path,
        seccomp_fd: int,
        info_fd: int | None = None,
        lifeline_fd: int | None = None,
        *,
        building: bool = False,
        network: bool = False,
        binds: Sequence[tuple[str, Path]] = (),
    ) -> list[str]:
        """``command`` wrapped: rlimits (prlimit), the namespaces and mounts (bwrap, run as root so that it can
        mount what the bot may read wherever it lies), then the bot's own uid (setpriv, inside the sandbox).
        bubblewrap loads the seccomp filter it reads from ``seccomp_fd`` (:func:`.seccomp.program_fd`) just
        before the sandbox's first command, writes the sandbox's pid (``child-pid``, as JSON) to ``info_fd`` once
        the sandbox exists, and ends the sandbox when the thread that started it ends (``--die-with-parent``; see
        :mod:`.spawn`).

        bubblewrap arms that signal in each of its two processes as it starts, so a referee that dies while a
        sandbox is being set up could leave it unarmed. ``lifeline_fd`` closes that gap: it is the read end of a
        pipe whose write end only the referee holds; inside the sandbox, after both signals are armed, a check
        runs before the bot does and stops there if the pipe says its writer is gone.

        ``building`` is for a bot's build: its folder is writable. ``network`` shares the host's network (only the
        fetch of a build's dependencies has it, :mod:`.fetch`). ``binds`` are further folders to show, each
        ``("--bind" or "--ro-bind", path)`` (the shared dependency caches). Everything else is sealed as for the
        bot."""
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
            *([] if network else ["--unshare-net"]),
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--seccomp",
            str(seccomp_fd),
            "--die-with-parent",
            "--new-session",
            "--cap-add",
            "CAP_SETUID",
            "--cap-add",
            "CAP_SETGID",
            "--proc",
            "/proc",
            *[argument for hidden in HIDDEN_PROC for argument in ("--ro-bind", "/dev/null", hidden)],
            "--dev",
            "/dev",
            *system_mounts(),
        ]
        if info_fd is not None:
            wrapped += ["--info-fd", str(info_fd)]
        # A writable /tmp for everybody (before the binds that may lie below it), then the folders to read, each
        # with the folders above it created open to pass through (bwrap would make them root-only).
        wrapped += ["--perms", "1777", "--size", str(limits.tmp_bytes), "--tmpfs", "/tmp"]
        rust = rust_toolchain()
        if rust is not None:
            wrapped += ["--perms", "0755", "--dir", str(RUST_ROOT.parent), "--ro-bind", str(rust), str(RUST_ROOT)]
        wrapped += mounted([*(("--ro-bind", folder) for folder in readable_roots()),
                            ("--bind" if building else "--ro-bind", bot_dir), *binds])
        wrapped += ["--chdir", str(bot_dir), "--"]
        if lifeline_fd is not None:
            wrapped += [sys.executable, "-I", "-S", "-c", _LIFELINE_CHECK, str(lifeline_fd)]
        wrapped += [
            "setpriv",
            f"--reuid={self.uid}",
            f"--regid={self.uid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--",
            *command,
        ]
        return wrapped


def bot_environment(address: str, declared: Mapping[str, str], sandboxed: bool) -> dict[str, str]:
    """A bot's whole environment: where to listen, PATH, HOME, LANG, unbuffered Python, and what its manifest
    declares (``declared``). Nothing of the referee's own environment reaches a sandboxed bot; an unsandboxed
    (trusted) bot keeps the operator's PATH and HOME so that its tools are found.

    >>> sorted(bot_environment("unix:/tmp/kafana-bot.sock", {"LEVEL": "3"}, sandboxed=True).items())[:3]
    [('HOME', '/tmp'), ('KAFANA_BOT_ADDRESS', 'unix:/tmp/kafana-bot.sock'), ('LANG', 'C.UTF-8')]
    """
    env = dict(declared)
    env.update(
        {
            "PATH": PATH if sandboxed else os.environ.get("PATH", PATH),
            "HOME": "/tmp" if sandboxed else os.environ.get("HOME", "/tmp"),
            "LANG": LANG,
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
            ADDRESS_ENV: address,
        }
    )
    return env


class PrivateTmp:
    """The private /tmp of a sandbox, held by a descriptor (its own, given at the start), so that each check is one
    ``fstatvfs``."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    def full(self) -> bool:
        """Whether the sandbox's /tmp is full."""
        if self._fd is None:
            return False
        try:
            return os.fstatvfs(self._fd).f_bavail == 0
        except OSError:
            return False

    def close(self) -> None:
        """Let go of the descriptor (which keeps the sandbox's /tmp mounted while it is open); idempotent."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def unreadable(folder: Path) -> bool:
    """True when other users cannot list and enter ``folder``: a sandboxed bot runs as another user and must read
    its own folder (the folders above it need not be open: the sandbox mounts the folder itself)."""
    return (folder.stat().st_mode & 0o005) != 0o005


class UidClaim:
    """An unprivileged uid held for one bot while it runs: no two bots on this machine (of any referee) share
    one, since a uid's process count (RLIMIT_NPROC) is shared by all its processes. The claim is a lock on a
    file of :data:`UID_LOCKS`, which the kernel releases when the holder dies, however it dies."""

    def __init__(self, hint: int, locks: Path = UID_LOCKS) -> None:
        locks.mkdir(mode=0o700, parents=True, exist_ok=True)
        for step in range(UID_SPAN):
            uid = FIRST_UID + (hint + step) % UID_SPAN
            fd = os.open(locks / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            self.uid = uid
            self._fd: int | None = fd
            return
        raise SandboxUnavailable(f"all {UID_SPAN} sandbox uids from {FIRST_UID} are in use")

    def release(self) -> None:
        """Give the uid back (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
