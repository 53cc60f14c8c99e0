"""Durak deals run by the native core are the Python engine's deals: seeded deals and sessions played through both
side by side give the same seat to act, legal actions, notations, views (every seat's and the spectator's), chance
outcomes and outcomes at every step, for every option set; and the native state keeps the State contract
(copies, actions read from the wire, one-line errors)."""

from __future__ import annotations

import random

import pytest

from referee.games import CHANCE, IllegalActionError, make_game
from referee.games.cards._durak_native import NativeDurakState
from referee.games.cards.durak import BEAT, LEAD, DurakAction, DurakChance
from referee.games.engine import NATIVE
from referee.wire import LegalAction
from referee.wire._convert import _codec_for, _durak_view_bytes, _durak_view_to_proto, _legal_records

from ._differential import play_along
from .test_playouts import OPTION_SETS

BOUT_PHASES = ("lead", "defend", "throw_in", "take_throw")

pytestmark = pytest.mark.skipif(NATIVE is None, reason="the native core is not installed")

DURAK_SETS = [(options, max(6, count // 5)) for game_id, options, count in OPTION_SETS if game_id == "durak"] + [
    ({"seats": "3", "deals": "3", "session_start": "under_fool"}, 4),
    ({"seats": "4", "deals": "2", "session_start": "from_under_fool", "variant": "perevodnoy"}, 4),
    ({"seats": "4", "teams": "2v2", "deals": "2"}, 3),
]


def _same_step(native, python) -> None:
    assert native.current_player == python.current_player
    assert native.is_terminal() == python.is_terminal()
    for seat in range(len(python.view(0).seats)):
        (view, record), reference = native.view_and_record(seat), python.view(seat)
        assert view == reference == native.view(seat)
        # the wire record the core made with the view is the library's encoding of the reference's view
        assert (record is not None) == (view.phase in BOUT_PHASES)
        assert _durak_view_bytes(view, record) == _durak_view_to_proto(reference).SerializeToString()
    assert native.spectator_view() == python.spectator_view()
    assert native.chance_outcomes() == python.chance_outcomes()
    mine, theirs = native.legal_actions(), python.legal_actions()
    assert mine == theirs
    # the records the core writes for its list are the wire's own encoding of the reference's actions
    written = tuple(LegalAction(number, action.notation(), action) for number, action in enumerate(theirs))
    _, codec = _codec_for(reference)
    for detail in (True, False):
        assert mine.wire_records(detail) == b"".join(_legal_records(written, codec.detail_bytes if detail else None))
    assert [a.notation() for a in mine] == [a.notation() for a in theirs]


@pytest.mark.parametrize(("options", "count"), DURAK_SETS,
                         ids=["-".join(o.values()) or "default" for o, _ in DURAK_SETS])
def test_native_deals_play_the_python_deals(options, count):
    game = make_game("durak", options)
    rng = random.Random(f"durak{options}")
    for _ in range(count):
        play_along(game.new_state(), game.reference().new_state(), rng, _same_step)


@pytest.mark.parametrize("start", ["random", "redeal"])
def test_a_deal_without_a_trump_goes_to_the_lot_or_is_dealt_again_in_both(start):
    game = make_game("durak", {"no_trump_start": start})
    native, python = game.new_state(), game.reference().new_state()
    clubs_and_diamonds = [suit * 13 + rank for suit in (0, 1) for rank in range(4, 13)]
    hearts = [2 * 13 + rank for rank in range(4, 13)]
    rest = [card for card in game.deck if card not in clubs_and_diamonds[:12] + hearts[:1]]
    for card in clubs_and_diamonds[:12] + hearts[:1] + rest:  # twelve cards without a heart dealt, a heart turned
        for state in (native, python):
            state.apply(DurakChance("deck", card))
    assert native.chance_outcomes() == python.chance_outcomes()
    assert python.view(0).phase == ("lot" if start == "random" else "deal")
    play_along(native, python, random.Random(start), _same_step)


def test_the_native_deal_is_the_default_and_the_reference_is_python():
    game = make_game("durak")
    assert isinstance(game.new_state(), NativeDurakState)
    assert not isinstance(game.reference().new_state(), NativeDurakState)
    session = make_game("durak", {"deals": "2"})
    assert isinstance(session.new_state()._deal, NativeDurakState)
    assert not isinstance(session.reference().new_state()._deal, NativeDurakState)


def _dealt(game, seed: int):
    """Both engines' states after the same seeded shuffle."""
    states = game.new_state(), game.reference().new_state()
    rng = random.Random(seed)
    while states[1].current_player == CHANCE:
        chance = states[1].sample_chance(rng)
        for state in states:
            state.apply(chance)
    return states


def test_native_draws_of_the_shuffle_follow_the_reference_stream():
    game = make_game("durak")
    native, python = game.new_state(), game.reference().new_state()
    a, b = random.Random(5), random.Random(5)
    while python.current_player == CHANCE:
        drawn = native.sample_chance(a)
        assert drawn == python.sample_chance(b)
        native.apply(drawn)
        python.apply(drawn)
    assert native.view(0) == python.view(0)


def test_a_copy_is_independent_and_actions_from_the_wire_apply():
    native, python = _dealt(make_game("durak"), seed=3)
    copy = native.clone()
    lead = native.legal_actions()[0]
    copy.apply(lead)
    assert native.current_player != copy.current_player
    assert native.view(0) != copy.view(0)
    wire = DurakAction(lead.kind, tuple(lead.cards))  # an equal action that is not the listed object
    native.apply(wire)
    python.apply(make_game("durak").parse_action(lead.notation(), python))
    assert native.view(0) == copy.view(0) == python.view(0)
    assert make_game("durak").parse_action(native.legal_actions()[0].notation(), native) in native.legal_actions()


def test_wrong_actions_get_the_python_states_one_line_errors():
    messages = []
    for state in _dealt(make_game("durak"), seed=4):
        hand = state.view(state.current_player).hand
        wrong = [
            DurakAction(BEAT, (hand[0], hand[1])),  # nothing to beat yet
            DurakAction(LEAD, (hand[0], hand[0], hand[0], hand[0], hand[0])),
            DurakChance("deck", hand[0]),  # the shuffle is over
            DurakChance("lot", 0),
        ]
        caught = []
        for action in wrong:
            with pytest.raises(IllegalActionError) as error:
                state.apply(action)
            caught.append(str(error.value))
        with pytest.raises(ValueError, match="^the game is not over$"):
            state.outcome()
        messages.append(caught)
    assert messages[0] == messages[1]
    assert all("\n" not in message for message in messages[0])


def test_a_chance_outcome_twice_is_refused_by_both():
    for game in (make_game("durak"), make_game("durak").reference()):
        state = game.new_state()
        state.apply(DurakChance("deck", 7))
        with pytest.raises(IllegalActionError, match="^deck 9C is not a chance outcome here$"):
            state.apply(DurakChance("deck", 7))
