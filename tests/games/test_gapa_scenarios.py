"""The Gapa scenarios of rules/cards.md §2.7, one test each, numbered as there."""

from __future__ import annotations

import random

from referee.games import CHANCE, make_game
from referee.games.cards._cards import card_text, parse_card
from referee.games.cards.gapa import BIG_UP, MAX_TURNS, SMALL_UP

FULL_SIDE = [["KC"], ["KS"], ["KD"], ["KH"], ["JC"], ["JS"], ["JD"], ["JH"]]
"""Eight side piles that take no card of the hands used below and cannot move onto each other (no empty place, so
no priority 3)."""


def names(state):
    return [a.notation() for a in state.legal_actions()]


def play(state, text):
    action = next(a for a in state.legal_actions() if a.notation() == text)
    state.apply(action)


def dealt(options=None, seed=1):
    state = make_game("gapa", options).new_state()
    rng = random.Random(seed)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance(rng))
    return state


def sizes(view, seat):
    p = view.players[seat]
    return (p.small, len(p.small_up), p.big, len(p.big_up))


def test_1_the_deal():
    state = dealt()
    view = state.spectator_view()
    assert [len(pile) for pile in view.side] == [1] * 8
    assert sizes(view, 0) == sizes(view, 1) == (12, 1, 34, 1)
    literal = dealt({"side_deal": "first_player_both"})
    view = literal.spectator_view()
    first = literal.current_player
    assert sizes(view, first) == (12, 1, 30, 1) and sizes(view, 1 - first) == (12, 1, 38, 1)


def test_2_an_ace_on_a_side_pile_goes_up_first():
    side = [["AC"], *FULL_SIDE[1:]]
    state = make_game("gapa").position(0, {"small_up": ["9D"], "big": ["5C"]}, {"small_up": ["8D"]}, side=side)
    assert names(state) == ["AC s0>f0"]


def test_3_side_cards_to_foundations_before_own_cards():
    side = [["2D"], *FULL_SIDE[1:]]
    mine = {"small_up": ["2C"], "big": ["5H"]}
    state = make_game("gapa").position(0, mine, {"small_up": ["8D"]}, foundations=["AD", "AC"], side=side)
    assert names(state) == ["2D s0>f0"]
    play(state, "2D s0>f0")
    assert names(state) == ["2C small_up>f1"]


def test_4_an_empty_side_place_takes_a_small_pile_card_first():
    side = [["KC"], [], ["KH"], [], ["QC"], ["QD"], ["QH"], ["QS"]]
    state = make_game("gapa").position(0, {"small_up": ["8S"], "big": ["5H"]}, {"small_up": ["8D"]}, side=side)
    assert names(state) == ["8S small_up>s1", "8S small_up>s3"]


def test_5_side_piles_move_whole():
    side = [["9S", "8H"], ["TD"], ["9C"], *FULL_SIDE[3:]]
    state = make_game("gapa").position(0, {"big": ["5C"]}, {"small_up": ["9H"], "big_up": ["7H"]}, side=side)
    legal = names(state)
    assert "pile s0>s1" in legal  # 9S (the bottom) onto TD
    assert not any(text.startswith("8H") and text.endswith(">s2") for text in legal)  # no single card onto 9C
    assert "8H s0>their_small_up" in legal and "8H s0>their_big_up" in legal
    to_foundation = make_game("gapa").position(0, {"big": ["5C"]}, {"small_up": ["2D"]}, foundations=["7H"], side=side)
    assert names(to_foundation) == ["8H s0>f0"]


def test_6_loading_the_opponent():
    side = [["JS"], ["9S"], ["TH"], ["TS"], *FULL_SIDE[4:]]
    state = make_game("gapa").position(0, {"small_up": ["JC"], "big": ["5C"]}, {"small_up": ["TS"], "big": ["2H"]}, side=side)
    loaded = {text.split()[0] for text in names(state) if ">their_" in text}
    assert loaded == {"JS", "9S"}
    assert all(a.dst not in (SMALL_UP, BIG_UP) for a in state.legal_actions())


def test_7_a_shift_between_the_opponents_stacks_once_a_turn():
    state = make_game("gapa").position(0, {"big": ["5C"]}, {"small_up": ["5S"], "big_up": ["6S"]}, side=FULL_SIDE)
    assert "5S their_small_up>their_big_up" in names(state)
    play(state, "5S their_small_up>their_big_up")
    assert "5S their_big_up>their_small_up" not in names(state)


def test_8_drawing_small():
    side = FULL_SIDE
    state = make_game("gapa").position(0, {"small": ["3C", "9D"], "big": ["5C"]}, {"small_up": ["2H"]}, side=side)
    assert names(state) == ["draw small"]
    play(state, "draw small")
    assert card_text(state.view(0).players[0].pending) == "9D"
    assert state.view(1).players[0].pending == -1 and state.view(1).players[0].pending_from == "small"
    with_small_up = make_game("gapa").position(0, {"small": ["3C"], "small_up": ["7D"], "big": ["5C"]}, {"small_up": ["2H"]},
                                              side=side)
    assert "draw small" not in names(with_small_up)


def test_9_drawing_big_and_discarding():
    side = FULL_SIDE
    mine = {"small": ["3C"], "big": ["5C", "2D"]}
    state = make_game("gapa").position(0, mine, {"small_up": ["2H"]}, side=side)
    assert "draw big" not in names(state)  # small can be drawn
    mine = {"small_up": ["7D"], "big": ["5C", "JH"]}
    state = make_game("gapa").position(0, mine, {"small_up": ["QH"], "big_up": ["9S"]}, side=side)
    play(state, "draw big")
    play(state, "JH pending>their_small_up")  # playing the big card does not end the turn
    assert state.current_player == 0
    play(state, "draw big")
    play(state, "discard")
    assert state.current_player == 1 and state.view(1).players[0].big_up == (parse_card("5C"),)


