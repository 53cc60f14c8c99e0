"""Bot folders for the hostile test bot, one misdeed each (as a ladder would store them)."""

from __future__ import annotations

import shutil
from pathlib import Path

ESCAPE_BOT = Path(__file__).parent / "bots" / "escape_bot.py"


def hostile_folder(parent: Path, misdeed: str) -> Path:
    """A folder (open to other users, as the sandbox needs) whose bot commits ``misdeed`` (``a+b`` for several)
    at the first request of a real game; its name is ``hostile-`` and the misdeeds."""
    folder = parent / f"hostile-{misdeed.replace('+', '-')}"
    folder.mkdir(parents=True)
    folder.chmod(0o755)
    shutil.copy(ESCAPE_BOT, folder / "bot.py")
    (folder / "bot.toml").write_text(
        f'name = "{folder.name}"\nversion = "1"\ncommand = ["python3", "bot.py", "{misdeed}"]\n'
    )
    return folder
