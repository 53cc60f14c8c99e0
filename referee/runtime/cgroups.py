"""Control groups for sandboxed bots, where the machine lets the referee make them (cgroup v1 memory and pids
hierarchies): exact memory and process caps for a bot's whole process tree, and after a failure, which cap it hit.

Where they cannot be made (no hierarchy, read-only, not root) a bot runs without them: its rlimits still apply.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
GROUP = "kafana"


class BotCgroup:
    """One bot's memory and pids cgroups."""

    def __init__(self, folders: dict[str, Path]) -> None:
        self.folders = folders

    @classmethod
    def create(cls, name: str, memory_bytes: int, processes: int, root: Path = ROOT) -> BotCgroup | None:
        """Make the cgroups ``kafana/NAME`` with the caps, or return None where that is not possible here."""
        folders: dict[str, Path] = {}
        try:
            for controller in ("memory", "pids"):
                folder = root / controller / GROUP / name
                folder.mkdir(parents=True, exist_ok=True)
                folders[controller] = folder
            (folders["memory"] / "memory.limit_in_bytes").write_text(str(memory_bytes))
            (folders["pids"] / "pids.max").write_text(str(processes))
        except OSError:
            BotCgroup(folders).remove()
            return None
        return cls(folders)

    def enter_command(self) -> list[str]:
        """A prefix that moves the command's process into the cgroups before it runs anything (no race: the
        shell moves itself, then becomes the command)."""
        moves = " && ".join(f"echo $$ > {folder / 'cgroup.procs'}" for folder in self.folders.values())
        return ["sh", "-c", f'{moves} && exec "$@"', "kafana-cgroup"]

    def exceeded(self) -> str | None:
        """``memory`` or ``processes`` when the bot hit that cap, else None."""
        with contextlib.suppress(OSError, ValueError):
            control = (self.folders["memory"] / "memory.oom_control").read_text()
            fields = dict(line.split() for line in control.splitlines())
            if int(fields.get("oom_kill", 0)) > 0:
                return "memory"
        with contextlib.suppress(OSError, ValueError):
            events = (self.folders["pids"] / "pids.events").read_text().split()
            if len(events) >= 2 and int(events[1]) > 0:
                return "processes"
        return None

    def remove(self, attempts: int = 100) -> None:
        """Kill whatever is still in the cgroups and remove them (blocking, up to a second or two)."""
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
