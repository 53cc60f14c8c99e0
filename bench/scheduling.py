"""The club scheduler against round robin and random pairing, simulated: bots of hidden strength, results drawn
from the rating model itself, no processes.

Usage: python bench/scheduling.py [--bots 50,200,500] [--seeds 20] [--budget-factor 3] [--refit 50]

Each bot's hidden rating is drawn from N(1500, 1250) on the ladder's single-game scale (``ladder.ratings``:
P(A beats B) = 1 / (1 + 10^(−(R_A − R_B)/2000)); the spread of N(1500, 250) on the 400-point Elo scale). A unit is
two games with the seats swapped, each won with the model's probability. Every ``--refit`` units the ratings (and
their covariance) are fitted again, as the club service refits after units finish; the scheduler reads the last
fit. Three policies play the same hidden strengths and the same random draws per seed:

- ``scheduler``: :func:`ladder.scheduler.next_group`;
- ``round robin``: every pair in a shuffled order, again and again;
- ``random``: a uniformly random pair each time.

Printed per number of bots: for each policy the units until Kendall's τ between the fitted and the hidden order
reaches 0.9 (median and min–max over the seeds that reached it within the budget of ``--budget-factor`` × the
bots × (bots − 1) / 2 units, at least 4,000, and how many did), the seeds whose top 10 is exactly right at the
budget's end, the idlest and busiest bot's units over the mean, the busiest pair's meetings over the mean pair's;
then a new bot 500 points above the best joins (100 points on the 400-point scale): the units until its 95%
interval separates from the next bot's (within 2,000 units at a refit of 50), and in how many seeds it went three
refits without a unit (starved). Last, the scheduler's decision time at 1,000
bots (wall clock of this process, median of 200 decisions).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable

import numpy as np

from ladder.ratings import Fit, Pairwise, add_results, fit_totals, win_probability
from ladder.scheduler import next_group

SPREAD = 1250.0
"""The hidden ratings' standard deviation."""
LEADER = 500.0
"""How far above the best a late leader is."""


def kendall(fitted: list[float], truth: list[float]) -> float:
    """Kendall's τ (no ties) of two lists."""
    a, b = np.array(fitted), np.array(truth)
    signs = np.sign(a[:, None] - a[None, :]) * np.sign(b[:, None] - b[None, :])
    n = len(a)
    return float(signs[np.triu_indices(n, 1)].sum() / (n * (n - 1) / 2))


class League:
    """Hidden strengths, the results so far and the last fit."""

    def __init__(self, bots: int, seed: int) -> None:
        rng = random.Random(seed)
        self.truth = {bot: rng.gauss(1500, SPREAD) for bot in range(bots)}
        self.draws = random.Random(seed + 1_000_003)
        self.totals: dict = {}
        self.units: Counter[int] = Counter()
        self.met: Counter[tuple[int, int]] = Counter()
        self.fit: Fit = fit_totals({}, self.truth)
        self.played = 0

    def play(self, a: int, b: int) -> None:
        p = win_probability(self.truth[a], self.truth[b])
        add_results(self.totals, [Pairwise(a, b, float(self.draws.random() < p)) for _ in range(2)])
        self.units.update((a, b))
        self.met[(min(a, b), max(a, b))] += 1
        self.played += 1

    def refit(self) -> None:
        self.fit = fit_totals(self.totals, self.truth, start=self.fit.ratings)

    def tau(self) -> float:
        bots = sorted(self.truth)
        return kendall([self.fit.ratings[b] for b in bots], [self.truth[b] for b in bots])

    def top_ten_right(self) -> bool:
        def best(values: dict[int, float]) -> list[int]:
            return sorted(values, key=lambda b: -values[b])[:10]
        return best(self.fit.ratings) == best(self.truth)


Policy = Callable[[League], tuple[int, int]]


def scheduler(league: League) -> tuple[int, int]:
    group = next_group(sorted(league.truth), league.fit.ratings, league.units, league.met,
                       errors={b: league.fit.error(b) for b in league.truth})
    assert group is not None
    return group  # type: ignore[return-value]


