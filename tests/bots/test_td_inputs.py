"""The extra inputs a learned network may read (``bots/python/td_inputs.py``): exact against a slow count over real
positions of the games they are for and on hand-made ones, and networks that read them train, widen, save and
load."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from bots.python import td_train
from bots.python.td_inputs import blocks, check_suits, contact, inputs, primes, python_inputs, shots, width
from bots.python.td_network import Network, OutcomeNetwork
from referee.games import make_game
from referee.games.engine import ACCELERATORS
from referee.games.tabla_family._movegen import pack
from referee.games.tabla_family.features import FEATURES, after_features, encode
from referee.playouts import random_decisions


def _sides(row: np.ndarray) -> list[tuple[list[int], list[float]]]:
    """Each side's checkers and pinned flags by point (index 0 unused), the side just moved first."""
    sides = []
    for start, pins in ((0, 196), (98, 220)):
        units = row[start:start + 96].reshape(24, 4)
        sides.append(([0] + [round(u[0] + u[1] + u[2] + 2 * u[3]) for u in units], [0] + list(row[pins:pins + 24])))
    return sides


def _slow_shots(row: np.ndarray) -> list[float]:
    """The ``shots`` inputs counted point by point and die by die from one feature row."""
    sides = _sides(row)
    out: list[float] = []
    for (mine, my_pins), (theirs, their_pins) in (sides, sides[::-1]):
        lone = [p for p in range(1, 25) if mine[p] == 1 and not my_pins[p] and not their_pins[25 - p]]
        dice, mother = set(), set()
        for p in lone:
            for die in range(1, 7):
                q = 25 - p + die  # the other side's point a checker pins mine from with this die
                if q <= 24 and theirs[q] and not their_pins[q]:
                    dice.add(die)
                    if p == 24:
                        mother.add(die)
        out += [1 - ((6 - len(dice)) / 6) ** 2, 1 - ((6 - len(mother)) / 6) ** 2, len(lone) / 15,
                sum(p * mine[p] for p in range(1, 25)) / 200]
    return out


def _slow_blocks(row: np.ndarray) -> list[float]:
    """The ``blocks`` inputs counted roll by roll, checker by checker and step by step from one feature row."""
    sides = _sides(row)
    out: list[float] = []
    for (mine, my_pins), (theirs, their_pins) in (sides, sides[::-1]):
        lone = {p for p in range(1, 25) if mine[p] == 1 and not my_pins[p] and not their_pins[25 - p]}
        blocked = {p for p in range(1, 25) if mine[p] >= 2 or their_pins[25 - p]}
        shooters = [25 - q for q in range(1, 25) if theirs[q] and not their_pins[q]]  # in my numbering
        hit = mother = 0
        for first in range(1, 7):
            for second in range(1, 7):
                ways = [[first] * steps for steps in range(1, 5)] if first == second else \
                    [[first], [second], [first, second], [second, first]]
                pinned = set()
                for start in shooters:
                    for way in ways:
                        point = start
                        for step in way:
                            point += step
                            if point in lone:
                                pinned.add(point)
                            if point > 24 or point in blocked:
                                break
                hit += bool(pinned)
                mother += 24 in pinned
        run = longest = 0
        for point in range(1, 25):
            run = run + 1 if point in blocked else 0
            longest = max(longest, run)
        out += [hit / 36, mother / 36, min(longest, 6) / 6]
    return out


def _slow_contact(row: np.ndarray) -> list[float]:
    """The ``contact`` inputs counted roll by roll and checker by checker from one feature row."""
    sides = _sides(row)
    bars = [round(2 * row[96]), round(2 * row[98 + 96])]
    out: list[float] = []
    for me in (0, 1):
        (mine, my_pins), (theirs, _) = sides[me], sides[1 - me]
        walls = {p for p in range(1, 25) if theirs[25 - p] >= 2 or my_pins[p]}
        rears = [25 if bars[side] else max([p for p in range(1, 25) if sides[side][0][p]], default=0)
                 for side in (me, 1 - me)]
        rear, front = rears[0], 25 - rears[1]
        escapes = 0
        for first in range(1, 7):
            for second in range(1, 7):
                steps = [[first, first]] if first == second else [[first, second], [second, first]]
                ways = [[rear - way[0], rear - sum(way)] for way in steps]
                escapes += rear == 0 or any(all(p < 1 or p not in walls for p in way) for way in ways)
        checkers = {p: mine[p] for p in range(1, 25)} | {25: bars[me]}
        pips = sum(n * (p - front + 1) for p, n in checkers.items() if p > front)
        out += [(len(walls & set(range(19, 25))) / 6) ** 2, escapes / 36, pips / 200, rear / 25]
    return out


