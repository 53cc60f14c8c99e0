"""The protocol boundary: dataclass messages and their conversion to and from ``kafana.v1`` protobuf.

Only :mod:`referee.wire._convert` and :mod:`referee.wire._session` import the generated code; everything else uses
the names re-exported here.
"""

from ._convert import (
    ACT,
    COMMENT_LIMIT,
    HELLO,
    NOTIFY,
    SESSION,
    WireError,
    act_request_bytes,
    act_request_from_proto,
    act_request_to_proto,
    act_response_from_bytes,
    act_response_from_proto,
    act_response_to_proto,
    bot_info_from_bytes,
    bot_info_from_proto,
    bot_info_to_proto,
    bot_stub,
    hello_request,
    notification_from_proto,
    notification_to_proto,
)
from ._messages import (
    PROTOCOL,
    ActRequest,
    ActResponse,
    BotInfo,
    ClockInfo,
    GameOver,
    LegalAction,
    MatchOver,
    SeatResult,
)
from ._session import session_act, session_notify, session_reply_from_bytes

__all__ = [
    "ACT",
    "COMMENT_LIMIT",
    "HELLO",
    "NOTIFY",
    "SESSION",
    "PROTOCOL",
    "ActRequest",
    "ActResponse",
    "BotInfo",
    "ClockInfo",
    "GameOver",
    "LegalAction",
    "MatchOver",
    "SeatResult",
    "WireError",
    "act_request_bytes",
    "act_request_from_proto",
    "act_request_to_proto",
    "act_response_from_bytes",
    "act_response_from_proto",
    "act_response_to_proto",
    "bot_info_from_bytes",
    "bot_info_from_proto",
    "bot_info_to_proto",
    "bot_stub",
    "hello_request",
    "notification_from_proto",
    "notification_to_proto",
    "session_act",
    "session_notify",
    "session_reply_from_bytes",
]
