"""Inputs a value network may read besides the features of :mod:`referee.games.tabla_family.features`: a few
numbers a small network learns slowly from the raw board, computed from the feature rows themselves (TD-Gammon's
"expert" inputs, for Tapa).

``shots`` (Tapa): for each side, the side that just played (A) first and the side to play (B) second, the chance
that the other side's next roll pins one of its lone checkers with a single die, the chance that it pins the
side's mother (its last checker on its 24) so, the share of its checkers that stand alone and its pip count. A
die pins a lone checker when a free checker of the other side stands that many points behind it (opposite
directions: my point p is the other side's 25 − p); a lone checker on a pinned checker of the other side is safe.
Combinations of both dice are not counted.

``blocks`` (Tapa): the ``shots`` inputs, then for each side in the same order the chance that the other side's next
roll pins one of its lone checkers by any move of one checker (a die, both dice one after the other, a double's
two, three or four steps), the same for its mother, and the longest run of points it blocks to the other side
(points it holds with two checkers or more, or by pinning) up to six, over six. A checker may stop on the way only
at a point the other side does not block; a move is counted whatever the other dice are then forced to do.

``contact`` (Tabla): the ``blocks`` inputs, then for each side in the same order the chance that a checker of it on
the bar cannot enter (the other side's points among the six it enters on, over six, squared), the chance that its
rearmost checker (the bar counting as its point 25) escapes (that one checker moves the roll's two dice, or a
double's two steps, stopping only on points the other side does not block; a roll that takes it to its point 0 or
beyond escapes, and with no checker left on the board every roll does), the pips its checkers need to pass the
other side's rearmost checker (each checker behind it, the distance to the point in front of it), over 200, and its
rearmost checker's point over 25 (0 with none on the board). With no checker behind the other's, the race is on.

``primes`` (Gjul Bara, whose sides travel the same way round and never hit: the other side's point q is my point
q + 12 or q − 12, and one checker of it closes a point to me): for each side in the same order its pip count over
200, how many of the six dice it can play (some checker of it moves that many points to a point the other does
not hold, or bears off by it), its checkers that no die moves, over 15, and the longest run of points it holds in
front of the other side's rearmost checker (the prime that checker must pass), up to six, over six.
"""

from __future__ import annotations

import numpy as np

from referee.games.engine import ACCELERATORS
from referee.games.tabla_family.features import FEATURES

POINTS = 24
SIDE = 4 * POINTS + 2  # a side's units per point, then its bar and its borne-off
PINS = 2 * SIDE  # where the pin masks start: the side just moved, then the other

EXTRAS = {"plain": 0, "shots": 8, "blocks": 14, "contact": 22, "primes": 8}
"""The input sets a network can read, by name, and how many numbers each adds to the features."""
EXTENDS = {"shots": "plain", "blocks": "shots", "contact": "blocks", "primes": "plain"}
"""The input set each set begins with (its extra inputs come after that set's): a network reading the one can be
widened to the other."""
SAME_WAY = ("gjul-bara",)
"""The games whose sides travel the same way round (the other side's point q is my q ± 12): ``primes`` is theirs,
``shots``, ``blocks`` and ``contact`` (the other side's point q is my 25 − q) the others'."""


def _unit_counts() -> np.ndarray:
    """The matrix that reads a side's checkers per point back from its TD-Gammon units (n ≥ 1, n ≥ 2, n ≥ 3,
    (n − 3) / 2): (4 × 24) × 24."""
    matrix = np.zeros((4 * POINTS, POINTS))
    for point in range(POINTS):
        matrix[4 * point:4 * point + 4, point] = (1, 1, 1, 2)
    return matrix


UNITS = _unit_counts().astype(np.float32)
BITS = (1 << np.arange(POINTS)).astype(np.float32)  # point p's bit: 1 << (p - 1)
"""A row of 24 flags (0 or 1) times this is a bitmask of the points, exact in float32."""
MOTHER = 1 << (POINTS - 1)


def _mask(flags: np.ndarray, reverse: bool = False) -> np.ndarray:
    """Rows of 24 flags as bitmasks (``reverse``: the flag of point p as the bit of point 25 - p, the other
    side's numbering)."""
    return (flags @ (BITS[::-1] if reverse else BITS)).astype(np.int64)


_SINGLES = np.array([(first, second) for first in range(1, 7) for second in range(first + 1, 7)]).T[:, :, None]
"""The 15 rolls of two different dice (each 2 of 36): their first and their second die, as columns."""
_DOUBLES = np.arange(1, 7)[:, None]


