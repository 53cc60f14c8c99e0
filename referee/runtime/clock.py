"""Chess-server clocks: a time bank per game, an increment per move and a hard cap per move."""

from __future__ import annotations

import re
from dataclasses import dataclass

TRANSPORT_GRACE = 0.25
"""Seconds allowed on top of a move's limit for the round trip, before the answer counts as late."""


@dataclass(frozen=True)
class Clock:
    """Clock settings in seconds: the bank a seat starts each game with, the increment, and the per-move cap."""

    bank: float = 120.0
    increment: float = 3.0
    cap: float = 30.0

    def move_limit(self, bank_left: float) -> float:
        """Seconds a seat may use for the move at hand."""
        return max(0.0, min(bank_left, self.cap))

    def after_move(self, bank_left: float, used: float) -> float:
        """The bank after a move that took ``used`` seconds (never below zero)."""
        return max(0.0, bank_left - used) + self.increment

    @classmethod
    def parse(cls, text: str) -> Clock:
        """Read ``BANK+INC`` or ``BANK+INC/CAP`` in seconds (the cap defaults to 30).

        Raises:
            ValueError: not such a text, or a bank or cap that is not positive.

        >>> Clock.parse("60+2")
        Clock(bank=60.0, increment=2.0, cap=30.0)
        >>> Clock.parse("10+0.5/2")
        Clock(bank=10.0, increment=0.5, cap=2.0)
        """
        match = _CLOCK_RE.match(text.strip())
        if not match:
            raise ValueError(f"bad clock {text!r}: expected BANK+INC or BANK+INC/CAP in seconds, e.g. 120+3/30")
        bank = float(match.group(1))
        increment = float(match.group(2) or 0)
        cap = float(match.group(3)) if match.group(3) else cls.cap
        if bank <= 0 or cap <= 0:
            raise ValueError(f"bad clock {text!r}: bank and cap must be positive")
        return cls(bank, increment, cap)

    def __str__(self) -> str:
        """The clock as :meth:`parse` reads it.

        >>> str(Clock.parse("10+0.5/2")), str(DEFAULT_CLOCK)
        ('10+0.5/2', '120+3/30')
        """
        return f"{self.bank:g}+{self.increment:g}/{self.cap:g}"


_CLOCK_RE = re.compile(r"^(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?(?:/(\d+(?:\.\d+)?))?$")

DEFAULT_CLOCK = Clock()
"""The clock of every game unless one is asked for: a 120 s bank, 3 s more a move, 30 s at most for one move."""
