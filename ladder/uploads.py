"""Uploads to a club ladder: an author's archive checked, unpacked, submitted as that author's bot, and recorded
with its report; the limits that protect the host, each refusal saying which.

The web receives an upload (:func:`receive`): the limits, then :func:`ladder.archive.unpack_checked` before
anything of it runs, unpacked in one staging folder beside the database (:func:`staging_folder`), and recorded as
waiting. The service's privileged process checks it (:func:`check_next`) through the same
:func:`ladder.registry.submit` as ``ladder submit`` (copied, built once, ``check-bot`` in the sandbox) and records
the report, which the web gives as its answer (:func:`outcome`): the web, which reads what strangers send, never
holds the rights a build and a sandbox need (docs/service.md, "Who holds which rights"). The unpacked upload is
removed whatever happens, and what a killed service left is removed when it starts again (:func:`sweep`), with the
copies of bots whose check never ended. Only the ladder's copy of an accepted bot stays. The report an author
reads names no folder of the host: the upload is "upload", the build store "build", the ladder's copy "copy". While an
upload is checked, the last lines of its build are written to its row every few seconds, for its author's page.
"""

from __future__ import annotations

import collections
import datetime
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio
from sqlite_utils import Database

from referee.runtime import ManifestError, default_store, resolve_bot

from .archive import ArchiveError, ArchiveLimits, unpack_checked
from .authors import Author
from .executor import Executor
from .registry import Report, bot_folder, submit
from .store import insert, now, stored_path

PROGRESS_LINES = 40
"""Lines of an upload's build output its author's page shows while it is checked."""
PROGRESS_EVERY = 2.0
"""Seconds between two writes of that output to the database."""
CHECK_POLL = 0.5
"""Seconds between two looks for an upload to check (and, on the web's side, for its report)."""
ABANDONED_SECONDS = 3600.0
"""A copy of a bot with no version this much older than its last change is one whose check never ended."""


@dataclass(frozen=True)
class UploadLimits:
    """What one author may do."""

    per_hour: int = 12
    """Uploads per author per hour."""
    bots: int = 5
    """Bots per author."""
    check_seconds: float = 900.0
    """How long an upload's build and conformance run may take."""
    copy_bytes: int = 1 << 30
    """The disk a bot's built copy may take (checked once its build ends)."""
    archive: ArchiveLimits = field(default_factory=ArchiveLimits)


class LimitReached(RuntimeError):
    """An upload refused by a limit; the message names it."""


def _check_limits(db: Database, author: Author, limits: UploadLimits) -> None:
    since = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)).isoformat(timespec="seconds")
    recent = db.table("uploads").count_where("author_id = ? and received_at >= ?", [author.id, since])
    if recent >= limits.per_hour:
        raise LimitReached(f"limit of {limits.per_hour} uploads an hour reached: try again later")


def _check_bot_count(db: Database, author: Author, folder: Path, limits: UploadLimits) -> None:
    try:
        name = resolve_bot(folder).manifest.get("name")
    except ManifestError:
        return  # submit() reports the manifest itself
    owned = {row["name"] for row in db.query("select name from bots where author_id = ?", [author.id])}
    if name not in owned and len(owned) >= limits.bots:
        raise LimitReached(f"limit of {limits.bots} bots an author reached: retire one or upload a new version")


def receive(db: Database, db_path: Path, author: Author, data: bytes, limits: UploadLimits) -> int:
    """Record ``author``'s upload ``data`` (a gzipped tar of a bot folder) and unpack it for its check
    (:func:`check_next`); return its id. An archive that breaks a rule is recorded refused at once, its report
    saying why.

    Raises:
        LimitReached: a limit refuses the upload (nothing is unpacked or recorded).
    """
    _check_limits(db, author, limits)
    staging = staging_folder(db_path)
    staging.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="upload-", dir=staging))
    row = {"author_id": author.id, "received_at": now(), "bytes": len(data)}
    try:
        folder = unpack_checked(data, work, limits.archive)
        _check_bot_count(db, author, folder, limits)
    except ArchiveError as exc:
        shutil.rmtree(work, ignore_errors=True)
        report = Report()
        report.add(False, f"archive: {exc}")
        row |= {"accepted": 0, "report": report.text(), "status": "done"}
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    else:
        row |= {"accepted": 0, "status": "queued", "staged": str(folder.relative_to(staging))}
    with db.atomic():
        return insert(db, "uploads", row)


async def check_next(db: Database, db_path: Path, executor: Executor, limits: UploadLimits) -> bool:
    """Check the oldest upload waiting for its check: take it out of the staging folder (which the web writes)
    into one only this process reaches, submit it as its author's bot (copied, built in the sandbox,
    ``check-bot``), record the report, remove what was unpacked. False when none waits."""
    row = next(db.table("uploads").rows_where("status = 'queued'", order_by="id", limit=1), None)
    if row is None:
        return False
    with db.atomic():
        db.table("uploads").update(row["id"], {"status": "checking"})
    report = Report()
    work = Path(tempfile.mkdtemp(prefix="check-", dir=_private(checking_folder(db_path))))
    try:
        folder = _taken(staging_folder(db_path), str(row["staged"] or ""), work)
        if folder is None:
            report.add(False, "archive: the unpacked upload is not where it was left: upload it again")
        else:
            named = ((folder, "upload"), (default_store(), "build"), (bot_folder(db_path), "copy"))
            progress: collections.deque[str] = collections.deque(maxlen=PROGRESS_LINES)
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_show_progress, db, row["id"], progress)
                with trio.move_on_after(limits.check_seconds) as scope:
                    report = await submit(db, db_path, str(folder), executor, author_id=row["author_id"],
                                          sandboxed_build=True, copy_bytes=limits.copy_bytes,
                                          echo=lambda line: progress.append(_without_host_paths(line, named)))
                nursery.cancel_scope.cancel()
            if scope.cancelled_caught:
                report = Report()
                report.add(False, f"check: the build and conformance run took more than {limits.check_seconds:g}s")
            report.lines = [_without_host_paths(line, named) for line in report.lines]
            with db.atomic():
                db.table("uploads").update(row["id"], {"progress": "\n".join(progress)})
    finally:
        shutil.rmtree(work, ignore_errors=True)
    with db.atomic():
        db.table("uploads").update(row["id"], {"accepted": int(report.accepted), "report": report.text(),
                                         "version_id": report.version_id, "status": "done"})
    return True


