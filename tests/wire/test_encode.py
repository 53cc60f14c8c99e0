"""The referee's fast request bytes are the protobuf library's own: every decision of seeded random games of every
game (and Durak's forms), with and without action detail, byte for byte."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import wire
from referee.chance import Chance
from referee.checkbot import decision_request
from referee.games import CHANCE, GAMES, make_game
from referee.games.engine import NATIVE
from referee.wire._encode import field, int_field, varint

FORMS = [(game_id, {}) for game_id in sorted(GAMES)] + [
    ("durak", {"variant": "perevodnoy", "seats": "4"}),
    ("durak", {"teams": "2v2", "seats": "4"}),
    ("durak", {"variant": "perevodnoy", "show_trump_transfer": "true", "deals": "3", "seats": "3"}),
    ("gaps", {"variant": "blue_moon"}),
]


def _requests(game_id: str, options: dict[str, str], seed: int):
    game = make_game(game_id, options)
    state, stream, choose = game.new_state(), Chance(str(seed)).stream(), random.Random(seed)
    decision = 0
    while not state.is_terminal() and decision < 300:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(stream))
            continue
        yield decision_request(game, state, decision)
        legal = state.legal_actions()
        state.apply(legal[choose.randrange(len(legal))])
        decision += 1


@pytest.mark.parametrize(("game_id", "options"), FORMS, ids=[f"{g}-{'-'.join(o.values())}" for g, o in FORMS])
def test_request_bytes_are_the_librarys(game_id, options):
    seen = 0
    for seed in range(3):
        for request in _requests(game_id, options, seed):
            for detail in (True, False):
                expected = wire.act_request_to_proto(request, detail=detail).SerializeToString()
                assert wire.act_request_bytes(request, detail=detail) == expected, (seed, request.decision, detail)
            seen += 1
    assert seen > 20


@given(st.integers(min_value=0, max_value=2**32))
def test_varints_and_fields_read_back(value):
    from kafana_kit.v1 import bot_pb2 as pb

    assert pb.ActResponse.FromString(int_field(1, value % 2**31)).action_id == value % 2**31
    assert pb.ActResponse.FromString(field(2, b"x" * (value % 300))).comment == "x" * (value % 300)
    assert len(varint(value)) == max(1, (value.bit_length() + 6) // 7)


def test_short_answers_are_read_once_and_refused_every_time():
    from kafana_kit.v1 import bot_pb2 as pb

    good = pb.ActResponse(action_id=4).SerializeToString()
    assert wire.act_response_from_bytes(good) is wire.act_response_from_bytes(good)
    bad = b"\x18\x01"  # field 3: not in an ActResponse
    for _ in range(2):
        with pytest.raises(wire.WireError):
            wire.act_response_from_bytes(bad)
    long = pb.ActResponse(action_id=4, comment="x" * 100).SerializeToString()
    assert wire.act_response_from_bytes(long) == wire.act_response_from_bytes(long)
    assert wire.act_response_from_bytes(long) is not wire.act_response_from_bytes(long)


@pytest.mark.skipif(NATIVE is None, reason="the native core is not installed")
def test_the_record_travels_beside_the_view():
    """The native core's states give each view with its wire record (``view_and_record``), which the request
    carries beside the view: the view is its fields alone, and the request's bytes are the same without the
    record (then encoded from the view's fields)."""
    import dataclasses

    for game_id in ("tapa", "durak", "tabla-match"):
        for request in _requests(game_id, {}, 5):
            assert request.view_record is not None
            assert set(vars(request.view)) == {f.name for f in dataclasses.fields(request.view)}
            without = dataclasses.replace(request, view_record=None)
            assert wire.act_request_bytes(without) == wire.act_request_bytes(request)
            break
