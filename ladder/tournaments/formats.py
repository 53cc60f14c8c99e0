"""The formats a tournament can have, and what each needs: one place that dispatches to the format modules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import gauntlet, knockout, swiss, tables
from .model import History, Round

FORMATS = ("knockout", "swiss", "gauntlet", "tables")
ELIMINATIONS = ("single", "double")
TIE_BREAK_UNITS = 2
"""In a knockout, a unit that ends level is followed by up to this many more (new deals); if still level, the
better seed goes through."""


@dataclass(frozen=True)
class Spec:
    """A tournament's settings, fixed when it is created."""

    name: str
    format: str
    arena: str
    seats: int
    rounds: int = 0
    """Rounds of a Swiss, a gauntlet or tables (a knockout plays until it has a champion)."""
    elimination: str = "single"
    teams: bool = False
    draw_seed: str = ""

    @property
    def needs_winner(self) -> bool:
        """Whether every group must have a winner (a knockout: level units are followed by tie-break units)."""
        return self.format == "knockout"

    def next_round(self, history: History) -> Round | None:
        """The next round, or None when the tournament is over."""
        if self.format == "knockout":
            if self.elimination == "double":
                return knockout.double_elimination(history)
            return knockout.single_elimination(history)
        if self.format == "swiss":
            return swiss.next_round(history, self.rounds)
        if self.format == "gauntlet":
            return gauntlet.next_round(history, self.rounds)
        return tables.next_round(history, self.rounds, self.seats, self.teams, self.draw_seed)

    def champion(self, history: History) -> int | None:
        """A knockout's winner once it is over (other formats rank: see :meth:`standings`)."""
        if self.format != "knockout":
            return None
        return (knockout.double_champion if self.elimination == "double" else knockout.champion)(history)

    def standings(self, history: History) -> list[Any]:
        """The format's standings lines (none for a knockout: its bracket is its result)."""
        if self.format == "swiss":
            return swiss.standings(history)
        if self.format == "gauntlet":
            return gauntlet.standings(history)
        if self.format == "tables":
            return tables.standings(history, self.teams)
        return []


def check(spec: Spec, entrants: int) -> None:
    """Raise ValueError with a one-line reason when ``spec`` cannot run with this many entrants."""
    if spec.format not in FORMATS:
        raise ValueError(f"unknown format {spec.format!r} (one of {', '.join(FORMATS)})")
    if spec.format == "tables":
        if spec.seats < 3 and not spec.teams:
            raise ValueError(f"tables need an arena of 3 or more seats; {spec.arena} has {spec.seats}")
        if spec.teams and entrants % 2:
            raise ValueError(f"a 2v2 tournament needs an even number of entrants, not {entrants}")
        need = spec.seats
    else:
        if spec.seats != 2:
            raise ValueError(f"a {spec.format} pairs two bots; {spec.arena} seats {spec.seats} (use --format tables)")
        need = 2
    if entrants < need:
        raise ValueError(f"{spec.arena} has {entrants} entrant(s); a {spec.format} needs at least {need}")
    if spec.format != "knockout" and spec.rounds < 1:
        raise ValueError("--rounds must be at least 1")
