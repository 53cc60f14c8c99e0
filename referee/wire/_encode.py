"""Protocol Buffers' wire format at its simplest, for the referee's hot path: a message's bytes are its fields'
records one after the other, so a request can be put together from records made once (a step, a point) and the
framed records of what changes (a legal action's id and notation) instead of building and serializing a message
object per legal action. Every function here is checked against the protobuf library's own serialization.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

_Read = TypeVar("_Read")

REMEMBERED = 32
"""Answers up to this many bytes are read once and remembered (:func:`remembered`)."""

_SMALL = [bytes([value]) for value in range(128)]


def varint(value: int) -> bytes:
    """A varint; a negative value as its 64-bit two's complement (how int32 and int64 fields carry one).

    >>> varint(5), varint(300), len(varint(-1))
    (b'\\x05', b'\\xac\\x02', 10)
    """
    if 0 <= value < 128:
        return _SMALL[value]
    value &= 0xFFFF_FFFF_FFFF_FFFF
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def tag(number: int, wire_type: int) -> bytes:
    """A field's key: its number and wire type (0 varint, 2 length-delimited)."""
    return varint(number << 3 | wire_type)


def field(number: int, payload: bytes) -> bytes:
    """The record of a length-delimited field (a string, bytes or a message) with ``payload``.

    >>> field(2, b"ab")
    b'\\x12\\x02ab'
    """
    return tag(number, 2) + varint(len(payload)) + payload


def int_field(number: int, value: int) -> bytes:
    """The record of an integer (or bool, or enum) field, empty for 0 (proto3 leaves a default out).

    >>> int_field(1, 0), int_field(1, 7)
    (b'', b'\\x08\\x07')
    """
    return tag(number, 0) + varint(value) if value else b""


def packed_field(number: int, values: tuple[int, ...]) -> bytes:
    """The record of a repeated integer field, packed (proto3's way), empty when there are none.

    >>> packed_field(7, (3, 5))
    b':\\x02\\x03\\x05'
    """
    return field(number, b"".join([varint(value) for value in values])) if values else b""


def remembered(read: Callable[[bytes], _Read]) -> Callable[[bytes], _Read]:
    """``read`` (a strict reader of a bot's answer into an immutable value) remembering what it made of the answers
    of up to :data:`REMEMBERED` bytes: most answers are a bare id, sent again and again. An answer it refuses
    raises each time (exceptions are not remembered); the memory is bounded.
    """
    short = functools.lru_cache(maxsize=1024)(read)

    @functools.wraps(read)
    def reader(data: bytes) -> _Read:
        return short(data) if len(data) <= REMEMBERED else read(data)

    return reader
