"""The wire boundary: with :mod:`._session`, the only code of the referee that imports the generated protobuf code
(which lives in the bot kit's package, :mod:`kafana_kit.v1`, so that a bot and the referee share one copy). The
hot path does not go through it: an ActRequest's bytes are put together from records made once
(:func:`act_request_bytes`), and the native core writes a view's and a stage's records itself, as prost's messages
generated from the same proto (``native/src/engine/proto.rs``); ``tests/wire/test_encode.py`` and the native state tests
check both byte for byte against this module's messages.

Every protocol message has a dataclass twin in :mod:`referee.wire._messages`; ``*_to_proto`` and
``*_from_proto`` convert between them, for the referee side and for bots written in Python alike.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import operator
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import grpc
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError
from kafana_kit.v1 import bot_pb2 as pb
from kafana_kit.v1 import bot_pb2_grpc as pb_grpc

from referee.games import (
    GAP,
    NO_CARD,
    BackgammonView,
    DurakAction,
    DurakSeat,
    DurakView,
    GapaAction,
    GapaHolding,
    GapaView,
    GapsMove,
    GapsView,
    MatchScore,
    Play,
)
from referee.games.cards._cards import SUITS, card_text, parse_card
from referee.games.cards.durak import action_from_words, action_words
from referee.games.cards.gapa import action_from_words as gapa_action
from referee.games.cards.gapa import action_words as gapa_words
from referee.games.cards.gaps import END_ROUND
from referee.games.registry import JSON_WIRE, Registration, UnknownViewError, registration_for

from . import _messages as msg
from ._encode import field, int_field, packed_field, remembered, tag, varint
from ._strict import wire_problem

COMMENT_LIMIT = 1000
"""Longest comment kept from an ActResponse."""


class WireError(ValueError):
    """A message could not be converted (unknown view or action type, or malformed content)."""


@functools.cache
def _shared_fields(cls: Any, descriptor: Any) -> tuple[tuple[str, bool], ...]:
    """The fields both the dataclass ``cls`` and the message of ``descriptor`` have, by name, each with whether the
    message repeats it: a dataclass twin names its fields as its message does, so what needs no conversion is
    copied by name."""
    names = {f.name for f in dataclasses.fields(cls)}
    return tuple((f.name, f.is_repeated) for f in descriptor.fields if f.name in names)


def _to_message(message_type: Any, source: Any, **given: Any) -> Any:
    """A ``message_type`` with ``given`` fields and the others it shares with the dataclass ``source`` copied."""
    twin: Any = type(source)
    shared = _shared_fields(twin, message_type.DESCRIPTOR)
    return message_type(**{name: getattr(source, name) for name, _ in shared if name not in given}, **given)


def _from_message(cls: Any, message: Any, **given: Any) -> Any:
    """A ``cls`` (a dataclass) with ``given`` fields and the others it shares with ``message`` read from it
    (repeated ones as tuples); the rest keep their defaults."""
    shared = _shared_fields(cls, message.DESCRIPTOR)
    read = {name: tuple(getattr(message, name)) if repeated else getattr(message, name)
            for name, repeated in shared if name not in given}
    return cls(**read, **given)


def hello_request(referee_version: str) -> pb.HelloRequest:
    """The Hello request the referee sends."""
    return pb.HelloRequest(protocol=msg.PROTOCOL, referee_version=referee_version)


def bot_info_to_proto(info: msg.BotInfo) -> pb.HelloResponse:
    """Build a HelloResponse."""
    return _to_message(pb.HelloResponse, info)


def bot_info_from_proto(message: pb.HelloResponse) -> msg.BotInfo:
    """Read a HelloResponse."""
    return _from_message(msg.BotInfo, message)


def read_strictly(message_type: Any, data: bytes) -> Any:
    """``data`` read as ``message_type``, refusing anything that is not exactly such a message (see _strict)."""
    name = message_type.DESCRIPTOR.name
    try:
        message = message_type.FromString(data)
    except DecodeError as exc:  # "Error parsing message with type '…': why"
        raise WireError(f"{name} expected, but the answer is not readable ({str(exc).rpartition(': ')[2]})") from None
    if (problem := wire_problem(data, message_type.DESCRIPTOR)) is not None:
        raise WireError(f"{name} expected, but the answer has {problem}")
    return message


def bot_info_from_bytes(data: bytes) -> msg.BotInfo:
    """Read a HelloResponse as the bot sent it.

    Raises:
        WireError: the bytes are not exactly a HelloResponse.
    """
    return bot_info_from_proto(read_strictly(pb.HelloResponse, data))


@remembered
def act_response_from_bytes(data: bytes) -> msg.ActResponse:
    """Read an ActResponse as the bot sent it (the comment cut to :data:`COMMENT_LIMIT` characters).

    Raises:
        WireError: the bytes are not exactly an ActResponse (a field it does not declare, a field of the wrong
            wire type, an id that does not fit its int32).
    """
    return act_response_from_proto(read_strictly(pb.ActResponse, data))


HELLO, ACT, NOTIFY, SESSION = (f"/{pb.DESCRIPTOR.services_by_name['Bot'].full_name}/{name}"
                                for name in ("Hello", "Act", "Notify", "Session"))
"""The Bot service's methods as a call names them (``/kafana.v1.Bot/Act``): the referee sends bytes and reads
the answers' bytes strictly (:func:`bot_info_from_bytes`, :func:`act_response_from_bytes`)."""