def _slow_primes(row: np.ndarray) -> list[float]:
    """Gjul Bara's ``primes`` inputs counted checker by checker and die by die from one feature row."""
    sides = [checkers for checkers, _ in _sides(row)]
    out: list[float] = []
    for me in (0, 1):
        mine, theirs = sides[me], sides[1 - me]
        across = [0] + [q + 12 if q <= 12 else q - 12 for q in range(1, 25)]  # my point of their q, and theirs of mine
        closed = {across[q] for q in range(1, 25) if theirs[q]}
        on = [p for p in range(1, 25) if mine[p]]
        home = all(p <= 6 for p in on)

        def moves(p: int, die: int) -> bool:
            if p - die >= 1:
                return p - die not in closed
            return home and (p == die or p == max(on))

        dice = sum(any(moves(p, die) for p in on) for die in range(1, 7))
        stuck = sum(mine[p] for p in on if not any(moves(p, die) for die in range(1, 7)))
        their_rear = max([q for q in range(1, 25) if theirs[q]], default=0)
        run = longest = 0
        for q in range(1, their_rear):  # their points in front of their rearmost checker
            run = run + 1 if mine[across[q]] else 0
            longest = max(longest, run)
        out += [sum(p * mine[p] for p in on) / 200, dice / 6, stuck / 15, min(longest, 6) / 6]
    return out


def _played_rows(seed: int, games: int, game: str = "tapa") -> Iterator[np.ndarray]:
    """The feature rows of every decision's plays in ``games`` games of random plays on ``seed``."""
    for state, legal in random_decisions(make_game(game), games, seed):
        if legal is not None:
            yield after_features(state)[0]


def test_shots_match_a_slow_count_over_real_positions():
    pinned = 0
    for rows in _played_rows(3, 8):
        assert np.allclose(shots(rows), [_slow_shots(row) for row in rows])
        assert np.allclose(blocks(rows), [_slow_blocks(row) for row in rows])
        pinned += bool(rows[:, FEATURES - 48:].any())
    assert pinned > 50  # the pins' cases were met


def test_contact_matches_a_slow_count_over_real_positions():
    on_bar = race = 0
    for game in ("tabla", "tapa"):
        for rows in _played_rows(4, 4, game):
            assert np.allclose(contact(rows), [_slow_contact(row) for row in rows])
            on_bar += int((rows[:, [96, 194]] > 0).sum())
            race += int((contact(rows)[:, [2, 6]] == 0).all(axis=1).sum())
    assert on_bar > 50 and race > 5  # the bar's cases and races were met


def test_primes_match_a_slow_count_over_real_gjul_bara_positions():
    stuck = primed = home = 0
    for rows in _played_rows(4, 4, "gjul-bara"):
        found = primes(rows)
        assert np.allclose(found, [_slow_primes(row) for row in rows])
        stuck += int((found[:, [2, 6]] > 0).sum())
        primed += int((found[:, [3, 7]] >= 3 / 6).sum())
        home += int((rows[:, 6 * 4:24 * 4].sum(axis=1) == 0).sum())
    assert stuck > 50 and primed > 50 and home > 50  # trapped checkers, primes and bearing off were met


@pytest.mark.skipif(ACCELERATORS is None, reason="the native core is not installed")
def test_the_native_core_computes_the_numpy_inputs_exactly():
    rows_seen = 0
    for game, kinds in (("tapa", ("shots", "blocks", "contact")), ("tabla", ("shots", "blocks", "contact")),
                        ("gjul-bara", ("primes",))):
        for rows in _played_rows(5, 6, game):
            for kind in kinds:
                assert np.array_equal(inputs(rows, kind), python_inputs(rows, kind))
            rows_seen += len(rows)
    assert rows_seen > 3000
    with pytest.raises(ValueError, match="5 bytes are not rows of 244 features"):
        ACCELERATORS.extra_inputs(b"12345", "blocks")
    with pytest.raises(ValueError, match='inputs "dice": not plain, shots, blocks, contact or primes'):
        ACCELERATORS.extra_inputs(bytes(4 * FEATURES), "dice")


