"""Whole random games inside the native core are the Python engines' games: the same seed gives the same plays,
dice, cards and outcomes (``referee.playouts``), for every game of the Tabla family, Durak's deals, and every
option set."""

from __future__ import annotations

import pytest

from referee.games import make_game
from referee.games.engine import NATIVE
from referee.games.tabla_family._movegen import Stage, pack, spread
from referee.playouts import Playout, SplitMix64, native_playouts, playouts, python_playouts

needs_native = pytest.mark.skipif(NATIVE is None, reason="the native core is not installed")

OPTION_SETS = [
    ("tabla", {}, 300),
    ("tabla", {"stuck_limit": "2"}, 40),
    *[
        ("gjul-bara", {"gjul.ladder_from_roll": start, "gjul.ladder_count": count, "gjul.remainder": rest}, 100)
        for start in ("4", "3")
        for count in ("per_player", "global")
        for rest in ("to_opponent", "lost")
    ],
    ("gjul-bara", {"stuck_limit": "1"}, 60),
    *[
        ("tapa", {"tapa.pinned_home_blocks_all": blocks, "tapa.both_mothers": mothers}, 150)
        for blocks in ("false", "true")
        for mothers in ("draw_0_0", "draw_1_1")
    ],
    ("tapa", {"stuck_limit": "1"}, 40),
    ("tabla-match", {}, 40),
    ("tabla-match", {"match.target": "3", "match.opening": "use_opening_dice", "tapa.both_mothers": "draw_1_1"}, 15),
    ("tabla-match", {"match.target": "7", "gjul.remainder": "lost", "stuck_limit": "3"}, 8),
    ("durak", {}, 150),
    ("durak", {"variant": "perevodnoy", "show_trump_transfer": "true", "transfer_in_first_bout": "false"}, 100),
    ("durak", {"seats": "3", "deck": "24", "multi_card_lead": "false", "no_trump_start": "redeal"}, 60),
    ("durak", {"seats": "4", "variant": "perevodnoy", "bout_limit": "5", "first_bout_limit": "5"}, 60),
    ("durak", {"seats": "4", "teams": "2v2", "variant": "perevodnoy", "show_trump_transfer": "true"}, 60),
    ("durak", {"seats": "5", "deck": "52", "bout_limit": "3", "no_trump_start": "redeal"}, 30),
    ("durak", {"seats": "6", "deck": "52", "variant": "perevodnoy"}, 30),
    ("durak", {"seats": "6", "deck": "36", "no_trump_start": "redeal"}, 30),
]


@needs_native
@pytest.mark.parametrize(("game_id", "options", "count"), OPTION_SETS,
                         ids=[f"{g}-{'-'.join(o.values()) or 'default'}" for g, o, _ in OPTION_SETS])
def test_the_core_plays_the_python_engines_games(game_id, options, count):
    game = make_game(game_id, options)
    assert native_playouts(game, count, seed=29) == python_playouts(game, count, seed=29)


FAMILY_SETS = [one for one in OPTION_SETS if one[0] != "durak"]


@needs_native
@pytest.mark.parametrize(("game_id", "options", "count"), FAMILY_SETS,
                         ids=[f"{g}-{'-'.join(o.values()) or 'default'}" for g, o, _ in FAMILY_SETS])
def test_the_core_walks_the_python_engines_steps(game_id, options, count):
    """The ``steps`` policy: the same random single steps and, when a walk misses a die, the same listed play;
    the Python side checks that every walk ends at a legal play."""
    game = make_game(game_id, options)
    assert native_playouts(game, count, seed=31, policy="steps") == python_playouts(game, count, seed=31,
                                                                                     policy="steps")


def test_a_walk_that_misses_a_die_is_no_play():
    """The last checker on 7 with 6-5 and point 2 closed: 7/1 and 1/off; the 5 first finds 7/2 closed, and the
    walk gives up rather than play one die where both can be played."""
    board = pack({7: 1, 0: 14})
    stage = Stage((6, 5), closed=spread(1 << 2), frozen=0, singles=0, can_bear_off=True, terminal=None)
    assert stage.random_play(board, lambda n: 0) == pack({0: 15})
    assert stage.random_play(board, lambda n: n - 1) is None


