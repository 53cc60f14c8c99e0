"""The ``Session`` stream's messages as bytes: a request framed around an Act or Notification the referee already
built, and a bot's response read as strictly as an Act call's answer (:mod:`._strict`).

A ``SessionRequest`` is a oneof of two messages, so its bytes are the inner message's bytes behind a field key and
a length: framing them costs a concatenation, not a second message built and serialized.
"""

from __future__ import annotations

from kafana_kit.v1 import bot_pb2 as pb

from ._convert import WireError, act_response_from_bytes, read_strictly
from ._encode import field, remembered
from ._messages import ActResponse
from ._strict import length_delimited_fields

_ACT, _NOTIFY = 1, 2
"""The field numbers of the oneof in SessionRequest and in SessionResponse (``act``; ``notify``/``notified``)."""


def session_act(request: bytes) -> bytes:
    """The bytes of ``SessionRequest{act: ActRequest}`` around the ActRequest's bytes.

    >>> pb.SessionRequest.FromString(session_act(pb.ActRequest(match_id="m").SerializeToString())).act.match_id
    'm'
    """
    return field(_ACT, request)


def session_notify(message: pb.Notification) -> bytes:
    """The bytes of ``SessionRequest{notify: message}``."""
    return field(_NOTIFY, message.SerializeToString())


@remembered
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
