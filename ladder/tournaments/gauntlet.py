"""A gauntlet: one entrant (the first, the challenger) plays one unit against every other in each round, the way
engine testers measure a new version against a field."""

from __future__ import annotations

from dataclasses import dataclass

from .model import Group, History, Round


@dataclass(frozen=True)
class Line:
    """The challenger's record against one opponent."""

    opponent: int
    wins: int
    draws: int
    losses: int


def next_round(history: History, rounds: int) -> Round | None:
    """The challenger against every active opponent, for ``rounds`` rounds.

    >>> [g.seats for g in next_round(History(entrants=[7, 1, 2]), 2).groups]
    [(7, 1), (7, 2)]
    """
    challenger, *field = history.entrants
    opponents = [v for v in field if v not in history.withdrawn]
    if len(history.rounds) >= rounds or challenger in history.withdrawn or not opponents:
        return None
    number = len(history.rounds) + 1
    return Round(number, tuple(Group((challenger, v), f"G{number}-{k + 1}") for k, v in enumerate(opponents)))


def standings(history: History) -> list[Line]:
    """The challenger's wins, draws and losses against each opponent, in seed order."""
    challenger = history.entrants[0]
    record = {v: [0, 0, 0] for v in history.entrants[1:]}
    for group, result in history.played():
        other = group.seats[1]
        record[other][0 if result.winner == challenger else 1 if result.winner is None else 2] += 1
    return [Line(v, *counts) for v, counts in record.items()]
