"""Bot specs: how to start a bot, read from a single ``.py`` file or from a folder with a ``bot.toml`` manifest.

A manifest looks like::

    name = "random"
    version = "1.0"
    author = "Kafana"
    language = "python"
    command = ["python3", "random_bot.py"]   # run in the bot's folder; a string is split like a shell would
    build = ["make", "--silent"]             # optional: run in the bot's folder before it starts (see build.py)
    games = ["tapa"]
    env = { LEVEL = "3" }                    # optional: environment variables the bot is started with

A command starting with ``python`` or ``python3`` runs with the referee's own interpreter, so a Python bot sees
the same installed packages as the referee. A bot's environment is the referee's making (see
:func:`referee.runtime.sandbox.bot_environment`): only what ``env`` declares is added to it.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .hello import name_problem

MANIFEST = "bot.toml"
SKIPPED_DIRS = ("__pycache__", ".git", "node_modules", "build", "target", ".venv")
"""Folders that are not part of a bot's content: neither hashed nor copied by the ladder (build output and caches;
``target`` is where cargo and Maven build)."""


ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
RESERVED_ENV = ("KAFANA_BOT_ADDRESS",)


class ManifestError(ValueError):
    """A bot path or manifest is unusable; the message says what is wrong and where."""


@dataclass(frozen=True)
class BotSpec:
    """Everything needed to start one bot."""

    path: Path
    command: tuple[str, ...]
    cwd: Path
    content_hash: str
    manifest: dict = field(default_factory=dict)
    build: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    """Environment variables declared by the manifest (``env``)."""

    @property
    def label(self) -> str:
        """A short name for messages: the manifest name or the file name."""
        return str(self.manifest.get("name") or self.path.stem)


def _hash_files(files: list[Path], root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _skipped(name: str) -> bool:
    return name in SKIPPED_DIRS or name.startswith(".")


def folder_files(folder: Path) -> list[Path]:
    """The files that make up the bot in ``folder``: everything but :data:`SKIPPED_DIRS` and dotfiles. Links are
    followed when they stay inside the folder.

    Raises:
        ManifestError: a link leads outside the folder (a bot folder must hold its files itself), or in a circle.
    """
    root = folder.resolve()
    files = []
    for current, dirs, names in os.walk(folder, followlinks=True):
        here = Path(current)
        dirs[:] = [name for name in dirs if not _skipped(name)]
        names = [name for name in names if not _skipped(name)]
        for name in [*dirs, *names]:
            path = here / name
            if path.is_symlink():
                target = path.resolve()
                if not target.exists():
                    raise ManifestError(f"{path} links to {target}, which does not exist")
                if target != root and root not in target.parents:
                    raise ManifestError(
                        f"{path} links to {target}, outside the bot's folder: a bot folder must hold its files "
                        "itself (copy them in)"
                    )
                if path.is_dir() and (target == here.resolve() or target in here.resolve().parents):
                    raise ManifestError(f"{path} links back to a folder above it")
        files += [here / name for name in names if (here / name).is_file()]
    return files


def _command(raw: object, where: Path, key: str = "command") -> tuple[str, ...]:
    if isinstance(raw, str):
        try:
            parts = shlex.split(raw)
        except ValueError as exc:
            raise ManifestError(f"{where}: {key} {raw!r} cannot be split: {exc}") from None
    elif isinstance(raw, list) and all(isinstance(p, str) for p in raw):
        parts = list(raw)
    else:
        raise ManifestError(f"{where}: '{key}' must be a string or a list of strings, not {raw!r}")
    if not parts or not parts[0]:
        raise ManifestError(f"{where}: '{key}' is empty")
    if parts[0] in ("python", "python3"):
        parts[0] = sys.executable
    return tuple(parts)


def load_manifest(folder: Path) -> dict:
    """Read and check ``folder/bot.toml``."""
    where = folder / MANIFEST
    try:
        data = tomllib.loads(where.read_text())
    except FileNotFoundError:
        raise ManifestError(f"{folder} has no {MANIFEST} (a bot folder needs one naming its command)") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{where} is not valid TOML: {exc}") from None
    for key in ("name", "command"):
        if key not in data:
            raise ManifestError(f"{where}: missing required key {key!r}")
    for key in ("name", "version", "author", "language"):
        if key in data and not isinstance(data[key], str):
            raise ManifestError(f"{where}: {key!r} must be a string")
    if (problem := name_problem(data["name"])) is not None:
        raise ManifestError(f"{where}: {problem}")
    games = data.get("games", [])
    if not isinstance(games, list) or not all(isinstance(g, str) for g in games):
        raise ManifestError(f"{where}: 'games' must be a list of game ids")
    env = data.get("env", {})
    if not isinstance(env, dict):
        raise ManifestError(f"{where}: 'env' must be a table of NAME = \"value\"")
    for key, value in env.items():
        if not ENV_NAME.fullmatch(key) or key in RESERVED_ENV:
            raise ManifestError(f"{where}: env: {key!r} is not a variable a bot may set")
        if not isinstance(value, str) or "\0" in value:
            raise ManifestError(f"{where}: env: {key} must be a string")
    return data


def resolve_bot(path: str | Path) -> BotSpec:
    """The :class:`BotSpec` for a ``.py`` file or a bot folder.

    Raises:
        ManifestError: the path does not exist, is not a .py file or folder, or its manifest is broken.
    """
    path = Path(path).resolve()
    if not path.exists():
        raise ManifestError(f"no bot at {path}")
    if path.is_file():
        if path.suffix != ".py":
            raise ManifestError(f"{path}: a single-file bot must be a .py file (or give a folder with {MANIFEST})")
        return BotSpec(path, (sys.executable, str(path)), path.parent, _hash_files([path], path.parent))
    manifest = load_manifest(path)
    command = _command(manifest["command"], path / MANIFEST)
    build = _command(manifest["build"], path / MANIFEST, "build") if "build" in manifest else ()
    env = tuple(sorted(manifest.get("env", {}).items()))
    return BotSpec(path, command, path, _hash_files(folder_files(path), path), manifest, build, env)
