"""The exact bear-off tables of the native core against a reference made with the Python engine's own plays."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from bots.python import td_bot
from referee.games import make_game
from referee.games.engine import ACCELERATORS
from referee.games.tabla_family import pack
from referee.games.tabla_family.features import encode

pytestmark = pytest.mark.skipif(ACCELERATORS is None, reason="the native core is not installed")

TABLA = make_game("tabla", engine="python")
ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]
HOMES = [home for home in itertools.product(range(4), repeat=6) if 0 < sum(home) <= 3]
"""The home boards of one to three checkers (points 1..6), the rest borne off."""


def board(home: tuple[int, ...]) -> int:
    """The packed board of ``home``, the other checkers borne off."""
    return pack({0: 15 - sum(home), **{point + 1: n for point, n in enumerate(home) if n}})


def after_roll(home: tuple[int, ...], roll: tuple[int, int]) -> set[tuple[int, ...]]:
    """The home boards the Python engine's legal plays of ``roll`` leave (the opponent far away, bearing off)."""
    state = TABLA.position(0, {point + 1: n for point, n in enumerate(home) if n}, {24: 1}, dice=roll)
    ends = set()
    for play in state.legal_actions():
        after = state.clone()
        after.apply(play)
        mine = after.sides(0)[0]
        ends.add(tuple((mine >> (4 * point)) & 15 for point in range(1, 7)))
    return ends


@cache
def distribution(home: tuple[int, ...]) -> tuple[float, ...]:
    """The chance that bearing ``home`` off takes exactly n + 1 rolls, each roll played to make the expected
    number least."""
    if not any(home):
        return ()
    shares = np.zeros(16)
    for roll in ROLLS:
        weight = (1 if roll[0] == roll[1] else 2) / 36
        best = min(after_roll(home, roll), key=lambda end: (expected(end), end))
        shares[0] += weight if not any(best) else 0
        for n, p in enumerate(distribution(best)[:-1]):
            shares[n + 1] += weight * p
    return tuple(shares)


def expected(home: tuple[int, ...]) -> float:
    """The expected rolls to bear ``home`` off."""
    return sum((n + 1) * p for n, p in enumerate(distribution(home)))


def test_small_races_are_valued_as_the_engine_plays_them():
    """Every pair of home boards of one to three checkers: the side to roll wins when it needs no more rolls than
    the other (no mars: both have borne off), so the side just moved can expect 1 − 2 P(that)."""
    rows, values = [], []
    for moved, to_roll in itertools.product(HOMES, repeat=2):
        rolls_to_roll, rolls_moved = distribution(to_roll), distribution(moved)
        later = 1 - np.cumsum((0, *rolls_moved))  # P(the side just moved needs more than n rolls)
        wins = sum(p * later[n] for n, p in enumerate(rolls_to_roll))
        rows.append(encode((board(moved), board(to_roll)), (0, 0)))
        values.append(1 - 2 * wins)
    exact = np.frombuffer(ACCELERATORS.bearoff_values(np.array(rows, dtype="<f4").tobytes()), "<f4")
    assert len(rows) == len(HOMES) ** 2 and np.allclose(exact, values, atol=1e-5)


def test_other_positions_are_left_to_the_network():
    start = TABLA.new_state()
    row = encode(start.sides(0)[:2], (0, 0))
    on_bar = encode((pack({25: 1, 0: 14}), board((1, 0, 0, 0, 0, 0))), (0, 0))
    exact = np.frombuffer(ACCELERATORS.bearoff_values(np.array([row, on_bar], dtype="<f4").tobytes()), "<f4")
    assert np.isnan(exact).all()


def test_the_learned_bots_value_races_by_the_tables():
    """A race in Tabla: the 0-ply values of its plays are the tables'; in Gjul Bara the network's."""
    rows = np.array([encode((board((0, 2, 1, 0, 0, 0)), board((1, 1, 0, 0, 0, 0))), (0, 0))], dtype=np.float32)
    exact = np.frombuffer(ACCELERATORS.bearoff_values(rows.tobytes()), "<f4")
    assert td_bot.Values("tabla").plays(rows, [None]) == pytest.approx(exact)
    assert td_bot.Values("gjul-bara").plays(rows, [None]) == pytest.approx(td_bot.network("gjul-bara").values(rows))
