"""The bot registry: submitting (with a conformance run), versions by content hash, arenas joined, retiring."""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import trio
from sqlite_utils import Database

from referee.runtime import (
    BuildError,
    ManifestError,
    build_note,
    default_store,
    place_copy,
    prepare_bot,
    resolve_bot,
)
from referee.runtime.build import BUILD_TIMEOUT, Echo, TooLarge, disk_bytes, needs_build

from .arenas import arenas_for_game, ensure_arena
from .executor import Executor
from .store import insert, now, resolved_path, stored_path

STARTUP_TIMEOUT = 10.0


@dataclass
class Report:
    """The outcome of a submission: accepted or not, and every check with its verdict."""

    accepted: bool = False
    name: str = ""
    version_id: int | None = None
    number: int | None = None
    lines: list[str] = field(default_factory=list)

    def add(self, ok: bool, text: str) -> bool:
        """Record one check; return ``ok``."""
        self.lines.append(f"{'ok  ' if ok else 'FAIL'} {text}")
        return ok

    def text(self) -> str:
        """The whole report."""
        verdict = f"accepted as {self.name} version {self.number}" if self.accepted else "not entered"
        return "\n".join([*self.lines, verdict])


def bot_folder(db_path: Path) -> Path:
    """Where submitted versions are copied: a folder next to the database."""
    return db_path.parent / (db_path.stem + "-bots")


def copies_folder(db: Database) -> Path:
    """:func:`bot_folder` of the open database ``db``."""
    return bot_folder(Path(db.execute("PRAGMA database_list").fetchone()[2]))


async def conformance(
    path: str, executor: Executor, report: Report, startup_timeout: float = STARTUP_TIMEOUT
) -> dict | None:
    """The conformance run is ``referee check-bot``: Hello in time, only known games, the hardest requests, and one
    full game of each claimed game against the random bot without a fault. Returns the Hello info if all passed."""
    result = await executor.check(path, startup_timeout)
    for check in result["checks"]:
        report.add(check["ok"], f"{check['name']}: {check['detail']}")
    return result["info"] if result["passed"] else None


def _previous_copy(db: Database, name: str) -> Path | None:
    """The ladder's copy of the newest version of the bot ``name`` (a folder), or None."""
    row = db.execute("select v.path from versions v join bots b on b.id = v.bot_id where b.name = ? "
                     "order by v.number desc limit 1", [name]).fetchone()
    folder = resolved_path(db, row[0]) if row is not None else None
    return folder if folder is not None and folder.is_dir() else None


def _built_copy(path: Path, db_path: Path, sandboxed: bool, timeout: float, echo: Echo | None,
                copy_bytes: int | None, seed: Path | None) -> tuple[Path, str]:
    """Prepare the folder bot at ``path`` in the store of builds (built there once, from the output of ``seed``'s
    build when given, its output passed to ``echo``, or a build of the same content and toolchain reused) and
    place the ladder's own copy of it; return the copy and a word on its build.

    Raises:
        TooLarge: the build wrote, or the built copy takes, more than ``copy_bytes`` (it is removed, from the
            build store too).
    """
    start = time.time()
    prepared = prepare_bot(path, default_store(), sandboxed, timeout, echo, seed, copy_bytes)
    said = build_note(prepared, start) if needs_build(prepared) else "nothing to build"
    if copy_bytes is not None and (size := disk_bytes(prepared.path)) > copy_bytes:
        shutil.rmtree(prepared.path, ignore_errors=True)
        raise TooLarge(f"the built copy takes {size / 1e6:.1f} MB, more than the {copy_bytes / 1e6:.0f} MB this "
                       "ladder allows a bot (its build's output included: keep caches out of the bot's folder)")
    return place_copy(prepared, bot_folder(db_path)).path, said


def _forget_copy(db: Database, db_path: Path, stored: Path) -> None:
    """Remove the ladder's copy of a refused bot (unless a registered version uses it)."""
    folder = stored if stored.is_dir() else stored.parent
    if db.table("versions").count_where("path = ?", [stored_path(db, stored)]) == 0:
        shutil.rmtree(folder, ignore_errors=True)
        (bot_folder(db_path) / f".{folder.name}.lock").unlink(missing_ok=True)


def _not_owner(db: Database, name: str, author_id: int | None) -> bool:
    """Whether the bot ``name`` exists and belongs to somebody else than ``author_id`` (None: the ladder's own
    operator, who may submit any bot)."""
    row = next(db.table("bots").rows_where("name = ?", [name]), None)
    return author_id is not None and row is not None and row["author_id"] != author_id


