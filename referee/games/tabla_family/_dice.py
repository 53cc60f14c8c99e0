"""Dice as chance actions: the two-dice roll and the one-die opening throw of the Tabla family."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from .._core import InvalidActionError


@dataclass(frozen=True, order=True)
class Roll:
    """A roll of two dice, larger first (``Roll(6, 3)``; doubles ``Roll(4, 4)``)."""

    high: int
    low: int

    @property
    def is_double(self) -> bool:
        """True for doubles."""
        return self.high == self.low

    def notation(self) -> str:
        """``roll 6-3``.

        >>> Roll(6, 3).notation()
        'roll 6-3'
        """
        return f"roll {self.high}-{self.low}"


@dataclass(frozen=True, order=True)
class OpeningThrow:
    """The one-die opening throw: ``dice[s]`` is the die thrown by seat ``s``. Equal dice are thrown again."""

    dice: tuple[int, int]

    def notation(self) -> str:
        """``opening 4-2`` (seat 0's die first).

        >>> OpeningThrow((4, 2)).notation()
        'opening 4-2'
        """
        return f"opening {self.dice[0]}-{self.dice[1]}"


ROLL_OUTCOMES: tuple[tuple[Roll, float], ...] = tuple(
    (Roll(high, low), (1 if high == low else 2) / 36) for high in range(1, 7) for low in range(1, high + 1)
)
"""The 21 distinct rolls with their probabilities."""

_ROLLS_BY_36 = [Roll(max(a, b), min(a, b)) for a in range(1, 7) for b in range(1, 7)]
"""The roll of each of the 36 equally likely ordered throws of two dice."""


def draw_roll(rng: random.Random) -> Roll:
    """A roll drawn from ``rng`` with the probabilities of ``ROLL_OUTCOMES`` (one uniform draw among the 36 ordered
    throws: one ``rng.random()`` a roll, like :func:`draw_chance`).

    >>> from collections import Counter
    >>> rng = random.Random(1)
    >>> counts = Counter(draw_roll(rng) for _ in range(36_000))
    >>> round(counts[Roll(6, 5)] / 1000), round(counts[Roll(6, 6)] / 1000)
    (2, 1)
    """
    return _ROLLS_BY_36[int(rng.random() * 36)]


OPENING_OUTCOMES: tuple[tuple[OpeningThrow, float], ...] = tuple(
    (OpeningThrow((a, b)), 1 / 36) for a in range(1, 7) for b in range(1, 7)
)
"""The 36 opening throws (ties included; a tie means throwing again)."""

_CHANCE_RE = re.compile(r"^(roll|opening)\s+([1-6])-([1-6])$")


def parse_dice(text: str) -> Roll | OpeningThrow:
    """Read ``roll 6-3`` or ``opening 4-2``.

    >>> parse_dice("roll 3-6")
    Roll(high=6, low=3)
    >>> parse_dice("opening 1-1")
    OpeningThrow(dice=(1, 1))
    """
    match = _CHANCE_RE.match(text.strip())
    if not match:
        raise InvalidActionError(f"not a dice action: {text!r}")
    kind, a, b = match.group(1), int(match.group(2)), int(match.group(3))
    if kind == "roll":
        return Roll(max(a, b), min(a, b))
    return OpeningThrow((a, b))
