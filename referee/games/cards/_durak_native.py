"""Durak deals run by the native core: the same deals as :class:`DurakState`, one call into the core a card of the
shuffle, a list of legal actions or a decision.

:class:`NativeDurakState` is a :class:`DurakState` whose state machine is the core's ``DurakCore``
(``native/src/engine/durak_core.rs``, the twin of the Python state). Everything that only reads a position (the views,
the chance outcomes, the outcome) is the Python class's own code, reading the position from the core; actions are
the Python engine's :class:`DurakAction` objects, each made once. ``tests/games/test_native_durak.py`` plays seeded
deals through both and compares every legal action, view and outcome.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from .._core import CHANCE, TERMINAL, IllegalActionError
from ..engine import NATIVE
from ._durak_view import DurakSeat, DurakView
from .durak import DEALS, Durak, DurakAction, DurakChance, DurakState


@cache
def _actions() -> tuple[DurakAction, ...]:
    """Every action the core can list, in the order of its table (``kafana_native.engine.durak_actions``)."""
    return tuple(DurakAction(kind, tuple(cards)) for kind, cards in NATIVE.durak_actions())  # type: ignore[union-attr]


class ListedActions(list):
    """The legal actions the core listed, with the core's snapshot of them (``listing``) that writes their wire
    records (:meth:`wire_records`, read by :class:`referee.wire.LegalActions`). The records are those of the list
    as listed: do not change it."""

    __slots__ = ("listing",)
    listing: Any
    """The core's snapshot of the listing (a ``kafana_native`` object)."""

    def wire_records(self, detail: bool) -> bytes:
        """The actions as an ActRequest's ``legal_actions`` records (ids in this order; with ``detail``, their kind
        and cards too)."""
        return self.listing.records(detail)


def _reader(name: str) -> property:
    """The Python state's attribute ``name``, read from the core's position."""
    return property(lambda self: self._snapshot()[name], doc=f"{name} of the core's position")


class NativeDurakState(DurakState):
    """A Durak deal whose shuffle, lot and decisions are applied by the native core."""

    current_player = CHANCE
    """The seat to act, kept by each state after every step (the class value only shadows the reference's
    property)."""

    def __init__(self, game: Durak, first_attacker: int | None = None) -> None:  # noqa: D107 (the reference's)
        self._game = game
        self._core: Any = NATIVE.DurakCore(game.core_rules(), first_attacker, _actions())  # type: ignore[union-attr]
        self.current_player = CHANCE
        self._position: dict[str, Any] | None = None

    @classmethod
    def at_bout(cls, reference: DurakState) -> NativeDurakState:
        """The native twin of ``reference``, a position made by :meth:`Durak.position` (at the start of a bout)."""
        state = object.__new__(cls)
        game = state._game = reference._game
        state._core = NATIVE.DurakCore.at_bout(  # type: ignore[union-attr]
            game.core_rules(), _actions(), reference._hands, reference._stock, reference._trump_card,
            reference._shown, reference._attacker, reference._bout,
        )
        state.current_player = state._core.current_player
        state._position = None
        return state

    def clone(self) -> NativeDurakState:
        """An independent copy."""
        other = object.__new__(NativeDurakState)
        other.__dict__.update(self.__dict__)
        other._core = self._core.copy()
        return other

    def is_terminal(self) -> bool:
        """True once the deal is over."""
        return self.current_player == TERMINAL

    def sample_chance(self, rng: random.Random) -> DurakChance:
        """The shuffle's next card, uniform over the cards not yet placed (the lot as the reference draws it)."""
        core = self._core
        left = core.shuffle_left()
        if left:
            return DEALS[core.unplaced(rng.randrange(left))]
        return super().sample_chance(rng)

    def legal_actions(self) -> list[DurakAction]:
        """Every legal decision of the seat to act, sorted, each once (a list that writes its wire records)."""
        legal = ListedActions(self._core.legal())
        legal.listing = self._core.listing()
        return legal

    def apply(self, action: DurakAction | DurakChance) -> None:
        """Play a decision or a chance outcome. Raises IllegalActionError if it is not legal here."""
        if action.__class__ is DurakChance:
            now = self._core.chance(action.kind == "deck", action.value)
            if now is None:
                raise IllegalActionError(f"{action.notation()} is not a chance outcome here")
        else:
            now = self._core.apply(action)
            if now is None:
                raise IllegalActionError(f"{action.notation()} is not legal here")
        self.current_player = now
        self._position = None

    def view(self, seat: int) -> DurakView:
        """What ``seat`` sees (rules §1.8)."""
        return self.view_and_record(seat)[0]

    def view_and_record(self, seat: int) -> tuple[DurakView, bytes | None]:
        """What ``seat`` sees: at a decision of a bout made by the core in one call with its DurakView's bytes (a
        deal's fields); elsewhere (the shuffle, the lot, the end) the reference's, without."""
        if not 0 <= seat < self._game.seats:
            raise ValueError(f"durak has seats 0 to {self._game.seats - 1} here, not {seat}")
        made = self._core.view(seat)
        if made is None:
            return super().view(seat), None
        variant, hand, seats, trump, table, discard, phase, bout, shown, record = made
        trump_suit, trump_card, trump_in_stock, stock = trump
        to_act, attacker, defender, throw_room, number = bout
        view = DurakView(variant, seat, hand, tuple(DurakSeat(*each) for each in seats), trump_suit, trump_card,
                         trump_in_stock, stock, table, discard, phase, to_act, attacker, defender, throw_room, number,
                         shown)
        return view, record

    def _snapshot(self) -> dict[str, Any]:
        position = self._position
        if position is None:
            position = self._position = self._core.snapshot()
        return position

    _phase = _reader("_phase")
    _hands = _reader("_hands")
    _known = _reader("_known")
    _places = _reader("_places")
    _stock = _reader("_stock")
    _trump_card = _reader("_trump_card")
    _trump = _reader("_trump")
    _table = _reader("_table")
    _discard = _reader("_discard")
    _shown = _reader("_shown")
    _attacker = _reader("_attacker")
    _defender = _reader("_defender")
    _bout = _reader("_bout")
    _h0 = _reader("_h0")
    _unplaced = _reader("_unplaced")
    _termination = _reader("_termination")

    def __repr__(self) -> str:
        return f"<NativeDurakState {self._phase} to_act={self.current_player} hands={self._hands}>"
