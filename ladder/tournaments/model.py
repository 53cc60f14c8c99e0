"""What every tournament format works with: entrants in seed order, rounds of groups, and the groups' results.

A format is a pure function from the entrants and the rounds so far (with their results) to the next round, so a
tournament can be re-derived from the database at any moment: after a kill it resumes to the same result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Group:
    """One pairing (or table) of a round: the versions in seat order, and where it stands in the format
    (``"W1-2"``: winners' bracket round 1, match 2; ``"T3"``: table 3; ``"final"``)."""

    seats: tuple[int, ...]
    label: str = ""


@dataclass(frozen=True)
class Round:
    """The groups of one round, and the entrants who sit it out (a bye)."""

    number: int
    groups: tuple[Group, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Result:
    """A played group: each seat's points summed over its units, and the winner (None for a draw or a table).

    ``decided_by`` says how: ``"points"``, ``"seed"`` (still level after the tie-break units: the better seed goes
    through), or ``"forfeit"`` (a withdrawn entrant).
    """

    scores: tuple[float, ...]
    winner: int | None
    decided_by: str = "points"


@dataclass
class History:
    """Everything a format may look at: the entrants in seed order (best first), those withdrawn, and the rounds
    played with their results (``results[k][g]`` is the result of group g of round k)."""

    entrants: Sequence[int]
    withdrawn: frozenset[int] = frozenset()
    rounds: list[Round] = field(default_factory=list)
    results: list[list[Result]] = field(default_factory=list)

    @property
    def active(self) -> list[int]:
        """The entrants still playing, in seed order."""
        return [v for v in self.entrants if v not in self.withdrawn]

    def seed(self, version: int) -> int:
        """1 for the best seed."""
        return list(self.entrants).index(version) + 1

    def played(self) -> list[tuple[Group, Result]]:
        """Every group played so far with its result, oldest first."""
        return [(g, r) for rnd, results in zip(self.rounds, self.results, strict=False) for g, r in zip(rnd.groups, results, strict=False)]


def next_power_of_two(n: int) -> int:
    """The bracket size for n entrants.

    >>> next_power_of_two(5), next_power_of_two(8), next_power_of_two(1)
    (8, 8, 1)
    """
    size = 1
    while size < n:
        size *= 2
    return size
