"""Strict reading of a bot's answer: its bytes must be exactly a message of the expected type.

A protobuf parser is lenient on purpose: it keeps fields it does not know as unknown fields, reads a known field
sent with the wrong wire type as an unknown one, and cuts a varint too large for an ``int32`` field to its low 32
bits (so ``2**32 + 1`` reads as 1). A referee must not play what a bot did not say, so :func:`wire_problem` walks
the top-level fields of an answer as sent and names the first one that the message type does not declare, that
arrives with another wire type than its declaration, or whose number does not fit its declared type.
"""

from __future__ import annotations

from google.protobuf.descriptor import Descriptor, FieldDescriptor

_VARINT, _FIXED64, _LENGTH, _FIXED32 = 0, 1, 2, 5
_WIRE_TYPES = {
    FieldDescriptor.TYPE_DOUBLE: _FIXED64,
    FieldDescriptor.TYPE_FIXED64: _FIXED64,
    FieldDescriptor.TYPE_SFIXED64: _FIXED64,
    FieldDescriptor.TYPE_FLOAT: _FIXED32,
    FieldDescriptor.TYPE_FIXED32: _FIXED32,
    FieldDescriptor.TYPE_SFIXED32: _FIXED32,
    FieldDescriptor.TYPE_STRING: _LENGTH,
    FieldDescriptor.TYPE_BYTES: _LENGTH,
    FieldDescriptor.TYPE_MESSAGE: _LENGTH,
}
"""Wire types of the field types that are not varints."""
_BOUNDS = {
    FieldDescriptor.TYPE_INT32: (-(1 << 31), (1 << 31) - 1),
    FieldDescriptor.TYPE_UINT32: (0, (1 << 32) - 1),
    FieldDescriptor.TYPE_ENUM: (-(1 << 31), (1 << 31) - 1),
    FieldDescriptor.TYPE_BOOL: (0, 1),
}
"""Varint field types narrower than 64 bits, with the values they hold (int32 and enums sign-extended)."""


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise ValueError("a varint running past the end of the message")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def wire_problem(data: bytes, descriptor: Descriptor) -> str | None:
    """What in ``data`` is not a message of ``descriptor`` as declared (top-level fields), or None."""
    at = 0
    try:
        while at < len(data):
            key, at = _varint(data, at)
            number, wire_type = key >> 3, key & 7
            field = descriptor.fields_by_number.get(number)
            if field is None:
                return f"unknown field {number} (wire type {wire_type})"
            expected = _WIRE_TYPES.get(field.type, _VARINT)
            packed = wire_type == _LENGTH and field.is_repeated and expected != _LENGTH
            if wire_type != expected and not packed:
                return f"field {field.name} with wire type {wire_type}, declared with wire type {expected}"
            if wire_type == _VARINT:
                value, at = _varint(data, at)
                if field.type in _BOUNDS:
                    signed = value - (1 << 64) if value >= 1 << 63 else value
                    low, high = _BOUNDS[field.type]
                    if not low <= signed <= high:
                        return f"field {field.name} = {signed}, which does not fit its type"
            elif wire_type == _FIXED64:
                at += 8
            elif wire_type == _FIXED32:
                at += 4
            else:
                length, at = _varint(data, at)
                at += length
            if at > len(data):
                return f"field {field.name} running past the end of the message"
    except ValueError as exc:
        return str(exc)
    return None


def length_delimited_fields(data: bytes) -> list[tuple[int, bytes]]:
    """The top-level fields of ``data`` as ``(number, payload)``, all of them length-delimited (a oneof of
    messages, read without parsing what is inside).

    Raises:
        ValueError: a field is not length-delimited or runs past the end.
    """
    fields = []
    at = 0
    while at < len(data):
        key, at = _varint(data, at)
        if key & 7 != _LENGTH:
            raise ValueError(f"field {key >> 3} with wire type {key & 7}, declared with wire type {_LENGTH}")
        length, at = _varint(data, at)
        if at + length > len(data):
            raise ValueError(f"field {key >> 3} running past the end of the message")
        fields.append((key >> 3, data[at : at + length]))
        at += length
    return fields