def _backgammon_view_to_proto(view: BackgammonView) -> pb.BackgammonView:
    return _to_message(
        pb.BackgammonView,
        view,
        # A pin is the enum's value (0 none, 1 mine, 2 theirs): the stubs ask for the enum's type.
        points=[pb.BackgammonPoint(mine=m, theirs=t, pin=p)  # type: ignore[arg-type]
                for m, t, p in zip(view.mine, view.theirs, view.pins, strict=True)],
        match=_to_message(pb.MatchScore, view.match),
    )


def _backgammon_view_from_proto(message: pb.BackgammonView, seat: int) -> BackgammonView:
    if len(message.points) != 24:
        raise WireError(f"a backgammon view has 24 points, not {len(message.points)}")
    mine, theirs, pins = zip(*[(point.mine, point.theirs, int(point.pin)) for point in message.points])
    return _from_message(BackgammonView, message, seat=seat, mine=mine, theirs=theirs, pins=pins,
                         match=_from_message(MatchScore, message.match))


_CARD_TEXT = tuple(card_text(c) for c in range(52))


def _cards_to_proto(cards: tuple[int, ...]) -> list[str]:
    return [_CARD_TEXT[c] for c in cards]


def _cards_from_proto(texts: Any) -> tuple[int, ...]:
    try:
        return tuple(parse_card(t) for t in texts)
    except ValueError as exc:
        raise WireError(str(exc)) from None


def _durak_view_to_proto(view: DurakView) -> pb.DurakView:
    return _to_message(
        pb.DurakView,
        view,
        hand=_cards_to_proto(view.hand),
        seats=[_to_message(pb.DurakSeat, seat, known=_cards_to_proto(seat.known)) for seat in view.seats],
        trump_suit=SUITS[view.trump_suit] if view.trump_suit >= 0 else "",
        trump_card=_card_or_empty(view.trump_card),
        table=[pb.DurakPair(attack=_CARD_TEXT[a], defence=_card_or_empty(d)) for a, d in view.table],
        discard=_cards_to_proto(view.discard),
        shown=_cards_to_proto(view.shown),
    )