class _Sides:
    """Each side of each row in turn, over the other: the side that just played first (rows 0..n-1), then the side
    to play (rows n..2n-1); its checkers, and bitmasks of points in its numbering (the other side's point q is its
    point 25 - q)."""

    def __init__(self, rows: np.ndarray) -> None:
        rows = np.asarray(rows, dtype=np.float32)
        a, b = rows[:, :4 * POINTS] @ UNITS, rows[:, SIDE:SIDE + 4 * POINTS] @ UNITS
        a_pins, b_pins = rows[:, PINS:PINS + POINTS], rows[:, PINS + POINTS:PINS + 2 * POINTS]
        self.mine = np.concatenate([a, b])
        theirs = np.concatenate([b, a])
        my_pins, their_pins = np.concatenate([a_pins, b_pins]), np.concatenate([b_pins, a_pins])
        pinning = _mask(their_pins, reverse=True)  # where a checker of mine holds one of theirs
        self.lone = _mask((self.mine == 1).astype(np.float32)) & ~_mask(my_pins) & ~pinning
        """My lone checkers that can be pinned."""
        self.shooters = _mask(((theirs >= 1) & (their_pins == 0)).astype(np.float32), reverse=True)
        """Their checkers free to move."""
        self.blocked = _mask((self.mine >= 2).astype(np.float32)) | pinning
        """The points they may not stop on."""
        self.walls = _mask((theirs >= 2).astype(np.float32), reverse=True) | _mask(my_pins)
        """The points I may not stop on."""
        self.bar = (2 * np.concatenate([rows[:, 4 * POINTS], rows[:, SIDE + 4 * POINTS]])).round().astype(np.int64)
        """My checkers on the bar."""
        on_board = self.mine > 0
        last = np.where(on_board.any(axis=1), POINTS - np.argmax(on_board[:, ::-1], axis=1), 0)
        self.rear = np.where(self.bar > 0, POINTS + 1, last)
        """My rearmost checker's point (25 on the bar, 0 with none on the board)."""

    @staticmethod
    def pairs(columns: list[np.ndarray]) -> np.ndarray:
        """Per-side columns (2n each) as rows of the side just moved's, then the other's (n × 2·columns)."""
        both = np.stack(columns, axis=1)
        n = len(both) // 2
        return np.concatenate([both[:n], both[n:]], axis=1)


def _runs(held: np.ndarray) -> np.ndarray:
    """The longest run of points in each bitmask, up to six."""
    run = np.zeros(len(held))
    for _ in range(6):
        run += held != 0
        held = held & (held >> 1)  # the points that begin a run one point longer
    return run


def _shots(sides: _Sides) -> np.ndarray:
    lone, shooters = sides.lone, sides.shooters
    # A die d moves a shooter from my point p - d onto my lone checker on p.
    dice = sum(((lone >> die) & shooters) != 0 for die in range(1, 7))
    mothers = np.where(lone & MOTHER, shooters, 0)
    mother_dice = sum((mothers >> (POINTS - 1 - die)) & 1 for die in range(1, 7))
    return sides.pairs([1 - ((6 - dice) / 6) ** 2, 1 - ((6 - mother_dice) / 6) ** 2, np.bitwise_count(lone) / 15,
                        sides.mine @ np.arange(1, POINTS + 1, dtype=np.float32) / 200])


def shots(rows: np.ndarray) -> np.ndarray:
    """The ``shots`` inputs of each row (rows × 8)."""
    return _shots(_Sides(rows))


def _blocks(sides: _Sides) -> np.ndarray:
    shooters, open_, lone = sides.shooters, ~sides.blocked, sides.lone
    # The points one free checker of theirs reaches with each roll (rolls × sides), stopping only where it may.
    one, other = shooters << _SINGLES[0], shooters << _SINGLES[1]
    singles = (one | other | ((one & open_) << _SINGLES[1]) | ((other & open_) << _SINGLES[0])) & lone
    doubles, moving = np.zeros((6, len(lone)), dtype=lone.dtype), np.broadcast_to(shooters, (6, len(lone)))
    for _ in range(4):
        moving = moving << _DOUBLES
        doubles |= moving
        moving = moving & open_
    doubles &= lone
    hit = 2 * (singles != 0).sum(axis=0) + (doubles != 0).sum(axis=0)
    mother = 2 * ((singles & MOTHER) != 0).sum(axis=0) + ((doubles & MOTHER) != 0).sum(axis=0)
    return sides.pairs([hit / 36, mother / 36, _runs(sides.blocked) / 6])


def blocks(rows: np.ndarray) -> np.ndarray:
    """The ``blocks`` inputs of each row that come after the ``shots`` ones (rows × 6)."""
    return _blocks(_Sides(rows))


def _open(walls: np.ndarray, point: np.ndarray) -> np.ndarray:
    """Whether a checker may stop on ``point`` of its numbering (points below 1 are off the board: open)."""
    return (point < 1) | ((walls >> np.maximum(point - 1, 0)) & 1 == 0)