def test_10_the_turned_over_big_pile_starts_with_the_first_card_discarded():
    big_up = ["3H", "8C", "QS"]
    state = make_game("gapa").position(0, {"small_up": ["7D"], "big_up": big_up}, {"small_up": ["2H"]}, side=FULL_SIDE)
    play(state, "draw big")
    assert card_text(state.view(0).players[0].pending) == "3H"
    assert [card_text(c) for c in state.view(1).players[0].big_known] == ["8C", "QS"]


def test_11_shedding_the_last_card_wins_at_once():
    state = make_game("gapa").position(0, {"small_up": ["2C"]}, {"small_up": ["2H"], "big": ["4D"]}, foundations=["AC"],
                                       side=FULL_SIDE)
    play(state, "2C small_up>f0")
    assert state.is_terminal() and state.outcome().points == (1, 0) and state.outcome().termination == "out"


def test_12_the_seed_example():
    # Red (seat 0): small_up 2D; a side pile 4H under 3D; blue's small_up 3H. Red's small pile holds, top first,
    # 9C (then drawn into the freed place) and 5S (parked); its big pile JD (discarded).
    side = [["4H", "3D"], *FULL_SIDE[1:]]
    red = {"small": ["5S", "9C"], "small_up": ["2D"], "big": ["JD"]}
    blue = {"small_up": ["3H"], "big": ["6C"]}
    state = make_game("gapa").position(0, red, blue, foundations=["AD"], side=side)
    assert names(state) == ["2D small_up>f0"]
    play(state, "2D small_up>f0")
    assert names(state) == ["3D s0>f0"]
    play(state, "3D s0>f0")
    assert "4H s0>their_small_up" in names(state)
    play(state, "4H s0>their_small_up")
    assert "draw small" in names(state)
    play(state, "draw small")
    assert names(state) == ["9C pending>s0"]
    play(state, "9C pending>s0")
    play(state, "draw small")
    assert "park" in names(state)
    play(state, "park")
    play(state, "draw big")
    play(state, "discard")
    assert state.current_player == 1
    assert names(state) == ["draw big"]
    play(state, "draw big")
    assert "discard" in names(state)


def test_13_the_penalty_for_ignoring_a_priority():
    side = [["AC"], *FULL_SIDE[1:]]
    mine = {"small_up": ["9D"], "big": ["5C"]}
    theirs = {"small_up": ["8D"], "big": ["2S"]}
    strict = make_game("gapa").position(0, mine, theirs, side=side)
    assert "9D small_up>their_small_up" not in names(strict)
    penalty = make_game("gapa", {"gapa": "penalty"}).position(0, mine, theirs, side=side, pending=("KD", "big"))
    before = penalty.spectator_view()
    play(penalty, "9D small_up>their_small_up")
    after = penalty.spectator_view()
    assert penalty.current_player == 1
    assert after.side == before.side and after.players[1] == before.players[1]
    assert after.players[0].small_up == before.players[0].small_up
    assert after.players[0].big_up == (parse_card("KD"),) and after.players[0].pending == -1


def test_14_both_turning_over_twice_without_progress_is_a_draw():
    mine = {"small_up": ["7D"], "big_up": ["KS"]}
    theirs = {"small_up": ["7S"], "big_up": ["KD"]}
    state = make_game("gapa").position(0, mine, theirs, side=FULL_SIDE)
    turns = 0
    while not state.is_terminal():
        assert names(state) == ["draw big"]
        play(state, "draw big")
        assert names(state) == ["discard"]
        play(state, "discard")
        turns += 1
    assert state.outcome().termination == "stalemate" and state.outcome().points == (0, 0)
    assert turns == 4


LOOPING = {"gapa": "penalty", "side_deal": "first_player_both", "own_big_up_playable": "true"}


def loop_to_the_end(game):
    """From scenario 15's position: the mover puts his 5H into the empty side place and ends his turn, the
    opponent loads it back and draws, for ever; the end state and the turns played."""
    mine = {"small": ["2C", "3C", "4C", "9C"], "small_up": ["8H", "7H", "6H", "5H"]}
    theirs = {"small": ["2S", "3S"], "small_up": ["QD"], "big": ["4S", "TS", "TC"], "big_up": ["QC"]}
    state = game.position(0, mine, theirs, side=[*FULL_SIDE[:7], []])
    looping = ("5H small_up>s7", "5H s7>their_small_up", "end_turn", "discard", "draw big")
    turns = 0
    while not state.is_terminal():
        mover = state.current_player
        play(state, next(text for text in looping if text in names(state)))
        turns += state.current_player != mover
    return state, turns


def test_15_a_card_put_out_and_loaded_back_for_ever_is_no_progress():
    """Penalty mode with both option changes: neither player ever sheds below his fewest, so the game is drawn
    after ``idle_turns`` turns instead of running on."""
    game = make_game("gapa", LOOPING)
    state, turns = loop_to_the_end(game)
    assert state.outcome().termination == "idle" and state.outcome().points == (0, 0)
    assert turns == int(game.options["idle_turns"]) + 1  # the first time the 5H went out, it was progress


def test_whatever_the_options_a_game_ends_after_2000_turns():
    state, turns = loop_to_the_end(make_game("gapa", {**LOOPING, "idle_turns": "5000"}))
    assert state.outcome().termination == "turns" and state.outcome().points == (0, 0) and turns == MAX_TURNS
