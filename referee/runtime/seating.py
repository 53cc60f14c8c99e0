"""Seating bots for a game: fresh processes that end with it, or processes a :class:`BotPool` keeps between games.

Starting a bot costs more than many of its games' decisions (a Python bot imports grpc, protobuf and its kit:
about 0.4 s of CPU). A match worker that plays many games keeps a pool: a bot process that ended a game without a
fault is reused by a later game of the same bot, until it has played :attr:`BotPool.max_games`. A process is
never seated in two games of one duplicate unit (the same deal with the seats swapped): what it saw in one half
would tell it the other half's hidden cards. Nor is it seated again while a unit it played is still being played
(by another worker: the ladder says which units are open), and between its games it is held stopped, whole
(:meth:`ProcessPlayer.hold`): a process that played one half can do nothing while the other half is played. What
it remembers of other games is what it was shown there, which their public replays show too (chance is secret,
and a reused process sees no seed). After any fault its process is stopped and the next game gets a fresh one. A
process that has played its games is stopped and its successor started at once, while the worker sets up the next
game, so that the game seldom waits for it.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import trio

from .calls import CALLER, ClientKind
from .faults import BotError, BotNoHello, Fault
from .hello import Entrant
from .manifest import BotSpec
from .player import Player
from .process import STARTUP_TIMEOUT, ProcessPlayer, bot_address
from .sandbox import DEFAULT_LIMITS, Limits


@dataclass
class Seating:
    """The players of one game (None for a seat whose bot could not be seated) and its faults so far; the game's
    faults are added by the caller, so that the seating knows which processes to keep."""

    players: list[Player | None]
    faults: list[Fault] = field(default_factory=list)


@dataclass(frozen=True)
class SeatOptions:
    """How bots are started."""

    transport: str = "unix"
    startup_timeout: float = STARTUP_TIMEOUT
    sandboxed: bool = False
    limits: Limits = DEFAULT_LIMITS
    pause_off_turn: bool = False
    client: ClientKind = CALLER
    """The kind of client the referee speaks to the bots with (:mod:`.calls`)."""


def _player(seat: int, spec: BotSpec, game_id: str | None, folder: Path, options: SeatOptions,
            entrant: Entrant | None, holdable: bool = False) -> ProcessPlayer:
    return ProcessPlayer(
        seat,
        spec,
        None if options.sandboxed else bot_address(options.transport, folder, seat),
        game_id,
        startup_timeout=options.startup_timeout,
        sandboxed=options.sandboxed,
        limits=options.limits,
        pause_off_turn=options.pause_off_turn,
        holdable=holdable,
        entrant=entrant,
        client=options.client,
    )


def _entrant_of(entrants: Sequence[Entrant] | None, seat: int) -> Entrant | None:
    return entrants[seat] if entrants is not None else None


async def _each_seat(seats: int, seat_one: Callable[[int], Awaitable[None]]) -> None:
    """Seat every seat at once (bots start in parallel)."""
    async with trio.open_nursery() as starters:
        for seat in range(seats):
            starters.start_soon(seat_one, seat)


@contextlib.asynccontextmanager
async def fresh_seating(game_id: str, specs: Sequence[BotSpec | None], options: SeatOptions,
                        entrants: Sequence[Entrant] | None = None,
                        people: Mapping[int, Player] | None = None) -> AsyncIterator[Seating]:
    """Start one process per seat (concurrently) and stop every one when the block ends, whatever happens. With
    ``entrants`` (one per seat) each bot's Hello must say who it was entered as. The seats in ``people`` are
    theirs (:class:`~referee.runtime.human.HumanSeat`: no process; their ``specs`` are None)."""
    people = people or {}
    if any((spec is None) != (seat in people) for seat, spec in enumerate(specs)):
        raise ValueError("a seat has both a bot and a person, or neither")
    with tempfile.TemporaryDirectory(prefix="kafana-") as folder:
        processes = {seat: _player(seat, spec, game_id, Path(folder), options, _entrant_of(entrants, seat))
                     for seat, spec in enumerate(specs) if spec is not None}
        seating = Seating([processes.get(seat) or people[seat] for seat in range(len(specs))])
        async with trio.open_nursery() as nursery:

            async def seat_one(seat: int) -> None:
                player = processes.get(seat)
                if player is None:
                    return
                try:
                    await nursery.start(player.run)
                except BotError as exc:
                    seating.faults.append(exc.fault())
                    seating.players[seat] = None

            await _each_seat(len(specs), seat_one)
            try:
                yield seating
            finally:
                for player in processes.values():
                    player.close()


@dataclass
class _Kept:
    player: ProcessPlayer
    games: int = 0
    units: set[str] = field(default_factory=set)
    started: trio.Event = field(default_factory=trio.Event)
    """Set once the process has answered Hello (or failed to): a successor is kept while it starts."""
    starting: trio.CancelScope = field(default_factory=trio.CancelScope)
    """A successor's start, cancelled when the pool closes first."""


