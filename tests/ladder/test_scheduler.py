"""The club scheduler, simulated: fake results from known strengths, dozens of bots, no processes. Its ratings
find the true order with fewer games than round robin, every bot plays as often as the others, a new leader is
played, and tables of four are neighbours."""

from __future__ import annotations

import itertools
import random
import statistics
from collections import Counter

from ladder.ratings import Fit, Pairwise, add_results, fit_totals, win_probability
from ladder.scheduler import NEIGHBOURS, next_group

BOTS = 50
REFIT = 50
"""Units between refits of the ratings the scheduler reads (the service refits a few seconds after units end)."""
SPREAD = 1250.0
"""The hidden ratings' standard deviation on the ratings' scale (250 on the 400-point Elo scale)."""


def kendall(a: list[float], b: list[float]) -> float:
    pairs = list(itertools.combinations(range(len(a)), 2))
    return sum(1 if (a[i] - a[j]) * (b[i] - b[j]) > 0 else -1 for i, j in pairs) / len(pairs)


def units_to_order(informative: bool, seed: int, target: float = 0.9, budget: int = 4000) -> int:
    """Units played until the fitted ratings order ``BOTS`` bots of hidden strength with Kendall's τ ≥ ``target``
    (checked at each refit), each unit two games with results drawn from the ratings' own model; the scheduler's
    choice or round robin in a shuffled order."""
    rng = random.Random(seed)
    truth = {bot: rng.gauss(1500, SPREAD) for bot in range(BOTS)}
    pairs = list(itertools.combinations(range(BOTS), 2))
    rng.shuffle(pairs)
    totals: dict = {}
    fitted = fit_totals(totals, truth)
    units: Counter[int] = Counter()
    met: Counter[tuple[int, ...]] = Counter()
    for step in range(budget):
        errors = {bot: fitted.error(bot) for bot in truth}
        a, b = next_group(list(truth), fitted.ratings, units, met, errors=errors) if informative else pairs[
            step % len(pairs)]
        chance = win_probability(truth[a], truth[b])
        add_results(totals, [Pairwise(a, b, float(rng.random() < chance)) for _ in range(2)])
        units.update((a, b))
        met[(a, b)] += 1
        if (step + 1) % REFIT == 0:
            fitted = fit_totals(totals, truth, start=fitted.ratings)
            if kendall([fitted.ratings[bot] for bot in truth], list(truth.values())) >= target:
                return step + 1
    return budget


def test_the_scheduler_finds_the_order_with_fewer_games_than_round_robin():
    """50 bots, ten seeds: the median units until Kendall's τ ≥ 0.9 is at most 0.8 of round robin's
    (docs/service.md has the figures of bench/scheduling.py, over more seeds)."""
    ours = statistics.median(units_to_order(True, seed) for seed in range(10))
    uniform = statistics.median(units_to_order(False, seed) for seed in range(10))
    assert ours <= 0.8 * uniform, (ours, uniform)


def test_every_bot_plays_as_often_as_the_others_and_meets_its_neighbours():
    """600 units among 30 bots: every bot within a tenth of the mean, opponents among its near neighbours (no pair
    more than twelve times the mean pair)."""
    rng = random.Random(3)
    truth = {bot: rng.gauss(1500, 250) for bot in range(30)}
    units: Counter[int] = Counter()
    met: Counter[tuple[int, ...]] = Counter()
    ratings = dict(truth)
    order = sorted(truth, key=lambda bot: -truth[bot])
    for _ in range(600):
        pair = next_group(list(truth), ratings, units, met)
        assert pair is not None and abs(order.index(pair[0]) - order.index(pair[1])) <= NEIGHBOURS
        units.update(pair)
        met[tuple(sorted(pair))] += 1
    assert 0.9 * 40 <= min(units.values()) <= max(units.values()) <= 1.1 * 40  # 40 a bot on average
    assert max(met.values()) <= 12 * 600 / (30 * 29 / 2)


def test_a_new_leader_plays_first_until_it_has_the_mean_units_and_is_never_starved():
    """A bot far above twenty others joins late: the scheduler (on refits every 20 units, as the service refits
    after units) plays it in every refit until it has the mean units, then as often as the others (never three
    refits without a unit), and it leads the fitted order within 200 units."""
    rng = random.Random(5)
    truth = {bot: rng.gauss(1500, SPREAD) for bot in range(20)}
    totals: dict = {}
    units: Counter[int] = Counter()
    met: Counter[tuple[int, ...]] = Counter()

    def play(count: int, fitted: Fit) -> None:
        for _ in range(count):
            errors = {bot: fitted.error(bot) for bot in fitted.ratings}
            a, b = next_group(list(truth), fitted.ratings, units, met, errors=errors)
            chance = win_probability(truth[a], truth[b])
            add_results(totals, [Pairwise(a, b, float(rng.random() < chance)) for _ in range(2)])
            units.update((a, b))
            met[(a, b)] += 1

    fitted = fit_totals(totals, truth)
    for _ in range(40):
        play(20, fitted)
        fitted = fit_totals(totals, truth, start=fitted.ratings)
    leader = 20
    truth[leader] = max(truth.values()) + 500
    fitted = fit_totals(totals, truth, start=fitted.ratings)
    idle, led = 0, None
    for window in range(100):
        before, mean = units[leader], sum(units.values()) / len(truth)
        play(20, fitted)
        assert units[leader] > before or before >= mean, f"the leader idled below the mean in refit {window}"
        idle = 0 if units[leader] > before else idle + 1
        assert idle < 3, "the leader went three refits without a unit"
        fitted = fit_totals(totals, truth, start=fitted.ratings)
        if led is None and max(fitted.ratings, key=fitted.ratings.__getitem__) == leader:
            led = 20 * (window + 1)
    assert led is not None and led <= 200


def test_a_table_of_four_is_the_least_played_bot_and_its_nearest():
    """The nearest in the rating order (of two as near, the lower id)."""
    ratings = {bot: 1000.0 + 100 * bot for bot in range(10)}
    units = dict.fromkeys(ratings, 5) | {3: 1}
    assert next_group(list(ratings), ratings, units, {}, seats=4) == (1, 2, 3, 4)
    assert next_group([0, 1, 2], ratings, units, {}, seats=4) is None
