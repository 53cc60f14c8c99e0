"""Uploads to a club ladder: an author's archive checked, unpacked, submitted as that author's bot, and recorded
with its report; the limits that protect the host, each refusal saying which.

The archive goes through :func:`ladder.archive.unpack_checked` before anything of it runs, then through the same
:func:`ladder.registry.submit` as ``ladder submit`` (copied, built once, ``check-bot`` in the sandbox). Uploads are
unpacked in one staging folder beside the database (:func:`staging_folder`); the unpacked upload is removed whatever
happens, and what a killed service left there is removed when it starts again (:func:`sweep`), with the copies of
bots whose check never ended. Only the ladder's copy of an accepted bot stays. The report an author reads names
no folder of the host: the upload is "upload", the ladder's copy "copy".
"""

from __future__ import annotations

import datetime
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import trio
from sqlite_utils import Database

from referee.runtime import ManifestError, resolve_bot

from .archive import ArchiveError, ArchiveLimits, unpack_checked
from .authors import Author
from .executor import Executor
from .registry import Report, bot_folder, submit
from .store import now, stored_path

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
    archive: ArchiveLimits = field(default_factory=ArchiveLimits)


class LimitReached(RuntimeError):
    """An upload refused by a limit; the message names it."""


def _check_limits(db: Database, author: Author, limits: UploadLimits) -> None:
    since = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)).isoformat(timespec="seconds")
    recent = db["uploads"].count_where("author_id = ? and received_at >= ?", [author.id, since])
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


async def upload(
    db: Database, db_path: Path, author: Author, data: bytes, executor: Executor, limits: UploadLimits
) -> Report:
    """Check, unpack and submit ``data`` (a gzipped tar of a bot folder) as ``author``'s; record the upload.

    Raises:
        LimitReached: a limit refuses the upload (nothing is unpacked or recorded).
    """
    _check_limits(db, author, limits)
    report = Report()
    staging = staging_folder(db_path)
    staging.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="upload-", dir=staging))
    try:
        try:
            folder = unpack_checked(data, work, limits.archive)
        except ArchiveError as exc:
            report.add(False, f"archive: {exc}")
        else:
            _check_bot_count(db, author, folder, limits)
            with trio.move_on_after(limits.check_seconds) as scope:
                report = await submit(db, db_path, str(folder), executor, author_id=author.id, sandboxed_build=True)
            if scope.cancelled_caught:
                report = Report()
                report.add(False, f"check: the build and conformance run took more than {limits.check_seconds:g}s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report.lines = [_without_host_paths(line, work, bot_folder(db_path)) for line in report.lines]
    with db.atomic():
        db["uploads"].insert(
            {"author_id": author.id, "received_at": now(), "bytes": len(data), "accepted": int(report.accepted),
             "report": report.text(), "version_id": report.version_id}
        )
    return report


def staging_folder(db_path: Path) -> Path:
    """Where uploads are unpacked while they are checked: a folder beside the database."""
    return db_path.parent / (db_path.stem + "-uploads")


def _without_host_paths(line: str, work: Path, copies: Path) -> str:
    """A report line with the host's folders replaced by what they are to the author."""
    return line.replace(str(work.resolve()), "upload").replace(str(work), "upload").replace(
        str(copies.resolve()), "copy").replace(str(copies), "copy")


def sweep(db: Database, db_path: Path, abandoned: float = ABANDONED_SECONDS) -> int:
    """Remove what uploads cut short left (call it before the service takes uploads): everything in the staging
    folder, and the ladder's copies of bots that no version holds, last changed ``abandoned`` seconds ago or more
    (a ``ladder submit`` may be checking a newer one). Returns how many were removed."""
    removed = 0
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
