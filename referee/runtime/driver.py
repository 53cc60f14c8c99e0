"""The game loop: chance from a seed's stream, decisions from the seated players, clocks, faults, replay.

The driver knows nothing of any game's rules: it sees engines only through :class:`referee.games.State`.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from referee.chance import Chance
from referee.games import CHANCE, Game, Outcome, State
from referee.replay import ReplayWriter, games_json
from referee.wire import ActRequest, ClockInfo, GameOver, LegalActions, MatchOver, SeatResult

from .clock import TRANSPORT_GRACE, Clock
from .faults import BotError, BotIllegalAction, BotTimeout, Fault
from .player import Player
from .printable import printable

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameRecord:
    """The result of one game as the referee saw it."""

    match_id: str
    game: str
    seed: str
    outcome: Outcome
    faults: tuple[Fault, ...]
    bots: tuple[str, ...]
    decisions: int
    replay_path: Path | None = None
    output: tuple[dict[str, str], ...] = field(default_factory=tuple)

    def summary(self) -> str:
        """One readable line: who won, the points, and any fault."""
        outcome = self.outcome
        if len(outcome.points) == 1:  # a patience: one player against the cards
            text = f"{self.match_id}: {self.bots[0]} {outcome.termination}, {outcome.points[0]} points"
        elif len(outcome.places) > 2:
            last = [seat for seat, place in enumerate(outcome.places) if place == len(outcome.places)]
            who = f"places {':'.join(map(str, outcome.places))}" + "".join(
                f", durak {self.bots[seat]} (seat {seat})" for seat in last
            )
            text = f"{self.match_id}: {who} by {outcome.termination}"
        else:
            winner = outcome.winner
            who = f"{self.bots[winner]} (seat {winner}) wins" if winner is not None else "draw"
            text = f"{self.match_id}: {who} {':'.join(map(str, outcome.points))} by {outcome.termination}"
        for fault in self.faults:
            text += f"; seat {fault.seat} {self.bots[fault.seat]}: {fault.kind} ({fault.message})"
        return text


async def play_game(
    game: Game,
    players: Sequence[Player | None],
    *,
    match_id: str,
    seed: str | int,
    clock: Clock,
    seed_public: bool = True,
    replay: ReplayWriter | None = None,
    header: dict[str, Any] | None = None,
    startup_faults: Sequence[Fault] = (),
    state: State | None = None,
) -> GameRecord:
    """Play one game to its end (or to the first fault, or to its decision limit: a game of a match, or a deal of
    a session, that reaches ``game.decision_limit`` decisions ends the whole as a draw, ``limit``) and return its
    record.

    Args:
        game: the game definition.
        players: one player per seat; ``None`` for a seat that failed to start (its fault is in ``startup_faults``).
        match_id: the id sent to bots and written to the replay.
        seed: the seed of the chance stream every chance step is drawn from (:mod:`referee.chance`).
        clock: the clock settings of every seat.
        seed_public: False for a secret seed (a ladder's): the replay's header then carries only its commitment,
            and the seed is written in the result line when the game is over.
        replay: where to log the game, if anywhere.
        header: extra header fields for the replay (seat descriptions, …).
        startup_faults: faults of seats that could not be seated; the game is then forfeited at once.
        state: start from this state instead of ``game.new_state()`` (analysis and tests).
    """
    chance = Chance(str(seed), public=seed_public)
    rng = chance.stream()
    state = state or game.new_state()
    names = tuple(p.info.name if p is not None else "-" for p in players)
    if replay is not None:
        replay.header(
            match_id=match_id,
            game=game.id,
            options=dict(game.options),
            commitment=chance.commitment,
            **({"seed": chance.seed} if chance.public else {}),
            clock={"bank": clock.bank, "increment": clock.increment, "cap": clock.cap},
            **(header or {}),
        )
    banks = [clock.bank] * game.num_seats
    faults = list(startup_faults)
    decisions = 0
    notified = 0
    number, in_game = state.game_number, 0  # the game of a match being played, and its decisions so far
    decision_limit, limited = game.decision_limit, False
    # A backstop around each move: a player's own deadline (limit + grace) ends first and says why (a cap hit, a
    # crash…). One scope for the game, its deadline set before each move (a scope a move costs more than the rest
    # of the driver's work on it). It stays set until the next move's: between moves the loop reaches no checkpoint
    # (where alone trio delivers a cancellation) but in a notification, before which it is lifted.
    with trio.CancelScope() as backstop:
        while not faults and not state.is_terminal():
            seat = state.current_player
            if seat == CHANCE:
                action = state.sample_chance(rng)
                state.apply(action)
                if replay is not None:
                    replay.chance(action.notation())
                continue
            if state.game_number != number:
                number, in_game = state.game_number, 0
            if in_game >= decision_limit:  # whatever the rules say, the game ends here, a draw
                limited = True
                break
            player = players[seat]
            assert player is not None
            legal = state.legal_actions()
            limit = clock.move_limit(banks[seat])
            view, record = state.view_and_record(seat)
            request = ActRequest(
                match_id=match_id,
                game_number=state.game_number,
                game=game.id,
                seat=seat,
                options=dict(game.options),
                decision=decisions,
                view=view,
                clock=ClockInfo(
                    bank_ms=int(banks[seat] * 1000),
                    increment_ms=int(clock.increment * 1000),
                    move_cap_ms=int(clock.cap * 1000),
                    move_limit_ms=int(limit * 1000),
                ),
                legal_actions=LegalActions(legal),
                view_record=record,
            )
            if replay is not None:
                replay.flush()  # the game so far, for a spectator while the bot thinks
            start = trio.current_time()
            try:
                backstop.deadline = start + limit + 2 * TRANSPORT_GRACE
                response = await player.act(request, limit)
                used = trio.current_time() - start
                if used > limit + TRANSPORT_GRACE:
                    raise BotTimeout(seat, f"answered after {used:.3f}s, limit {limit:.3f}s")
                if not 0 <= response.action_id < len(legal):
                    raise BotIllegalAction(
                        seat, f"answered id {response.action_id}, legal ids are 0..{len(legal) - 1}"
                    )
            except BotError as exc:
                log.warning("%s: %s", match_id, exc)
                faults.append(exc.fault())
                break
            banks[seat] = clock.after_move(banks[seat], used)
            action = legal[response.action_id]
            state.apply(action)
            decisions += 1
            in_game += 1
            if replay is not None:
                replay.action(seat, response.action_id, action.notation(), used * 1000, printable(response.comment))
            finished = state.completed_games()
            if len(finished) > notified and not state.is_terminal():
                backstop.deadline = math.inf
                for number, (game_id, ended) in enumerate(finished[notified:], notified + 1):
                    await _notify_all(players, GameOver(match_id, number, game_id, ended.termination, _seats(ended)))
                notified = len(finished)
    if backstop.cancelled_caught:
        timeout = BotTimeout(seat, f"no answer within the {limit:.3f}s limit")
        log.warning("%s: %s", match_id, timeout)
        faults.append(timeout.fault())
    if faults:
        outcome = game.forfeit([f.seat for f in faults])
    else:
        outcome = game.limit_outcome() if limited else state.outcome()
    outputs = tuple(p.output() if p is not None else {"stdout": "", "stderr": ""} for p in players)
    if replay is not None:
        replay.result(
            termination=outcome.termination,
            points=list(outcome.points),
            games=games_json(outcome),
            faults=[f.to_json() for f in faults],
            decisions=decisions,
            output=outputs,
            seed=chance.seed,
        )
    await _notify(players, match_id, game.id, outcome, faults)
    return GameRecord(
        match_id=match_id,
        game=game.id,
        seed=chance.seed,
        outcome=outcome,
        faults=tuple(faults),
        bots=names,
        decisions=decisions,
        replay_path=replay.path if replay is not None else None,
        output=outputs,
    )


def _seats(outcome: Outcome, faults: Sequence[Fault] = ()) -> tuple[SeatResult, ...]:
    by_seat = {f.seat: f for f in faults}
    return tuple(
        SeatResult(
            seat,
            points,
            by_seat[seat].kind if seat in by_seat else "",
            by_seat[seat].message if seat in by_seat else "",
        )
        for seat, points in enumerate(outcome.points)
    )


async def _notify_all(players: Sequence[Player | None], *events: GameOver | MatchOver) -> None:
    """Send ``events`` to every player, in their order to each and to all players at once."""

    async def tell(player: Player) -> None:
        for event in events:
            await player.notify(event)

    async with trio.open_nursery() as nursery:
        for player in players:
            if player is not None:
                nursery.start_soon(tell, player)


async def _notify(
    players: Sequence[Player | None], match_id: str, game_id: str, outcome: Outcome, faults: Sequence[Fault]
) -> None:
    """The end: the last game's GameOver (unless a fault ended it) and the MatchOver, to every seat that did not
    fault."""
    seats = _seats(outcome, faults)
    faulty = {f.seat for f in faults}
    live = [p if p is not None and seat not in faulty else None for seat, p in enumerate(players)]
    if outcome.games:
        last_id, last = outcome.games[-1]
        game_over = GameOver(match_id, len(outcome.games), last_id, last.termination, _seats(last))
    else:
        game_over = GameOver(match_id, 1, game_id, outcome.termination, seats)
    await _notify_all(live, game_over, MatchOver(match_id, game_id, seats))