@pytest.mark.skipif(ACCELERATORS is None, reason="the native core is not installed")
@pytest.mark.parametrize(("kind", "game"), [("blocks", "tabla"), ("contact", "tabla"), ("primes", "gjul-bara")])
def test_the_core_values_a_network_of_each_input_set_as_numpy_does(kind, game):
    rng = np.random.default_rng(3)
    network = Network.new(8, rng).widened(kind)
    network.w1[:, FEATURES:] = rng.normal(0, 0.5, network.w1[:, FEATURES:].shape)
    rows = np.concatenate(list(_played_rows(6, 2, game)))
    assert game != "tabla" or (rows[:, [96, 194]] > 0).any()  # checkers on the bar
    values = np.frombuffer(network.native().values(np.ascontiguousarray(rows, dtype="<f4").tobytes()), dtype="<f4")
    assert np.allclose(values, network.values(rows), atol=1e-5)


def test_shots_of_hand_made_positions():
    # My lone checker on my 20, theirs on their 8 (my 17): each is 3 pips from the other's free checker.
    row = np.array([encode((pack({20: 1, 24: 14}), pack({8: 1, 24: 14})), (0, 0))])
    mine = [11 / 36, 0.0, 1 / 15, (20 + 24 * 14) / 200]
    assert np.allclose(shots(row), [mine + [11 / 36, 0.0, 1 / 15, (8 + 24 * 14) / 200]])
    # Their lone checker pinned under mine on my 17: neither can be pinned, and it pins nothing.
    row = np.array([encode((pack({17: 1, 24: 14}), pack({8: 1, 24: 14})), (0, 1 << (8 << 2)))])
    assert np.allclose(shots(row)[0, [0, 2, 4, 6]], [0, 0, 0, 0])
    # My mother alone on my 24, their free checkers on their 3 and 5 (2 and 4 pips away): 20 rolls of 36.
    row = np.array([encode((pack({24: 1, 1: 14}), pack({3: 1, 5: 1, 24: 13})), (0, 0))])
    assert np.allclose(shots(row)[0, :2], [20 / 36, 20 / 36])
    # With both dice: 1-3, 3-1 and 1-1 too; their lone checkers are my mother's 2 and 4 away, the same rolls.
    # Each side holds one point (my 1, their 24): runs of one.
    assert np.allclose(blocks(row), [[23 / 36, 23 / 36, 1 / 6, 23 / 36, 0, 1 / 6]])
    # Their checker 4 away behind my points 21 and 22 (their 4 and 3): a 4, or a 3 then a 1 by my open 23; a 1
    # first, 2-2 and 1-1 stop on my points.
    row = np.array([encode((pack({24: 1, 22: 2, 21: 2, 1: 10}), pack({5: 1, 24: 14})), (0, 0))])
    assert np.allclose(blocks(row)[0, :3], [13 / 36, 13 / 36, 2 / 6])


def test_contact_of_hand_made_positions():
    # My checker on the bar against their points on my 20, 23 and 1 (their 5, 2 and 24): 4 of 36 rolls cannot
    # enter, and from my 25 a roll fails to escape when it ends on one of them (2-3, 1-4, 2-5) or must stop on
    # them on the way (1-1, 2-2, 5-5): 27 of 36 escape. Their rearmost checker on their 24 is my 1: my bar
    # checker needs 25 pips to pass it, my 6's 6 each.
    row = np.array([encode((pack({25: 1, 6: 14}), pack({5: 2, 2: 2, 24: 11})), (0, 0))])
    got = contact(row)[0]
    assert np.allclose(got[:4], [(2 / 6) ** 2, 27 / 36, (25 + 14 * 6) / 200, 1])
    # A race: no checker of either side behind the other's; each holds one point the other would enter on.
    row = np.array([encode((pack({3: 15}), pack({4: 15})), (0, 0))])
    assert np.allclose(contact(row), [[1 / 36, 1, 0, 3 / 25, 1 / 36, 1, 0, 4 / 25]])


