"""The service's side of people's games (:mod:`ladder.people`): each waiting game played by a referee process of
its own, a few at a time, for as long as the service runs.

A game is ``referee play ARENA_GAME … human …`` with the challenged bot's copy in every other seat, sandboxed as
the club's matches are, its replay in the replays' ``people`` folder. The referee serves the person's page on a
Unix socket of its own (:func:`seat_socket`), which the club's web passes the page's requests on to; the seat's
token reaches it on its standard input, never on a command line another user could read. A referee that crashes
loses one person's game, which is recorded as failed, and nothing else.
"""

from __future__ import annotations

import json
import logging
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import trio
from sqlite_utils import Database

from referee.runtime.human import HUMAN

from .arenas import load_arena
from .league import MissingBots, seated_versions
from .people import AT_ONCE, fail, finish, sweep, take_waiting
from .store import replay_folder

log = logging.getLogger(__name__)

POLL = 0.5
"""Seconds between two looks for a waiting game."""
GAME_HOURS = 3.0
"""Hours a person's game may last before its referee is stopped (a person's clock grows with every move)."""


def seats_folder(db_path: Path) -> Path:
    """The folder of the people's seats' sockets, beside the database."""
    return db_path.with_name(db_path.name + ".seats")


def seat_socket(db_path: Path, game_id: int) -> Path:
    """Where the referee of the person's game ``game_id`` serves its page."""
    return seats_folder(db_path) / f"{game_id}.sock"


def referee_command(db: Database, db_path: Path, row: dict[str, Any], sandbox: str) -> list[str]:
    """The ``referee play`` of a person's game.

    Raises:
        MissingBots: the bot's copy is missing or not one of the league's copies.
    """
    arena = load_arena(db, row["arena_id"])
    path = seated_versions(db, [row["version_id"]])[row["version_id"]].path
    seats = [path] * arena.seats
    seats[row["seat"]] = HUMAN
    options = [part for key, value in arena.options.items() for part in ("--option", f"{key}={value}")]
    return [sys.executable, "-m", "referee.cli", "play", arena.game, *seats, *options, "--json", "--no-browser",
            "--sandbox", sandbox, "--seed", str(secrets.randbelow(2**31)),
            "--out", str(replay_folder(db) / "people"), "--serve-unix", str(seat_socket(db_path, row["id"]))]


async def play_one(db: Database, db_path: Path, row: dict[str, Any], sandbox: str) -> None:
    """Play the person's game ``row`` to its end and record it (or why it could not be played)."""
    try:
        command = referee_command(db, db_path, row, sandbox)
    except MissingBots as exc:
        fail(db, row["id"], str(exc))
        return
    done: subprocess.CompletedProcess[bytes] | None = None
    try:
        with trio.move_on_after(GAME_HOURS * 3600):
            done = await trio.run_process(command, stdin=(row["token"] + "\n").encode(), capture_stdout=True,
                                          capture_stderr=True, check=False)
    except trio.Cancelled:
        fail(db, row["id"], "the club's service stopped before the game ended")
        raise
    if done is None:
        fail(db, row["id"], f"the game ran past {GAME_HOURS:g} hours and was stopped")
        return
    lines = [line for line in done.stdout.decode(errors="replace").splitlines() if line.startswith("{")]
    if not lines:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        fail(db, row["id"], f"the referee stopped: {said[-1] if said else f'exit status {done.returncode}'}")
        log.warning("person's game %s: %s", row["id"], done.stderr.decode(errors="replace")[-2000:])
        return
    record = json.loads(lines[-1])
    finish(db, row["id"], record["points"], record["termination"], record["faults"], record["replay"])


async def challenges_forever(db: Database, db_path: Path, sandbox: str) -> None:
    """Play the people's games as they are asked for, :data:`AT_ONCE` at a time, until cancelled (the games being
    played are stopped with it, and recorded as failed when the service starts again)."""
    if swept := sweep(db):
        log.warning("%d people's game(s) the last run left unfinished recorded as failed", swept)
    folder = seats_folder(db_path)
    folder.mkdir(exist_ok=True)
    folder.chmod(0o755)  # the web, another user, reaches the sockets (each asks for its seat's token)
    playing = 0

    async def play(row: dict[str, Any]) -> None:
        nonlocal playing
        try:
            await play_one(db, db_path, row, sandbox)
        finally:
            playing -= 1

    async with trio.open_nursery() as nursery:
        while True:
            for row in take_waiting(db, AT_ONCE - playing) if playing < AT_ONCE else []:
                playing += 1
                nursery.start_soon(play, row)
            await trio.sleep(POLL)