def _durak_view_from_proto(message: pb.DurakView, seat: int) -> DurakView:
    return _from_message(
        DurakView,
        message,
        seat=seat,
        hand=_cards_from_proto(message.hand),
        seats=tuple(_from_message(DurakSeat, s, known=_cards_from_proto(s.known)) for s in message.seats),
        trump_suit=SUITS.index(message.trump_suit) if message.trump_suit in tuple(SUITS) else -1,
        trump_card=_one_card(message.trump_card),
        table=tuple((_one_card(p.attack), _one_card(p.defence)) for p in message.table),
        discard=_cards_from_proto(message.discard),
        shown=_cards_from_proto(message.shown),
    )


def _gaps_view_to_proto(view: GapsView) -> pb.GapsView:
    return _to_message(pb.GapsView, view, grid=[_CARD_TEXT[c] if c != GAP else "" for c in view.grid])


def _gaps_view_from_proto(message: pb.GapsView) -> GapsView:
    if len(message.grid) != message.rows * message.columns:
        raise WireError(f"a {message.rows}x{message.columns} Gaps grid has {message.rows * message.columns} places")
    return _from_message(GapsView, message,
                         grid=tuple(_cards_from_proto([text])[0] if text else GAP for text in message.grid))


def _card_or_empty(card: int) -> str:
    return _CARD_TEXT[card] if card != NO_CARD else ""


def _one_card(text: str) -> int:
    return _cards_from_proto([text])[0] if text else NO_CARD


def _gapa_view_to_proto(view: GapaView) -> pb.GapaView:
    return _to_message(
        pb.GapaView,
        view,
        players=[
            _to_message(pb.GapaHolding, p, small_up=_cards_to_proto(p.small_up), big_known=_cards_to_proto(p.big_known),
                        big_up=_cards_to_proto(p.big_up), pending=_card_or_empty(p.pending))
            for p in view.players
        ],
        foundations=[_card_or_empty(c) for c in view.foundations],
        side=[pb.GapaPile(cards=_cards_to_proto(pile)) for pile in view.side],
        shifted=_cards_to_proto(view.shifted),
    )


def _gapa_view_from_proto(message: pb.GapaView, seat: int) -> GapaView:
    if len(message.players) != 2 or len(message.foundations) != 8 or len(message.side) != 8:
        raise WireError("a Gapa view has 2 players, 8 foundations and 8 side piles")
    return _from_message(
        GapaView,
        message,
        seat=seat,
        players=tuple(
            _from_message(GapaHolding, p, small_up=_cards_from_proto(p.small_up),
                          big_known=_cards_from_proto(p.big_known), big_up=_cards_from_proto(p.big_up),
                          pending=_one_card(p.pending))
            for p in message.players
        ),
        foundations=tuple(_one_card(c) for c in message.foundations),
        side=tuple(_cards_from_proto(pile.cards) for pile in message.side),
        shifted=_cards_from_proto(message.shifted),
    )


_STEP_MESSAGES = {
    (src, max(src - die, 0) if not bear else 0, die, hit): pb.BackgammonStep(
        # "from" is a Python keyword, so the fields go by a dict, which mypy types by its values' union
        **{"from": src, "to": max(src - die, 0) if not bear else 0, "die": die, "hit": hit}  # type: ignore[arg-type]
    )
    for src in range(1, 26)
    for die in range(1, 7)
    for hit in (False, True)
    for bear in (False, True)
}
"""Every possible step as a ready message (read-only): copying one is far cheaper than building it."""


def _backgammon_detail(action: Play, message: pb.LegalAction) -> None:
    message.backgammon.steps.extend([_STEP_MESSAGES[step] for step in action.raw])


def _durak_detail(action: DurakAction, message: pb.LegalAction) -> None:
    kind, cards = action_words(action)
    message.durak.kind = kind
    message.durak.cards.extend(_cards_to_proto(cards))


def _gapa_detail(action: GapaAction, message: pb.LegalAction) -> None:
    kind, card, src, dst = gapa_words(action)
    message.gapa.kind = kind
    message.gapa.card = _card_or_empty(card)
    setattr(message.gapa, "from", src)
    message.gapa.to = dst


