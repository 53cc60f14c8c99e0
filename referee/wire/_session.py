"""The ``Session`` stream's messages as bytes: a request framed around an Act or Notification the referee already
built, and a bot's response read as strictly as an Act call's answer (:mod:`._strict`).

A ``SessionRequest`` is a oneof of two messages, so its bytes are the inner message's bytes behind a field key and
a length: framing them costs a concatenation, not a second message built and serialized.
"""

from __future__ import annotations

from kafana_kit.v1 import bot_pb2 as pb

from ._convert import WireError, act_response_from_bytes, read_strictly
from ._messages import ActResponse
from ._strict import length_delimited_fields

_ACT, _NOTIFY = 1, 2
"""The field numbers of the oneof in SessionRequest and in SessionResponse (``act``; ``notify``/``notified``)."""


def _framed(number: int, inner: bytes) -> bytes:
    size = len(inner)
    head = bytearray([number << 3 | 2])
    while size > 0x7F:
        head.append(size & 0x7F | 0x80)
        size >>= 7
    head.append(size)
    return bytes(head) + inner


def session_act(message: pb.ActRequest) -> bytes:
    """The bytes of ``SessionRequest{act: message}``.

    >>> pb.SessionRequest.FromString(session_act(pb.ActRequest(match_id="m"))).act.match_id
    'm'
    """
    return _framed(_ACT, message.SerializeToString())


def session_notify(message: pb.Notification) -> bytes:
    """The bytes of ``SessionRequest{notify: message}``."""
    return _framed(_NOTIFY, message.SerializeToString())


def session_reply_from_bytes(data: bytes) -> ActResponse | None:
    """Read a SessionResponse as the bot sent it: the ActResponse of an ``act``, None for ``notified``.

    Raises:
        WireError: the bytes are not exactly one of the two (the inner ActResponse as strictly as
            :func:`act_response_from_bytes` reads it).

    >>> session_reply_from_bytes(pb.SessionResponse(act=pb.ActResponse(action_id=3)).SerializeToString())
    ActResponse(action_id=3, comment='')
    >>> session_reply_from_bytes(b"")
    Traceback (most recent call last):
    ...
    referee.wire._convert.WireError: SessionResponse expected, but the answer has neither act nor notified
    """
    try:
        fields = length_delimited_fields(data)
    except ValueError as exc:
        raise WireError(f"SessionResponse expected, but the answer has {exc}") from None
    if not fields:
        raise WireError("SessionResponse expected, but the answer has neither act nor notified")
    if len(fields) > 1 or fields[0][0] not in (_ACT, _NOTIFY):
        numbers = ", ".join(str(number) for number, _ in fields)
        raise WireError(f"SessionResponse expected, but the answer has fields {numbers} (one of 1 or 2 expected)")
    number, inner = fields[0]
    if number == _ACT:
        return act_response_from_bytes(inner)
    read_strictly(pb.NotifyResponse, inner)
    return None
