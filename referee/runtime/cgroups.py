"""Control groups for bots, where the machine lets the referee make them (cgroup v1 hierarchies): exact memory and
process caps for a sandboxed bot's whole process tree and, after a failure, which cap it hit, and the list of its
processes (which the pause stops, :mod:`referee.runtime.pause`); a cpuset that holds it to the referee's share of
the cores (:mod:`referee.runtime.affinity`).

Where they cannot be made (no hierarchy, read-only, not root) a bot runs without them: its rlimits still apply, and
the pause finds its processes as the bot's descendants.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from .affinity import format_cores

ROOT = Path("/sys/fs/cgroup")
GROUP = "kafana"


class BotCgroup:
    """One bot's cgroups, one folder per controller (``memory``, ``pids``, ``cpuset``)."""

    def __init__(self, folders: dict[str, Path]) -> None:
        self.folders = folders
        self._open: dict[str, int] = {}
        """The control files :meth:`exceeded` reads, each opened once (a check after every answer is then a pread,
        not an open, a read and a close)."""

    @classmethod
    def create(cls, name: str, settings: Mapping[str, Mapping[str, str]], root: Path = ROOT) -> BotCgroup | None:
        """Make ``kafana/NAME`` under each controller of ``settings`` ({controller: {file: value}}) and write the
        values, or return None (leaving nothing behind) where that is not possible here.

        >>> BotCgroup.create("doctest", {"memory": {"memory.limit_in_bytes": "1"}}, root=Path("/proc/version"))
        """
        folders: dict[str, Path] = {}
        sweep_stale(root, list(settings))
        try:
            for controller, values in settings.items():
                folder = root / controller / GROUP / name
                folder.mkdir(parents=True, exist_ok=True)
                folders[controller] = folder
                for file, value in values.items():
                    (folder / file).write_text(value)
        except OSError:
            BotCgroup(folders).remove()
            return None
        return cls(folders)

    @classmethod
    def caps(cls, name: str, memory_bytes: int, processes: int, root: Path = ROOT) -> BotCgroup | None:
        """Memory and pids cgroups with these caps (see :meth:`create`)."""
        settings = {"memory": {"memory.limit_in_bytes": str(memory_bytes)}, "pids": {"pids.max": str(processes)}}
        return cls.create(name, settings, root)

    @classmethod
    def cores(cls, name: str, cores: Collection[int], root: Path = ROOT) -> BotCgroup | None:
        """A cpuset cgroup of ``cores``: the bot's own ``sched_setaffinity`` cannot take it off them (see
        :meth:`create`). The ``kafana`` group above it is given every core and memory node first (a new cpuset
        group has none, and a group's are a part of its parent's). None without a cgroup v1 cpuset hierarchy:

        >>> BotCgroup.cores("doctest", [0], root=Path("/proc/version"))
        """
        parent = root / "cpuset" / GROUP
        try:
            parent.mkdir(exist_ok=True)  # under a v1 cpuset hierarchy only: none, no group
            for file in ("cpuset.cpus", "cpuset.mems"):
                if not (parent / file).read_text().strip():
                    (parent / file).write_text((root / "cpuset" / file).read_text())
            nodes = (parent / "cpuset.mems").read_text().strip()
        except OSError:
            return None
        return cls.create(name, {"cpuset": {"cpuset.cpus": format_cores(cores), "cpuset.mems": nodes}}, root)

    def exceeded(self) -> str | None:
        """``memory`` or ``processes`` when the bot hit that cap, else None (checked after every answer)."""
        if (words := self._words("memory", "memory.oom_control")) is not None:  # oom_kill_disable 0 … oom_kill N
            if int(dict(zip(words[::2], words[1::2])).get(b"oom_kill", 0)) > 0:
                return "memory"
        if (words := self._words("pids", "pids.events")) is not None:  # max N
            if len(words) >= 2 and int(words[1]) > 0:
                return "processes"
        return None

    def _words(self, controller: str, file: str) -> list[bytes] | None:
        """The words of a control file as it is now (the kernel writes it anew for each read from its start), or
        None without that controller or when it cannot be read."""
        try:
            if (fd := self._open.get(controller)) is None:
                if controller not in self.folders:
                    return None
                fd = self._open[controller] = os.open(self.folders[controller] / file, os.O_RDONLY | os.O_CLOEXEC)
            return os.pread(fd, 4096, 0).split()
        except OSError:
            return None

    def processes(self) -> list[int] | None:
        """The pids of every process in the cgroups, whatever its parent or session (None when they cannot be
        read)."""
        for folder in self.folders.values():
            with contextlib.suppress(OSError, ValueError):
                return [int(pid) for pid in (folder / "cgroup.procs").read_text().split()]
        return None

    def remove(self, attempts: int = 100) -> None:
        """Kill whatever is still in the cgroups and remove them (blocking, up to a second or two)."""
        for fd in self._open.values():
            os.close(fd)
        self._open.clear()
        for folder in self.folders.values():
            for _ in range(attempts):
                try:
                    os.rmdir(folder)
                    break
                except FileNotFoundError:
                    break
                except OSError:  # busy: processes are still leaving
                    with contextlib.suppress(OSError, ValueError):
                        for pid in (folder / "cgroup.procs").read_text().split():
                            with contextlib.suppress(ProcessLookupError):
                                os.kill(int(pid), signal.SIGKILL)
                    time.sleep(0.02)


def sweep_stale(root: Path, controllers: Sequence[str]) -> None:
    """Remove the cgroups left by referees that died without cleaning up (a SIGKILLed referee cannot), killing
    what is still in them: a group's name starts with its referee's pid; groups of live referees stay. (What can
    be left is a sandbox caught in its first milliseconds, before bubblewrap armed its parent-death signal; it
    waits for its dead parent and never runs the bot.)
    """
    for controller in controllers:
        try:
            groups = list((root / controller / GROUP).iterdir())
        except OSError:
            continue
        for group in groups:
            owner = group.name.split("-", 1)[0]
            if group.is_dir() and owner.isdigit() and not Path(f"/proc/{owner}").exists():
                BotCgroup({controller: group}).remove(attempts=10)


def enter_command(groups: Sequence[BotCgroup]) -> list[str]:
    """A prefix that moves the command's process into ``groups`` before it runs anything (no race: the shell moves
    itself, then becomes the command, keeping its pid). Empty when there is nothing to do.

    >>> enter_command([])
    []
    """
    folders = [folder for group in groups for folder in group.folders.values()]
    if not folders:
        return []
    moves = "".join(f"echo $$ > {folder / 'cgroup.procs'} && " for folder in folders)
    return ["sh", "-c", moves + 'exec "$@"', "kafana-bot"]
