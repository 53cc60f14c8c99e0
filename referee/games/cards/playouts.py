"""Durak's random whole deals in the native core, and how the Python reference draws alike: each chance step (a
card of the shuffle, a seat of the lot) uniformly among those listed."""

from __future__ import annotations

from typing import Any

from referee.games._core import Game, State
from referee.games.engine import NATIVE

from .durak import Durak


class DurakPlayouts:
    """Durak's playouts: single deals, uniform play."""

    policies: tuple[str, ...] = ("uniform",)

    def problem(self, game: Game) -> str | None:
        """A session of deals has none."""
        return "Durak playouts are single deals: deals=1, not a session" if game.options["deals"] != "1" else None

    def chance(self, state: State, rng: Any) -> Any:
        """One of the listed outcomes, uniformly."""
        outcomes = state.chance_outcomes()
        return outcomes[rng.below(len(outcomes))][0]

    def walk(self, state: State, legal: Any, policy: str, rng: Any) -> int | None:
        """Durak's only policy is uniform."""
        return None

    def native(self, game: Game, count: int, seed: int, policy: str) -> list[tuple[str, tuple[int, ...], int]]:
        """The core's playouts of the deal's rules."""
        assert NATIVE is not None and isinstance(game, Durak)
        return NATIVE.durak_playouts(game.core_rules(), count, seed)
