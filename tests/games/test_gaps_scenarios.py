"""The Gaps scenarios of rules/cards.md §3.4, one test each (16, Solvitaire's miniature deals, is not here: see
docs/rules/gaps.md)."""

from __future__ import annotations

import random

import pytest

from referee.games import CHANCE, GAP, make_game
from referee.games.cards._cards import card_text, parse_card


def grid_text(state) -> list[list[str | None]]:
    view = state.view(0)
    cells = [None if c == GAP else card_text(c) for c in view.grid]
    return [cells[r * view.columns : (r + 1) * view.columns] for r in range(view.rows)]


def moves_into(state, row, column):
    columns = state.view(0).columns
    return [a.notation() for a in state.legal_actions() if not a.ends_round and a.dst == row * columns + column]


def deal(game, seed=1):
    """A new state dealt from ``seed``; returns (state, the cards in the order drawn)."""
    state = game.new_state()
    rng = random.Random(seed)
    order = []
    while state.current_player == CHANCE:
        chance = state.sample_chance(rng)
        order.append(chance.value)
        state.apply(chance)
    return state, order


def full_rows(*rows: str) -> list[list[str | None]]:
    """Rows written as space-separated cards, ``--`` for a gap."""
    return [[None if word == "--" else word for word in row.split()] for row in rows]


def test_1_a_seeded_deal_is_row_major_with_gaps_at_the_aces():
    state, order = deal(make_game("gaps"), seed=7)
    assert len(order) == 52 and sorted(order) == list(range(52))
    expected = [None if card_text(c)[0] == "A" else card_text(c) for c in order]
    assert [cell for row in grid_text(state) for cell in row] == expected
    assert sum(cell is None for cell in expected) == 4


def test_2_the_gap_right_of_a_card_takes_only_its_successor():
    state = make_game("gaps").position(full_rows("5H -- 6C", "9D 6H KS --", "KC -- KD --", "KH --"))
    assert moves_into(state, 0, 1) == ["6H 1,1>0,1"]


def test_3_gaps_right_of_a_king_or_of_a_gap_are_dead():
    state = make_game("gaps").position(full_rows("KC -- -- 2D", "5H 6H", "7H 8H", "9H TH"))
    assert moves_into(state, 0, 1) == [] and moves_into(state, 0, 2) == []


def test_4_a_gap_in_the_first_column_takes_every_2_even_one_heading_a_row():
    state = make_game("gaps").position(
        full_rows("5C 2C KC", "-- KD 2D", "2S 3S 4S KH", "9H 2H KS --", "-- --")[:4]
    )
    listed = moves_into(state, 1, 0)
    assert listed == ["2C 0,1>1,0", "2D 1,2>1,0", "2H 3,1>1,0", "2S 2,0>1,0"]


def test_5_after_any_move_the_source_is_a_gap_and_four_gaps_remain():
    state, _ = deal(make_game("gaps"), seed=3)
    rng = random.Random(3)
    for _ in range(40):
        moves = [a for a in state.legal_actions() if not a.ends_round]
        if not moves:
            break
        move = moves[rng.randrange(len(moves))]
        state.apply(move)
        grid = state.view(0).grid
        assert grid[move.src] == GAP and grid[move.dst] == move.card
        assert grid.count(GAP) == 4


def test_6_stuck_in_the_last_deal_ends_the_game_with_the_cards_in_place():
    game = make_game("gaps", {"deals": "1"})
    # Row 0: 2C 3C 4C then a gap right of KD (dead); every gap is right of a King: nothing can move.
    rows = full_rows(
        "2C 3C 4C KD -- 5C 6C 7C 8C 9C TC JC QC",
        "KC -- 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
        "KH -- 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
        "KS -- 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
    )
    state = game.position(rows)
    assert state.is_terminal()
    assert state.outcome().termination == "rounds" and state.outcome().points == (3,)


def redeal_once(game, rows, seed=5):
    state = game.position(rows)
    state.apply(game.end_round)
    rng = random.Random(seed)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance(rng))
    return state


REDEAL_ROWS = full_rows(
    "2C 3C 4C 9D 5C 6C 7C 8C -- TC JC QC KC",
    "3S 2D 3D 4D 5D 6D 7D 8D 9C -- JD QD KD",
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --",
    "2S -- 4S 5S 6S 7S 8S 9S TS JS QS KS TD",
)


def test_7_a_redeal_keeps_the_prefixes_and_leaves_a_gap_after_each():
    game = make_game("gaps")
    state = redeal_once(game, REDEAL_ROWS)
    rows = grid_text(state)
    assert rows[0][:4] == ["2C", "3C", "4C", None]
    assert rows[1][0] is None
    assert rows[2][:12] == REDEAL_ROWS[2][:12] and rows[2][12] is None
    assert rows[3][0] == "2S" and rows[3][1] is None
    kept = 3 + 0 + 12 + 1
    placed_again = [cell for r, row in enumerate(rows) for c, cell in enumerate(row) if cell is not None]
    assert len(placed_again) - kept == 48 - kept
    assert sorted(placed_again) == sorted(cell for row in REDEAL_ROWS for cell in row if cell is not None)
    assert state.view(0).round == 2 and state.view(0).placed == kept


