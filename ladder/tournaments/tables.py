"""Durak tables: every round the entrants are drawn afresh into tables of the arena's seats (in 2v2, pairs of teams
that stay together for the whole tournament); each seat scores the points its places earn (a seat scores one
point for every seat that finished behind it, summed over the unit's deals). Entrants left over by the draw sit the
round out, those who sat out least first, and score the round's mean seat score.

The draw is made from the tournament's draw seed and the round number: public, like a club's card draw, and the
same on every resume.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .model import Group, History, Round


def teams_of(entrants: list[int]) -> list[tuple[int, int]]:
    """Teams for 2v2, balanced by seed: the best with the last, the second with the second last, ...

    >>> teams_of([1, 2, 3, 4, 5, 6])
    [(1, 6), (2, 5), (3, 4)]

    Raises:
        ValueError: an odd number of entrants.
    """
    if len(entrants) % 2:
        raise ValueError(f"a 2v2 tournament needs an even number of entrants, not {len(entrants)}")
    half = len(entrants) // 2
    return [(entrants[k], entrants[-1 - k]) for k in range(half)]


def _sides(history: History, teams: bool) -> list[tuple[int, ...]]:
    """What is drawn: single entrants, or teams (a team with a withdrawn member is out)."""
    if not teams:
        return [(v,) for v in history.active]
    return [team for team in teams_of(list(history.entrants)) if not set(team) & history.withdrawn]


def next_round(history: History, rounds: int, seats: int, teams: bool, draw_seed: str) -> Round | None:
    """Round ``len(history.rounds) + 1`` of ``rounds``: the draw into tables, and who sits out.

    >>> r = next_round(History(entrants=[1, 2, 3, 4, 5]), 2, 4, False, "x")
    >>> len(r.groups), len(r.groups[0].seats), len(r.byes)
    (1, 4, 1)
    >>> r = next_round(History(entrants=[1, 2, 3, 4]), 1, 4, True, "x"); sorted(r.groups[0].seats[::2])
    [1, 4]
    """
    per_table = seats // 2 if teams else seats
    sides = _sides(history, teams)
    if len(history.rounds) >= rounds or len(sides) < per_table:
        return None
    number = len(history.rounds) + 1
    rng = random.Random(f"{draw_seed}/{number}")
    rng.shuffle(sides)
    sat_out = {v: sum(v in rnd.byes for rnd in history.rounds) for v in history.entrants}
    resting = len(sides) % per_table
    rest = sorted(range(len(sides)), key=lambda k: (sat_out[sides[k][0]], k))[:resting] if resting else []
    seated = [side for k, side in enumerate(sides) if k not in rest]
    groups = []
    for t in range(len(seated) // per_table):
        table = seated[t * per_table : (t + 1) * per_table]
        order = tuple(member for side in table for member in side) if not teams else tuple(
            team[member] for member in (0, 1) for team in table)
        groups.append(Group(order, f"T{number}-{t + 1}"))
    byes = tuple(v for k in rest for v in sides[k])
    return Round(number, tuple(groups), byes)


@dataclass(frozen=True)
class Line:
    """One entrant's (or team's) line of the standings."""

    members: tuple[int, ...]
    points: float
    tables: int
    firsts: int
    byes: int
    seed: int


def standings(history: History, teams: bool) -> list[Line]:
    """The standings: points (byes at the round's mean seat score), then tables topped, then the seed."""
    sides = teams_of(list(history.entrants)) if teams else [(v,) for v in history.entrants]
    points = {v: 0.0 for v in history.entrants}
    tables = {v: 0 for v in history.entrants}
    firsts = {v: 0 for v in history.entrants}
    byes = {v: 0 for v in history.entrants}
    for rnd, results in zip(history.rounds, history.results, strict=False):
        seated = [score for result in results for score in result.scores]
        mean = sum(seated) / len(seated) if seated else 0.0
        for group, result in zip(rnd.groups, results, strict=False):
            top = max(result.scores)
            for version, score in zip(group.seats, result.scores, strict=True):
                points[version] += score
                tables[version] += 1
                firsts[version] += score == top
        for version in rnd.byes:
            points[version] += mean
            byes[version] += 1
    lines = [
        Line(side, sum(points[v] for v in side), tables[side[0]], firsts[side[0]], byes[side[0]],
             min(history.seed(v) for v in side))
        for side in sides
    ]
    return sorted(lines, key=lambda line: (-line.points, -line.firsts, line.seed))