async def submit(
    db: Database,
    db_path: Path,
    path: str,
    executor: Executor,
    startup_timeout: float = STARTUP_TIMEOUT,
    author_id: int | None = None,
    sandboxed_build: bool = False,
    build_timeout: float = BUILD_TIMEOUT,
    echo: Echo | None = None,
    copy_bytes: int | None = None,
) -> Report:
    """Submit the bot at ``path``: check it, copy it, store a new version (or find the existing one), join arenas.
    With ``author_id`` (an upload to a club ladder) the bot is that author's, and a bot of another author's name
    is refused before anything runs. ``sandboxed_build`` runs the bot's build in the sandbox, each phase within
    ``build_timeout`` seconds, its output passed to ``echo`` as it comes; a built copy over ``copy_bytes`` is
    refused."""
    report = Report()
    try:
        spec = resolve_bot(path)
    except ManifestError as exc:
        report.add(False, f"manifest: {exc}")
        return report
    report.add(True, f"found {spec.path} (content hash {spec.content_hash[:12]})")
    claimed = spec.manifest.get("name")
    if claimed and _not_owner(db, str(claimed), author_id):
        report.add(False, f"owner: the bot {claimed!r} belongs to another author")
        return report
    known = db.execute(
        "select b.name, v.id, v.number from versions v join bots b on b.id = v.bot_id where v.hash = ?",
        [spec.content_hash],
    ).fetchone()
    if known is not None and _not_owner(db, known[0], author_id):
        report.add(False, f"owner: this bot is already registered as {known[0]!r}, another author's")
        return report
    if known is not None:
        with db.atomic():
            db.execute("update bots set retired = 0 where name = ?", [known[0]])
        report.add(True, f"unchanged: already registered as {known[0]} version {known[2]}")
        report.accepted, report.name, report.version_id, report.number = True, known[0], known[1], known[2]
        return report
    if spec.path.is_dir():
        try:
            # left to finish alone when cancelled: a service that stops does not wait for a build
            # a new version starts from its previous one's build (the owner's own: checked above)
            seed = _previous_copy(db, str(claimed)) if claimed else None
            stored, said = await trio.to_thread.run_sync(_built_copy, spec.path, db_path, sandboxed_build,
                                                         build_timeout, echo, copy_bytes, seed,
                                                         abandon_on_cancel=True)
        except TooLarge as exc:
            report.add(False, f"disk: {exc}")
            return report
        except (ManifestError, BuildError) as exc:
            report.add(False, f"build: {exc}")
            return report
        report.add(True, f"build: {said}")
        report.add(True, f"copied as the ladder keeps it: {stored}")
    else:
        store = bot_folder(db_path) / spec.content_hash[:16]
        store.mkdir(parents=True, exist_ok=True)
        stored = store / spec.path.name
        shutil.copy2(spec.path, stored)
    info = await conformance(str(stored), executor, report, startup_timeout)
    if info is not None and claimed and info["name"] != claimed:
        report.add(False, f"name: the manifest calls it {claimed!r} and its Hello {info['name']!r}: a bot has one "
                          "name, in both")
        info = None
    name = str(claimed or (info or {}).get("name") or spec.path.stem)
    if info is not None and _not_owner(db, name, author_id):
        report.add(False, f"owner: the bot {name!r} belongs to another author")
        info = None
    if info is None:
        _forget_copy(db, db_path, stored)
        return report
    with db.atomic():
        bot = next(db.table("bots").rows_where("name = ?", [name]), None)
        if bot is None:
            row = {"name": name, "created_at": now(), "retired": 0, "author_id": author_id}
            bot_id = insert(db, "bots", row)
        else:
            bot_id = bot["id"]
            db.table("bots").update(bot_id, {"retired": 0})
        existing = next(db.table("versions").rows_where("bot_id = ? and hash = ?", [bot_id, spec.content_hash]), None)
        if existing is not None:
            report.add(True, f"unchanged: already registered as version {existing['number']}")
            version_id, number = existing["id"], existing["number"]
        else:
            number = 1 + (db.execute("select max(number) from versions where bot_id = ?", [bot_id]).fetchone()[0] or 0)
            version_id = insert(
                db,
                "versions",
                {
                    "bot_id": bot_id,
                    "number": number,
                    "version": info["version"],
                    "hash": spec.content_hash,
                    "path": stored_path(db, stored),
                    "language": info["language"],
                    "author": info["author"],
                    "games": json.dumps(info["games"]),
                    "created_at": now(),
                },
            )
        for game in info["games"]:
            for arena in arenas_for_game(game):
                entry = {"arena_id": ensure_arena(db, arena), "version_id": version_id, "joined_at": now()}
                db.table("entries").upsert(entry, pk=("arena_id", "version_id"))
    report.accepted, report.name, report.version_id, report.number = True, name, version_id, number
    return report


def retire(db: Database, name: str) -> bool:
    """Take a bot out of scheduling (its results stay). False if no such bot."""
    bot = next(db.table("bots").rows_where("name = ?", [name]), None)
    if bot is None:
        return False
    with db.atomic():
        db.table("bots").update(bot["id"], {"retired": 1})
    return True


def latest_version(db: Database, name: str) -> int | None:
    """The id of bot ``name``'s newest version (None: no such bot)."""
    row = db.execute(
        "select v.id from versions v join bots b on b.id = v.bot_id where b.name = ? order by v.number desc", [name]
    ).fetchone()
    return None if row is None else row[0]


def current_versions(db: Database, arena: str) -> list[dict]:
    """The newest version of every active bot entered in ``arena``, ordered by bot name."""
    return list(
        db.query(
            """
            select v.*, b.name as bot from versions v
            join bots b on b.id = v.bot_id
            join entries e on e.version_id = v.id and e.arena_id = ?
            where b.retired = 0 and v.number = (select max(number) from versions where bot_id = b.id)
            order by b.name
            """,
            [arena],
        )
    )


def list_bots(db: Database) -> list[dict]:
    """Every bot with its versions, and the bytes on disk of each version's copy (``disk_bytes``: its build's
    output and caches included; 0 when the copy is gone)."""
    rows = list(
        db.query(
            """
            select b.name, b.retired, v.number, v.version, v.hash, v.language, v.games, v.created_at, v.path
            from bots b join versions v on v.bot_id = b.id order by b.name, v.number
            """
        )
    )
    for row in rows:
        path = resolved_path(db, row.pop("path"))
        row["disk_bytes"] = disk_bytes(path if path.is_dir() else path.parent)
    return rows