def round_robin(seed: int) -> Policy:
    order: list[tuple[int, int]] = []
    rng = random.Random(seed + 7)

    def choose(league: League) -> tuple[int, int]:
        if not order:
            bots = sorted(league.truth)
            order.extend((a, b) for i, a in enumerate(bots) for b in bots[i + 1:])
            rng.shuffle(order)
        return order.pop()
    return choose


def random_pairs(seed: int) -> Policy:
    rng = random.Random(seed + 11)
    return lambda league: tuple(rng.sample(sorted(league.truth), 2))  # type: ignore[return-value]


def run(policy: Policy, bots: int, seed: int, budget: int, refit: int) -> dict:
    league = League(bots, seed)
    reached = None
    while league.played < budget:
        league.play(*policy(league))
        if league.played % refit == 0:
            league.refit()
            if reached is None and league.tau() >= 0.9:
                reached = league.played
    mean = statistics.mean(league.units.values())
    pairs = bots * (bots - 1) / 2
    out = {"reached": reached, "top10": league.top_ten_right(),
           "busiest": max(league.units.values()) / mean,
           "idlest": min(league.units.get(b, 0) for b in league.truth) / mean,
           "pair": max(league.met.values()) / (sum(league.met.values()) / pairs)}
    out.update(_late_leader(league, policy, refit))
    return out


def _late_leader(league: League, policy: Policy, refit: int) -> dict:
    """A bot far above the best joins; how long until its interval separates from the next bot's, and whether it
    kept being scheduled until then."""
    leader = max(league.truth) + 1
    league.truth[leader] = max(league.truth.values()) + LEADER
    league.refit()
    played = starved = 0
    while played < 40 * refit:
        before = league.units[leader]
        for _ in range(refit):
            league.play(*policy(league))
        league.refit()
        played += refit
        starved = starved + 1 if league.units[leader] == before else 0
        second = max((b for b in league.fit.ratings if b != leader), key=league.fit.ratings.get)
        if league.fit.interval(leader)[0] > league.fit.interval(second)[1]:
            return {"separated": played, "starved": False}
        if starved >= 3:
            return {"separated": None, "starved": True}
    return {"separated": None, "starved": False}


def _summary(values: list[int | None]) -> str:
    """The median and min–max of the runs that got there, and how many did."""
    found = [v for v in values if v is not None]
    if not found:
        return f"never (0/{len(values)})"
    return f"{statistics.median(found):,.0f} ({min(found):,}–{max(found):,}; {len(found)}/{len(values)})"


def decision_time(bots: int = 1000) -> float:
    league = League(bots, 0)
    rng = random.Random(0)
    for _ in range(5 * bots):
        league.play(*rng.sample(range(bots), 2))
    league.refit()
    times = []
    for _ in range(200):
        started = time.perf_counter()
        league.play(*scheduler(league))
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="50,200,500")
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--budget-factor", type=float, default=3.0)
    parser.add_argument("--refit", type=int, default=50)
    args = parser.parse_args()
    for bots in map(int, args.bots.split(",")):
        budget = max(4000, int(args.budget_factor * bots * (bots - 1) / 2))
        print(f"{bots} bots, {budget:,} units a run, refit every {args.refit}", flush=True)
        for name, make in (("scheduler", lambda s: scheduler), ("round robin", round_robin), ("random", random_pairs)):
            runs = [run(make(seed), bots, seed, budget, args.refit) for seed in range(args.seeds)]
            print(f"  {name:12s} τ ≥ 0.9 after {_summary([r['reached'] for r in runs]):28s}"
                  f" top 10 right {sum(r['top10'] for r in runs)}/{len(runs)}"
                  f"  units/mean {min(r['idlest'] for r in runs):.2f}–{max(r['busiest'] for r in runs):.2f}"
                  f"  busiest pair/mean {max(r['pair'] for r in runs):.1f}"
                  f"  new leader separated after {_summary([r['separated'] for r in runs])}"
                  f" (starved in {sum(r['starved'] for r in runs)})", flush=True)
    print(f"decision at 1,000 bots: {1000 * decision_time():.2f} ms (median of 200)")


if __name__ == "__main__":
    main()
