"""Every game's parser against malformed text: notations of real positions, mutated by Hypothesis (characters
dropped, doubled, swapped or replaced, words swapped, other games' notations), on both engines. A text is read as
an action legal in the position, or refused with InvalidActionError or IllegalActionError (both ValueErrors):
never another exception."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games import CHANCE, GAMES, IllegalActionError, InvalidActionError, make_game

pytestmark = pytest.mark.usefixtures("engine")  # on both engines (conftest.py)

ALPHABET = "0123456789 >-_/:.,;()[]{}\tabcdefghijklmnopqrstuvwxyzACDHJKQST"
KNOWN = ["pile f2>s6", "pile s2>their_small_up", "2D f0>s1", "deck 0", "coin 7", "9C pending>pending"]
"""Texts that once crashed a parser, or are near it: tried in every position of every game."""


def positions(game_id: str, count: int = 6) -> list:
    """States of seeded random games at decisions spread over the game, with the notations legal there."""
    game = make_game(game_id)
    rng = random.Random(game_id)
    found = []
    state = game.new_state()
    step = 0
    while len(found) < count:
        if state.is_terminal():
            found.append((state.clone(), []))
            state = game.new_state()
            continue
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_actions()
        if step % 7 == 0:
            found.append((state.clone(), [action.notation() for action in legal]))
        state.apply(legal[rng.randrange(len(legal))])
        step += 1
    return found


NOTATIONS = sorted({text for game_id in GAMES for _, texts in positions(game_id, 3) for text in texts[:20]})
"""Notations of every game: one game's text is malformed in another."""
TOKENS = sorted({token for text in NOTATIONS for token in re.split(r"[ >]", text) if token})
"""The words and places of every game's notations, to put in the place of another."""


def mutated(texts: list[str]) -> st.SearchStrategy[str]:
    source = st.sampled_from(texts or ["end_turn"])

    def mutate(text: str, edits: list[tuple[int, int, str]]) -> str:
        chars = list(text)
        for kind, where, char in edits:
            at = where % (len(chars) + 1)
            if kind == 0:
                chars.insert(at, char)
            elif kind == 1 and chars:
                del chars[at % len(chars)]
            elif kind == 2 and chars:
                chars[at % len(chars)] = char
            elif kind == 3 and len(chars) > 1:
                i = at % (len(chars) - 1)
                chars[i], chars[i + 1] = chars[i + 1], chars[i]
            elif kind == 4:
                words = "".join(chars).split(" ")
                random.Random(where).shuffle(words)
                chars = list(" ".join(words))
            elif kind == 5:  # one word or place for another: "pile s2>s5" becomes "pile f2>s5"
                parts = re.split(r"([ >])", "".join(chars))
                words = [index for index, part in enumerate(parts) if part not in (" ", ">")]
                parts[words[at % len(words)]] = TOKENS[where % len(TOKENS)]
                chars = list("".join(parts))
        return "".join(chars)

    edits = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 400), st.sampled_from(ALPHABET)), max_size=4)
    return st.one_of(
        st.builds(mutate, source, edits),
        st.builds(mutate, st.sampled_from(NOTATIONS), edits),
        st.text(ALPHABET, max_size=24),
    )


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_malformed_notation_is_a_value_error(game_id):
    game = make_game(game_id)
    for state, texts in positions(game_id):

        @settings(max_examples=150, deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.function_scoped_fixture])
        @given(mutated(texts))
        def parse(text: str) -> None:
            try:
                action = game.parse_action(text, state)
            except (InvalidActionError, IllegalActionError):
                return
            if state.current_player == CHANCE:
                assert action in [outcome for outcome, _ in state.chance_outcomes()]
            else:
                assert action in state.legal_actions(), text

        parse()
        for text in KNOWN:
            parse.hypothesis.inner_test(text)
