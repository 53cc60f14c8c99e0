"""The sequential probability ratio test for a duel: is A at least ``elo1`` stronger than B, or at most ``elo0``?

Each result (1 win, 0.5 draw, 0 loss for A) adds its log-likelihood ratio under the match-length-aware model;
the test accepts H1 once the sum reaches log((1−β)/α) and H0 once it falls to log(β/(1−α)).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .ratings import win_probability


@dataclass(frozen=True)
class SprtResult:
    """The state of the test: the log-likelihood ratio, its bounds and the decision (``H0``, ``H1`` or None)."""

    llr: float
    lower: float
    upper: float
    games: int

    @property
    def decision(self) -> str | None:
        """``H1`` (A is stronger by at least elo1), ``H0`` (by at most elo0), or None while undecided."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None


def sprt(
    scores: Iterable[float], elo0: float, elo1: float, length: int = 1, alpha: float = 0.05, beta: float = 0.05
) -> SprtResult:
    """Run the test over A's scores.

    >>> sprt([1.0] * 200, 0, 50).decision
    'H1'
    >>> sprt([0.5] * 10, 0, 50).decision is None
    True
    """
    if elo1 <= elo0:
        raise ValueError("elo1 must be larger than elo0")
    p0 = win_probability(elo0, 0, length)
    p1 = win_probability(elo1, 0, length)
    win, loss = math.log(p1 / p0), math.log((1 - p1) / (1 - p0))
    llr = 0.0
    games = 0
    for score in scores:
        llr += score * win + (1 - score) * loss
        games += 1
    return SprtResult(llr, math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha), games)
