"""The club ladder's scheduler: which unit to play next, so that games go where they inform.

The policy (:func:`next_group`), for the bots entered in an arena, given the last fit's ratings and standard
errors (on the scale of :mod:`ladder.ratings`), how many units each has, and how often each pair has met:

1. **A burst for newcomers, a floor for everyone.** A bot with fewer than :data:`BURST` units, or with fewer than
   the mean over :data:`SHARE`, plays first (the fewest first), against the least met of the bots rated nearest
   to it: a new version finds its place in a few dozen games, and no bot falls far behind.
2. **Where the order is least certain.** Otherwise every pair of near neighbours in the rating order (within
   :data:`NEIGHBOURS` places) is scored by the probability that the fit has them in the wrong order (from their
   difference and its standard error), divided by how often they have met compared with the average pair; pairs
   in the top :data:`TOP` weigh :data:`TOP_WEIGHT` times more, and the leading pair plays first while their 95%
   intervals overlap, up to :data:`LEAD_SHARE` of all units. The best pair plays.
3. Arenas take turns for the workers (:func:`next_arena`: the arena that has played the fewest matches lately,
   for its number of active bots).

Tables of more than two seats (Durak for four) are the least played bot and its nearest neighbours by rating. A
decision looks at each bot and its neighbours once: a few milliseconds at 1,000 bots (``bench/scheduling.py``,
which also compares the policy with round robin and random pairing; docs/service.md has the figures).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from .ratings import MEAN

BURST = 6
"""Units a newly entered bot plays before the others are chosen by uncertainty."""
NEIGHBOURS = 2
"""How many places up and down the rating order a bot's candidate opponents lie."""
SHARE = 2.0
"""A bot with fewer units than the mean over this plays next (no bot falls far behind the others)."""
TOP = 10
"""The top of the order, whose pairs weigh more (the leaders' order is what a leaderboard is read for)."""
TOP_WEIGHT = 2.0
"""How much more a pair at the top weighs."""
Z = 1.96
"""Two ratings' 95% intervals overlap when they are less than this many standard errors (each's) apart."""
OPEN = 1.0
"""What the leading pair adds to its score while their intervals overlap (more than any other pair scores)."""
LEAD_SHARE = 0.1
"""The most of all units the leading pair plays for that (a tie at the top does not take the whole ladder)."""
UNIT_SD = 2000.0 / (math.log(10) * 0.5 * math.sqrt(2.0))
"""The standard deviation of a rating after one unit of two even single games on the ratings' scale
(:mod:`ladder.ratings`: 1 / √(2 · (ln 10 / 2000)² · ¼)); after ``u`` units, about this over √u. Used for a bot
the last fit does not know."""


def _wrong(difference: float, spread: float) -> float:
    """The probability that two bots whose fitted ratings are ``difference`` apart, with that ``spread`` (standard
    deviation of the difference), are in the wrong order."""
    return 0.5 * math.erfc(difference / (spread * math.sqrt(2.0)))


def next_group(
    versions: Sequence[int],
    ratings: Mapping[int, float],
    units: Mapping[int, int],
    met: Mapping[tuple[int, ...], int],
    seats: int = 2,
    errors: Mapping[int, float] | None = None,
) -> tuple[int, ...] | None:
    """The bots (version ids, sorted) of the next unit to play, or None when there are fewer than ``seats``.
    ``errors`` are the ratings' standard errors (the last fit's; missing ones from the units played).

    >>> next_group([1, 2, 3], {1: 1500, 2: 1500, 3: 1500}, {1: 9, 2: 9, 3: 0}, {})
    (1, 3)
    >>> next_group([1, 2, 3, 4], {1: 1900, 2: 1850, 3: 1200, 4: 1100}, dict.fromkeys([1, 2, 3, 4], 20), {})
    (1, 2)
    """
    if len(versions) < seats:
        return None
    order = sorted(versions, key=lambda v: (-ratings.get(v, MEAN), v))
    place = {v: k for k, v in enumerate(order)}

    def error(version: int) -> float:
        known = errors.get(version) if errors is not None else None
        return known if known is not None else UNIT_SD / math.sqrt(units.get(version, 0) + 1)

    def meetings(a: int, b: int) -> int:
        return met.get((a, b) if a < b else (b, a), 0)

    def nearest(version: int, count: int) -> list[int]:
        mine = ratings.get(version, MEAN)
        others = order[max(0, place[version] - count):place[version] + count + 1]
        return sorted((v for v in others if v != version),
                      key=lambda v: (abs(ratings.get(v, MEAN) - mine), meetings(v, version), v))[:count]

    newcomer = min(versions, key=lambda v: (units.get(v, 0), v))
    behind = units.get(newcomer, 0) * SHARE < sum(units.get(v, 0) for v in versions) / len(versions)
    if units.get(newcomer, 0) < BURST or behind or seats > 2:
        if seats == 2:
            partner = min(nearest(newcomer, NEIGHBOURS * 2), key=lambda v: (meetings(v, newcomer), place[v]))
            return tuple(sorted((newcomer, partner)))
        return tuple(sorted([newcomer, *nearest(newcomer, seats - 1)]))
    average = sum(met.values()) / max(1, len(versions) * (len(versions) - 1) // 2)
    total = sum(met.values())
    best: tuple[float, tuple[int, int]] | None = None
    for index, a in enumerate(order):
        for b in order[index + 1 : index + 1 + NEIGHBOURS]:
            difference = abs(ratings.get(a, MEAN) - ratings.get(b, MEAN))
            score = _wrong(difference, math.hypot(error(a), error(b))) / (1.0 + meetings(a, b) / (1.0 + average))
            if index < TOP:
                score *= TOP_WEIGHT
                lead_open = index == 0 and difference < Z * (error(a) + error(b))
                if lead_open and meetings(a, b) < LEAD_SHARE * total:  # the lead is open: it plays first
                    score += OPEN
            if best is None or score > best[0]:
                best = (score, (a, b) if a < b else (b, a))
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
