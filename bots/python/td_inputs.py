"""Inputs a value network may read besides the features of :mod:`referee.games.tabla_family.features`: a few
numbers a small network learns slowly from the raw board, computed from the feature rows themselves (TD-Gammon's
"expert" inputs, for Tapa).

``shots`` (Tapa): for each side, the side that just played (A) first and the side to play (B) second, the chance
that the other side's next roll pins one of its lone checkers with a single die, the chance that it pins the
side's mother (its last checker on its 24) so, the share of its checkers that stand alone and its pip count. A
die pins a lone checker when a free checker of the other side stands that many points behind it (opposite
directions: my point p is the other side's 25 − p); a lone checker on a pinned checker of the other side is safe.
Combinations of both dice are not counted.
"""

from __future__ import annotations

import numpy as np

from referee.games.tabla_family.features import FEATURES

POINTS = 24
SIDE = 4 * POINTS + 2  # a side's units per point, then its bar and its borne-off
PINS = 2 * SIDE  # where the pin masks start: the side just moved, then the other

EXTRAS = {"plain": 0, "shots": 8}
"""The input sets a network can read, by name, and how many numbers each adds to the features."""


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


def shots(rows: np.ndarray) -> np.ndarray:
    """The ``shots`` inputs of each row (rows × 8)."""
    rows = np.asarray(rows, dtype=np.float32)
    n = len(rows)
    a, b = rows[:, :4 * POINTS] @ UNITS, rows[:, SIDE:SIDE + 4 * POINTS] @ UNITS
    a_pins, b_pins = rows[:, PINS:PINS + POINTS], rows[:, PINS + POINTS:PINS + 2 * POINTS]
    mine, theirs = np.concatenate([a, b]), np.concatenate([b, a])  # each side in turn, over the other
    my_pins, their_pins = np.concatenate([a_pins, b_pins]), np.concatenate([b_pins, a_pins])
    # Bitmasks in my numbering: the other side's point q is my point 25 - q.
    alone = (mine == 1).astype(np.float32)
    lone = _mask(alone) & ~_mask(my_pins) & ~_mask(their_pins, reverse=True)
    shooters = _mask(((theirs >= 1) & (their_pins == 0)).astype(np.float32), reverse=True)
    # A die d moves a shooter from my point p - d onto my lone checker on p.
    dice = sum(((lone >> die) & shooters) != 0 for die in range(1, 7))
    mothers = np.where(lone & MOTHER, shooters, 0)
    mother_dice = sum((mothers >> (POINTS - 1 - die)) & 1 for die in range(1, 7))
    columns = [1 - ((6 - dice) / 6) ** 2, 1 - ((6 - mother_dice) / 6) ** 2, np.bitwise_count(lone) / 15,
               mine @ np.arange(1, POINTS + 1, dtype=np.float32) / 200]
    both = np.stack(columns, axis=1)  # 2n × 4: the side just moved's rows, then the other's
    return np.concatenate([both[:n], both[n:]], axis=1)


def inputs(rows: np.ndarray, kind: str) -> np.ndarray:
    """The rows a network of input set ``kind`` reads: the features and its extra inputs after them (rows that
    have them already are returned as they are)."""
    if kind == "plain" or rows.shape[1] == width(kind):
        return rows
    return np.concatenate([np.asarray(rows, dtype=np.float64), shots(rows)], axis=1)


def width(kind: str) -> int:
    """How many inputs a network of input set ``kind`` reads."""
    return FEATURES + EXTRAS[kind]
