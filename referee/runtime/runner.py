"""Run one game between bot processes: seat them, play, write the replay, and always stop them."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import trio

import referee
from referee import wire
from referee.games import Game
from referee.replay import ReplayWriter

from .clock import Clock
from .driver import GameRecord, play_game
from .faults import BotError, Fault
from .manifest import BotSpec
from .process import STARTUP_TIMEOUT, ProcessPlayer, bot_address
from .sandbox import DEFAULT_LIMITS, Limits


async def run_game(
    game: Game,
    specs: Sequence[BotSpec],
    *,
    match_id: str,
    seed: str | int,
    clock: Clock,
    replay_path: Path | None,
    seed_public: bool = True,
    overwrite_replay: bool = False,
    transport: str = "unix",
    startup_timeout: float = STARTUP_TIMEOUT,
    sandboxed: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    pause_off_turn: bool = False,
    recorded_paths: Sequence[str] | None = None,
) -> GameRecord:
    """Start one process per seat (concurrently), play the game, and stop every process, whatever happens.
    ``sandboxed`` runs every bot in the sandbox (:mod:`referee.runtime.sandbox`) under ``limits``;
    ``pause_off_turn`` stops each bot while it is not its move (:mod:`referee.runtime.pause`); ``recorded_paths``
    are the bots' paths to write in the replay (where the bots came from, when they run from a copy);
    ``seed_public`` False keeps the seed out of the replay until the game is over (see :func:`play_game`); an
    existing replay at ``replay_path`` is replaced only with ``overwrite_replay`` (else the replay takes the next
    free name, which the record's ``replay_path`` gives)."""
    if len(specs) != game.num_seats:
        raise ValueError(f"{game.id} needs {game.num_seats} bots, got {len(specs)}")
    if sandboxed and transport != "unix":
        raise ValueError("a sandboxed bot has no network: use the unix transport")
    with tempfile.TemporaryDirectory(prefix="kafana-") as folder:
        players: list[ProcessPlayer | None] = [
            ProcessPlayer(
                seat,
                spec,
                None if sandboxed else bot_address(transport, Path(folder), seat),
                game.id,
                startup_timeout=startup_timeout,
                sandboxed=sandboxed,
                limits=limits,
                pause_off_turn=pause_off_turn,
            )
            for seat, spec in enumerate(specs)
        ]
        faults: list[Fault] = []
        replay = ReplayWriter(replay_path, overwrite_replay) if replay_path is not None else None
        try:
            async with trio.open_nursery() as nursery:

                async def seat_one(seat: int) -> None:
                    player = players[seat]
                    assert player is not None
                    try:
                        await nursery.start(player.run)
                    except BotError as exc:
                        faults.append(exc.fault())
                        players[seat] = None

                async with trio.open_nursery() as starters:
                    for seat in range(len(players)):
                        starters.start_soon(seat_one, seat)
                try:
                    header = {
                        "seats": [
                            _seat_header(seat, spec, players[seat], recorded_paths[seat] if recorded_paths else None)
                            for seat, spec in enumerate(specs)
                        ],
                        "referee_version": referee.__version__,
                    }
                    return await play_game(
                        game,
                        players,
                        match_id=match_id,
                        seed=seed,
                        seed_public=seed_public,
                        clock=clock,
                        replay=replay,
                        header=header,
                        startup_faults=sorted(faults, key=lambda f: f.seat),
                    )
                finally:
                    for player in players:
                        if player is not None:
                            player.close()
        finally:
            if replay is not None:
                replay.close()


async def probe_hello(
    spec: BotSpec, *, transport: str = "unix", startup_timeout: float = STARTUP_TIMEOUT, sandboxed: bool = False
) -> tuple[wire.BotInfo | None, Fault | None, dict[str, str]]:
    """Start a bot, take its Hello, stop it: (info, None, output) or (None, fault, output)."""
    with tempfile.TemporaryDirectory(prefix="kafana-") as folder:
        address = None if sandboxed else bot_address(transport, Path(folder), 0)
        player = ProcessPlayer(0, spec, address, None, startup_timeout=startup_timeout, sandboxed=sandboxed)
        fault: Fault | None = None
        async with trio.open_nursery() as nursery:
            try:
                await nursery.start(player.run)
            except BotError as exc:
                fault = exc.fault()
            else:
                player.close()
        return (None if fault else player.info), fault, player.output()


def _seat_header(seat: int, spec: BotSpec, player: ProcessPlayer | None, path: str | None) -> dict:
    info = player.info if player is not None else None
    return {
        "seat": seat,
        "name": info.name if info else spec.label,
        "version": info.version if info else "",
        "author": info.author if info else "",
        "language": info.language if info else "",
        "path": path or str(spec.path),
        "hash": spec.content_hash,
    }
