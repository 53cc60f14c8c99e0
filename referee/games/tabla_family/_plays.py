"""Moves of the Tabla family: a :class:`Step` moves one checker by one die, a :class:`Play` is a whole stage.

Points are numbered in the mover's own direction of travel: 24..1, 25 is the bar and 0 is off the board.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from .._core import InvalidActionError

BAR = 25
OFF = 0


@dataclass(frozen=True, order=True)
class Step:
    """One checker moved from ``src`` to ``dst`` with ``die``; ``hit`` when it hits (Tabla) or pins (Tapa)."""

    src: int
    dst: int
    die: int
    hit: bool = False

    def notation(self) -> str:
        """``13/10*``, ``bar/20``, ``6/off``.

        >>> Step(13, 10, 3, True).notation(), Step(25, 20, 5).notation(), Step(6, 0, 6).notation()
        ('13/10*', 'bar/20', '6/off')
        """
        src = "bar" if self.src == BAR else str(self.src)
        dst = "off" if self.dst <= OFF else str(self.dst)
        return f"{src}/{dst}{'*' if self.hit else ''}"


RawPlay = tuple[tuple[int, int, int, bool], ...]
"""A play's steps, each as ``(src, dst, die, hit)``."""


class StepSource(Protocol):
    """Where a play listed by end position finds its steps and notation (the stage it was listed in)."""

    def steps(self, end: int) -> RawPlay:
        """The steps of the play that ends in ``end``."""
        ...

    def notation(self, end: int) -> str:
        """The notation of the play that ends in ``end``."""
        ...


class Play:
    """The ordered steps of one stage (two dice, four equal dice or one Gjul Bara ladder stage).

    ``raw`` holds each step as a ``(src, dst, die, hit)`` tuple. ``key`` is the engine's end position of the play
    (an int; -1 for a play read from the wire): plays of one stage are ordered by it, and equal plays have equal
    steps. A play listed by an engine has only its key and the stage it came from until its steps are read.
    """

    __slots__ = ("key", "_raw", "_source")

    def __init__(self, raw: RawPlay | None = None, key: int = -1, source: StepSource | None = None) -> None:
        if raw is None and source is None:
            raise ValueError("a play needs its steps or the stage it was listed in")
        self._raw = raw
        self.key = key
        self._source = source

    @property
    def raw(self) -> RawPlay:
        """The steps as ``(src, dst, die, hit)`` tuples."""
        if self._raw is None:
            self._raw = self._source.steps(self.key)  # type: ignore[union-attr]
        return self._raw

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps as :class:`Step` objects."""
        return tuple(Step(*step) for step in self.raw)

    def notation(self) -> str:
        """Steps separated by spaces, e.g. ``24/18 18/13`` (:func:`notation_of`; a listed play's is made with its
        stage's).

        >>> Play(((24, 18, 6, False), (18, 13, 5, False))).notation()
        '24/18 18/13'
        """
        if self._raw is None:
            return self._source.notation(self.key)  # type: ignore[union-attr]
        return notation_of(self._raw)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self.raw == other.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __lt__(self, other: Play) -> bool:
        return (self.key, self.raw) < (other.key, other.raw)

    def __repr__(self) -> str:
        return f"Play({self.notation()!r})"

    def __reduce__(self) -> tuple:
        return Play, (self.raw, self.key)


class _StepTexts(dict):
    """The notation of each raw step, made the first time it is asked for (the referee writes the notation of
    every legal play at every decision, and a game has only a few hundred different steps)."""

    def __missing__(self, step: tuple[int, int, int, bool]) -> str:
        text = Step(*step).notation()
        self[step] = text
        return text


_STEP_TEXTS = _StepTexts()


def notation_of(raw: RawPlay) -> str:
    """The notation of a play's steps: each step's, separated by spaces.

    >>> notation_of(((25, 20, 5, False), (13, 10, 3, True), (6, 0, 6, False)))
    'bar/20 13/10* 6/off'
    """
    return " ".join(map(_STEP_TEXTS.__getitem__, raw))


_STEP_RE = re.compile(r"^(bar|\d{1,2})/(off|\d{1,2})(\*?)$")


def parse_steps(text: str) -> tuple[tuple[int, int, bool], ...]:
    """Read the (src, dst, hit) triples of a play's notation; dice are implied by the distance.

    >>> parse_steps("bar/20 13/10* 6/off")
    ((25, 20, False), (13, 10, True), (6, 0, False))
    """
    steps = []
    for token in text.split():
        match = _STEP_RE.match(token)
        if not match:
            raise InvalidActionError(f"not a step: {token!r} (expected e.g. 24/18, 13/10*, bar/20, 6/off)")
        src = BAR if match.group(1) == "bar" else int(match.group(1))
        dst = OFF if match.group(2) == "off" else int(match.group(2))
        if not (1 <= src <= BAR and OFF <= dst < src):
            raise InvalidActionError(f"impossible step {token!r}: checkers move from higher to lower points")
        steps.append((src, dst, bool(match.group(3))))
    if not steps:
        raise InvalidActionError("empty play")
    return tuple(steps)
