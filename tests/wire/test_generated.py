"""The committed protobuf code matches proto/kafana/v1/bot.proto, and messages survive the round trip."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from referee import wire
from referee.games import Play, make_game

ROOT = Path(__file__).resolve().parents[2]


def test_generated_code_is_current():
    spec = importlib.util.spec_from_file_location("generate", ROOT / "proto" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, text in module.generate().items():
        committed = (module.OUT_DIR / name).read_text()
        assert committed == text, f"{name} is stale: run python proto/generate.py"


@pytest.mark.parametrize(
    ("game_id", "mine", "theirs", "dice", "rolls"),
    [
        ("tapa", {13: 2, 6: 1}, {10: 1, 20: 3}, (3, 1), (0, 0)),
        ("tabla", {25: 1, 13: 2}, {25: 2, 10: 1}, (6, 6), (0, 0)),
        ("gjul-bara", {24: 1, 3: 14}, {14: 1, 20: 14}, (3, 3), (4, 4)),
    ],
)
def test_act_request_round_trip(game_id, mine, theirs, dice, rolls):
    game = make_game(game_id)
    state = game.position(0, mine, theirs, dice=dice, rolls=rolls)
    legal = state.legal_actions()
    request = wire.ActRequest(
        match_id="m-1",
        game_number=1,
        game=game_id,
        seat=0,
        options=dict(game.options),
        decision=12,
        view=state.view(0),
        clock=wire.ClockInfo(1000, 10, 500, 500),
        legal_actions=tuple(wire.LegalAction(i, a.notation(), a) for i, a in enumerate(legal)),
    )
    message = wire.act_request_to_proto(request)
    back = wire.act_request_from_proto(type(message).FromString(message.SerializeToString()))
    assert back == request
    if game_id == "gjul-bara":
        assert back.view.later_stages == (4, 5, 6)
    assert all(isinstance(legal.action, Play) for legal in back.legal_actions)


def test_notifications_and_hello_round_trip():
    info = wire.BotInfo("b", "1", "me", "python", ("tapa",))
    assert wire.bot_info_from_proto(wire.bot_info_to_proto(info)) == info
    event = wire.GameOver("m", 1, "tapa", "mars", (wire.SeatResult(0, 2), wire.SeatResult(1, 0, "crash", "gone")))
    assert wire.notification_from_proto(wire.notification_to_proto(event)) == event
    over = wire.MatchOver("m", "tapa", event.seats)
    assert wire.notification_from_proto(wire.notification_to_proto(over)) == over


def test_long_comments_are_cut():
    message = wire.act_response_to_proto(wire.ActResponse(1, "x" * 5000))
    assert len(wire.act_response_from_proto(message).comment) == wire.COMMENT_LIMIT