def test_steps_games_are_other_games():
    game = make_game("tabla")
    walked = playouts(game, 30, seed=3, policy="steps")
    assert walked == playouts(game, 30, seed=3, policy="steps") != playouts(game, 30, seed=3)
    assert {one.points for one in walked} <= {(1, 0), (0, 1), (2, 0), (0, 2)}


@needs_native
@pytest.mark.parametrize("policy", ["uniform", "steps"])
@pytest.mark.parametrize("game_id", ["tabla", "gjul-bara", "tapa"])
def test_the_core_plays_the_python_generators_games(game_id, policy):
    """The Python twin with the Python stage generator too: nothing of the core on the reference side."""
    game = make_game(game_id)
    python = python_playouts(game.on("python"), 25, seed=5, policy=policy)
    assert native_playouts(game, 25, seed=5, policy=policy) == python


@needs_native
def test_a_durak_deal_without_a_durak_is_the_same_game():
    """A deal where the last two seats run out in the same bout is rare in random play (about 1 in 700): seed 152's
    first deal is one (found by playing seeds 0, 1, ... in the core)."""
    game = make_game("durak")
    played = native_playouts(game, 1, seed=152)
    assert played == python_playouts(game, 1, seed=152) and played[0].termination == "no_durak"


def test_every_kind_of_ending_is_played():
    """The option sets above reach every termination the games have, so each path is compared."""
    seen = {
        (game_id, one.termination)
        for game_id, options, count in OPTION_SETS
        if game_id != "tabla-match"
        for one in playouts(make_game(game_id, options), count, seed=29)
    }
    assert seen >= {("tabla", "normal"), ("tabla", "mars"), ("gjul-bara", "normal"), ("gjul-bara", "mars"),
                    ("gjul-bara", "stuck"), ("tapa", "normal"), ("tapa", "mars"), ("tapa", "mother"),
                    ("tapa", "both_mothers"), ("tapa", "stuck"), ("durak", "durak")}


def test_playouts_are_seeded_and_scored():
    game = make_game("tabla-match", {"match.target": "3"})
    first = playouts(game, 20, seed=3)
    assert first == playouts(game, 20, seed=3) != playouts(game, 20, seed=4)
    assert all(isinstance(one, Playout) and one.termination == "match" and max(one.points) >= 3
               and one.points[0] != one.points[1] and one.decisions > 0 for one in first)
    singles = playouts(make_game("tabla"), 200, seed=3)
    assert {one.points for one in singles} <= {(1, 0), (0, 1), (2, 0), (0, 2)}


def test_splitmix64_is_vignas():
    """The reference outputs of SplitMix64 from seed 0, and draws below n in range."""
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert all(0 <= rng.below(7) < 7 for _ in range(1000))
    assert {rng.dice() for _ in range(2000)} == {(a, b) for a in range(1, 7) for b in range(1, 7)}


def test_durak_deals_are_scored_by_places():
    for one in playouts(make_game("durak", {"seats": "4"}), 50, seed=8):
        assert one.termination in ("durak", "no_durak") and len(one.points) == 4
        assert (min(one.points) == 0) == (one.termination == "durak")


def test_other_games_and_sessions_are_refused_in_one_line():
    with pytest.raises(ValueError, match="^playouts are for tabla, gjul-bara, tapa, tabla-match, durak, not gapa$"):
        playouts(make_game("gapa"), 1, seed=1)
    with pytest.raises(ValueError, match="^Durak playouts are single deals: deals=1, not a session$"):
        playouts(make_game("durak", {"deals": "3"}), 1, seed=1)
    with pytest.raises(ValueError, match="^no playout policy 'greedy': uniform or steps$"):
        playouts(make_game("tabla"), 1, seed=1, policy="greedy")
    with pytest.raises(ValueError, match="^the steps policy is not one of durak's: uniform$"):
        playouts(make_game("durak"), 1, seed=1, policy="steps")
