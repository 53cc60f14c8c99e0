"""The chance of winning a ``tabla-match`` from its score (a match equity table), for bots that weigh the score.

A tabla-match has no doubling cube: each game gives its winner one point or two (a mars; Tapa's mother), the games
turn Tabla, Gjul Bara, Tapa, and the first to the target with more points wins. Between two equal players either
side wins a game alike, and by two points in the share of games :data:`TWO_POINT_SHARE` gives for that game (how
often the learned bots' self-play ends so). The table follows: a side needing ``away`` points against ``other``
wins the match with chance :func:`equity`, one game at a time to the end. A bot then values a play by the chances
its outcome network gives the position (win, win of two, loss of two) weighed by the equity after each result
(:func:`outcome_equity`): a side one game from the target plays for the win, not for two points, and a side whose
opponent is one game from it plays for the win too, no longer fearing a loss by two.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from referee.games.tabla_family.tabla_match import game_of

TWO_POINT_SHARE = {"tabla": 0.236, "gjul-bara": 0.411, "tapa": 0.412}
"""The share of games won by two points between equal players, per game: ``td_bot`` against itself
(``python bench/strength.py td_bot td_bot --game G``; docs/performance.md has the runs)."""


@cache
def equity(away: int, other: int, game_number: int) -> float:
    """The chance that the side needing ``away`` more points wins the match against one needing ``other``, game
    ``game_number`` of the match to be played next (0 or less: that side has reached the target).

    >>> equity(1, 1, 4), equity(0, 3, 2), equity(3, 0, 2)
    (0.5, 1.0, 0.0)
    >>> equity(1, 4, 1) > equity(1, 2, 1) > equity(2, 2, 1) == 0.5
    True
    """
    if away <= 0 or other <= 0:
        return 0.5 if away == other else float(away < other)
    two = TWO_POINT_SHARE[game_of(game_number)]
    one = (1 - two) / 2
    after = game_number + 1
    return (one * (equity(away - 1, other, after) + equity(away, other - 1, after))
            + two / 2 * (equity(away - 2, other, after) + equity(away, other - 2, after)))


def outcome_equity(chances: np.ndarray, away: int, other: int, game_number: int) -> np.ndarray:
    """For each row of ``chances`` (an outcome network's P(win), P(win of two), P(loss of two) for the side
    needing ``away``, in game ``game_number``), that side's chance to win the match."""
    win = np.clip(chances[:, 0], 0, 1)
    win_two = np.minimum(np.clip(chances[:, 1], 0, 1), win)
    lose_two = np.minimum(np.clip(chances[:, 2], 0, 1), 1 - win)
    after = game_number + 1
    return ((win - win_two) * equity(away - 1, other, after) + win_two * equity(away - 2, other, after)
            + (1 - win - lose_two) * equity(away, other - 1, after) + lose_two * equity(away, other - 2, after))
