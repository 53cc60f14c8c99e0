"""The club ladder's scheduler: which unit to play next, so that games go where they inform.

The policy (:func:`next_group`), for the bots entered in an arena, given the last fit's ratings and standard
errors (on the scale of :mod:`ladder.ratings`), how many units each has, and how often each pair has met:

1. **Every bot plays as often as the others**: the bot with the fewest units plays next (a new version first,
   until it has caught up). The one exception is the leader: while its 95% interval overlaps the next bot's, it
   plays first as long as it has fewer units than the mean, so that a new leader is played until it is one.
2. **Against a near neighbour**: of the bots within :data:`NEIGHBOURS` places of it in the rating order, the one
   it has met least (then the least played, then the nearest). A game between near equals tells the most about
   their order (its outcome is least certain), and choosing among several neighbours spreads the meetings.
3. Arenas take turns for the workers (:func:`next_arena`: the arena that has played the fewest matches lately,
   for its number of active bots).

Tables of more than two seats (Durak for four) are the least played bot and its nearest neighbours by rating.
``bench/scheduling.py`` compares the policy with round robin and random pairing on the same hidden strengths;
docs/service.md has the figures. A decision sorts the bots once: about a millisecond at 1,000 bots.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from .ratings import MEAN

NEIGHBOURS = 4
"""How many places up and down the rating order a bot's opponents lie."""
Z = 1.96
"""Two ratings' 95% intervals overlap when they are less than this many standard errors (each's) apart."""
UNIT_SD = 2000.0 / (math.log(10) * 0.5 * math.sqrt(2.0))
"""The standard deviation of a rating after one unit of two even single games on the ratings' scale
(:mod:`ladder.ratings`: 1 / √(2 · (ln 10 / 2000)² · ¼)); after ``u`` units, about this over √u. Used for a bot
the last fit does not know."""


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
    (2, 3)
    >>> next_group([1, 2, 3, 4], {1: 1900, 2: 1850, 3: 1200, 4: 1100}, {1: 20, 2: 20, 3: 20, 4: 21}, {})
    (1, 2)
    """
    if len(versions) < seats:
        return None
    order = sorted(versions, key=lambda v: (-ratings.get(v, MEAN), v))
    place = {v: k for k, v in enumerate(order)}

    def played(version: int) -> int:
        return units.get(version, 0)

    def error(version: int) -> float:
        known = errors.get(version) if errors is not None else None
        return known if known is not None else UNIT_SD / math.sqrt(played(version) + 1)

    def meetings(a: int, b: int) -> int:
        return met.get((a, b) if a < b else (b, a), 0)

    leader, second = order[0], order[min(1, len(order) - 1)]
    mean = sum(played(v) for v in versions) / len(versions)
    overlap = ratings.get(leader, MEAN) - Z * error(leader) < ratings.get(second, MEAN) + Z * error(second)
    first = leader if overlap and played(leader) < mean else min(versions, key=lambda v: (played(v), v))
    here = place[first]
    if seats > 2:
        nearest = sorted((v for v in order if v != first), key=lambda v: (abs(place[v] - here), v))
        return tuple(sorted([first, *nearest[:seats - 1]]))
    window = [v for v in order[max(0, here - NEIGHBOURS):here + NEIGHBOURS + 1] if v != first]
    partner = min(window, key=lambda v: (meetings(first, v), played(v), abs(place[v] - here), v))
    return (first, partner) if first < partner else (partner, first)


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
