"""The lazy legal actions of a request, and the native core's own records of a Tabla-family stage: the same
message, byte for byte, as the one built field by field."""

from __future__ import annotations

import pickle

import pytest
from kafana_kit.v1 import bot_pb2 as pb

from referee import wire
from referee.games import make_game
from referee.games.engine import NATIVE
from referee.playouts import random_decisions


def _decisions(game_id: str, games: int, seed: int):
    """(state, legal actions) at every decision of ``games`` seeded random games."""
    return ((state, legal) for state, legal in random_decisions(make_game(game_id), games, seed) if legal is not None)


def _request(state, legal_actions) -> wire.ActRequest:
    """A request of ``state``'s mover with these legal actions."""
    seat = state.current_player
    clock = wire.ClockInfo(9, 1, 5, 5)
    return wire.ActRequest("m", 1, "g", seat, {"a": "b"}, 7, state.view(seat), clock, legal_actions)


@pytest.mark.parametrize("game_id", ["tabla", "gjul-bara", "tapa", "durak", "gaps"])
def test_lazy_legal_actions_send_the_message_built_field_by_field(game_id: str) -> None:
    for state, legal in _decisions(game_id, 4, seed=11):
        lazy = wire.LegalActions(legal)
        eager = tuple(wire.LegalAction(i, action.notation(), action) for i, action in enumerate(legal))
        assert lazy == eager and len(lazy) == len(eager) and lazy[-1] == eager[-1] and lazy[1:3] == eager[1:3]
        for detail in (True, False):
            expected = wire.act_request_to_proto(_request(state, eager), detail=detail).SerializeToString()
            assert wire.act_request_bytes(_request(state, lazy), detail=detail) == expected


@pytest.mark.skipif(NATIVE is None, reason="the native core is not installed")
@pytest.mark.parametrize("game_id", ["tabla", "gjul-bara", "tapa", "tabla-match"])
def test_a_native_stage_writes_its_own_records_and_notations(game_id: str) -> None:
    decisions = 0
    for state, legal in _decisions(game_id, 3, seed=5):
        notations = [play.notation() for play in legal]  # each the stage's own: the plays are not listed
        assert legal._plays is None
        lazy = wire.LegalActions(legal)
        records = {detail: lazy.wire_records(detail) for detail in (True, False)}
        assert None not in records.values() and legal._plays is None
        eager = tuple(wire.LegalAction(i, action.notation(), action) for i, action in enumerate(legal))
        for detail, written in records.items():
            expected = wire.act_request_to_proto(_request(state, eager), detail=detail).legal_actions
            assert list(pb.ActRequest.FromString(written).legal_actions) == list(expected)
        assert notations == [text for _, text in (legal._listed()[play.key] for play in legal)]
        decisions += 1
    assert decisions > 100


def test_legal_actions_pickle_as_their_tuple_and_check_their_ids() -> None:
    state, legal = next(_decisions("tapa", 1, seed=2))
    lazy = wire.LegalActions(legal)
    copy = pickle.loads(pickle.dumps(lazy))
    assert isinstance(copy, tuple) and copy == lazy
    with pytest.raises(IndexError):
        lazy[len(legal)]


@pytest.mark.parametrize("game_id", ["tabla", "tapa", "durak", "gapa", "gaps"])
def test_a_bot_reads_the_legal_actions_it_uses_and_sees_what_was_sent(game_id: str) -> None:
    """The bot side: the request's legal actions are read from their records when used, equal to the actions
    sent, with and without detail."""
    for state, legal in _decisions(game_id, 2, seed=5):
        sent = tuple(wire.LegalAction(i, action.notation(), action) for i, action in enumerate(legal))
        for detail in (True, False):
            message = pb.ActRequest.FromString(wire.act_request_bytes(_request(state, sent), detail=detail))
            received = wire.act_request_from_proto(message).legal_actions
            assert isinstance(received, wire.ReceivedActions) and len(received) == len(sent)
            assert [(a.id, a.notation) for a in received] == [(a.id, a.notation) for a in sent]
            if detail:
                assert received == sent and received[-1] is received[len(sent) - 1]
            assert pickle.loads(pickle.dumps(received)) == tuple(received)


def test_a_bot_that_reads_one_legal_action_reads_only_that_record() -> None:
    """A record the bot never reads is never converted: a malformed one is found only when read."""
    state, legal = next(_decisions("durak", 1, seed=3))
    message = pb.ActRequest.FromString(wire.act_request_bytes(_request(state, wire.LegalActions(legal))))
    message.legal_actions[-1].durak.cards.append("not a card")
    received = wire.act_request_from_proto(message).legal_actions
    assert received[0].id == 0
    with pytest.raises(wire.WireError):
        received[-1]
    with pytest.raises(IndexError):
        received[len(legal)]