async def _show_progress(db: Database, upload_id: int, progress: collections.deque[str]) -> None:
    """Write the last lines of an upload's build (``progress``, which the build's thread appends to) to its row
    every :data:`PROGRESS_EVERY` seconds while they change, for its author's page."""
    shown: list[str] = []
    while True:
        await trio.sleep(PROGRESS_EVERY)
        lines = list(progress)
        if lines != shown:
            with db.atomic():
                db.table("uploads").update(upload_id, {"progress": "\n".join(lines)})
            shown = lines


def _private(folder: Path) -> Path:
    """``folder``, made if missing, reachable by its owner only."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)
    return folder


def _taken(staging: Path, staged: str, work: Path) -> Path | None:
    """The unpacked upload ``staged`` (``upload-…/upload-…`` below ``staging``) moved into ``work``, or None when
    that is not a folder of plain folders there (the web, which writes both, may not name anything else)."""
    parts = staged.split("/")
    if len(parts) != 2 or not all(re.fullmatch(r"upload-[A-Za-z0-9_]+", part) for part in parts):
        return None
    outer = staging / parts[0]
    if outer.is_symlink() or not outer.is_dir() or (outer / parts[1]).is_symlink():
        return None
    try:
        os.rename(outer, work / parts[0])
    except OSError:
        return None
    folder = work / parts[0] / parts[1]
    return folder if folder.is_dir() and not folder.is_symlink() else None


async def checks_forever(db: Database, db_path: Path, executor: Executor, limits: UploadLimits) -> None:
    """Check uploads as they arrive, one at a time, for ever."""
    while True:
        if not await check_next(db, db_path, executor, limits):
            await trio.sleep(CHECK_POLL)


def outcome(db: Database, upload_id: int) -> dict[str, Any] | None:
    """The answer to the upload ``upload_id`` once checked (accepted, the bot's name and version number, the
    report), or None while it waits or is being checked."""
    row = db.execute(
        "select u.status, u.accepted, u.report, b.name, v.number from uploads u left join versions v on "
        "v.id = u.version_id left join bots b on b.id = v.bot_id where u.id = ?", [upload_id]).fetchone()
    if row is None or row[0] != "done":
        return None
    return {"accepted": bool(row[1]), "bot": row[3], "version": row[4], "report": row[2]}


def staging_folder(db_path: Path) -> Path:
    """Where the web unpacks uploads for their check: a folder beside the database."""
    return db_path.parent / (db_path.stem + "-uploads")


def checking_folder(db_path: Path) -> Path:
    """Where the service checks an upload, taken out of the staging folder: a folder beside the database that only
    the service's own user reaches."""
    return db_path.parent / (db_path.stem + "-checking")


def _without_host_paths(line: str, named: tuple[tuple[Path, str], ...]) -> str:
    """A report line with the host's folders replaced by what they are to the author (``named``: each folder
    and its word)."""
    for folder, word in named:
        line = line.replace(str(folder.resolve()), word).replace(str(folder), word)
    return line


def sweep(db: Database, db_path: Path, abandoned: float = ABANDONED_SECONDS) -> int:
    """Remove what uploads cut short left (call it before the service takes uploads): everything in the staging
    folder (an upload still waiting for its check is refused, its author told to upload it again), and the
    ladder's copies of bots that no version holds, last changed ``abandoned`` seconds ago or more (a ``ladder
    submit`` may be checking a newer one). Returns how many were removed."""
    removed = 0
    shutil.rmtree(checking_folder(db_path), ignore_errors=True)
    interrupted = Report()
    interrupted.add(False, "check: the service stopped before this upload was checked: upload it again")
    with db.atomic():
        db.execute("update uploads set status = 'done', accepted = 0, report = ? where status != 'done'",
                   [interrupted.text()])
    staging = staging_folder(db_path)
    if staging.is_dir():
        for entry in staging.iterdir():
            shutil.rmtree(entry, ignore_errors=True)
            removed += 1
    copies = bot_folder(db_path)
    if not copies.is_dir():
        return removed
    kept = {row[0] for row in db.execute("select path from versions")}
    for entry in copies.iterdir():
        if not entry.is_dir() or time.time() - entry.stat().st_mtime < abandoned:
            continue
        if stored_path(db, entry) in kept or any(stored_path(db, file) in kept for file in entry.iterdir()):
            continue
        shutil.rmtree(entry, ignore_errors=True)
        (copies / f".{entry.name}.lock").unlink(missing_ok=True)
        removed += 1
    return removed