def _gaps_detail(action: GapsMove, message: pb.LegalAction) -> None:
    if action.ends_round:
        message.gaps.end_round = True
    else:
        message.gaps.card = _CARD_TEXT[action.card]
        setattr(message.gaps, "from", action.src)
        message.gaps.to = action.dst


def _backgammon_action(message: pb.LegalAction, view: Any) -> Play:
    return Play(tuple((getattr(s, "from"), s.to, s.die, s.hit) for s in message.backgammon.steps))


def _durak_action(message: pb.LegalAction, view: Any) -> DurakAction:
    try:
        return action_from_words(message.durak.kind, _cards_from_proto(message.durak.cards))
    except ValueError as exc:
        raise WireError(str(exc)) from None


def _gapa_action(message: pb.LegalAction, view: Any) -> GapaAction:
    gapa = message.gapa
    try:
        return gapa_action(gapa.kind, _one_card(gapa.card), getattr(gapa, "from"), gapa.to)
    except ValueError as exc:
        raise WireError(str(exc)) from None


def _gaps_action(message: pb.LegalAction, view: GapsView) -> GapsMove:
    gaps = message.gaps
    if gaps.end_round:
        return GapsMove(END_ROUND, -1, -1, view.columns)
    return GapsMove(_cards_from_proto([gaps.card])[0], getattr(gaps, "from"), gaps.to, view.columns)


def act_request_to_proto(request: msg.ActRequest, detail: bool = True) -> pb.ActRequest:
    """Build the ActRequest sent to a bot; without ``detail`` its legal actions carry their id and notation only
    (for a bot whose Hello said ``without_action_detail``). The referee sends :func:`act_request_bytes`, the
    same message serialized faster."""
    _, codec = _codec_for(request.view)
    message = _to_message(pb.ActRequest, request, clock=_to_message(pb.Clock, request.clock), legal_actions=(),
                          **{codec.field: codec.view_message(request.view)})
    for legal in request.legal_actions:
        one = message.legal_actions.add(id=legal.id, notation=legal.notation)
        if detail and legal.action is not None:
            codec.detail(legal.action, one)
    return message


def _numbers(message: Any) -> SimpleNamespace:
    """``message``'s field numbers by field name, read from the generated code (the proto is the one schema)."""
    return SimpleNamespace(**{f.name: f.number for f in message.DESCRIPTOR.fields})


_REQUEST, _CLOCK, _LEGAL = _numbers(pb.ActRequest), _numbers(pb.Clock), _numbers(pb.LegalAction)
_BOARD, _DURAK = _numbers(pb.BackgammonView), _numbers(pb.DurakView)
_SEAT, _PAIR = _numbers(pb.DurakSeat), _numbers(pb.DurakPair)


def _text(number: int, text: str) -> bytes:
    return field(number, text.encode()) if text else b""


_LEGAL_TAG = tag(_REQUEST.legal_actions, 2)
_POINT_RECORDS = {
    (mine, theirs, pin): pb.BackgammonView(
        points=[pb.BackgammonPoint(mine=mine, theirs=theirs, pin=pin)]  # type: ignore[arg-type]
    ).SerializeToString()
    for mine in range(16)
    for theirs in range(16)
    for pin in range(3)
}
"""Every point a view can show, as its record in a BackgammonView (a view's points are 24 of them in turn)."""
_STEP_RECORDS = {key: pb.BackgammonPlay(steps=[step]).SerializeToString() for key, step in _STEP_MESSAGES.items()}
"""Every possible step as its record in a BackgammonPlay: a play's bytes are its steps' records in turn."""


@functools.lru_cache(maxsize=64)
def _options_record(options: tuple[tuple[str, str], ...]) -> bytes:
    return pb.ActRequest(options=dict(options)).SerializeToString()


@functools.lru_cache(maxsize=256)
def _match_record(match: MatchScore) -> bytes:
    return field(_BOARD.match, _to_message(pb.MatchScore, match).SerializeToString())


