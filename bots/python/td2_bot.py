"""The learned bot looking two rolls ahead (2-ply) in Tabla and Tapa: of the plays its network values best
(:mod:`.td_bot`, 0-ply) it follows :data:`WIDTH` through the opponent's 21 rolls, each answered by the opponent's
best play by the network (:mod:`.td1_bot`'s 1-ply value); the :data:`DEEP` best of those it follows one roll
further, the bot's own 21 rolls after each of the opponent's answers, each answered by its own best play, and takes
the play whose position is best on average two rolls ahead. A level of the search is one call into the native
core, which lists every roll's replies and values them by the network itself (``kafana_native.bots.best_replies``; the
reference lists the replies' rows, :func:`referee.games.tabla_family.features.roll_replies`, and values them in
numpy). It searches single games of Tabla and Tapa; elsewhere (Gjul Bara, whose turns are chains of stages; a
``tabla-match``, where td1_bot weighs the score; a remainder; a short clock; without the native core, where a
search would take seconds) it plays as td1_bot.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from bots.python import td1_bot, td_bot
from bots.python.kit import serve
from bots.python.positions import rebuilt
from bots.python.td_bot import Values
from referee.games.engine import ACCELERATORS
from referee.games.tabla_family import FamilyState
from referee.games.tabla_family.features import ROLLS, Sides, after_features, roll_replies
from referee.wire import ActRequest, ActResponse

if TYPE_CHECKING:
    from kafana_native.bots import ValueNet

    from referee.games import Tabla, Tapa

WIDTH = 6
"""How many of the 0-ply best plays are valued one roll ahead."""
DEEP = 3
"""How many of the 1-ply best plays are valued two rolls ahead."""
MIN_LIMIT_MS = 2000
"""The least time for the move in which the bot looks two rolls ahead (a decision takes a few hundred
milliseconds at most; with less it plays as td1_bot)."""
SEARCHED = ("tabla", "tapa")
"""The games it searches: single games of one stage a turn, valued by points."""


class Best(NamedTuple):
    """Every roll's best reply from some positions (:func:`best_replies`): per position and roll, in the order of
    :data:`~referee.games.tabla_family.features.ROLLS`."""

    weights: np.ndarray
    """The roll's weight in 36."""
    values: np.ndarray
    """The best reply's value for the side that makes it."""
    ended: list[bool]
    """Whether the best reply ends the game."""
    afters: list[Sides]
    """The position it leaves, the side that replied first."""


@cache
def _native_network(game_id: str) -> ValueNet | None:
    return td_bot.network(game_id).native()


def native_best_replies(game: Tabla | Tapa, positions: list[Sides], net: ValueNet) -> Best:
    """The best reply to every roll from each of ``positions`` (the side to roll first) in a single ``game`` of
    Tabla or Tapa, by the points ``net`` expects, in the native core (one call)."""
    found = ACCELERATORS.best_replies(game.id, positions, net, **game.core_options())
    weights, values, ended, afters = zip(*found)
    return Best(np.array(weights, dtype=np.float64), np.array(values, dtype=np.float64),
                [points is not None for points in ended], list(afters))


def best_replies(state: FamilyState, judge: Values, positions: list[Sides], mine: bool) -> Best:
    """The best reply to every roll from each of ``positions`` (the side to roll first: the seat's, ``mine``, or
    its opponent's) by ``judge``, in ``state``'s game. By points the native core values them (the replies' rows
    stay in it); in a match, or without the core (both of which :func:`choose` leaves to td1_bot), every reply's
    row is valued here: the reference."""
    net = _native_network(judge.game_id) if judge.away is None else None
    if net is not None and ACCELERATORS is not None:
        return native_best_replies(state.game, positions, net)
    replies = roll_replies(state, positions)
    values = judge.plays(replies.rows, replies.outcomes, mine=mine)
    sizes = np.array([size for _, size in replies.groups])
    group = np.repeat(np.arange(len(sizes)), sizes)
    best = np.maximum.reduceat(values, np.concatenate([[0], np.cumsum(sizes)[:-1]]))
    at_best = np.flatnonzero(values == best[group])
    rows = at_best[np.unique(group[at_best], return_index=True)[1]]
    return Best(np.array([weight for weight, _ in replies.groups], dtype=np.float64), best.astype(np.float64),
                [replies.outcomes[row] is not None for row in rows], [replies.afters[row] for row in rows])


