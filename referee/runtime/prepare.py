"""Preparing a bot to run: one copy of its folder per content hash, built once, the same way everywhere.

``referee play``, ``hello`` and ``check-bot`` run a folder bot from its prepared copy in a cache
(:func:`default_store`); ``ladder submit`` prepares it into the league's bot folder and checks that copy. A copy
holds the bot's files (:func:`referee.runtime.manifest.folder_files`: everything but build output, caches,
``node_modules`` and dotfiles; a link inside the folder becomes the file it leads to, a link leading outside it is
refused), and the manifest's ``build`` runs in the copy, once: a marker file records the content hash it was built
for, so a bot is not built again for every game, and a failed build is tried again next time. A single ``.py``
file bot has nothing to build and runs where it is.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .build import build_bot
from .manifest import BotSpec, folder_files, resolve_bot

PREPARED = ".kafana-prepared"
"""The marker of a prepared copy, written once its build succeeded: the content hash it was copied from. (A copy
leaves dotfiles out, so no bot brings a marker along.)"""
STORE_ENV = "KAFANA_CACHE"


def default_store() -> Path:
    """Where ``referee`` commands keep prepared bots: ``$KAFANA_CACHE``, else ``$XDG_CACHE_HOME/kafana/bots``,
    else ``~/.cache/kafana/bots``."""
    if os.environ.get(STORE_ENV):
        return Path(os.environ[STORE_ENV])
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "kafana" / "bots"


def is_prepared(spec: BotSpec) -> bool:
    """Whether ``spec`` is a prepared copy, built."""
    return spec.path.is_dir() and (spec.cwd / PREPARED).is_file()


class KnownBots:
    """:func:`resolve_bot` for a referee that plays the same bots again and again (a match worker): a prepared
    copy, which nobody changes once its marker is written (the sandboxed bot cannot write to it), is read and
    hashed once, and again only when its marker is written anew (the copy was made again); any other bot is
    resolved every time, since its author may have changed it. Hashing a bot's files each match cost a worker
    half its time with a bot of a few megabytes."""

    def __init__(self) -> None:
        self._specs: dict[Path, tuple[tuple[int, int, int], BotSpec]] = {}

    def resolve(self, path: str | Path) -> BotSpec:
        """The bot at ``path`` (as :func:`resolve_bot`, with its errors)."""
        folder = Path(path).resolve()
        try:
            marker = (folder / PREPARED).stat()
            stamp = (folder.stat().st_ino, marker.st_ino, marker.st_mtime_ns)  # a copy made again is a new folder
        except OSError:
            self._specs.pop(folder, None)
            return resolve_bot(folder)
        known = self._specs.get(folder)
        if known is not None and known[0] == stamp:
            return known[1]
        spec = resolve_bot(folder)
        self._specs[folder] = (stamp, spec)
        return spec


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (two referees preparing the same bot take turns)."""
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def _copy(spec: BotSpec, target: Path) -> None:
    """Copy the bot's files into ``target`` (made whole in a temporary folder, then renamed into place)."""
    staging = Path(tempfile.mkdtemp(prefix=".copy-", dir=target.parent))
    try:
        for source in folder_files(spec.path):
            copied = staging / source.relative_to(spec.path)
            copied.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copied)  # a link (checked to stay inside) becomes its file
        for folder in [staging, *(p for p in staging.rglob("*") if p.is_dir())]:
            folder.chmod(0o755)  # the sandbox runs the bot as another user, who must read its folder
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def prepare_bot(path: str | Path, store: Path, sandboxed: bool = False) -> BotSpec:
    """The spec of the bot at ``path`` as it will run: a folder bot's prepared copy under ``store`` (made and built
    if needed, the build in the sandbox when ``sandboxed``), or the bot itself when it is a single file or already a
    prepared copy.

    Raises:
        ManifestError: ``path`` is not a bot, or its folder links outside itself.
        BuildError: the build failed (the copy stays, unmarked, and is built again next time).
    """
    spec = resolve_bot(path)
    if not spec.path.is_dir() or is_prepared(spec):
        return spec
    store.mkdir(parents=True, exist_ok=True)
    target = store / spec.content_hash[:16]
    with _locked(store / f".{target.name}.lock"):
        if not target.exists():
            _copy(spec, target)
        prepared = resolve_bot(target)
        if not is_prepared(prepared):
            build_bot(prepared, sandboxed=sandboxed)
            (target / PREPARED).write_text(spec.content_hash)
    return prepared