class BotPool:
    """Bot processes kept between the games of one match worker (see the module's docstring). The processes run
    in ``nursery``; :meth:`close` stops them all."""

    def __init__(self, nursery: trio.Nursery, options: SeatOptions, max_games: int = 50) -> None:
        self._nursery = nursery
        self.options = options
        self.max_games = max_games
        """Games a process plays before it is replaced by a fresh one."""
        self._folder = tempfile.TemporaryDirectory(prefix="kafana-pool-")
        self._idle: dict[tuple[str, str], list[_Kept]] = {}
        self._started = 0
        self._closed = False
        self.starts = 0
        """Bot processes started so far (for benchmarks: reuse shows as few starts)."""

    async def _take(self, seat: int, spec: BotSpec, game_id: str, unit: str, open_units: frozenset[str],
                    entrant: Entrant | None, pause_off_turn: bool) -> _Kept:
        key = (str(spec.path), spec.content_hash)
        idle = self._idle.setdefault(key, [])
        while kept := self._candidate(idle, open_units | {unit}):
            idle.remove(kept)
            await kept.started.wait()
            if not kept.player.alive:
                continue  # a successor that did not start, or a process that ended while idle
            if game_id not in kept.player.info.games:
                idle.append(kept)  # it may play the bot's other games
                raise BotNoHello(seat, f"{kept.player.info.name} does not play {game_id!r}")
            if entrant is not None and (problem := entrant.mismatch(kept.player.info)) is not None:
                kept.player.close()
                raise BotNoHello(seat, f"bad Hello: {problem}")
            kept.player.seat = seat
            kept.player.pause_off_turn = pause_off_turn
            kept.player.new_game()
            kept.player.release()
            return kept
        kept = _Kept(self._new_player(spec, entrant))
        kept.player.seat = seat
        kept.player.pause_off_turn = pause_off_turn
        await self._nursery.start(kept.player.run)
        kept.started.set()
        if game_id not in kept.player.info.games:
            kept.player.close()
            raise BotNoHello(seat, f"{kept.player.info.name} does not play {game_id!r} (it lists "
                                   f"{list(kept.player.info.games)})")
        return kept

    @staticmethod
    def _candidate(idle: list[_Kept], barred: frozenset[str]) -> _Kept | None:
        """A kept process that played none of the ``barred`` units: a started one first, else a successor still
        starting (``idle`` loses the processes that ended on the way)."""
        idle[:] = [kept for kept in idle if kept.player.alive or not kept.started.is_set()]  # the ended ones go
        usable = [kept for kept in idle if not kept.units & barred]
        return next((kept for kept in usable if kept.started.is_set()), usable[0] if usable else None)

    def _new_player(self, spec: BotSpec, entrant: Entrant | None) -> ProcessPlayer:
        self._started += 1
        self.starts += 1
        return _player(self._started, spec, None, Path(self._folder.name), self.options, entrant, holdable=True)

    def _successor(self, spec: BotSpec, entrant: Entrant | None) -> None:
        """Start a process of ``spec`` in place of one that has played its games, before a game asks for it, and
        keep it idle and held (a game that needs it meanwhile waits for it rather than start another)."""
        if self._closed:
            return
        kept = _Kept(self._new_player(spec, entrant))
        self._idle.setdefault((str(spec.path), spec.content_hash), []).append(kept)
        self._nursery.start_soon(self._start, kept)

    async def _start(self, kept: _Kept) -> None:
        """Start a successor and hold it. One that cannot start is dropped: the game that then starts its own
        process is charged with that fault, if it has one."""
        try:
            with kept.starting, contextlib.suppress(BotError):
                await self._nursery.start(kept.player.run)
                kept.player.hold()
        finally:
            kept.started.set()

    @contextlib.asynccontextmanager
    async def seating(self, game_id: str, specs: Sequence[BotSpec], unit: str,
                      open_units: Collection[str] = (), entrants: Sequence[Entrant] | None = None,
                      pause_off_turn: bool | None = None) -> AsyncIterator[Seating]:
        """Seat ``specs`` for a game of ``unit`` (reusing kept processes that played neither ``unit`` nor any of the
        ``open_units``, the units still being played elsewhere); when the block ends, keep and hold each process
        that had no fault and may play more, and stop the others. With ``entrants`` (one per seat) each bot's
        Hello must say who it was entered as; ``pause_off_turn`` (default: the pool's options) stops each bot
        while it is not its move in this game."""
        kept: list[_Kept | None] = [None] * len(specs)
        seating = Seating([None] * len(specs))
        barred = frozenset(open_units)
        pause = self.options.pause_off_turn if pause_off_turn is None else pause_off_turn

        async def seat_one(seat: int) -> None:
            try:
                kept[seat] = await self._take(seat, specs[seat], game_id, unit, barred, _entrant_of(entrants, seat),
                                              pause)
                seating.players[seat] = kept[seat].player  # type: ignore[union-attr]
            except BotError as exc:
                seating.faults.append(exc.fault())

        await _each_seat(len(specs), seat_one)
        try:
            yield seating
        finally:
            faulty = {fault.seat for fault in seating.faults}
            for seat, one in enumerate(kept):
                if one is None:
                    continue
                one.games += 1
                one.units.add(unit)
                if seat in faulty or not one.player.alive:
                    one.player.close()
                elif one.games >= self.max_games:
                    one.player.close()
                    self._successor(specs[seat], _entrant_of(entrants, seat))  # it starts while the next game is set up
                else:
                    one.player.hold()
                    self._idle[(str(specs[seat].path), specs[seat].content_hash)].append(one)

    def close(self) -> None:
        """Stop every kept process (and start no more)."""
        self._closed = True
        for idle in self._idle.values():
            for kept in idle:
                kept.starting.cancel()  # a successor still starting is not waited for
                kept.player.close()
        self._idle.clear()
        self._folder.cleanup()
