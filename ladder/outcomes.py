"""A match result in words, for people: who won, and in Durak who was the durak and the places.

The ladder stores a result as points per seat (in Durak, how many seats finished in a worse place; in a session,
the deals not lost); these functions only read them.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.games import DurakTermination, GapsTermination


def winners(points: Sequence[float]) -> list[int]:
    """The seats with the most points; none when every seat has as many (a draw).

    >>> winners([0, 2]), winners([1, 1]), winners([3, 0, 3, 1])
    ([1], [], [0, 2])
    """
    if not points or len(set(points)) == 1:
        return []
    best = max(points)
    return [seat for seat, p in enumerate(points) if p == best]


def places(points: Sequence[float]) -> list[int]:
    """Each seat's place: 1 plus the seats with more points (equal points share a place).

    >>> places([3, 0, 2, 1]), places([1, 1, 0])
    ([1, 4, 2, 3], [1, 1, 3])
    """
    return [1 + sum(other > mine for other in points) for mine in points]


def summary(game: str, termination: str | None, points: Sequence[float] | None, names: Sequence[str],
            games: Sequence[dict] = ()) -> str:
    """One line for a finished match: ``durak: B · 1. A 2. C 3. B`` for Durak, ``A wins (mars) 2:0`` otherwise.

    >>> summary("durak", "durak", [2, 0, 1], ["A", "B", "C"])
    'durak: B · 1. A, 2. C, 3. B'
    >>> summary("durak", "session", [2, 1], ["A", "B"], [{"points": [1, 0]}] * 3)
    'deals lost: A 1, B 2 · 1. A, 2. B'
    >>> summary("tabla-match", "match", [5, 3], ["A", "B"]), summary("tapa", "normal", [0, 0], ["A", "B"])
    ('A wins (match) 5:3', 'draw (normal) 0:0')
    >>> summary("gaps", "win", [48], ["A"]), summary("gaps", "rounds", [40], ["A"])
    ('solved: 48 cards in place', '40 cards in place (rounds)')
    """
    if points is None:
        return ""
    score = ":".join(f"{p:g}" for p in points)
    label = [names[seat] if seat < len(names) else f"seat {seat}" for seat in range(len(points))]
    ranked = sorted(range(len(points)), key=lambda seat: (places(points)[seat], seat))
    order = ", ".join(f"{places(points)[seat]}. {label[seat]}" for seat in ranked)
    if game.startswith("durak") and len(points) > 1:
        if termination == DurakTermination.SESSION:
            lost = [len(games) - p for p in points]
            return "deals lost: " + ", ".join(f"{label[s]} {lost[s]:g}" for s in range(len(points))) + f" · {order}"
        if termination == DurakTermination.DURAK:
            fools = [seat for seat, p in enumerate(points) if p == min(points)]
            return f"durak: {' and '.join(label[s] for s in fools)} · {order}"
        return f"{termination}: no durak · {order}" if not winners(points) else f"{termination} · {order}"
    best = winners(points)
    if len(points) == 1:  # a patience: the points are the cards in place
        if termination == GapsTermination.WIN:
            return f"solved: {score} cards in place"
        return f"{score} cards in place ({termination})"
    if not best:
        return f"draw ({termination}) {score}"
    return f"{' and '.join(label[s] for s in best)} wins ({termination}) {score}"
