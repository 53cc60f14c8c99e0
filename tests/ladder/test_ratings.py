"""Ratings against hand-computed values and synthetic leagues with known strengths."""

from __future__ import annotations

import math
import random

import pytest

from ladder.ratings import Pairwise, add_results, fit, fit_totals, pairwise, win_probability


def test_win_probability_by_hand():
    assert win_probability(1500, 1500, 5) == 0.5
    # 200 points apart in a 1-point game: 1 / (1 + 10^(-0.1))
    assert win_probability(1700, 1500, 1) == pytest.approx(1 / (1 + 10**-0.1))
    # ... and in a 4-point match the difference counts twice (√4 = 2).
    assert win_probability(1700, 1500, 4) == pytest.approx(1 / (1 + 10**-0.2))


def test_fit_matches_the_closed_form_without_a_prior():
    results = [Pairwise(1, 2, 1.0)] * 3 + [Pairwise(1, 2, 0.0)]
    for length in (1, 5):
        ratings = fit(results, [1, 2], length=length, prior_sd=1e9)
        expected = math.log10(3) * 2000 / math.sqrt(length)  # p = 3/4
        assert ratings[1] - ratings[2] == pytest.approx(expected, abs=1e-3)
        assert (ratings[1] + ratings[2]) / 2 == pytest.approx(1500, abs=1e-3)


def test_prior_keeps_a_perfect_record_finite_and_draws_count_half():
    ratings = fit([Pairwise(1, 2, 1.0)] * 10, [1, 2])
    assert 1500 < ratings[1] < 5000 and ratings[2] == pytest.approx(3000 - ratings[1])
    even = fit([Pairwise(1, 2, 0.5)] * 4, [1, 2])
    assert even[1] == pytest.approx(even[2])


def test_pairwise_split_for_more_seats():
    results = pairwise([1, 2, 3], [2, 1, 1])
    assert [(r.a, r.b, r.score) for r in results] == [(1, 2, 1.0), (1, 3, 1.0), (2, 3, 0.5)]
    assert all(r.weight == 0.5 for r in results)


def simulate(truth: dict[int, float], length: int, rounds: int, rng: random.Random):
    units = []
    players = sorted(truth)
    for _ in range(rounds):
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                unit = []
                for _ in range(2):  # a duplicate pair
                    won = rng.random() < win_probability(truth[a], truth[b], length)
                    unit.append(Pairwise(a, b, 1.0 if won else 0.0))
                units.append(unit)
    return units


def test_synthetic_league_order_and_interval_coverage():
    truth = {1: 1100.0, 2: 1300.0, 3: 1500.0, 4: 1700.0, 5: 1900.0}
    rng = random.Random(7)
    covered = total = 0
    for _ in range(6):
        units = simulate(truth, 5, 40, rng)
        fitted = fit_totals(add_results({}, [r for u in units for r in u]), truth, length=5)
        order = sorted(truth, key=fitted.ratings.get)
        assert order == [1, 2, 3, 4, 5], fitted.ratings
        shift = sum(fitted.ratings.values()) / 5 - 1500  # ratings are relative: compare on the same centre
        for player, true in truth.items():
            low, high = fitted.interval(player)
            covered += low - shift <= true <= high - shift
            total += 1
        assert fitted.superiority(5, 1) > 0.99 and fitted.superiority(1, 5) < 0.01
    assert covered / total >= 0.8, f"coverage {covered}/{total}"


def test_a_warm_start_and_totals_kept_as_results_arrive_give_the_fit_from_nothing():
    """The ladder keeps per-pair sums and refits from its last fit: the same ratings as fitting every result."""
    rng = random.Random(3)
    truth = {p: rng.gauss(1500, 300) for p in range(30)}
    results = [Pairwise(a, b, float(rng.random() < win_probability(truth[a], truth[b])), rng.choice([1.0, 0.5]))
               for a, b in (rng.sample(sorted(truth), 2) for _ in range(3000))]
    kept: dict = {}
    add_results(kept, results[:2000])
    earlier = fit_totals(kept, truth)
    add_results(kept, results[2000:] + results[:100])
    add_results(kept, results[:100], sign=-1.0)
    warm = fit_totals(kept, truth, start=earlier.ratings)
    whole = fit(results, truth)
    assert warm.ratings == pytest.approx(whole, abs=1e-5)
    assert sum(whole.values()) / len(whole) == pytest.approx(1500, abs=1e-6)
    for player in truth:  # the band shrinks as results arrive
        assert warm.error(player) < earlier.error(player)


def test_loser_choice_is_elo_for_two_seats():
    from ladder.ratings import loser_probabilities

    for diff in (-300, 0, 120, 400):
        durak_a = loser_probabilities({1: 1500 + diff, 2: 1500}, [(1,), (2,)])[0]
        assert 1 - durak_a == pytest.approx(1 / (1 + 10 ** (-diff / 400)))


def test_loser_choice_by_hand_for_three_seats():
    from ladder.ratings import loser_probabilities

    ratings = {1: 1500.0, 2: 1700.0, 3: 1900.0}
    weights = [math.exp(-r * math.log(10) / 400) for r in ratings.values()]
    expected = [w / sum(weights) for w in weights]
    assert loser_probabilities(ratings, [(1,), (2,), (3,)]) == pytest.approx(expected)


def test_loser_choice_fit_closed_form_and_teams():
    from ladder.ratings import LoserGame, fit_loser_choice

    games = [LoserGame(((1,), (2,)), 1)] * 3 + [LoserGame(((1,), (2,)), 0)]
    ratings = fit_loser_choice(games, [1, 2], prior_sd=1e9)
    assert ratings[1] - ratings[2] == pytest.approx(400 * math.log10(3), abs=1e-3)
    # 2v2: the team of 1 and 2 loses a quarter of its games to the team of 3 and 4: the team means differ by the
    # same amount.
    teams = [LoserGame(((1, 2), (3, 4)), 1)] * 3 + [LoserGame(((1, 2), (3, 4)), 0)]
    ratings = fit_loser_choice(teams, [1, 2, 3, 4], prior_sd=1e9)
    assert (ratings[1] + ratings[2]) / 2 - (ratings[3] + ratings[4]) / 2 == pytest.approx(400 * math.log10(3), abs=1e-2)
    # With the prior (the only thing that splits a team's strength between partners) identical records rate alike.
    ratings = fit_loser_choice(teams, [1, 2, 3, 4])
    assert ratings[1] == pytest.approx(ratings[2], abs=1e-3) and ratings[3] == pytest.approx(ratings[4], abs=1e-3)
    assert ratings[1] > ratings[3]


def test_loser_choice_synthetic_order():
    from ladder.ratings import LoserGame, fit_loser_choice, loser_probabilities

    truth = {1: 1200.0, 2: 1400.0, 3: 1600.0, 4: 1800.0}
    rng = random.Random(11)
    games = []
    for _ in range(600):
        seats = rng.sample(sorted(truth), 3)
        probabilities = loser_probabilities(truth, [(p,) for p in seats])
        loser = rng.choices(range(3), probabilities)[0]
        games.append(LoserGame(tuple((p,) for p in seats), loser))
    ratings = fit_loser_choice(games, truth)
    assert sorted(truth, key=ratings.get) == [1, 2, 3, 4]
