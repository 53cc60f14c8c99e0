"""Swiss: every round pairs entrants of equal (or nearest) score who have not met, for a fixed number of rounds.

A unit won scores 1, drawn 0.5, lost 0; a bye scores 1 and goes to the lowest-ranked entrant who has not had one.
The standings rank by score, then Buchholz (the opponents' scores added up), then Sonneborn-Berger (the scores of
the opponents beaten, and half of those drawn with), then the seed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Group, History, Round

BYE_SCORE = 1.0


@dataclass(frozen=True)
class Line:
    """One entrant's line of the Swiss standings."""

    version: int
    score: float
    buchholz: float
    sonneborn_berger: float
    seed: int
    byes: int
    opponents: tuple[int, ...]


def _unit_score(winner: int | None, version: int) -> float:
    return 0.5 if winner is None else 1.0 if winner == version else 0.0


def standings(history: History) -> list[Line]:
    """The standings after the rounds played, best first (withdrawn entrants keep what they scored).

    >>> from .model import Result
    >>> h = History(entrants=[1, 2, 3])
    >>> h.rounds.append(Round(1, (Group((1, 3)),), (2,))); h.results.append([Result((2, 2), None)])
    >>> [(line.version, line.score) for line in standings(h)]
    [(2, 1.0), (1, 0.5), (3, 0.5)]
    """
    score = {v: 0.0 for v in history.entrants}
    byes = {v: 0 for v in history.entrants}
    met: dict[int, list[tuple[int, float]]] = {v: [] for v in history.entrants}
    for rnd in history.rounds[: len(history.results)]:
        for version in rnd.byes:
            score[version] += BYE_SCORE
            byes[version] += 1
    for group, result in history.played():
        a, b = group.seats
        score[a] += _unit_score(result.winner, a)
        score[b] += _unit_score(result.winner, b)
        met[a].append((b, _unit_score(result.winner, a)))
        met[b].append((a, _unit_score(result.winner, b)))
    lines = [
        Line(v, score[v], sum(score[o] for o, _ in met[v]), sum(score[o] * got for o, got in met[v]),
             history.seed(v), byes[v], tuple(o for o, _ in met[v]))
        for v in history.entrants
    ]
    return sorted(lines, key=lambda line: (-line.score, -line.buchholz, -line.sonneborn_berger, line.seed))


def _pair(players: list[int], met: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    """Pair neighbours in rank order where they have not met, going further down only when needed."""
    if not players:
        return []
    first, rest = players[0], players[1:]
    for k, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:k] + rest[k + 1 :], met)
        if tail is not None:
            return [(first, other), *tail]
    return None


def next_round(history: History, rounds: int) -> Round | None:
    """Round ``len(history.rounds) + 1`` of ``rounds``, or None when they are played.

    >>> h = History(entrants=[1, 2, 3, 4, 5])
    >>> r1 = next_round(h, 3); [g.seats for g in r1.groups], r1.byes
    ([(1, 2), (3, 4)], (5,))
    """
    if len(history.rounds) >= rounds:
        return None
    ranked = [line.version for line in standings(history) if line.version not in history.withdrawn]
    if len(ranked) < 2:
        return None
    lines = {line.version: line for line in standings(history)}
    byes: tuple[int, ...] = ()
    if len(ranked) % 2:
        fewest = min(lines[v].byes for v in ranked)
        bye = next(v for v in reversed(ranked) if lines[v].byes == fewest)
        byes = (bye,)
        ranked = [v for v in ranked if v != bye]
    met = {frozenset((v, o)) for v in ranked for o in lines[v].opponents}
    pairs = _pair(ranked, met) or _pair(ranked, set())  # everybody has met everybody: repeats, nearest first
    number = len(history.rounds) + 1
    assert pairs is not None
    return Round(number, tuple(Group(pair, f"S{number}-{k + 1}") for k, pair in enumerate(pairs)), byes)
