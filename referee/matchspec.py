"""The match spec: what a ladder asks a referee process to play (``referee run-match``, ``serve-matches``).

A spec crosses a process boundary as JSON, so it is checked whole when it arrives: a key the referee does not know,
a missing one that has no safe default (the seed, and whether it is secret: a forgotten ``seed_secret`` must not
make a ladder's seed public), or a value of the wrong type is a :class:`SpecError` naming it, never a guess.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from referee.runtime.clock import DEFAULT_CLOCK, Clock
from referee.runtime.process import STARTUP_TIMEOUT


class SpecError(ValueError):
    """A match spec that cannot be played; the message says what is wrong."""


@dataclass(frozen=True)
class MatchSpec:
    """One match to play."""

    game: str
    bots: tuple[str, ...]
    """The bots' paths, in seat order."""
    seed: str
    """The seed of all chance in the match."""
    seed_secret: bool
    """Whether the replay shows only the seed's commitment until the match is over (a ladder's seeds are)."""
    match_id: str = "match"
    options: dict[str, str] = field(default_factory=dict)
    clock: Clock = DEFAULT_CLOCK
    """The clock (in JSON: BANK+INC/CAP in seconds)."""
    replay: str | None = None
    """Where to write the replay (none when missing)."""
    sandbox: str = "on"
    """on, auto or off."""
    limits: dict[str, int] = field(default_factory=dict)
    """The sandbox's limits that differ from the defaults, e.g. ``{"cpu_seconds": 60}``."""
    pause_off_turn: bool | None = None
    """Stop each bot's processes while it is not its move (None: the worker's own setting)."""
    unit: str = ""
    """The duplicate unit the match belongs to."""
    open_units: tuple[str, ...] = ()
    """Units still being played elsewhere: a worker's kept bot processes that played them sit this match out."""
    entrants: tuple[dict[str, Any], ...] | None = None
    """One ``{name, version, games}`` per seat: who each bot must say it is in its Hello."""
    transport: str = "unix"
    startup_timeout: float = STARTUP_TIMEOUT
    recorded_paths: tuple[str, ...] | None = None
    """The bots' paths to write in the replay, when the bots run from a copy."""

    @classmethod
    def from_json(cls, data: object) -> MatchSpec:
        """The spec ``data`` (parsed JSON) describes.

        Raises:
            SpecError: not an object, an unknown or missing key, or a value of the wrong type.

        >>> MatchSpec.from_json({"game": "tapa", "bots": ["a.py", "b.py"], "seed": "7", "seed_secret": True}).seed
        '7'
        >>> MatchSpec.from_json({"game": "tapa", "bots": [], "seed": "7", "seed_secret": True, "sed": 1})
        Traceback (most recent call last):
        referee.matchspec.SpecError: unknown key 'sed' in the match spec (known: bots, clock, entrants, ...)
        """
        if not isinstance(data, dict):
            raise SpecError(f"a match spec is a JSON object, not {type(data).__name__}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            known = ", ".join(sorted(fields)[:3])
            raise SpecError(f"unknown key {unknown[0]!r} in the match spec (known: {known}, ...)")
        missing = [name for name, f in fields.items() if _required(f) and name not in data]
        if missing:
            raise SpecError(f"the match spec has no {missing[0]!r}")
        values: dict[str, Any] = {}
        for name, value in data.items():
            values[name] = _checked(name, value)
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        """The spec as JSON (what :meth:`from_json` reads back), its defaults left out."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
            if _required(f) or value != default:
                out[f.name] = list(value) if isinstance(value, tuple) else str(value) if isinstance(value, Clock) else value
        return out


def _required(f: dataclasses.Field) -> bool:
    return f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING


_STRINGS = ("game", "seed", "match_id", "sandbox", "unit", "transport")
_STRING_LISTS = ("bots", "open_units", "recorded_paths")


def _checked(name: str, value: Any) -> Any:
    """``value`` of the key ``name`` in the form :class:`MatchSpec` holds it.

    Raises:
        SpecError: a value of the wrong type.
    """
    def wrong(kind: str) -> SpecError:
        return SpecError(f"the match spec's {name!r} must be {kind}, not {value!r}"[:300])

    if name in _STRINGS:
        if not isinstance(value, str):
            raise wrong("a string")
        return value
    if name in _STRING_LISTS:
        if value is None and name == "recorded_paths":
            return None
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise wrong("a list of strings")
        return tuple(value)
    if name == "clock":
        if not isinstance(value, str):
            raise wrong("a string")
        try:
            return Clock.parse(value)
        except ValueError as exc:
            raise SpecError(f"the match spec's 'clock': {exc}") from None
    if name in ("seed_secret", "pause_off_turn"):
        if not isinstance(value, bool) and not (value is None and name == "pause_off_turn"):
            raise wrong("true or false")
        return value
    if name == "replay":
        if value is not None and not isinstance(value, str):
            raise wrong("a path")
        return value or None
    if name == "options":
        if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            raise wrong("an object of strings")
        return dict(value)
    if name == "limits":
        if not isinstance(value, dict):
            raise wrong("an object")
        return dict(value)
    if name == "entrants":
        if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
            raise wrong("a list of objects")
        return tuple(value)
    if name == "startup_timeout":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise wrong("a positive number")
        return float(value)
    raise AssertionError(name)  # every field of MatchSpec is checked above