_Writer = Callable[[Any], bytes]
"""Writes one field's records of a message from its dataclass twin."""


def _plain_writer(write: Callable[[int, Any], bytes], number: int, name: str) -> _Writer:
    """Writes the twin's field ``name`` as the message's field ``number`` with ``write``."""
    read = operator.attrgetter(name)
    return lambda twin: write(number, read(twin))


def _encoder(message_type: Any, only: Sequence[str] | None = None, **special: _Writer) -> _Writer:
    """What writes ``message_type``'s bytes from its dataclass twin (``only`` those fields, when given): the fields'
    records in number order, as ``SerializeToString()`` writes them; integers, booleans and strings copied from the
    twin's field of the same name, repeated integers packed, the rest by the ``special`` writers (by field name).

    Raises:
        TypeError: a field that needs a special writer has none.
    """
    plain = (FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_BOOL)
    writers: list[_Writer] = []
    for f in sorted(message_type.DESCRIPTOR.fields, key=lambda f: f.number):
        if only is not None and f.name not in only:
            continue
        if f.name in special:
            writers.append(special[f.name])
        elif f.type in plain:
            writers.append(_plain_writer(packed_field if f.is_repeated else int_field, f.number, f.name))
        elif f.type == FieldDescriptor.TYPE_STRING and not f.is_repeated:
            writers.append(_plain_writer(_text, f.number, f.name))
        else:
            raise TypeError(f"{message_type.DESCRIPTOR.name}.{f.name} needs a writer of its own")
    return lambda twin: b"".join([write(twin) for write in writers])


def _card_records(number: int) -> tuple[bytes, ...]:
    """Each card's record as an entry of the repeated string field ``number`` (by card number)."""
    return tuple(field(number, text.encode()) for text in _CARD_TEXT)


_HAND_RECORDS, _KNOWN_RECORDS, _DISCARD_RECORDS, _SHOWN_RECORDS = (
    _card_records(number) for number in (_DURAK.hand, _SEAT.known, _DURAK.discard, _DURAK.shown)
)


def _cards_writer(records: tuple[bytes, ...], name: str) -> _Writer:
    """Writes the twin's cards ``name`` as a repeated string field whose card records are ``records``."""
    read = operator.attrgetter(name)
    return lambda twin: b"".join([records[card] for card in read(twin)])


@functools.lru_cache(maxsize=4096)
def _durak_pair_record(attack: int, defence: int) -> bytes:
    """A card pair of the bout as its record in a DurakView's ``table``."""
    pair = _text(_PAIR.attack, _CARD_TEXT[attack])
    if defence != NO_CARD:
        pair += _text(_PAIR.defence, _CARD_TEXT[defence])
    return field(_DURAK.table, pair)


_durak_seat_bytes = _encoder(pb.DurakSeat, known=_cards_writer(_KNOWN_RECORDS, "known"))
_backgammon_bytes = _encoder(
    pb.BackgammonView,
    points=lambda view: b"".join([_POINT_RECORDS[p] for p in zip(view.mine, view.theirs, view.pins, strict=True)]),
    match=lambda view: _match_record(view.match),
)
_durak_bytes = _encoder(
    pb.DurakView,
    hand=_cards_writer(_HAND_RECORDS, "hand"),
    seats=lambda view: b"".join([field(_DURAK.seats, _durak_seat_bytes(seat)) for seat in view.seats]),
    trump_suit=lambda view: _text(_DURAK.trump_suit, SUITS[view.trump_suit] if view.trump_suit >= 0 else ""),
    trump_card=lambda view: _text(_DURAK.trump_card, _card_or_empty(view.trump_card)),
    table=lambda view: b"".join([_durak_pair_record(attack, defence) for attack, defence in view.table]),
    discard=_cards_writer(_DISCARD_RECORDS, "discard"),
    shown=_cards_writer(_SHOWN_RECORDS, "shown"),
)
_durak_session_bytes = _encoder(pb.DurakView, only=("deal", "deals", "duraks"))
"""A session's fields of a Durak view, which follow those of a deal's view on the wire."""


