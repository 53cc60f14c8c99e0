"""Bot folders for the hostile test bot, one misdeed each (as a ladder would store them), and what is left of
bots after a run."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path

ESCAPE_BOT = Path(__file__).parent / "bots" / "escape_bot.py"


def hostile_folder(parent: Path, misdeed: str, env: dict[str, str] | None = None) -> Path:
    """A folder (open to other users, as the sandbox needs) whose bot commits ``misdeed`` (``a+b`` for several)
    at the first request of a real game, its targets in ``env`` (declared by its manifest); its name is
    ``hostile-`` and the misdeeds."""
    folder = parent / f"hostile-{misdeed.replace('+', '-')}"
    folder.mkdir(parents=True)
    folder.chmod(0o755)
    shutil.copy(ESCAPE_BOT, folder / "bot.py")
    table = ", ".join(f"{key} = {json.dumps(value)}" for key, value in (env or {}).items())
    (folder / "bot.toml").write_text(
        f'name = "{folder.name}"\nversion = "1"\ncommand = ["python3", "bot.py", "{misdeed}"]\nenv = {{ {table} }}\n'
    )
    return folder


def processes_in(folder: Path) -> list[int]:
    """Pids of live processes whose working directory is inside ``folder``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if os.readlink(entry / "cwd").startswith(str(folder)) and "Z" not in (entry / "stat").read_text().split()[2]:
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def wait_for(condition: Callable[[], object], seconds: float, poll: float = 0.05) -> bool:
    """Whether ``condition()`` came true within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(poll)
    return True
