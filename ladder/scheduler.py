"""The club ladder's scheduler: which unit to play next, so that games go where they inform.

The policy (:func:`next_group`), for the bots entered in an arena, given their ratings, how many complete units
each has, and how often each pair has met:

1. **A burst for newcomers.** A bot with fewer than :data:`BURST` units plays first (the fewest first), against
   the bots rated nearest to it: a new version finds its place in a few dozen games.
2. **Where the order is least certain.** Otherwise every pair of bots that are near neighbours in the rating
   order (within :data:`NEIGHBOURS` places) is scored by how uncertain their difference is (the sum of their
   rating variances, each about 400²/units, the logistic model's scale) times how close they are (a pair 200
   points apart is worth e⁻¹ of an even pair), divided by how often they have met compared with the average pair
   (no pair is played far more than others). The best pair plays.
3. **Fair shares.** Every bot still plays: its units grow with every pairing it is in, and its variance shrinks
   only as it plays, so a bot left out climbs the scores. Arenas take turns for the workers
   (:func:`next_arena`: the arena that has played the fewest matches lately, for its number of active bots).

Tables of more than two seats (Durak for four) are formed the same way: the least played bot and its nearest
neighbours by rating.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence

BURST = 6
"""Units a newly entered bot plays before the others are chosen by uncertainty."""
NEIGHBOURS = 2
"""How many places up and down the rating order a bot's candidate opponents lie."""
SCALE = 400.0
"""The rating model's scale: a rating's standard deviation after one unit is about this much."""


def _variance(units: int) -> float:
    return SCALE**2 / (units + 1)


def next_group(
    versions: Sequence[int],
    ratings: Mapping[int, float],
    units: Mapping[int, int],
    met: Mapping[tuple[int, ...], int],
    seats: int = 2,
) -> tuple[int, ...] | None:
    """The bots (version ids, sorted) of the next unit to play, or None when there are fewer than ``seats``.

    >>> next_group([1, 2, 3], {1: 1500, 2: 1500, 3: 1500}, {1: 9, 2: 9, 3: 0}, {})
    (1, 3)
    >>> next_group([1, 2, 3, 4], {1: 1900, 2: 1850, 3: 1200, 4: 1100}, dict.fromkeys([1, 2, 3, 4], 20), {})
    (1, 2)
    """
    if len(versions) < seats:
        return None
    order = sorted(versions, key=lambda v: (-ratings.get(v, 1500.0), v))
    place = {v: k for k, v in enumerate(order)}

    def nearest(version: int, count: int) -> list[int]:
        others = [v for v in order if v != version]
        return sorted(others, key=lambda v: (abs(ratings.get(v, 1500.0) - ratings.get(version, 1500.0)),
                                             met.get(tuple(sorted((v, version))), 0), v))[:count]

    newcomer = min(versions, key=lambda v: (units.get(v, 0), v))
    if units.get(newcomer, 0) < BURST or seats > 2:
        if seats == 2:
            partner = min(nearest(newcomer, NEIGHBOURS * 2),
                          key=lambda v: (met.get(tuple(sorted((v, newcomer))), 0), place[v]))
            return tuple(sorted((newcomer, partner)))
        return tuple(sorted([newcomer, *nearest(newcomer, seats - 1)]))
    average = sum(met.values()) / max(1, len(list(itertools.combinations(versions, 2))))
    best: tuple[float, tuple[int, int]] | None = None
    for index, a in enumerate(order):
        for b in order[index + 1 : index + 1 + NEIGHBOURS]:
            pair = tuple(sorted((a, b)))
            spread = math.sqrt(_variance(units.get(a, 0)) + _variance(units.get(b, 0)))
            closeness = math.exp(-abs(ratings.get(a, 1500.0) - ratings.get(b, 1500.0)) / 200.0)
            score = spread * closeness / (1.0 + met.get(pair, 0) / (1.0 + average))
            if best is None or score > best[0]:
                best = (score, pair)  # type: ignore[assignment]
    assert best is not None
    return best[1]


def next_arena(
    recent_matches: Mapping[str, int], active_bots: Mapping[str, int], seats: Mapping[str, int]
) -> str | None:
    """The arena whose turn it is: of those with enough active bots for a table, the one with the fewest recent
    matches for its number of active bots.

    >>> next_arena({"tapa": 10, "durak-2": 2}, {"tapa": 3, "durak-2": 2, "durak-4": 3}, {"tapa": 2, "durak-2": 2, "durak-4": 4})
    'durak-2'
    """
    playable = [arena for arena, count in active_bots.items() if count >= seats[arena]]
    if not playable:
        return None
    return min(playable, key=lambda arena: (recent_matches.get(arena, 0) / active_bots[arena], arena))
