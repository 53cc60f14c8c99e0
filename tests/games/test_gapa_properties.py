"""Properties of random Gapa games under every option: all 104 cards (two decks) always in exactly one place,
every game ends, and no request to a seat ever holds the opponent's drawn card or an unseen face-down order
(checked on the wire form)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee import wire
from referee.games import CHANCE, make_game
from referee.games.cards.gapa import NO_CARD, value
from referee.wire import ActRequest, ClockInfo, LegalAction

OPTIONS = [
    {},
    {"gapa": "penalty"},
    {"side_deal": "first_player_both"},
    {"own_big_up_playable": "true", "margin": "true"},
    {"turn_cap": "5", "idle_turns": "20"},
]
GAMES_PER_OPTION = 100
TWO_DECKS = Counter({card: 2 for card in range(52)})


def cards_in_play(state) -> Counter:
    found: Counter = Counter()
    for holding in state._players:
        found.update(holding["small"] + holding["small_up"] + holding["big"] + holding["big_up"])
        if holding["pending"] != NO_CARD:
            found[holding["pending"]] += 1
    for pile in state._side:
        found.update(pile)
    for top in state._foundations:  # a foundation holds its suit from the ace up to its top card
        if top != NO_CARD:
            suit = top // 13
            found.update([suit * 13 + 12] + [suit * 13 + i for i in range(value(top) - 1)])
    return found


def check_request(state, seat):
    request = ActRequest("m", 1, "gapa", seat, {}, 0, state.view(seat), ClockInfo(1000, 0, 1000, 1000),
                         tuple(LegalAction(i, a.notation(), a) for i, a in enumerate(state.legal_actions())))
    message = wire.act_request_to_proto(request).gapa
    for number, (holding, real) in enumerate(zip(message.players, state._players, strict=True)):
        if number == seat:
            assert holding.pending == (wire_card(real["pending"]))
        else:
            assert holding.pending == ""  # the opponent's drawn card is never sent
        assert holding.pending_from == real["pending_from"]
        assert holding.small == len(real["small"]) and holding.big == len(real["big"])
        assert list(holding.big_known) == ([wire_card(c) for c in reversed(real["big"])] if real["big_public"] else [])


def wire_card(card: int) -> str:
    from referee.games.cards._cards import card_text

    return card_text(card) if card != NO_CARD else ""


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_random_games_keep_every_card_end_and_leak_nothing(options):
    game = make_game("gapa", options)
    rng = random.Random(len(str(options)))
    endings: Counter = Counter()
    for number in range(GAMES_PER_OPTION):
        state = game.new_state()
        steps = 0
        while not state.is_terminal():
            steps += 1
            assert steps < 50_000
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            if steps % 11 == 0:
                assert cards_in_play(state) == TWO_DECKS
            legal = state.legal_actions()
            assert legal and len(set(legal)) == len(legal) and legal == sorted(legal)
            if number < 3:
                check_request(state, state.current_player)
            state.apply(legal[rng.randrange(len(legal))])
        assert cards_in_play(state) == TWO_DECKS
        outcome = state.outcome()
        endings[outcome.termination] += 1
        assert outcome.termination in ("out", "stalemate", "idle")
        assert (max(outcome.points) > 0) == (outcome.termination == "out")
    assert endings["out"] > 0