def test_8_an_unshuffled_redeal_puts_the_gathered_cards_back_in_reading_order():
    game = make_game("gaps", {"variant": "gaps_unshuffled"})
    state = redeal_once(game, REDEAL_ROWS)
    row0 = ["2C", "3C", "4C", None, "9D", "5C", "6C", "7C", "8C", "TC", "JC", "QC", "KC"]
    row1 = [None, "3S", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9C", "JD", "QD", "KD"]
    row2 = REDEAL_ROWS[2][:12] + [None]
    row3 = ["2S", None, "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "TD"]
    assert grid_text(state) == [row0, row1, row2, row3]


def play_some(state, rng, moves):
    """Random moves (never end_round) until ``moves`` are made or none is left; then end the round."""
    for _ in range(moves):
        options = [a for a in state.legal_actions() if not a.ends_round]
        if not options:
            break
        state.apply(options[rng.randrange(len(options))])


def test_9_the_same_seed_and_actions_give_the_same_grids_and_every_play_meets_the_same_shuffles():
    game = make_game("gaps")

    def run(play_seed):
        state, _ = deal(game, seed=11)
        rng = random.Random(play_seed)
        chance_rng = random.Random(99)
        grids, keys = [], []
        while not state.is_terminal():
            if state.current_player == CHANCE:
                chance = state.sample_chance(chance_rng)
                keys.append(chance.value)
                state.apply(chance)
                if state.current_player == 0:
                    grids.append(state.view(0).grid)
                continue
            play_some(state, rng, 10)
            if not state.is_terminal() and state.current_player == 0:
                state.apply(game.end_round)
        return grids, keys

    assert run(1) == run(1)
    assert run(1)[1] == run(2)[1]  # the permutations of each round do not depend on the play


def test_10_completing_the_fourth_row_wins():
    rows = full_rows(
        "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC --",
        "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD --",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH --",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -- KS",
    )
    state = make_game("gaps").position(rows)
    state.apply(next(a for a in state.legal_actions() if a.notation() == "KS 3,12>3,11"))
    assert state.is_terminal() and state.outcome().termination == "win" and state.outcome().points == (48,)


def test_11_blue_moon_aces_head_the_rows_in_reading_order():
    state, order = deal(make_game("gaps", {"variant": "blue_moon"}), seed=4)
    aces = [card_text(c) for c in order if card_text(c)[0] == "A"]
    rows = grid_text(state)
    assert [row[0] for row in rows] == aces
    assert [(r, c) for r, row in enumerate(rows) for c, cell in enumerate(row) if cell is None] == [
        (i // 13, 1 + i % 13) for i, c in enumerate(order) if card_text(c)[0] == "A"
    ]
    state = make_game("gaps", {"variant": "blue_moon"}).position(full_rows("AC -- 3C", "AD 2C", "AH 2H", "AS 2S"))
    assert moves_into(state, 0, 1) == ["2C 1,1>0,1"]


def test_12_red_moon_gaps_start_in_the_second_column():
    state, _ = deal(make_game("gaps", {"variant": "red_moon"}), seed=4)
    rows = grid_text(state)
    assert [row[0] for row in rows] == ["AC", "AD", "AH", "AS"]
    assert [(r, c) for r, row in enumerate(rows) for c, cell in enumerate(row) if cell is None] == [
        (r, 1) for r in range(4)
    ]


@pytest.mark.parametrize("variant", ["spaces", "addiction"])
def test_13_spaces_and_addiction_redeal_gaps_at_random_open_places(variant):
    game = make_game("gaps", {"variant": variant})
    for seed in range(20):
        state = redeal_once(game, REDEAL_ROWS, seed=seed)
        rows = grid_text(state)
        assert rows[0][:3] == ["2C", "3C", "4C"] and rows[2][:12] == REDEAL_ROWS[2][:12] and rows[3][0] == "2S"
        cells = [cell for row in rows for cell in row]
        assert cells.count(None) == 4 and not any(cell and cell[0] == "A" for cell in cells)
        kept = {(0, 0), (0, 1), (0, 2), (3, 0), *((2, c) for c in range(12))}
        assert all((r, c) not in kept for r, row in enumerate(rows) for c, cell in enumerate(row) if cell is None)


def test_14_paganini_lists_both_copies_of_a_card():
    state = make_game("gaps", {"variant": "paganini"}).position(
        full_rows("AS 7S -- 8S", "AC 8S", "AD", "AH", "AS", "AC", "AD", "AH")
    )
    assert moves_into(state, 0, 2) == ["8S 0,3>0,2", "8S 1,1>0,2"]


def test_15_at_the_round_move_cap_only_end_round_is_left():
    game = make_game("gaps", {"round_moves": "2"})
    state = game.position(full_rows("5H -- 6C", "9D 6H KS --", "KC -- KD --", "KH --"), moves=2)
    assert [a.notation() for a in state.legal_actions()] == ["end_round"]


def test_redeal_only_when_stuck_hides_end_round_while_a_move_exists():
    game = make_game("gaps", {"redeal_only_when_stuck": "true"})
    state = game.position(full_rows("5H -- 6C", "9D 6H KS --", "KC -- KD --", "KH --"))
    assert "end_round" not in [a.notation() for a in state.legal_actions()]


def test_notation_reads_back():
    game = make_game("gaps")
    state, _ = deal(game, seed=2)
    for action in state.legal_actions():
        assert game.parse_action(action.notation(), state) == action
    assert parse_card("TD") == game.parse_action("deal TD", game.new_state()).value
