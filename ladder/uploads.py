"""Uploads to a club ladder: an author's archive checked, unpacked, submitted as that author's bot, and recorded
with its report; the limits that protect the host, each refusal saying which.

The archive goes through :func:`ladder.archive.unpack_checked` before anything of it runs, then through the same
:func:`ladder.registry.submit` as ``ladder submit`` (copied, built once, ``check-bot`` in the sandbox). The
unpacked upload is removed whatever happens; only the ladder's copy of an accepted bot stays.
"""

from __future__ import annotations

import datetime
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import trio
from sqlite_utils import Database

from referee.runtime import ManifestError, resolve_bot

from .archive import ArchiveError, ArchiveLimits, unpack_checked
from .authors import Author
from .executor import Executor
from .registry import Report, submit
from .store import now


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
    work = Path(tempfile.mkdtemp(prefix="kafana-upload-"))
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
    with db.atomic():
        db["uploads"].insert(
            {"author_id": author.id, "received_at": now(), "bytes": len(data), "accepted": int(report.accepted),
             "report": report.text(), "version_id": report.version_id}
        )
    return report