def _backgammon_view_bytes(view: BackgammonView, record: bytes | None) -> bytes:
    """The bytes of :func:`_backgammon_view_to_proto`'s message: the record the native core made with the view (its
    whole message), else the view's fields encoded."""
    return record if record is not None else _backgammon_bytes(view)


def _durak_view_bytes(view: DurakView, record: bytes | None) -> bytes:
    """The bytes of :func:`_durak_view_to_proto`'s message: the record the native core made with the view (a deal's
    fields) and the session's fields, else the view's fields encoded."""
    return record + _durak_session_bytes(view) if record is not None else _durak_bytes(view)


_ID_RECORDS = [int_field(_LEGAL.id, number) for number in range(1024)]
_NOTATION_TAG = tag(_LEGAL.notation, 2)
_ONE_BYTE = [varint(size) for size in range(128)]


def _steps_bytes(action: Play) -> bytes:
    """A play's detail: its steps' records."""
    return field(_LEGAL.backgammon, b"".join([_STEP_RECORDS[step] for step in action.raw])) if action.raw else b""


def _cached_detail_bytes(set_detail: Callable[[Any, pb.LegalAction], None]) -> Callable[[Any], bytes]:
    """The records of the detail ``set_detail`` writes on a LegalAction, kept for the actions seen most (a card
    game's actions recur from decision to decision; the actions are named tuples, so the cache keys them by type
    too)."""

    @functools.lru_cache(maxsize=4096, typed=True)
    def detail_bytes(action: Any) -> bytes:
        message = pb.LegalAction()
        set_detail(action, message)
        return message.SerializeToString()

    return detail_bytes


@dataclasses.dataclass(frozen=True)
class _Codec:
    """A kind of view on the wire: its field of ActRequest's ``view`` and LegalAction's ``detail`` (one name in
    both), and how its views and actions are written and read."""

    field: str
    view_message: Callable[[Any], Any]
    """A view as the field's value (a message, or text)."""
    view_bytes: Callable[[Any, bytes | None], bytes]
    """A view's bytes as the field's content (those of :attr:`view_message`), from the view and the record the
    engine made with it (None: none)."""
    read_view: Callable[[Any, int], Any]
    """The field's value sent to ``seat``, read back as a view."""
    detail: Callable[[Any, pb.LegalAction], None]
    """Sets an action's detail on a LegalAction."""
    detail_bytes: Callable[[Any], bytes]
    """An action's detail as its records in a LegalAction (those :attr:`detail` sets)."""
    read_detail: Callable[[pb.LegalAction, Any], Any]
    """A LegalAction's detail read back as an action, given the view it came with."""


def _serialized(to_proto: Callable[[Any], Any]) -> Callable[[Any, bytes | None], bytes]:
    """A view's bytes by its message (these views come without records)."""
    return lambda view, record: to_proto(view).SerializeToString()


_CODECS = {
    codec.field: codec
    for codec in (
        _Codec("backgammon", _backgammon_view_to_proto, _backgammon_view_bytes, _backgammon_view_from_proto,
               _backgammon_detail, _steps_bytes, _backgammon_action),
        _Codec("durak", _durak_view_to_proto, _durak_view_bytes, _durak_view_from_proto, _durak_detail,
               _cached_detail_bytes(_durak_detail), _durak_action),
        _Codec("gapa", _gapa_view_to_proto, _serialized(_gapa_view_to_proto), _gapa_view_from_proto, _gapa_detail,
               _cached_detail_bytes(_gapa_detail), _gapa_action),
        _Codec("gaps", _gaps_view_to_proto, _serialized(_gaps_view_to_proto), lambda message, seat:
               _gaps_view_from_proto(message), _gaps_detail, _cached_detail_bytes(_gaps_detail), _gaps_action),
    )
}
"""The views bot.proto has a message for, by their field."""