def test_primes_of_hand_made_positions():
    # The start: each side's 15 on its 24 (the other's 12), every die free; each holds one point in front of the
    # other's stack.
    row = np.array([encode((pack({24: 15}), pack({24: 15})), (0, 0))])
    assert np.allclose(primes(row), [[24 * 15 / 200, 1, 0, 1 / 6] * 2])
    # Mine on my 13 and 5, theirs on their 10, 11 (my 22, 23) and 20 (my 8): my 13 cannot move a 5 onto their
    # checker, my 5 may not bear off while my 13 is out; their three move every die. Each holds one point in front
    # of the other's rearmost checker (mine on their 1, theirs on my 8).
    row = np.array([encode((pack({13: 1, 5: 14}), pack({10: 1, 11: 1, 20: 13})), (0, 0))])
    assert np.allclose(primes(row), [[(13 + 70) / 200, 5 / 6, 0, 1 / 6, (10 + 11 + 260) / 200, 1, 0, 1 / 6]])
    # Their six points my 12..7 (their 24..19) wall in my checker on my 13; the one on my 14 moves a 1, my home's
    # 2 to 5 (not a 6 off: my 13 and 14 are out). Their wall is the run of six in front of my rearmost checker, my
    # 14 and 13 (their 2 and 1) a run of two in front of theirs.
    theirs = {24: 2, 23: 2, 22: 2, 21: 3, 20: 3, 19: 3}
    row = np.array([encode((pack({14: 1, 13: 1, 6: 13}), pack(theirs)), (0, 0))])
    got = primes(row)[0]
    assert np.allclose(got[1:4], [5 / 6, 1 / 15, 2 / 6]) and got[7] == 1
    # All home: a die above the highest point bears off from it; none is stuck.
    row = np.array([encode((pack({3: 2, 2: 13}), pack({24: 15})), (0, 0))])
    assert np.allclose(primes(row)[0, :3], [(6 + 26) / 200, 1, 0])


def test_an_input_set_suits_the_way_the_sides_travel():
    check_suits("plain", "gjul-bara")
    check_suits("primes", "gjul-bara")
    check_suits("contact", "tapa")
    with pytest.raises(ValueError, match="inputs 'primes' read boards whose sides travel the same way, not tabla's"):
        check_suits("primes", "tabla")
    with pytest.raises(ValueError, match="inputs 'blocks' read boards whose sides travel opposite ways, not gjul"):
        check_suits("blocks", "gjul-bara")


def test_a_widened_network_values_as_before_and_learns_its_new_inputs(tmp_path):
    plain = Network.new(6, np.random.default_rng(1))
    wide = plain.widened("shots")
    rows, _ = after_features(make_game("tapa").position(0, {24: 15}, {24: 15}, dice=(6, 1)))
    assert wide.w1.shape == (6, width("shots")) and inputs(rows, "shots").shape == (len(rows), width("shots"))
    assert np.allclose(wide.values(rows), plain.values(rows))
    path = tmp_path / "plain.npz"
    plain.save(path)
    out = tmp_path / "wide.npz"
    assert td_train.main(["--game", "tapa", "--games", "2", "--init", str(path), "--inputs", "shots",
                          "--out", str(out)]) == 0
    trained = Network.load(out)
    assert trained.inputs == "shots" and trained.w1[:, FEATURES:].any()
    outcomes = OutcomeNetwork.from_points(trained, np.random.default_rng(1))
    assert outcomes.inputs == "shots" and outcomes.outcomes(rows).shape == (len(rows), 3)
    with pytest.raises(ValueError, match="a network reading 'shots' cannot be made to read 'plain'"):
        trained.widened("plain")
    wider = trained.widened("blocks")
    assert wider.w1.shape == (6, width("blocks")) and np.allclose(wider.values(rows), trained.values(rows))
    assert np.allclose(inputs(rows, "blocks")[:, :width("shots")], inputs(rows, "shots"))
    with pytest.raises(ValueError, match="a network reading 'blocks' cannot be made to read 'shots'"):
        wider.widened("shots")


def test_a_network_of_unknown_inputs_is_one_line(tmp_path):
    path = tmp_path / "odd.npz"
    np.savez(path, w1=np.zeros((3, FEATURES)), b1=np.zeros(3), w2=np.zeros(3), b2=np.zeros(()), inputs="dice")
    with pytest.raises(ValueError, match="odd.npz: inputs 'dice', not one of plain, shots, blocks"):
        Network.load(path)
