"""Durak sessions (rules/cards.md §1.7): a series of ``deals`` games between the same seats.

Each deal is a whole :class:`~referee.games.cards.durak.DurakState` (run by the native core when it is installed:
:mod:`._durak_native`); the session delegates to the deal in play. Who
attacks first in a later deal follows ``session_start``: ``lowest_trump`` (every deal as new), ``under_fool`` (the
seat to the right of the last durak attacks the durak) or ``from_under_fool`` (the seat to the left of the last
durak attacks first). After a deal without a durak, and in team games, the lowest trump starts. The session's
score is how many deals each seat did not lose; places rank those scores.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping

from .._core import Outcome, State
from ..engine import NATIVE
from ._durak_native import NativeDurakState
from ._durak_view import DurakView
from .durak import Durak, DurakAction, DurakChance, DurakState, DurakTermination


def lost(deal: Outcome, seat: int) -> bool:
    """True when ``seat`` was the durak of ``deal`` (or on the losing team)."""
    return deal.termination == DurakTermination.DURAK and deal.places[seat] == max(deal.places)


class DurakSession(State):
    """A series of Durak deals."""

    def __init__(self, game: DurakGame) -> None:
        self._game = game
        self._deals = int(game.options["deals"])
        self._finished: list[Outcome] = []
        self._deal: DurakState = game.new_deal()

    @property
    def current_player(self) -> int:
        """Whoever acts in the deal being played."""
        return self._deal.current_player

    @property
    def game_number(self) -> int:
        """The 1-based number of the deal being played."""
        return len(self._finished) + 1

    def completed_games(self) -> list[tuple[str, Outcome]]:
        """The deals finished so far."""
        return [(self._game.id, outcome) for outcome in self._finished]

    def legal_actions(self) -> list[DurakAction]:
        """The legal actions of the deal being played."""
        return self._deal.legal_actions()

    def chance_outcomes(self) -> list[tuple[DurakChance, float]]:
        """The chance outcomes of the deal being played."""
        return self._deal.chance_outcomes()

    def sample_chance(self, rng: random.Random) -> DurakChance:
        """A chance outcome of the deal being played."""
        return self._deal.sample_chance(rng)

    def apply(self, action: DurakAction | DurakChance) -> None:
        """Play in the current deal; when it ends and deals remain, the next one begins."""
        self._deal.apply(action)
        if self._deal.is_terminal() and len(self._finished) + 1 < self._deals:
            outcome = self._deal.outcome()
            self._finished.append(outcome)
            self._deal = self._game.new_deal(self._next_attacker(outcome))

    def _next_attacker(self, last: Outcome) -> int | None:
        start = self._game.options["session_start"]
        n = self._game.seats
        losers = [seat for seat in range(n) if lost(last, seat)]
        if start == "lowest_trump" or self._game.teams or len(losers) != 1:
            return None
        return (losers[0] + (-1 if start == "under_fool" else 1)) % n

    def outcome(self) -> Outcome:
        """Per seat: deals not lost (the points), places by that score, and every deal's outcome."""
        if not self._deal.is_terminal():
            raise ValueError("the session is not over")
        deals = self._finished + [self._deal.outcome()]
        n = self._game.seats
        points = tuple(sum(1 for deal in deals if not lost(deal, seat)) for seat in range(n))
        places = tuple(1 + sum(other > mine for other in points) for mine in points)
        return Outcome(DurakTermination.SESSION, points, games=tuple((self._game.id, deal) for deal in deals), places=places)

    def view(self, seat: int) -> DurakView:
        """The deal's view, with the session so far."""
        return self._with_session(self._deal.view(seat))

    def view_and_record(self, seat: int) -> tuple[DurakView, bytes | None]:
        """The deal's view with the session so far, and the deal's record (the fields of a deal, which the session
        leaves unchanged)."""
        view, record = self._deal.view_and_record(seat)
        return self._with_session(view), record

    def spectator_view(self) -> DurakView:
        """The deal's spectator view, with the session so far."""
        return self._with_session(self._deal.spectator_view())

    def _with_session(self, view: DurakView) -> DurakView:
        duraks = tuple(sum(1 for deal in self._finished if lost(deal, s)) for s in range(self._game.seats))
        return dataclasses.replace(view, deal=self.game_number, deals=self._deals, duraks=duraks)

    def clone(self) -> DurakSession:
        """An independent copy."""
        other = object.__new__(DurakSession)
        other.__dict__.update(self.__dict__)
        other._finished = list(self._finished)
        other._deal = self._deal.clone()
        return other


class DurakGame(Durak):
    """Durak as the registry knows it: a single deal, or a session when ``deals`` is more than one; the deals run
    in the native core when it is installed (:meth:`reference` gives the Python engine's)."""

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        self.native = NATIVE is not None

    def new_deal(self, first_attacker: int | None = None) -> DurakState:
        """A fresh deal (the shuffle comes first); ``first_attacker`` attacks first (a session's later deal),
        else the lowest trump or the lot."""
        return (NativeDurakState if self.native else DurakState)(self, first_attacker)

    def _placed(self, state: DurakState) -> DurakState:
        """A position made by :meth:`Durak.position`, on the native core when it is installed."""
        return NativeDurakState.at_bout(state) if self.native else state

    def new_state(self) -> State:
        """A fresh deal (the shuffle comes first), or a session of ``deals`` deals."""
        if int(self.options["deals"]) > 1:
            return DurakSession(self)
        return self.new_deal()