def _read_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise WireError(f"JSON expected on the wire, not {text[:40]!r} ({exc})") from None


def _json_codec(registration: Registration | None) -> _Codec:
    """The wire of a game bot.proto has no message for: its views (and its actions' detail, when the registration
    writes them) as JSON text, read back as the data the JSON holds (which needs no registration: a bot of such a
    game reads it with ``registration`` None)."""

    def view_text(view: Any) -> str:
        if registration is None:
            raise WireError("a JSON view is written by its game's registration")
        return json.dumps(registration.view_json(view), separators=(",", ":"))

    def detail(action: Any, message: pb.LegalAction) -> None:
        if registration is not None and registration.action_json is not None:
            message.json = json.dumps(registration.action_json(action), separators=(",", ":"))

    return _Codec(JSON_WIRE, view_text, lambda view, record: view_text(view).encode(),
                  lambda text, seat: _read_json(text), detail, _cached_detail_bytes(detail),
                  lambda message, view: _read_json(message.json))


_JSON_READER = _json_codec(None)
"""Reads the JSON wire (a bot's side)."""

_BY_VIEW: dict[type, tuple[int, _Codec]] = {}
"""A view class's field number in ActRequest and its codec, as its game's registration says (filled when used)."""


def _codec_for(view: Any) -> tuple[int, _Codec]:
    """The field number and the codec of ``view``'s kind.

    Raises:
        WireError: no registered game gives this kind of view, or its registration names a wire bot.proto lacks.
    """
    found = _BY_VIEW.get(type(view))
    if found is None:
        try:
            registration = registration_for(view)
        except UnknownViewError as exc:
            raise WireError(str(exc)) from None
        codec = _json_codec(registration) if registration.wire == JSON_WIRE else _CODECS.get(registration.wire)
        if codec is None:
            raise WireError(f"bot.proto has no view {registration.wire!r}")
        found = _BY_VIEW[type(view)] = getattr(_REQUEST, codec.field), codec
    return found


def _view_to_proto(view: Any) -> tuple[str, Any]:
    """The view's field in ActRequest's ``view`` and its value."""
    _, codec = _codec_for(view)
    return codec.field, codec.view_message(view)


def _legal_records(actions: Sequence[msg.LegalAction], detail_bytes: Callable[[Any], bytes] | None) -> list[bytes]:
    """The records of ``actions`` in an ActRequest's ``legal_actions``, each action's detail by ``detail_bytes``
    (None: without detail): the engine's own (:class:`LegalActions` whose list writes them), else made here (the
    loop of every decision: kept flat, the usual one-byte lengths looked up)."""
    detail = detail_bytes is not None
    if isinstance(actions, msg.LegalActions) and (written := actions.wire_records(detail)) is not None:
        return [written]
    records = []
    small = _ONE_BYTE
    for legal in actions:
        notation = legal.notation.encode()
        number = legal.id
        size = len(notation)
        body = (
            (_ID_RECORDS[number] if 0 <= number < 1024 else int_field(_LEGAL.id, number))
            + _NOTATION_TAG
            + (small[size] if size < 128 else varint(size))
            + notation
        )
        if detail_bytes is not None and legal.action is not None:
            body += detail_bytes(legal.action)
        size = len(body)
        records.append(_LEGAL_TAG + (small[size] if size < 128 else varint(size)) + body)
    return records


