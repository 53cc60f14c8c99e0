"""One writer per league database: a league, a duel or a demo holds the database while it plays.

The hold is an advisory lock (``flock``) on ``NAME.lock`` beside the database, which the kernel drops when its
holder ends, however it ends (a SIGKILLed ladder releases it without an operator). The lock file says who holds
it, so that a second run refuses at once with a message naming the holder. Reading the database (standings, the
web, ``ladder replay``) and submitting bots need no hold. The lock works on a local file system; a database on a
network file system shared by several machines is not protected.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path


class DatabaseBusy(RuntimeError):
    """Another run holds the database; the message says who and since when."""


def lock_path(db_path: Path) -> Path:
    """The lock file of the database at ``db_path``.

    >>> lock_path(Path("league/kafana.db"))
    PosixPath('league/kafana.db.lock')
    """
    return db_path.with_name(db_path.name + ".lock")


def _holder(fd: int, attempts: int = 20) -> str:
    """Who holds the lock, as its holder wrote it (which it does right after taking the lock)."""
    for _ in range(attempts):
        try:
            held = json.loads(os.pread(fd, 4096, 0) or b"{}")
            return f"{held['what']} (pid {held['pid']} on {held['host']}, since {held['since']})"
        except (ValueError, KeyError, TypeError):
            time.sleep(0.02)
    return "another run"


@contextlib.contextmanager
def hold_database(db_path: str | Path, what: str) -> Iterator[None]:
    """Hold the database at ``db_path`` for ``what`` (e.g. ``ladder league --arena tapa``) while the block runs.

    Raises:
        DatabaseBusy: another run holds it.
    """
    path = lock_path(Path(db_path))
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DatabaseBusy(f"{db_path} is in use by {_holder(fd)}: wait for it to finish, or stop it") from None
        since = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
        os.ftruncate(fd, 0)
        holder = {"what": what, "pid": os.getpid(), "host": socket.gethostname(), "since": since}
        os.pwrite(fd, json.dumps(holder).encode(), 0)
        yield
    finally:
        os.close(fd)
