"""What an evaluator reads: the features of the position each legal play of a Tabla-family stage leads to, all
plays in one call (one row per play, in ``legal_actions()`` order), and the points of the plays that end the game.

The encoding is fixed (:data:`FEATURES` numbers a position), public and a seat's own view (everything in these
games is public): for each side, the side that just played first and the other second, each in its own
numbering (point 1 is that side's last point): per point 1..24 the four units n ≥ 1, n ≥ 2, n ≥ 3 and
(n − 3) / 2 above three (TD-Gammon's), then the bar n / 2 and the borne-off n / 15; then each side's pinned
checkers (Tapa), one unit per point. Who plays next is not in it: after the last stage of a turn it is the other
side, within Gjul Bara's ladder the same one.

:func:`after_features` runs in the native core when it is installed; :func:`python_after_features` is its
reference, which plays each play on a copy of the state through the public State API.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..engine import NATIVE
from ._dice import Roll
from ._family import FamilyState
from ._movegen import count

FEATURES = 2 * (24 * 4 + 2) + 2 * 24
"""Numbers per position."""

AfterFeatures = tuple[np.ndarray, list[tuple[int, int] | None]]
"""The features of each play's position (rows of :data:`FEATURES` float32) and, for a play that ends the game,
its points (the mover's first), else None."""


def encode(boards: tuple[int, int], pins: tuple[int, int]) -> list[float]:
    """The features of a position: packed boards and pin masks (bit 4p: that side's checker on its point p is
    pinned), the side just moved first.

    >>> from ._movegen import pack
    >>> row = encode((pack({24: 5, 0: 10}), pack({1: 1})), (0, 0))
    >>> row[92:96], row[97], row[98:102], len(row) == FEATURES
    ([1.0, 1.0, 1.0, 1.0], 0.6666666865348816, [1.0, 0.0, 0.0, 0.0], True)
    """
    row: list[float] = []
    for board in boards:
        for point in range(1, 25):
            n = count(board, point)
            row += [float(n >= 1), float(n >= 2), float(n >= 3), (n - 3) / 2 if n > 3 else 0.0]
        row += [count(board, 25) / 2, count(board, 0) / 15]
    for mask in pins:
        row += [float((mask >> (point << 2)) & 1) for point in range(1, 25)]
    return [float(np.float32(value)) for value in row]


def python_after_features(state: FamilyState) -> AfterFeatures:
    """:data:`AfterFeatures` of the stage at hand, each play applied to a copy of ``state``."""
    mover, other = state.current_player, 1 - state.current_player
    rows: list[list[float]] = []
    outcomes: list[tuple[int, int] | None] = []
    for play in state.legal_actions():
        after = state.clone()
        after.apply(play)
        rows.append(encode((after._boards[mover], after._boards[other]), (after._pins[mover], after._pins[other])))
        if after.is_terminal():
            points = after.outcome().points
            outcomes.append((points[mover], points[other]))
        else:
            outcomes.append(None)
    return np.array(rows, dtype=np.float32).reshape(len(rows), FEATURES), outcomes


def native_after_features(state: FamilyState) -> AfterFeatures:
    """:func:`python_after_features` computed by the native core."""
    mover, other = state.current_player, 1 - state.current_player
    ends = state.legal_actions().ends  # type: ignore[union-attr]
    data, outcomes = NATIVE.after_features(  # type: ignore[union-attr]
        state._game.id, state._boards[mover], state._boards[other], state._pins[mover], state._pins[other], ends,
        both_mothers_points=getattr(state._game, "both_mothers_points", 0),
    )
    return np.frombuffer(data, dtype="<f4").reshape(len(ends), FEATURES), outcomes


def after_features(state: FamilyState) -> AfterFeatures:
    """:data:`AfterFeatures` of the stage at hand of ``state`` (a seat to move), native when the core runs.

    >>> from referee.games import make_game
    >>> from referee.games.tabla_family._dice import Roll
    >>> state = make_game("tabla").new_state(starter=0)
    >>> state.apply(Roll(6, 5))
    >>> rows, outcomes = after_features(state)
    >>> rows.shape == (len(state.legal_actions()), FEATURES), set(outcomes)
    (True, {None})
    """
    if state.current_player < 0:
        raise ValueError("nobody is to play a move in this state")
    return (native_after_features if NATIVE is not None else python_after_features)(state)


ROLLS = tuple(Roll(high, low) for high in range(1, 7) for low in range(1, high + 1))
"""The 21 rolls in the order of :func:`roll_replies`' groups."""

Sides = tuple[int, int, int, int]
"""A position between turns: (board, the other's board, pins, the other's pins), a side named first, each side in
its own numbering."""


class Replies(NamedTuple):
    """Every roll's replies from some positions (:func:`roll_replies`)."""

    rows: np.ndarray
    """The features of the position after each reply (the side that replied first)."""
    groups: list[tuple[int, int]]
    """Per position, for each of :data:`ROLLS`: (its weight in 36, how many of the rows are its replies)."""
    outcomes: list[tuple[int, int] | None]
    """Per row, the points of a reply that ends the game (the replying side's first), else None."""
    afters: list[Sides]
    """Per row, the position the reply leaves, the side that replied first (empty when not asked for)."""


def python_roll_replies(state: FamilyState, positions: list[Sides], afters: bool = True) -> Replies:
    """:func:`roll_replies` through the public State API of ``state``'s game (the reference)."""
    replies = _python_roll_replies(state, positions)
    return replies if afters else replies._replace(afters=[])


def _ended(state: FamilyState) -> tuple[int, int] | None:
    """The points of an ended game (seat 0's first), else None."""
    if not state.is_terminal():
        return None
    points = state.outcome().points
    return points[0], points[1]


def _python_roll_replies(state: FamilyState, positions: list[Sides]) -> Replies:
    if state._game.id == "gjul-bara":
        raise ValueError("replies: a game of one stage a turn (tabla, tapa), not gjul-bara")
    rows: list[list[float]] = []
    groups: list[tuple[int, int]] = []
    outcomes: list[tuple[int, int] | None] = []
    afters: list[Sides] = []
    for mine, theirs, my_pins, their_pins in positions:
        for roll in ROLLS:
            rolled = state._game.new_state(starter=0)
            rolled._place([mine, theirs], [my_pins, their_pins], [0, 0])
            rolled.apply(roll)
            if rolled.current_player != 0:  # no play: the position stands
                rows.append(encode((mine, theirs), (my_pins, their_pins)))
                outcomes.append(_ended(rolled))
                afters.append((mine, theirs, my_pins, their_pins))
                groups.append((1 if roll.is_double else 2, 1))
                continue
            plays = rolled.legal_actions()
            for play in plays:
                after = rolled.clone()
                after.apply(play)
                rows.append(encode((after._boards[0], after._boards[1]), (after._pins[0], after._pins[1])))
                outcomes.append(_ended(after))
                afters.append((after._boards[0], after._boards[1], after._pins[0], after._pins[1]))
            groups.append((1 if roll.is_double else 2, len(plays)))
    return Replies(np.array(rows, dtype=np.float32).reshape(len(rows), FEATURES), groups, outcomes, afters)


def roll_replies(state: FamilyState, positions: list[Sides], afters: bool = True) -> Replies:
    """Every roll's replies from each of ``positions`` (the side to roll named first) in the game of ``state``, a
    game of one stage a turn (Tabla, Tapa): for each position and each of :data:`ROLLS`, every legal play of the
    side to roll, as rows of :data:`FEATURES`, with the points of those that end the game and (with ``afters``)
    the positions they leave; a roll with no play gives one row, the position as it stands. A search two rolls
    deep asks this once a level. Native when the core runs (the stuck guard, which needs a game's history, is not
    counted).

    Raises:
        ValueError: the game is Gjul Bara (a turn of its ladder is a chain of stages).

    >>> from referee.games import make_game
    >>> from ._movegen import pack
    >>> state = make_game("tapa").new_state(starter=0)
    >>> start = pack({24: 15})
    >>> replies = roll_replies(state, [(start, start, 0, 0)])
    >>> len(replies.groups), sum(weight for weight, _ in replies.groups), replies.groups[0]
    (21, 36, (1, 5))
    """
    if NATIVE is None or not hasattr(state, "_core"):
        return python_roll_replies(state, positions, afters)
    data, groups, outcomes, left = state._core.replies(positions, afters)
    return Replies(np.frombuffer(data, dtype="<f4").reshape(len(outcomes), FEATURES), groups, outcomes, left)
