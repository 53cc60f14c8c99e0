"""Properties of random Durak games for every combination of variant, deck and seats (teams included): every card
in exactly one place, the bout invariant, termination with valid places, and no card a seat may not know in any
request sent to it (checked on the wire form, card by card)."""

from __future__ import annotations

import itertools
import random

import pytest

from referee import wire
from referee.checkbot import decision_request
from referee.games import CHANCE, NO_CARD, make_game
from referee.games.cards._cards import card_text
from referee.games.cards.durak import HAND, _points
from referee.playouts import random_decisions

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines (conftest.py)

GAMES_PER_COMBINATION = 100
DECISION_LIMIT = 3000

COMBINATIONS = [
    (variant, deck, seats, teams)
    for variant, deck, seats in itertools.product(("podkidnoy", "perevodnoy"), ("36", "24", "52"), range(2, 7))
    for teams in ("none", "2v2")
    if (teams == "none" or seats == 4) and HAND * seats <= int(deck)
]


def options(variant, deck, seats, teams):
    show = "true" if variant == "perevodnoy" and seats % 2 else "false"  # show-trump transfers in half the games
    return {"variant": variant, "deck": deck, "seats": str(seats), "teams": teams, "show_trump_transfer": show}


def check_cards(state, deck):
    """Every card of the deck in exactly one place: a hand, the stock, the table or the discard."""
    places = [cards for hand in state._hands for cards in [hand]]
    places.append(sum(1 << c for c in state._stock))
    places.append(sum(1 << c for pair in state._table for c in pair if c != NO_CARD))
    places.append(state._discard)
    union = 0
    for mask in places:
        assert not union & mask, "a card is in two places"
        union |= mask
    assert union == sum(1 << c for c in deck)
    for seat, known in enumerate(state._known):
        assert known & ~state._hands[seat] == 0, "a known card is not in its owner's hand"


def check_bout(state):
    """Attack cards never exceed min(L, h0); the uncovered ones never exceed the defender's hand."""
    attacks = len(state._table)
    uncovered = sum(1 for _, d in state._table if d == NO_CARD)
    assert attacks <= state._cap()
    if state._phase == "defend":
        assert uncovered <= state._hands[state._defender].bit_count()


def allowed_cards(state, seat):
    """What ``seat`` may know: its hand, the table, the discard, the trump card, every seat's public cards."""
    mask = state._hands[seat] | state._discard | state._shown
    mask |= sum(1 << c for pair in state._table for c in pair if c != NO_CARD)
    for known in state._known:
        mask |= known
    if state._trump_card != NO_CARD:
        mask |= 1 << state._trump_card
    return {card_text(c) for c in range(52) if mask >> c & 1}


def cards_in_message(message):
    """Every card string anywhere in a protobuf message."""
    found = set()
    for field, value in message.ListFields():
        values = value if field.is_repeated else [value]
        for item in values:
            if hasattr(item, "ListFields"):
                found |= cards_in_message(item)
            elif isinstance(item, str) and len(item) == 2 and item[1] in "CDHS" and item[0] in "23456789TJQKA":
                found.add(item)
    return found


@pytest.mark.parametrize("combination", COMBINATIONS, ids=lambda c: "-".join(map(str, c)))
def test_random_games_keep_every_invariant(combination):
    game = make_game("durak", options(*combination))
    rng = random.Random(str(combination))
    for number in range(GAMES_PER_COMBINATION):
        state = game.new_state()
        decisions = 0
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            check_cards(state, game.deck)
            check_bout(state)
            seat = state.current_player
            legal = state.legal_actions()
            assert legal == sorted(legal) and len(set(legal)) == len(legal)
            if number < 3:  # the leak test, on the wire form of every request of the first games
                message = wire.act_request_to_proto(decision_request(game, state, decisions, seat))
                leaked = cards_in_message(message) - allowed_cards(state, seat)
                assert not leaked, f"seat {seat} was sent {leaked}"
            state.apply(legal[rng.randrange(len(legal))])
            decisions += 1
            assert decisions < DECISION_LIMIT, "a game that does not end"
        check_cards(state, game.deck)
        outcome = state.outcome()
        places = outcome.places
        assert len(places) == game.num_seats and min(places) == 1 and outcome.points == _points(places)
        if combination[3] == "2v2":
            assert places[0] == places[2] and places[1] == places[3]
        elif outcome.termination == "durak":
            assert sorted(places)[-1] == game.num_seats and places.count(game.num_seats) == 1


def test_no_view_holds_another_hand():
    """Views never carry other hands: only the spectator's view (never sent to a bot) has ``hands``."""
    game = make_game("durak", {"seats": "4"})
    state = game.new_state()
    rng = random.Random(4)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance(rng))
    for seat in range(4):
        view = state.view(seat)
        assert view.hands == () and set(view.hand) == {c for c in range(52) if state._hands[seat] >> c & 1}
    assert len(state.spectator_view().hands) == 4


@pytest.mark.parametrize("combination", [("perevodnoy", "36", 2, "none"), ("podkidnoy", "52", 5, "none")])
def test_a_state_rebuilt_from_a_view_plays_the_same(combination):
    """Given the true hidden cards, ``from_view`` rebuilds a state with the same view and legal actions (what
    search bots rely on when they guess the hidden cards)."""
    game = make_game("durak", options(*combination))
    rng = random.Random(9)
    checked = 0
    for state, legal in random_decisions(game, 20, seed=9):
        if legal is None or rng.random() > 0.2:
            continue
        seat = state.current_player
        hands = [[c for c in range(52) if hand >> c & 1] for hand in state._hands]
        rebuilt = game.from_view(state.view(seat), hands, list(state._stock))
        assert rebuilt.view(seat) == state.view(seat) and rebuilt.legal_actions() == legal
        checked += 1
    assert checked > 100
