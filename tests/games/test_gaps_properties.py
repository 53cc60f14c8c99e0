"""Properties of random Gaps games of every variant: every card of the deck on the grid exactly as often as the
deck holds it, one gap per row (four, eight in paganini), every redeal keeps the rows' prefixes, each legal action
listed once, and every game ends (by a win or after its last round) with the cards in place as its score."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.games import CHANCE, GAP, make_game
from referee.games.cards.gaps import VARIANTS, _prefixes

GAMES_PER_VARIANT = 600


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_keep_every_card_and_end(variant):
    game = make_game("gaps", {"variant": variant, "round_moves": "60"})
    on_grid = sorted(card for card in game.deck if game.aces_lead or card % 13 != 12)
    rng = random.Random(sum(map(ord, variant)))
    endings = Counter()
    for _ in range(GAMES_PER_VARIANT):
        state = game.new_state()
        before_redeal = None
        steps = 0
        while not state.is_terminal():
            steps += 1
            assert steps < 10_000
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            view = state.view(0)
            grid = view.grid
            assert sorted(grid)[game.rows :] == on_grid and grid.count(GAP) == game.rows
            if before_redeal is not None and before_redeal[0] < view.round:
                old_grid = before_redeal[1]
                for row, length in enumerate(_prefixes(game, old_grid)):
                    start = row * game.columns
                    assert grid[start : start + length] == tuple(old_grid[start : start + length])
                    assert game.aces_in_redeal or grid[start + length] == GAP
            legal = state.legal_actions()
            assert len(set(legal)) == len(legal)
            moves = [a for a in legal if not a.ends_round]
            action = moves[rng.randrange(len(moves))] if moves and rng.random() > 0.05 else legal[-1]
            after = list(grid)  # the grid the round ends with, if it ends now
            if not action.ends_round:
                after[action.dst], after[action.src] = action.card, GAP
            before_redeal = (view.round, after)
            state.apply(action)
        outcome = state.outcome()
        endings[outcome.termination] += 1
        assert outcome.points == (state.view(0).placed,)
        assert outcome.termination == "rounds" or outcome.points == (game.rows * game.row_length,)
    assert endings["rounds"] > 0
