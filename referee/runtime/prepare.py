"""Preparing a bot to run: one copy of its folder per content and toolchain, built once, the same way everywhere.

``referee play``, ``hello`` and ``check-bot`` run a folder bot from its prepared copy in a store of builds
(:func:`default_store`); ``ladder submit`` and a club's uploads prepare it there too and give the ladder its own
copy of the result (:func:`place_copy`: hard links, so no second build and no second copy on disk). A copy holds
the bot's files (:func:`referee.runtime.manifest.folder_files`: everything but build output, caches,
``node_modules`` and dotfiles; a link inside the folder becomes the file it leads to, a link leading outside it is
refused) and is named by their content hash and the fingerprint of the tools that build it
(:mod:`.toolchain`). Its build (:mod:`.build`: dependencies fetched into the store's shared caches, then the
manifest's ``build`` offline) runs once: a marker file records what it was built from, how and how long it took,
so a bot is not built again for every game, and a failed or interrupted build is resumed next time in the same
copy. A new copy's build starts from the output of the same bot's previous build (:func:`_seed_from`), so that
only what changed is compiled. A build made outside the sandbox is reused, or started from, only where the sandbox
is off: one that must be sandboxed is made again. A copy no command has asked for in :data:`UNUSED_DAYS` leaves
the store (:func:`prune_store`, run by a prepare once a day). A single ``.py`` file bot has nothing to build and
runs where it is.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from .build import BUILD_TIMEOUT, Echo, TooLarge, build_bot, needs_build
from .fetch import deps_folder
from .manifest import BotSpec, folder_files, resolve_bot
from .toolchain import fingerprint

PREPARED = ".kafana-prepared"
"""The marker of a prepared copy, written once its build succeeded: JSON of the content hash it was copied from,
whether it was built in the sandbox, when and in how many seconds. (A copy leaves dotfiles out, so no bot brings a
marker along.)"""
STORE_ENV = "KAFANA_CACHE"
UNUSED_DAYS = 30.0
"""A prepared copy that no command asked for in this many days leaves the store (:func:`prune_store`)."""
SEEDED = ("build", "target")
"""The folders of a build's output that the next build of the same bot starts from (:func:`_seed_from`)."""


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
    """Hold an exclusive lock on ``path`` (two referees preparing the same bot take turns; the file's time says
    when a copy was last asked for). A lock file removed while waiting for it (:func:`prune_store`) is made anew."""
    while True:
        with path.open("w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                same = os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino
            except FileNotFoundError:
                same = False
            if same:
                yield
                return


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


def build_record(folder: Path) -> dict | None:
    """What the marker of the prepared copy in ``folder`` says (``hash``, ``sandboxed``, ``made``, ``seconds``),
    or None when it is not built."""
    try:
        text = (folder / PREPARED).read_text()
    except OSError:
        return None
    try:
        record = json.loads(text)
    except ValueError:
        record = None
    if not isinstance(record, dict):  # a copy marked before markers said how it was built
        return {"hash": text.strip(), "sandboxed": False, "made": None, "seconds": None}
    return record


def build_key(spec: BotSpec) -> str:
    """What names the prepared copy of the folder bot ``spec``: its content and the tools that build it."""
    return hashlib.sha256(f"{spec.content_hash}\0{fingerprint(spec.path, spec.build)}".encode()).hexdigest()


def prepare_bot(path: str | Path, store: Path, sandboxed: bool = False, timeout: float = BUILD_TIMEOUT,
                echo: Echo | None = None, seed: Path | None = None, limit: int | None = None) -> BotSpec:
    """The spec of the bot at ``path`` as it will run: a folder bot's prepared copy under ``store`` (made and built
    if needed, the build in the sandbox when ``sandboxed``, each phase in ``timeout`` seconds and, with ``limit``,
    stopped when the copy takes more than ``limit`` bytes; its output passed to ``echo``), or the bot itself when
    it is a single file or already a prepared copy. A new copy's build starts from the output of an earlier one
    (:func:`_seed_from`): ``seed`` (a prepared copy: a ladder gives the previous version of the same author's
    bot), else the newest build of the same folder in the store.

    Raises:
        ManifestError: ``path`` is not a bot, or its folder links outside itself.
        TooLarge: the build wrote more than ``limit`` (the copy is removed).
        BuildError: the build failed (the copy stays, unmarked, and is built again next time).
    """
    spec = resolve_bot(path)
    if not spec.path.is_dir() or is_prepared(spec):
        return spec
    store.mkdir(parents=True, exist_ok=True)
    target = store / build_key(spec)[:16]
    with _locked(store / f".{target.name}.lock"):
        record = build_record(target)
        if record is not None and sandboxed and not record["sandboxed"]:
            shutil.rmtree(target)  # built outside the sandbox: not good enough for a build that must be in it
            record = None
        if not target.exists():
            _copy(spec, target)
            if needs_build(spec):
                _seed_from(seed if seed is not None else _last_build(store, spec.path, sandboxed), target, echo)
        prepared = resolve_bot(target)
        if record is None:
            start = time.monotonic()
            try:
                build_bot(prepared, deps_folder(store), timeout, sandboxed, echo, limit)
            except TooLarge:
                shutil.rmtree(target, ignore_errors=True)
                raise
            marker = {"hash": spec.content_hash, "source": str(spec.path), "sandboxed": sandboxed,
                      "made": time.time(), "seconds": round(time.monotonic() - start, 1)}
            (target / PREPARED).write_text(json.dumps(marker))
        elif echo is not None and needs_build(prepared):
            echo(f"reused the build of this content and toolchain ({_described(record)})")
    _prune_now_and_then(store)
    return prepared


def prune_store(store: Path, unused_days: float = UNUSED_DAYS, now: float | None = None) -> int:
    """Remove from ``store`` every prepared copy (built or not) that no command has asked for in ``unused_days``,
    and the staging folders of copies cut short a day ago or more; return how many folders went. A copy being
    prepared is left alone; a ladder's copies are hard links, which keep their files."""
    now = time.time() if now is None else now
    removed = 0
    for folder in store.iterdir() if store.is_dir() else ():
        if folder.name.startswith(".copy-") and folder.is_dir():
            if now - folder.stat().st_mtime >= 86400:
                shutil.rmtree(folder, ignore_errors=True)
                removed += 1
            continue
        lock = store / f".{folder.name}.lock"
        if folder.name.startswith(".") or not folder.is_dir() or folder.is_symlink():
            continue
        last = max(folder.stat().st_mtime, lock.stat().st_mtime if lock.exists() else 0.0)
        if now - last < unused_days * 86400:
            continue
        with lock.open("a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # being prepared now
            shutil.rmtree(folder, ignore_errors=True)
            lock.unlink(missing_ok=True)
            removed += 1
    return removed


def _prune_now_and_then(store: Path) -> None:
    """:func:`prune_store` at most once a day per store (the time of its file ``.pruned`` says when it last ran)."""
    stamp = store / ".pruned"
    with contextlib.suppress(FileNotFoundError):
        if time.time() - stamp.stat().st_mtime < 86400:
            return
    stamp.touch()
    with contextlib.suppress(OSError):  # a folder another process removed meanwhile: the next prune sees it
        prune_store(store)


def _last_build(store: Path, source: Path, sandboxed: bool) -> Path | None:
    """The newest prepared copy in ``store`` made from the folder ``source`` (built in the sandbox, when
    ``sandboxed``: a build that must be sandboxed starts from no other), or None."""
    found: list[tuple[float, Path]] = []
    for folder in store.iterdir():
        record = build_record(folder) if folder.is_dir() and not folder.name.startswith(".") else None
        if record and record.get("source") == str(source) and (record.get("sandboxed") or not sandboxed):
            found.append((record.get("made") or 0.0, folder))
    return max(found)[1] if found else None


def _seed_from(earlier: Path | None, target: Path, echo: Echo | None) -> None:
    """Start the new copy ``target``'s build from the output of the ``earlier`` build (its top folders of
    :data:`SEEDED`, copied), so that the tools build only what changed: cargo, Go's build cache and Maven take a
    build made in another folder. Not for a CMake project, whose cache names the folder it was made in."""
    if earlier is None or (target / "CMakeLists.txt").is_file():
        return
    seeded = [name for name in SEEDED if (earlier / name).is_dir() and not (earlier / name).is_symlink()]
    for name in seeded:
        shutil.copytree(earlier / name, target / name, symlinks=True)
    if seeded and echo is not None:
        echo(f"starting from the output of an earlier build ({_described(build_record(earlier) or {})})")


def _described(record: dict) -> str:
    """A build record in words: how long the build took and when it was made."""
    when = "" if record.get("made") is None else time.strftime(" on %Y-%m-%d at %H:%M", time.localtime(record["made"]))
    took = "" if record.get("seconds") is None else f"built in {record['seconds']:g} s"
    return f"{took}{when}".strip() or "built earlier"


def build_note(prepared: BotSpec, since: float) -> str:
    """What became of the build of the prepared copy ``prepared`` asked for at ``since`` (a :func:`time.time`):
    built then, or a build of the same content and toolchain reused."""
    record = build_record(prepared.path) or {}
    if (record.get("made") or since) < since:
        return f"reused the build of this content and toolchain ({_described(record)})"
    return f"{' '.join(prepared.build) or 'dependencies fetched'} in the bot's copy ({_described(record)})"


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def place_copy(prepared: BotSpec, folder: Path) -> BotSpec:
    """The prepared copy ``prepared`` placed in ``folder`` under its own name (a ladder keeps its bots there), its
    files hard links to the store's where the two share a file system (a copy otherwise), made whole before it
    appears; returned as it runs from there. A placed copy already there is kept."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / prepared.path.name
    with _locked(folder / f".{target.name}.lock"):
        if not (target / PREPARED).is_file():
            shutil.rmtree(target, ignore_errors=True)
            staging = Path(tempfile.mkdtemp(prefix=".copy-", dir=folder))
            try:
                shutil.copytree(prepared.path, staging, symlinks=True, copy_function=_link_or_copy,
                                dirs_exist_ok=True)
                staging.chmod(0o755)
                staging.rename(target)
            except BaseException:
                shutil.rmtree(staging, ignore_errors=True)
                raise
    return resolve_bot(target)
