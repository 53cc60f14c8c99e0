"""Ratings recomputed from stored results, so they never depend on the order results arrived in.

Model (two seats; more seats are split into pairwise results, each weighted 1/(n−1)): the match-length-aware
logistic model of backgammon servers, P(A beats B) = 1 / (1 + 10^(−(R_A − R_B)·√n / 2000)) for an n-point match
(n = 1 for single games). Ratings are the maximum-likelihood fit with a weak normal prior (mean 1500), found by
Newton's method on the per-pair sums of results (:data:`Totals`); 95% intervals and the likelihood of superiority
come from the fit's covariance, the inverse of the observed information.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

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


Totals = dict[tuple[int, int], tuple[float, float]]
"""Pairwise results summed per pair ``(a, b)``, ``a < b``: (the results' weight, ``a``'s weighted score). The
likelihood depends on the results only through these sums, so a ladder keeps them as results arrive."""


def add_results(totals: Totals, results: Iterable[Pairwise], sign: float = 1.0) -> Totals:
    """Add ``results`` to ``totals`` in place (``sign=-1`` takes them away); return it.

    >>> add_results({}, [Pairwise(2, 1, 1.0), Pairwise(1, 2, 0.5, 0.5)])
    {(1, 2): (1.5, 0.25)}
    """
    for r in results:
        key, score = ((r.a, r.b), r.score) if r.a < r.b else ((r.b, r.a), 1.0 - r.score)
        weight, total = totals.get(key, (0.0, 0.0))
        totals[key] = (weight + sign * r.weight, total + sign * r.weight * score)
    return totals


@dataclass(frozen=True)
class Fit:
    """Maximum-likelihood ratings and their covariance about the field's mean (the inverse of the observed
    information, the negated Hessian of the log-posterior at the optimum, without the common shift of every
    rating, which the results say nothing about)."""

    ratings: dict[int, float]
    index: dict[int, int]
    """Each player's row and column in ``covariance``."""
    covariance: np.ndarray

    def error(self, player: int) -> float:
        """The rating's standard error."""
        k = self.index[player]
        return math.sqrt(float(self.covariance[k, k]))

    def interval(self, player: int, z: float = 1.96) -> tuple[float, float]:
        """The rating ± ``z`` standard errors (95% by default)."""
        rating, spread = self.ratings[player], z * self.error(player)
        return (rating - spread, rating + spread)

    def superiority(self, a: int, b: int) -> float:
        """Likelihood of superiority: P(``a`` is stronger than ``b``) under the fit's normal approximation.

        >>> f = fit_totals({(1, 2): (20.0, 14.0)}, [1, 2])
        >>> round(f.superiority(1, 2), 3), round(f.superiority(2, 1), 3)
        (0.951, 0.049)
        """
        k, m = self.index[a], self.index[b]
        variance = float(self.covariance[k, k] + self.covariance[m, m] - 2 * self.covariance[k, m])
        difference = self.ratings[a] - self.ratings[b]
        if variance <= 0:
            return 0.5 if difference == 0 else float(difference > 0)
        return 0.5 * math.erfc(-difference / math.sqrt(2 * variance))


def fit(
    results: Iterable[Pairwise], players: Iterable[int], length: int = 1, prior_sd: float = PRIOR_SD
) -> dict[int, float]:
    """Maximum-likelihood ratings with a normal prior N(1500, prior_sd²)."""
    return fit_totals(add_results({}, results), players, length, prior_sd).ratings


def fit_totals(
    totals: Totals,
    players: Iterable[int],
    length: int = 1,
    prior_sd: float = PRIOR_SD,
    start: dict[int, float] | None = None,
) -> Fit:
    """The fit of :func:`fit` from per-pair sums, by Newton's method on every rating at once (each step halved
    until the log-posterior rises), from ``start`` where given (a previous fit: a few steps then suffice).

    Cost: one pass over the pairs and one linear solve in the players per step.
    """
    order = sorted(set(players) | {p for pair in totals for p in pair})
    index = {p: k for k, p in enumerate(order)}
    n = len(order)
    scale = math.log(10) * math.sqrt(length) / 2000.0
    inv_var = 1.0 / prior_sd**2
    pairs = [(index[a], index[b], w, s) for (a, b), (w, s) in totals.items() if w > 1e-12]
    i = np.array([p[0] for p in pairs], dtype=np.intp)
    j = np.array([p[1] for p in pairs], dtype=np.intp)
    weight = np.array([p[2] for p in pairs], dtype=float)
    score = np.array([p[3] for p in pairs], dtype=float)
    start = start or {}
    r = np.array([start.get(p, MEAN) for p in order], dtype=float)

    def objective(x: np.ndarray) -> float:
        z = scale * (x[i] - x[j])  # log p = −log(1 + e^−z), log(1 − p) = −log(1 + e^z)
        return float(-(score @ np.logaddexp(0.0, -z)) - ((weight - score) @ np.logaddexp(0.0, z))
                     - 0.5 * inv_var * ((x - MEAN) @ (x - MEAN)))

    def information(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = 1.0 / (1.0 + np.exp(-scale * (x[i] - x[j])))
        g = scale * (score - weight * p)
        gradient = np.bincount(i, g, n) - np.bincount(j, g, n) - inv_var * (x - MEAN)
        h = scale * scale * weight * p * (1.0 - p)
        off = np.bincount(i * n + j, h, n * n).reshape(n, n)
        hessian = np.diag(np.bincount(i, h, n) + np.bincount(j, h, n) + inv_var) - off - off.T
        return gradient, hessian  # the hessian of the negated log-posterior

    for _ in range(100):
        gradient, hessian = information(r)
        step = np.linalg.solve(hessian, gradient) if n else r
        before, size = objective(r), 1.0
        while size > 1e-6 and objective(r + size * step) < before - 1e-12:
            size /= 2
        r = r + size * step
        if not n or float(np.max(np.abs(size * step))) < 1e-7:
            break
    # Ratings mean something only against the field (1500 is its mean): their covariance about the field's mean
    # (the inverse information projected off the common shift, which only the prior pins down).
    center = np.eye(n) - 1.0 / n if n else np.zeros((0, 0))
    covariance = center @ np.linalg.inv(information(r)[1]) @ center if n else center
    return Fit({p: float(r[k]) for p, k in index.items()}, index, covariance)


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
