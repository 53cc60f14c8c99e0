"""A club ladder's service (``ladder serve --play``) as one task: its web in a process of its own, the checks of
uploaded bots, and the scheduler that plays for ever (docs/service.md)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

import trio

from .challenges import challenges_forever, seats_folder
from .service import Service
from .store import replay_folder
from .uploads import UploadLimits, checks_forever, staging_folder
from .web.process import WebUser, run_web


async def run_club(
    service: Service,
    db_path: Path,
    listener: socket.socket,
    user: WebUser | None,
    *,
    cache_seconds: float,
    behind_tls: bool,
    ready: Callable[[], None],
    sandbox: str = "on",
    visitors_play: bool = False,
) -> None:
    """Run the club of the league at ``db_path`` until cancelled: the web on ``listener`` as ``user`` (answers kept
    ``cache_seconds``; ``behind_tls``: behind a TLS-terminating proxy), the upload checks and ``service``'s
    scheduler, all on ``service``'s executor, and the games people play against the bots (their bots run in the
    ``sandbox`` mode; ``visitors_play``: visitors who are not signed in may play too); ``ready()`` is called once
    all four are started.

    Raises:
        WebStopped: the web process ended on its own.
    """
    arguments = ["--db", str(db_path), "--cache", str(cache_seconds), *(["--behind-tls"] if behind_tls else []),
                 *(["--visitors-play"] if visitors_play else [])]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(run_web, arguments, listener, user, db_path, staging_folder(db_path),
                           replay_folder(service.db), seats_folder(db_path))
        nursery.start_soon(checks_forever, service.db, db_path, service.executor, UploadLimits())
        nursery.start_soon(service.play_forever)
        nursery.start_soon(challenges_forever, service.db, db_path, sandbox)
        ready()
