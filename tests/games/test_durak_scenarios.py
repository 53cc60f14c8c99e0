"""Every test scenario of rules/cards.md §1.9, numbered as there."""

from __future__ import annotations

import pytest

from referee.games import CHANCE, DurakAction, DurakChance, make_game
from referee.games.cards._cards import SUITS, beats, card_text, parse_card
from referee.games.cards._durak_native import NativeDurakState
from referee.games.cards.durak import _KIND_NAMES

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines (conftest.py)

C = parse_card


@pytest.fixture
def durak(engine):
    """Makes a Durak game with options on the engine of the run."""

    def make(**options):
        return make_game("durak", {k: str(v).lower() for k, v in options.items()}, engine=engine)

    return make


def notations(state):
    return [a.notation() for a in state.legal_actions()]


def play(state, *texts):
    """Apply decisions by notation, checking each is legal for the seat to act."""
    for text in texts:
        state.apply(state._game.parse_action(text, state))


def shuffled(game, first, rest_order=None):
    """A state after a shuffle whose deck starts with ``first`` (card texts); the rest follows in deck order."""
    state = game.new_state()
    head = [C(c) for c in first]
    for card in head + [c for c in game.deck if c not in head]:
        state.apply(DurakChance("deck", card))
    return state


def deal_order(hands, trump, n):
    """The deck head that deals ``hands`` (6 card texts per seat) and turns ``trump``."""
    return [hands[i % n][i // n] for i in range(6 * n)] + ([trump] if trump else [])


def test_1_beating():
    hearts = SUITS.index("H")
    for defence in ("TS", "AS", "6H"):
        assert beats(C("9S"), C(defence), hearts)
    for defence in ("8S", "AC"):
        assert not beats(C("9S"), C(defence), hearts)
    assert beats(C("7H"), C("8H"), hearts)
    assert not beats(C("7H"), C("AS"), hearts) and not beats(C("7H"), C("6H"), hearts)


def test_2_the_turned_trump_is_drawn_last(durak):
    game = durak(seats=2)
    state = shuffled(game, [])
    view = state.view(0)
    assert view.stock == 24 and view.trump_in_stock
    trump = view.trump_card
    # Play on (always the first legal action) until the stock is empty: the last card drawn is the trump.
    while state.view(0).stock:
        before = state.view(0).stock
        state.apply(state.legal_actions()[0])
        after = state.view(0)
        if after.stock == 0 and before:
            holder = next(s for s in range(2) if trump in state.view(s).hand)
            assert all(trump in state.view(s).seats[holder].known for s in range(2))
    assert not state.view(0).trump_in_stock


def test_3_six_seats_no_stock(durak):
    game = durak(seats=6)
    state = shuffled(game, [])
    last_dealt = game.deck[35]  # the deck follows canonical order: card 35 is dealt last, to seat 5
    for seat in range(6):
        view = state.view(seat)
        assert view.stock == 0 and view.trump_card == last_dealt and view.trump_suit == last_dealt // 13
        assert last_dealt in view.seats[5].known


def test_4_lowest_trump_leads(durak):
    game = durak(seats=4)
    hands = [
        ["9D", "6C", "7C", "8C", "9C", "TC"],
        ["JC", "QC", "KC", "AC", "6S", "7S"],
        ["7D", "8S", "9S", "TS", "JS", "QS"],
        ["KS", "AS", "6H", "7H", "8H", "9H"],
    ]
    state = shuffled(game, deal_order(hands, "6D", 4))
    assert state.view(0).trump_card == C("6D") and state.current_player == 2
    for seat in range(4):
        view = state.view(seat)
        assert view.attacker == 2 and view.defender == 3
        assert view.seats[2].known == (C("7D"),)


def test_5_no_trump_dealt_lot(durak):
    game = durak(seats=2)
    hands = [["6C", "7C", "8C", "9C", "TC", "JC"], ["6S", "7S", "8S", "9S", "TS", "JS"]]
    state = shuffled(game, deal_order(hands, "6D", 2))
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert [a.notation() for a, _ in outcomes] == ["lot 0", "lot 1"] and outcomes[0][1] == 0.5
    state.apply(DurakChance("lot", 1))
    assert state.current_player == 1 and state.view(0).defender == 0
    redeal = shuffled(durak(seats=2, no_trump_start="redeal"), deal_order(hands, "6D", 2))
    assert redeal.current_player == CHANCE and len(redeal.chance_outcomes()) == 36


def test_6_lead_actions(durak):
    state = durak(seats=2).position([["9C", "9D", "9H", "KS"], ["6C", "7C"]], "6H", attacker=0, stock=["8C"])
    leads = notations(state)
    assert len(leads) == 7
    assert set(leads) == {"lead 9C", "lead 9D", "lead 9H", "lead KS", "lead 9C 9D", "lead 9C 9H", "lead 9D 9H"}


def test_7_throw_ins_match_any_rank_on_the_table(durak):
    state = durak(seats=2).position(
        [["8D", "8S", "TH", "9C", "9S", "6C"], ["TD", "7C", "7S", "JC", "QC", "KC"]], "AH", attacker=0, stock=["AD"]
    )
    play(state, "lead 8D", "beat 8D with TD")
    assert notations(state) == ["throw TH", "throw 8S", "pass"]  # canonical order: suit, then rank


def test_8_bout_limits(durak):
    attacker = ["6C", "9D", "TC", "6D", "6H", "JH", "9H"]
    defender = ["9C", "TD", "JC", "JD", "QH", "KH"]
    covers = ["lead 6C", "beat 6C with 9C", "throw 9D", "beat 9D with TD", "throw TC", "beat TC with JC"]
    covers += ["throw 6D", "beat 6D with JD", "throw 6H"]
    state = durak(seats=2).position([attacker, defender], "AS", attacker=0, stock=["QS"], bout=2)
    play(state, *covers, "beat 6H with QH", "throw JH")
    assert state.view(0).throw_room == 0
    play(state, "take")
    assert notations(state) == ["done"]  # six attack cards lie on the table: 9H may not follow
    first = durak(seats=2, first_bout_limit=5).position([attacker, defender], "AS", attacker=0, stock=["QS"], bout=1)
    play(first, *covers)
    assert first.view(0).throw_room == 0
    play(first, "beat 6H with QH")
    assert first.view(0).bout == 2  # five attack cards beaten: the first bout is over
    small = durak(seats=2).position([attacker, ["AC", "AD", "AH"]], "AS", attacker=0, stock=["QS"])
    assert max(len(a.cards) for a in small.legal_actions()) == 3
    play(small, "lead 6C 6D 6H", "take")
    assert notations(small) == ["done"]


def test_9_take_and_throw_after(durak):
    hands = [
        ["7C", "9S", "7D", "KS", "KH", "KD"],
        ["9C", "AC", "AD", "AH", "QS", "QH"],
        ["9H", "JS", "JH", "JD", "JC", "QD"],
    ]
    state = durak(seats=3).position(hands, "AS", attacker=0, stock=["TC", "TD", "TH", "TS"])
    play(state, "lead 7C", "beat 7C with 9C")
    assert state.current_player == 0
    play(state, "throw 9S")
    assert state.current_player == 1
    play(state, "take")
    assert state.current_player == 0 and "throw 7D" in notations(state)
    play(state, "throw 7D", "done")
    assert state.current_player == 2
    play(state, "throw 9H", "done")
    picked = {C(c) for c in ("7C", "9C", "9S", "7D", "9H")}
    view = state.view(0)
    assert picked <= set(view.seats[1].known) and view.seats[1].hand_size == 10
    assert view.attacker == 2 and view.defender == 0


def test_10_drawing_order(durak):
    hands = [
        ["6C", "7C", "8C", "9C"],
        ["TC", "JC", "QC", "KC", "AC"],
        ["6D", "7D", "8D", "9D", "TD"],
        ["6H", "7H", "8H", "9H", "TH", "JH"],
    ]
    state = durak(seats=4).position(hands, "AS", attacker=0, stock=["6S", "7S", "8S", "AS"])
    play(state, "lead 6C", "beat 6C with TC", "pass", "pass", "pass")
    view = state.view(0)
    assert [seat.hand_size for seat in view.seats] == [6, 4, 6, 6] and view.stock == 0
    assert C("AS") in view.seats[2].known  # the turned trump was drawn by seat 2, in sight of all


def test_11_poll_order(durak):
    hands = [["6C", "7C", "8C"], ["TC", "JC", "QC", "KC", "AC", "QD"], ["6D", "7D", "8D"], ["6H", "7H", "8H"]]
    state = durak(seats=4).position(hands, "AS", attacker=0, stock=["6S"])
    play(state, "lead 6C", "beat 6C with TC")
    asked = []
    while state.view(0).bout == 2 and state.view(0).phase == "throw_in":
        asked.append(state.current_player)
        play(state, "pass")
    assert asked == [0, 2, 3] and state.view(0).bout == 3


def test_12_going_out_with_the_last_card(durak):
    state = durak(seats=3).position([["6C"], ["7C", "AD"], ["8D", "9D"]], "AS", attacker=0)
    play(state, "lead 6C", "beat 6C with 7C")
    assert state.current_player == 2  # seat 0 has nothing left to throw
    play(state, "pass")
    view = state.view(1)
    assert view.seats[0].place == 1 and view.attacker == 1 and view.defender == 2


def test_13_last_cards_together_no_durak(durak):
    state = durak(seats=2).position([["6C"], ["7C"]], "AS", attacker=0)
    play(state, "lead 6C", "beat 6C with 7C")
    outcome = state.outcome()
    assert outcome.termination == "no_durak" and outcome.places == (1, 1) and outcome.points == (0, 0)


def test_14_transfer_needs_room_in_the_next_hand(durak):
    game = durak(seats=3, variant="perevodnoy")
    hands = [["7C", "KD"], ["7H", "AD"], ["7S", "QD"]]
    state = game.position(hands, "AS", attacker=0, stock=["6S"])
    play(state, "lead 7C")
    assert "transfer 7H" in notations(state)  # seat 2 holds 2 cards
    short = game.position([["7C", "KD"], ["7H", "AD"], ["7S"]], "AS", attacker=0, stock=["6S"])
    play(short, "lead 7C")
    assert "transfer 7H" not in notations(short)
    play(state, "transfer 7H")
    view = state.view(2)
    assert view.attacker == 1 and view.defender == 2 and state.current_player == 2
    assert "transfer 7S" not in notations(state)  # seat 0 holds 1 card, 3 needed
    rich = game.position([["7C", "KD", "QC", "JC"], ["7H", "AD"], ["7S", "QD"]], "AS", attacker=0, stock=["6S"])
    play(rich, "lead 7C", "transfer 7H")
    assert "transfer 7S" in notations(rich)


def test_15_no_transfer_once_a_card_is_covered(durak):
    game = durak(seats=2, variant="perevodnoy")
    state = game.position([["9C", "9D", "KS", "QS", "JS"], ["9H", "TC", "AD"]], "AS", attacker=0, stock=["6S"])
    play(state, "lead 9C 9D")
    assert "transfer 9H" in notations(state)
    play(state, "beat 9C with TC")
    assert not [t for t in notations(state) if t.startswith("transfer")]


def test_16_show_trump(durak):
    game = durak(seats=3, variant="perevodnoy", show_trump_transfer=True)
    hands = [["9H", "6C", "6D"], ["9S", "KC", "KD"], ["TH", "QC", "QD"]]
    state = game.position(hands, "AS", attacker=0, stock=["7C", "7D", "7H", "AS"])
    play(state, "lead 9H")
    assert "show 9S" in notations(state)
    play(state, "show 9S")
    view = state.view(0)
    assert view.defender == 2 and view.attacker == 1 and view.table == ((C("9H"), -1),)
    assert C("9S") in view.seats[1].known and view.seats[1].hand_size == 3 and view.shown == (C("9S"),)
    # Later in the game seat 1 defends against a 9 again: the shown trump cannot be shown a second time.
    again = game.position([["9C", "6C"], ["9S", "KC"], ["9D", "QC"]], "AS", attacker=0, stock=["7C"], shown=["9S"])
    play(again, "lead 9C")
    assert "show 9S" not in notations(again) and "transfer 9S" in notations(again)


def test_17_teams_throwers_and_rotation(durak):
    game = durak(seats=4, teams="2v2")
    hands = [["6C", "6D"], ["AC", "AD", "AH"], ["6H", "7C"], ["KC", "KD"]]
    state = game.position(hands, "AS", attacker=0, stock=["8S"])
    assert state.view(0).defender == 1
    play(state, "lead 6C", "beat 6C with AC")
    asked = []
    while state.view(0).phase == "throw_in":
        asked.append(state.current_player)
        play(state, "pass")
    assert asked == [0, 2]
    # Seat 3 out, every bout beaten off: the attacks run 0→1, 1→2, 2→1 (seat 1 plays virtual 3), 1→0.
    deep = [["6C", "6D", "6H", "6S"], ["AC", "AD", "AH", "QC", "QD", "QH"], ["7C", "7D", "7H", "7S"], []]
    state = game.position(deep, "AS", attacker=0)
    pairs = []
    for lead, cover in (("6C", "AC"), ("QC", "7S"), ("7D", "AD"), ("QD", "6S")):
        view = state.view(0)
        pairs.append((view.attacker, view.defender))
        play(state, f"lead {lead}", f"beat {lead} with {cover}")
        while state.view(0).phase == "throw_in":
            play(state, "pass")
    assert pairs == [(0, 1), (1, 2), (2, 1), (1, 0)]


def test_18_a_team_out_wins(durak):
    game = durak(seats=4, teams="2v2")
    state = game.position([["6C", "8C"], ["7C"], ["KD"], []], "AS", attacker=0)
    play(state, "lead 6C", "beat 6C with 7C")
    while state.current_player >= 0:
        play(state, "pass")
    outcome = state.outcome()
    assert outcome.termination == "durak" and outcome.places == (2, 1, 2, 1) and outcome.points == (0, 2, 0, 2)


def test_19_hidden_cards_and_forced_passes(durak):
    game = durak(seats=3)
    hands = [["6C", "6D", "KS"], ["AC", "AD", "AH"], ["7H", "8H", "9H"]]
    state = game.position(hands, "AS", attacker=0, stock=["QS", "QH", "QC"])
    view = state.view(1)
    seen = set(view.hand) | set(view.discard) | {view.trump_card} | {c for pair in view.table for c in pair}
    seen |= {c for seat in view.seats for c in seat.known}
    assert not {C("6C"), C("6D"), C("KS")} & seen
    play(state, "lead 6C", "beat 6C with AC")
    play(state, "throw 6D", "beat 6D with AD")
    play(state, "pass")
    # Seat 2 holds no 6 or ace: its only action is a pass, asked and answered like any other decision.
    assert state.current_player == 2 and notations(state) == ["pass"]


@pytest.mark.parametrize("text", ["lead 9C 9D", "beat 9C with TC", "take", "throw 8D", "pass", "done", "transfer 7H"])
def test_notation_round_trip(text):
    kind, *rest = text.replace(" with", "").split()
    action = DurakAction(_KIND_NAMES.index(kind), tuple(C(c) for c in rest))
    assert action.notation() == text and [card_text(c) for c in action.cards] == rest


def test_the_deals_are_those_of_the_engine_of_the_run(engine, durak):
    assert isinstance(durak().new_state(), NativeDurakState) == (engine == "native")
    position = durak().position([["9C"], ["6C"]], "AS", attacker=0)
    assert isinstance(position, NativeDurakState) == (engine == "native")
