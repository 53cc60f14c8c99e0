"""Views that carry their wire record: the bytes of the view as its protocol message, made by the native core
together with the view, which :mod:`referee.wire` sends instead of encoding the view's fields again (what a record
covers is the view kind's: a Tabla-family view's whole message, a Durak deal's fields without a session's).

The record is not a field of the view: equality, ``repr`` and :func:`dataclasses.asdict` leave it out, and
:func:`dataclasses.replace` makes a view without it (a changed view is encoded from its fields).
"""

from __future__ import annotations

from typing import TypeVar

View = TypeVar("View")


def with_record(view: View, record: bytes) -> View:
    """``view`` (a frozen dataclass) carrying ``record``."""
    object.__setattr__(view, "_record", record)
    return view


def record_of(view: object) -> bytes | None:
    """The record ``view`` carries (:func:`with_record`), else None."""
    return getattr(view, "__dict__", {}).get("_record")
