"""Ratings recomputed from stored results, so they never depend on the order results arrived in.

Model (two seats; more seats are split into pairwise results, each weighted 1/(n−1)): the match-length-aware
logistic model of backgammon servers, P(A beats B) = 1 / (1 + 10^(−(R_A − R_B)·√n / 2000)) for an n-point match
(n = 1 for single games). Ratings are the maximum-likelihood fit with a weak normal prior (mean 1500), found by
coordinate-wise Newton steps; 95% intervals come from a seeded bootstrap over duplicate units.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

MEAN = 1500.0
PRIOR_SD = 800.0
"""A weak prior: it only keeps ratings finite when a bot won or lost everything."""


@dataclass(frozen=True)
class Pairwise:
    """One pairwise result: ``score`` is 1 if ``a`` won, 0.5 for a draw, 0 if ``b`` won."""

    a: int
    b: int
    score: float
    weight: float = 1.0


def win_probability(r_a: float, r_b: float, length: int = 1) -> float:
    """P(A beats B) in an n-point match.

    >>> round(win_probability(1600, 1500, 1), 4)
    0.5288
    >>> round(win_probability(1600, 1500, 5), 4)
    0.564
    """
    return 1.0 / (1.0 + 10.0 ** (-(r_a - r_b) * math.sqrt(length) / 2000.0))


def pairwise(seats: Sequence[int], points: Sequence[int]) -> list[Pairwise]:
    """Split one match into pairwise results: more points beats fewer, equal is a draw, weight 1/(n−1).

    >>> pairwise([7, 9], [2, 0])
    [Pairwise(a=7, b=9, score=1.0, weight=1.0)]
    """
    n = len(seats)
    out = []
    for i in range(n):
        for j in range(i + 1, n):
            score = 1.0 if points[i] > points[j] else 0.0 if points[i] < points[j] else 0.5
            out.append(Pairwise(seats[i], seats[j], score, 1.0 / (n - 1)))
    return out


def fit(
    results: Iterable[Pairwise], players: Iterable[int], length: int = 1, prior_sd: float = PRIOR_SD
) -> dict[int, float]:
    """Maximum-likelihood ratings with a normal prior N(1500, prior_sd²)."""
    return fit_with_errors(results, players, length, prior_sd)[0]


def fit_with_errors(
    results: Iterable[Pairwise], players: Iterable[int], length: int = 1, prior_sd: float = PRIOR_SD
) -> tuple[dict[int, float], dict[int, float]]:
    """:func:`fit`'s ratings, and each rating's standard error from the curvature of the log-posterior at the
    optimum (each rating alone, the others held: a quick band for charts; the leaderboards' intervals are the
    bootstrap's)."""
    results = list(results)
    ratings = {p: MEAN for p in players}
    scale = math.log(10) * math.sqrt(length) / 2000.0
    by_player: dict[int, list[tuple[int, float, float]]] = {p: [] for p in ratings}
    for r in results:
        by_player[r.a].append((r.b, r.score, r.weight))
        by_player[r.b].append((r.a, 1.0 - r.score, r.weight))

    def derivatives(player: int) -> tuple[float, float]:
        gradient = curvature = 0.0
        for other, score, weight in by_player[player]:
            p = 1.0 / (1.0 + math.exp(-scale * (ratings[player] - ratings[other])))
            gradient += weight * scale * (score - p)
            curvature -= weight * scale * scale * p * (1.0 - p)
        return gradient, curvature

    _maximise(ratings, derivatives, prior_sd)
    errors = {p: 1.0 / math.sqrt(-(derivatives(p)[1] - 1.0 / prior_sd**2)) for p in ratings}
    return ratings, errors


def _maximise(
    ratings: dict[int, float], derivatives: Callable[[int], tuple[float, float]], prior_sd: float
) -> dict[int, float]:
    """Coordinate-wise Newton ascent of log-likelihood + a N(MEAN, prior_sd²) prior, in place.

    ``derivatives(player)`` gives the log-likelihood's first and second derivative in that player's rating at the
    current ``ratings``.
    """
    inv_var = 1.0 / prior_sd**2
    for _ in range(2000):
        largest = 0.0
        for player in ratings:
            gradient, curvature = derivatives(player)
            step = -(gradient - (ratings[player] - MEAN) * inv_var) / (curvature - inv_var)
            ratings[player] += step
            largest = max(largest, abs(step))
        # At the optimum the mean is exactly the prior's (the likelihood's gradients cancel in sum), so
        # re-centring each sweep removes the slow common-mode drift of coordinate steps.
        shift = MEAN - sum(ratings.values()) / len(ratings) if ratings else 0.0
        for player in ratings:
            ratings[player] += shift
        if largest < 1e-6:
            break
    return ratings


def bootstrap(
    units: Sequence[Sequence[Pairwise]],
    players: Iterable[int],
    length: int = 1,
    samples: int = 200,
    seed: int = 0,
) -> list[dict[int, float]]:
    """Refit on ``samples`` resamplings of the units (duplicate pairs stay together)."""
    rng = random.Random(seed)
    players = list(players)
    fits = []
    for _ in range(samples):
        drawn = [result for _ in units for result in units[rng.randrange(len(units))]] if units else []
        fits.append(fit(drawn, players, length))
    return fits


def interval(fits: Sequence[dict[int, float]], player: int, level: float = 0.95) -> tuple[float, float]:
    """The central ``level`` interval of a player's bootstrap ratings."""
    values = sorted(f[player] for f in fits)
    if not values:
        return (MEAN, MEAN)
    low = values[int((1 - level) / 2 * (len(values) - 1))]
    high = values[int(math.ceil((1 + level) / 2 * (len(values) - 1)))]
    return (low, high)


def superiority(fits: Sequence[dict[int, float]], a: int, b: int) -> float:
    """Likelihood of superiority: the share of bootstrap fits in which ``a`` rates above ``b``."""
    if not fits:
        return 0.5
    return sum(1.0 if f[a] > f[b] else 0.5 if f[a] == f[b] else 0.0 for f in fits) / len(fits)


@dataclass(frozen=True)
class LoserGame:
    """A game with one loser among several sides (Durak): each side is a tuple of players (one, or two partners);
    ``loser`` is the index of the losing side (the durak's)."""

    sides: tuple[tuple[int, ...], ...]
    loser: int


_THETA = math.log(10) / 400.0


def loser_probabilities(ratings: dict[int, float], sides: Sequence[Sequence[int]]) -> list[float]:
    """The loser-choice model: P(side ℓ loses) = exp(−θ_ℓ) / Σ exp(−θ_j), θ = R·ln10/400, a team's R the mean
    of its partners'. For two sides it is exactly Elo.

    >>> [round(p, 4) for p in loser_probabilities({1: 1600, 2: 1500}, [(1,), (2,)])]
    [0.3599, 0.6401]
    """
    thetas = [_THETA * sum(ratings[p] for p in side) / len(side) for side in sides]
    low = min(thetas)
    weights = [math.exp(-(theta - low)) for theta in thetas]
    total = sum(weights)
    return [w / total for w in weights]


def fit_loser_choice(games: Iterable[LoserGame], players: Iterable[int], prior_sd: float = PRIOR_SD) -> dict[int, float]:
    """Maximum-likelihood ratings under the loser-choice model, with the same weak prior as :func:`fit`.

    A team's strength is the mean of its partners' ratings, so each partner moves by the team's gradient share.
    """
    games = list(games)
    ratings = {p: MEAN for p in players}
    involved: dict[int, list[LoserGame]] = {p: [] for p in ratings}
    for game in games:
        for side in game.sides:
            for player in side:
                involved[player].append(game)

    def derivatives(player: int) -> tuple[float, float]:
        gradient = curvature = 0.0
        for game in involved[player]:
            probabilities = loser_probabilities(ratings, game.sides)
            for index, (side, p) in enumerate(zip(game.sides, probabilities, strict=True)):
                if player in side:
                    share = _THETA / len(side)
                    gradient += (p - (1.0 if index == game.loser else 0.0)) * share
                    curvature -= p * (1 - p) * share * share
        return gradient, curvature

    return _maximise(ratings, derivatives, prior_sd)
