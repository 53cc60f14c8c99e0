"""Run one game between bot processes: seat them (fresh, or from a pool of kept processes), play, write the
replay."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import cast

import trio

import referee
from referee import wire
from referee.games import Game
from referee.replay import ReplayWriter

from .calls import CALLER, ClientKind
from .clock import Clock
from .driver import GameRecord, play_game
from .faults import BotError, Fault
from .hello import Entrant
from .manifest import BotSpec
from .player import Player
from .process import STARTUP_TIMEOUT, ProcessPlayer, bot_address
from .sandbox import DEFAULT_LIMITS, Limits
from .seating import BotPool, SeatOptions, fresh_seating


async def run_game(
    game: Game,
    specs: Sequence[BotSpec | None],
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
    pause_off_turn: bool | None = None,
    recorded_paths: Sequence[str] | None = None,
    pool: BotPool | None = None,
    unit: str = "",
    open_units: Sequence[str] = (),
    entrants: Sequence[Entrant] | None = None,
    client: ClientKind = CALLER,
    people: Mapping[int, Player] | None = None,
) -> GameRecord:
    """Seat one bot per seat, play the game, write the replay. Without a ``pool`` every bot is a fresh process
    stopped when the game ends, whatever happens; with one, bots come from it and go back to it (the game's
    ``unit`` keeps a process out of the other half of its duplicate unit, and ``open_units``, the units still being
    played elsewhere, keep out the processes that played them; the pool's own options apply). With ``entrants``
    (one per seat, as the ladder registered them) each bot's Hello must say who it was entered as.
    ``sandboxed`` runs every bot in the sandbox (:mod:`referee.runtime.sandbox`) under ``limits``;
    ``pause_off_turn`` stops each bot while it is not its move (:mod:`referee.runtime.pause`; default: no, or the
    pool's options); ``client`` is the kind of client the bots are spoken to with (:mod:`.calls`); ``recorded_paths``
    are the bots' paths to write in the replay (where the bots came from, when they run from a copy);
    ``seed_public`` False keeps the seed out of the replay until the game is over (see :func:`play_game`); an
    existing replay at ``replay_path`` is replaced only with ``overwrite_replay`` (else the replay takes the next
    free name, which the record's ``replay_path`` gives). The seats in ``people`` are played by them (a person's
    :class:`~referee.runtime.human.HumanSeat`), their ``specs`` None; they take no pool."""
    if len(specs) != game.num_seats:
        raise ValueError(f"{game.id} needs {game.num_seats} bots, got {len(specs)}")
    if sandboxed and transport != "unix":
        raise ValueError("a sandboxed bot has no network: use the unix transport")
    options = SeatOptions(transport, startup_timeout, sandboxed, limits, bool(pause_off_turn), client)
    if entrants is not None and len(entrants) != len(specs):
        raise ValueError(f"{len(specs)} bots but {len(entrants)} entrants")
    if pool is not None and people:
        raise ValueError("a pool seats bots only")
    seated = (pool.seating(game.id, cast(Sequence[BotSpec], specs), unit, open_units, entrants, pause_off_turn)
              if pool is not None else fresh_seating(game.id, specs, options, entrants, people))
    replay = ReplayWriter(replay_path, overwrite_replay) if replay_path is not None else None
    try:
        async with seated as seating:
            players = seating.players
            header = {
                "seats": [
                    _seat_header(seat, spec, players[seat], recorded_paths[seat] if recorded_paths else None)
                    for seat, spec in enumerate(specs)
                ],
                "referee_version": referee.__version__,
            }
            record = await play_game(
                game,
                players,
                match_id=match_id,
                seed=seed,
                seed_public=seed_public,
                clock=clock,
                replay=replay,
                header=header,
                startup_faults=sorted(seating.faults, key=lambda f: f.seat),
            )
            seating.faults = list(record.faults)
            return record
    finally:
        if replay is not None:
            replay.close()


async def probe_hello(
    spec: BotSpec, *, transport: str = "unix", startup_timeout: float = STARTUP_TIMEOUT, sandboxed: bool = False,
    client: ClientKind = CALLER,
) -> tuple[wire.BotInfo | None, Fault | None, dict[str, str]]:
    """Start a bot, take its Hello, stop it: (info, None, output) or (None, fault, output)."""
    with tempfile.TemporaryDirectory(prefix="kafana-") as folder:
        address = None if sandboxed else bot_address(transport, Path(folder), 0)
        player = ProcessPlayer(0, spec, address, None, startup_timeout=startup_timeout, sandboxed=sandboxed,
                               client=client)
        fault: Fault | None = None
        async with trio.open_nursery() as nursery:
            try:
                await nursery.start(player.run)
            except BotError as exc:
                fault = exc.fault()
            else:
                player.close()
        return (None if fault else player.info), fault, player.output()


def _seat_header(seat: int, spec: BotSpec | None, player: Player | None, path: str | None) -> dict:
    info = player.info if player is not None else None
    if spec is None:  # a person
        assert info is not None
        return {"seat": seat, "name": info.name, "version": "", "author": info.author, "language": info.language,
                "path": "", "hash": ""}
    return {
        "seat": seat,
        "name": info.name if info else spec.label,
        "version": info.version if info else "",
        "author": info.author if info else "",
        "language": info.language if info else "",
        "path": path or str(spec.path),
        "hash": spec.content_hash,
    }