def _expected(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Per position, the average over its rolls of the per-roll ``values`` (rolls in a row of 21)."""
    return (weights * values).reshape(-1, len(ROLLS)).sum(axis=1) / 36


def _positions_after(state: FamilyState, plays: list, seat: int) -> list[Sides]:
    """The positions the plays of ``seat`` leave, the opponent (to roll) named first."""
    left = []
    for play in plays:
        after = state.clone()
        after.apply(play)
        left.append(after.sides(1 - seat))
    return left


def two_rolls_ahead(state: FamilyState, judge: Values, seat: int, keep: int | None = None) -> dict[int, float]:
    """Of the :data:`WIDTH` plays ``judge`` values best (0-ply), the :data:`DEEP` best one roll ahead, each valued
    for ``seat`` two rolls ahead, and those that end the game by their points (by index into ``state``'s legal
    actions). The play ``keep`` (an index) is valued two rolls ahead too when given (an analysis values the play
    made)."""
    rows, outcomes = after_features(state)
    values = judge.plays(rows, outcomes)
    plays = state.legal_actions()
    order = [int(index) for index in np.argsort(-values)[:WIDTH]]
    if keep is not None and keep not in order:
        order.append(keep)
    ended = {index: float(values[index]) for index in order if outcomes[index] is not None}
    going = [index for index in order if outcomes[index] is None]
    if not going:
        return ended
    # One roll ahead: the opponent's best answer to each of its rolls after each play.
    theirs = best_replies(state, judge, _positions_after(state, [plays[index] for index in going], seat), False)
    deep = np.argsort(_expected(theirs.values, theirs.weights))[:DEEP]  # the opponent's worst, the seat's best
    if keep in going and going.index(keep) not in deep:
        deep = np.append(deep, going.index(keep))
    two_ahead = second_roll(theirs, deep, lambda positions: best_replies(state, judge, positions, True))
    return ended | {going[position]: float(two_ahead[at]) for at, position in enumerate(deep)}


def second_roll(theirs: Best, chosen: np.ndarray, replies: Callable[[list[Sides]], Best]) -> np.ndarray:
    """The value two rolls ahead of each ``chosen`` position (an index into those whose every roll's best reply
    is ``theirs``) for the side that left it: an answer that ends the game as it stands; after the others, the
    best answer (``replies``, the side to roll first) to each of that side's own rolls."""
    rolls = (chosen[:, None] * len(ROLLS) + np.arange(len(ROLLS))).ravel()
    value = -theirs.values[rolls]
    going_on = [at for at, roll in enumerate(rolls) if not theirs.ended[roll]]
    if going_on:
        mine = replies([turned(theirs.afters[rolls[at]]) for at in going_on])
        value[going_on] = _expected(mine.values, mine.weights)
    return _expected(value, theirs.weights[rolls])


def turned(after: Sides) -> Sides:
    """A position the side just moved first (as :class:`Best` gives it) with the side to roll first."""
    moved, to_roll, moved_pins, pins = after
    return to_roll, moved, pins, moved_pins


def choose(request: ActRequest) -> ActResponse:
    """The play that is best two rolls ahead (td1_bot's choice where the bot does not search)."""
    view = request.view
    searchable = (ACCELERATORS is not None and request.game in SEARCHED and not view.remainder
                  and len(view.dice) in (2, 4))
    if len(request.legal_actions) == 1 or request.clock.move_limit_ms < MIN_LIMIT_MS or not searchable:
        return td1_bot.choose(request)
    found = rebuilt(request)
    if found is None:
        return td1_bot.choose(request)
    state, plays, ids = found
    ahead = two_rolls_ahead(state, Values.of(request), view.seat)
    best = max(ahead, key=ahead.__getitem__)
    return ActResponse(ids[plays[best].notation()], f"value {ahead[best]:+.2f} two rolls ahead")


if __name__ == "__main__":
    serve(choose, name="td2", version="1.0", author="Kafana", games=td_bot.GAMES)
