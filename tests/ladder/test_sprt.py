"""SPRT decisions on synthetic data with known strengths."""

from __future__ import annotations

import random

import pytest

from ladder.ratings import win_probability
from ladder.sprt import sprt


def run(true_elo: float, elo0: float, elo1: float, length: int, seed: int) -> tuple[str | None, int]:
    rng = random.Random(seed)
    scores: list[float] = []
    p = win_probability(true_elo, 0, length)
    while len(scores) < 50_000:
        scores.append(1.0 if rng.random() < p else 0.0)
        result = sprt(scores, elo0, elo1, length)
        if result.decision:
            return result.decision, len(scores)
    return None, len(scores)


@pytest.mark.parametrize("length", [1, 5])
def test_decides_for_the_truth_most_of_the_time(length):
    strong = [run(300 / length**0.5, 0, 150 / length**0.5, length, seed)[0] for seed in range(20)]
    even = [run(0, 0, 150 / length**0.5, length, seed)[0] for seed in range(20)]
    assert strong.count("H1") >= 18
    assert even.count("H0") >= 18


def test_bad_hypotheses():
    with pytest.raises(ValueError):
        sprt([], 50, 0)
