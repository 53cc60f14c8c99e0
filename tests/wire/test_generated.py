"""The committed protobuf code matches proto/kafana/v1/bot.proto, and messages survive the round trip."""

from __future__ import annotations

import importlib.util
from pathlib import Path

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


def test_act_request_round_trip():
    game = make_game("tapa")
    state = game.position(0, {13: 2, 6: 1}, {10: 1, 6: 0, 20: 3}, dice=(3, 1))
    legal = state.legal_actions()
    request = wire.ActRequest(
        match_id="m-1",
        game_number=1,
        game="tapa",
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
