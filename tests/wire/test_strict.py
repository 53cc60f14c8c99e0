"""Strict reading of answers: exactly the declared message, or a WireError naming what is not."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.wire import (
    ActResponse,
    BotInfo,
    WireError,
    act_response_from_bytes,
    act_response_to_proto,
    bot_info_from_bytes,
    bot_info_to_proto,
)


@given(st.integers(-(2**31), 2**31 - 1), st.text(max_size=50))
def test_every_act_response_reads_back(action_id, comment):
    data = act_response_to_proto(ActResponse(action_id, comment)).SerializeToString()
    assert act_response_from_bytes(data) == ActResponse(action_id, comment)


def test_a_hello_reads_back():
    info = BotInfo("b", "1", "me", "go", ("tapa", "durak"))
    assert bot_info_from_bytes(bot_info_to_proto(info).SerializeToString()) == info


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"\x08\x81\x80\x80\x80\x10", "field action_id = 4294967297"),  # 2**32 + 1: an int32 reader keeps 1
        (b"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", None),  # -1, sign-extended: a valid int32
        (b"\x08\x80\x80\x80\x80\x08", "= 2147483648"),
        (b"\x0a\x00", "field action_id with wire type 2"),
        (b"\x15\x00\x00\x00\x00", "field comment with wire type 5"),
        (b"\x18\x01", "unknown field 3"),
        (b"\x0b\x0c", "field action_id with wire type 3"),  # a group
        (b"\x12\x03ab", "not readable"),
        (b"\xff\xff", "not readable"),
    ],
)
def test_anything_else_is_refused(data, words):
    if words is None:
        assert act_response_from_bytes(data).action_id == -1
        return
    with pytest.raises(WireError, match="ActResponse expected") as caught:
        act_response_from_bytes(data)
    assert words in str(caught.value)


def test_repeated_strings_of_a_hello_and_a_wrong_wire_type():
    unpacked = b"\x0a\x01b" + b"\x2a\x04tapa" * 2
    assert bot_info_from_bytes(unpacked).games == ("tapa", "tapa")  # Hello rules deduplicate later
    with pytest.raises(WireError, match="field games with wire type 0"):
        bot_info_from_bytes(b"\x0a\x01b\x28\x01")


def test_a_bot_can_decline_the_actions_detail():
    from referee.games import make_game
    from referee.wire import ActRequest, ClockInfo, LegalAction, act_request_from_proto, act_request_to_proto

    info = BotInfo("ids-only", games=("tapa",), without_action_detail=True)
    assert bot_info_from_bytes(bot_info_to_proto(info).SerializeToString()).without_action_detail
    game = make_game("tapa")
    state = game.position(0, {13: 3, 8: 3, 6: 4, 24: 5}, {10: 1, 20: 3, 3: 2}, dice=(3, 1))
    legal = tuple(LegalAction(i, a.notation(), a) for i, a in enumerate(state.legal_actions()))
    request = ActRequest("m", 1, "tapa", 0, {}, 0, state.view(0), ClockInfo(1, 1, 1, 1), legal)
    full, terse = act_request_to_proto(request), act_request_to_proto(request, detail=False)
    assert all(m.WhichOneof("detail") == "backgammon" for m in full.legal_actions)
    assert all(m.WhichOneof("detail") is None for m in terse.legal_actions)
    assert [m.notation for m in terse.legal_actions] == [m.notation for m in full.legal_actions]
    assert terse.ByteSize() < 0.6 * full.ByteSize()  # the view stays whole
    assert [a.id for a in act_request_from_proto(terse).legal_actions] == list(range(len(legal)))