def _contact(sides: _Sides) -> np.ndarray:
    walls, rear = sides.walls, sides.rear
    entry = np.bitwise_count(walls >> (POINTS - 6))
    escapes = np.zeros(len(rear))
    for first in range(1, 7):
        for second in range(first, 7):
            if first == second:
                escaped = _open(walls, rear - first) & _open(walls, rear - 2 * first)
            else:
                escaped = _open(walls, rear - first - second) & (_open(walls, rear - first) | _open(walls, rear - second))
            escapes += (escaped | (rear == 0)) * (1 if first == second else 2)
    n = len(rear) // 2
    front = POINTS + 1 - np.concatenate([rear[n:], rear[:n]])  # their rearmost checker on my numbering
    points = np.arange(1, POINTS + 2)
    checkers = np.concatenate([sides.mine, sides.bar[:, None].astype(np.float32)], axis=1)
    behind = np.where(points > front[:, None], points - front[:, None] + 1, 0).astype(np.float32)
    pips = (checkers * behind).sum(axis=1) / np.float32(200)  # float32, as the core counts them
    return sides.pairs([(entry / 6) ** 2, escapes / 36, pips, rear / 25])


def contact(rows: np.ndarray) -> np.ndarray:
    """The ``contact`` inputs of each row that come after the ``blocks`` ones (rows × 8)."""
    return _contact(_Sides(rows))


_ACROSS = np.array([(point + 12 if point <= 12 else point - 12) - 1 for point in range(1, POINTS + 1)])
"""Gjul Bara's geometry: the other side's checkers per point in my numbering are theirs in their own at these
indexes (the other side's point q is my point q + 12 or q − 12, the map its own inverse)."""
_LOW = (1 << POINTS) - 1


def _primes(sides: _Sides) -> np.ndarray:
    mine = sides.mine
    n = len(mine) // 2
    theirs_own = np.concatenate([mine[n:], mine[:n]])
    on = mine > 0
    checkers = _mask(on.astype(np.float32))
    open_ = ~_mask((theirs_own[:, _ACROSS] > 0).astype(np.float32)) & _LOW
    rear = sides.rear  # no bar in Gjul Bara
    their_rear = np.concatenate([rear[n:], rear[:n]])
    home = mine[:, 6:].sum(axis=1) == 0
    dice = np.zeros(len(mine))
    movable = np.zeros(len(mine), dtype=np.int64)  # the points a checker leaves by some die
    for die in range(1, 7):
        movable |= (open_ << die) & checkers
        bears = home & ((mine[:, die - 1] > 0) | ((rear < die) & (rear > 0)))
        dice += (((checkers >> die) & open_) != 0) | bears
    fixed = (mine * ((movable[:, None] >> np.arange(POINTS)) & 1)).sum(axis=1)
    stuck = np.where(home, 0, mine.sum(axis=1) - fixed).astype(np.float64)
    held = _mask(on[:, _ACROSS].astype(np.float32)) & ((1 << np.maximum(their_rear - 1, 0)) - 1)
    return sides.pairs([mine @ np.arange(1, POINTS + 1, dtype=np.float32) / 200, dice / 6, stuck / 15,
                        _runs(held) / 6])


def primes(rows: np.ndarray) -> np.ndarray:
    """The ``primes`` inputs of each row (rows × 8)."""
    return _primes(_Sides(rows))


_COMPUTE = {"shots": _shots, "blocks": _blocks, "contact": _contact, "primes": _primes}


def inputs(rows: np.ndarray, kind: str, dtype: type = np.float64) -> np.ndarray:
    """The rows a network of input set ``kind`` reads: the features and its extra inputs after them, in ``dtype``
    (rows that have them already are returned as they are)."""
    if kind == "plain" or rows.shape[1] == width(kind):
        return rows
    if ACCELERATORS is not None:
        data = ACCELERATORS.extra_inputs(np.ascontiguousarray(rows, dtype="<f4").tobytes(), kind)
        extended = np.empty((len(rows), width(kind)), dtype=dtype)
        extended[:, :FEATURES] = rows
        extended[:, FEATURES:] = np.frombuffer(data, dtype="<f8").reshape(len(rows), EXTRAS[kind])
        return extended
    return python_inputs(rows, kind).astype(dtype, copy=False)


def python_inputs(rows: np.ndarray, kind: str) -> np.ndarray:
    """:func:`inputs` in numpy (the reference the native core's ``extra_inputs`` is checked against)."""
    if kind == "plain" or rows.shape[1] == width(kind):
        return rows
    sides, extras = _Sides(rows), []
    while kind != "plain":
        extras.insert(0, _COMPUTE[kind](sides))
        kind = EXTENDS[kind]
    return np.concatenate([np.asarray(rows, dtype=np.float64), *extras], axis=1)


def extends(kind: str, base: str) -> bool:
    """Whether input set ``kind`` begins with the inputs of ``base`` (or is it)."""
    while kind != base and kind != "plain":
        kind = EXTENDS[kind]
    return kind == base


def check_suits(kind: str, game_id: str) -> None:
    """Raise unless input set ``kind`` reads ``game_id``'s board the way its sides travel.

    Raises:
        ValueError: it does not (one line).
    """
    if kind != "plain" and (kind == "primes") != (game_id in SAME_WAY):
        way = "the same way" if kind == "primes" else "opposite ways"
        raise ValueError(f"inputs {kind!r} read boards whose sides travel {way}, not {game_id}'s")


def width(kind: str) -> int:
    """How many inputs a network of input set ``kind`` reads."""
    return FEATURES + EXTRAS[kind]
