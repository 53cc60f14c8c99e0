"""Every game ends only in the ways it declares (``Game.terminations``, an enum of the words replays and the wire
carry), besides the referee's decision limit and a fault; a match's and a session's games end in their own
game's words. Random games of every game, on the engines this run uses (the native core's words included)."""

from __future__ import annotations

import json

import pytest

from referee.games import FAULT, GAMES, LIMIT, Game, Outcome, make_game
from referee.playouts import random_decisions

GAMES_EACH = 6


def _endings(game: Game, outcome: Outcome) -> list[tuple[Game, str]]:
    """The game's ending and those of the games inside it, each with the game that declares it."""
    inner = [(make_game(game_id) if game_id != game.id else game, sub.termination) for game_id, sub in outcome.games]
    return [(game, outcome.termination), *inner]


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_game_ends_only_as_it_declares(game_id):
    options = {"deals": "2"} if game_id == "durak" else None  # a session, whose deals end in Durak's words too
    game = make_game(game_id, options)
    seen = set()
    for state, legal in random_decisions(game, GAMES_EACH, seed=5):
        if legal is None:
            for declaring, word in _endings(game, state.outcome()):
                assert word in {*declaring.terminations, LIMIT, FAULT}, f"{declaring.id} ended {word!r}"
                seen.add(word)
    assert seen


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_declared_words_are_plain_text(game_id):
    """A termination is written as its word (replays are JSON, the wire a string), distinct from the referee's."""
    terminations = make_game(game_id).terminations
    assert all(json.dumps(member) == json.dumps(member.value) and str(member) == member.value
               for member in terminations)
    assert not {LIMIT, FAULT} & set(terminations)