def act_request_bytes(request: msg.ActRequest, detail: bool = True) -> bytes:
    """The bytes of :func:`act_request_to_proto`'s message, equal to its ``SerializeToString()``, put together from
    the records of its fields: a referee sends every legal action at every decision, and building a message
    object for each costs more than the rest of the decision.

    >>> from referee.games import make_game
    >>> from referee.wire import ActRequest, ClockInfo, LegalAction
    >>> state = make_game("tapa").new_state()
    >>> request = ActRequest("m", 1, "tapa", 0, {}, 0, state.view(0), ClockInfo(1, 0, 1, 1), (LegalAction(0, "x"),))
    >>> act_request_bytes(request) == act_request_to_proto(request).SerializeToString()
    True
    """
    clock = request.clock
    number, codec = _codec_for(request.view)
    return b"".join(
        [
            _text(_REQUEST.match_id, request.match_id),
            int_field(_REQUEST.game_number, request.game_number),
            _text(_REQUEST.game, request.game),
            int_field(_REQUEST.seat, request.seat),
            _options_record(tuple(request.options.items())) if request.options else b"",
            int_field(_REQUEST.decision, request.decision),
            field(number, codec.view_bytes(request.view, request.view_record)),
            field(
                _REQUEST.clock,
                int_field(_CLOCK.bank_ms, clock.bank_ms)
                + int_field(_CLOCK.increment_ms, clock.increment_ms)
                + int_field(_CLOCK.move_cap_ms, clock.move_cap_ms)
                + int_field(_CLOCK.move_limit_ms, clock.move_limit_ms),
            ),
            *_legal_records(request.legal_actions, codec.detail_bytes if detail else None),
        ]
    )


def act_request_from_proto(message: pb.ActRequest) -> msg.ActRequest:
    """Read an ActRequest (the bot side); each legal action is read from its record when the bot first uses it
    (:class:`ReceivedActions`)."""
    kind = message.WhichOneof("view")
    if kind is None:
        raise WireError("an ActRequest without a view")
    codec = _JSON_READER if kind == JSON_WIRE else _CODECS[kind]
    view = codec.read_view(getattr(message, kind), message.seat)

    def read(legal: pb.LegalAction) -> msg.LegalAction:
        action = codec.read_detail(legal, view) if legal.HasField(kind) else None
        return msg.LegalAction(id=legal.id, notation=legal.notation, action=action)

    return _from_message(msg.ActRequest, message, options=dict(message.options), view=view,
                         clock=_from_message(msg.ClockInfo, message.clock),
                         legal_actions=msg.ReceivedActions(message.legal_actions, read))


def act_response_to_proto(response: msg.ActResponse) -> pb.ActResponse:
    """Build an ActResponse (the bot side)."""
    return pb.ActResponse(action_id=response.action_id, comment=response.comment)


def act_response_from_proto(message: pb.ActResponse) -> msg.ActResponse:
    """Read a bot's ActResponse; the comment is cut to :data:`COMMENT_LIMIT` characters."""
    return msg.ActResponse(action_id=message.action_id, comment=message.comment[:COMMENT_LIMIT])


def _seats_to_proto(seats: tuple[msg.SeatResult, ...]) -> list[pb.SeatResult]:
    return [_to_message(pb.SeatResult, s) for s in seats]


def _seats_from_proto(seats: Any) -> tuple[msg.SeatResult, ...]:
    return tuple(_from_message(msg.SeatResult, s) for s in seats)


def notification_to_proto(event: msg.GameOver | msg.MatchOver) -> pb.Notification:
    """Build a Notification."""
    if isinstance(event, msg.GameOver):
        return pb.Notification(game_over=_to_message(pb.GameOver, event, seats=_seats_to_proto(event.seats)))
    return pb.Notification(match_over=_to_message(pb.MatchOver, event, seats=_seats_to_proto(event.seats)))


def notification_from_proto(message: pb.Notification) -> msg.GameOver | msg.MatchOver:
    """Read a Notification (the bot side)."""
    if message.WhichOneof("event") == "game_over":
        return _from_message(msg.GameOver, message.game_over, seats=_seats_from_proto(message.game_over.seats))
    return _from_message(msg.MatchOver, message.match_over, seats=_seats_from_proto(message.match_over.seats))


def bot_stub(channel: grpc.Channel) -> Any:
    """A client stub of the Bot service on ``channel``."""
    return pb_grpc.BotStub(channel)
