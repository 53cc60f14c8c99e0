"""The Tabla family's random whole games in the native core, and how the Python reference draws alike: two dice
from one draw of 36, and besides ``uniform`` the ``steps`` policy (random single steps, :meth:`Stage.random_play`)."""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from referee.games._core import Game, State
from referee.games.engine import NATIVE

from ._dice import OpeningThrow, Roll
from ._family import FamilyGame, FamilyState
from .tabla_match import TablaMatch, TablaMatchState


class FamilyPlayouts:
    """The Tabla family's playouts (single games and matches)."""

    policies: tuple[str, ...] = ("uniform", "steps")

    def problem(self, game: Game) -> str | None:
        """Every game of the family has playouts."""
        return None

    def chance(self, state: State, rng: Any) -> Any:
        """The opening throw or a roll, from one draw of 36."""
        first, second = rng.dice()
        if isinstance(state.chance_outcomes()[0][0], OpeningThrow):
            return OpeningThrow((first, second))
        return Roll(max(first, second), min(first, second))

    def walk(self, state: State, legal: Any, policy: str, rng: Any) -> int | None:
        """The index among ``legal`` (a stage's plays) of a ``steps`` walk's end, or None if it missed a die. A
        walk's end is checked to be one of the plays listed."""
        family = state.game_state if isinstance(state, TablaMatchState) else state
        assert isinstance(family, FamilyState)
        stage, board = family.current_stage()
        end = stage.random_play(board, rng.below)
        if end is None:
            return None
        ends = legal.ends
        index = bisect_left(ends, end)
        if index == len(ends) or ends[index] != end:
            raise RuntimeError(f"a walk of single steps ended at {end:#x}, not at a legal play of {stage.dice}")
        return index

    def native(self, game: Game, count: int, seed: int, policy: str) -> list[tuple[str, tuple[int, ...], int]]:
        """The core's playouts of the game, a match passing its games' options and its own."""
        assert NATIVE is not None
        games = list(game.games.values()) if isinstance(game, TablaMatch) else [game]
        options: dict[str, Any] = {}
        for one in games:
            assert isinstance(one, FamilyGame)
            options.update(one.core_options())  # a match passes one stuck_limit to its three games
        if isinstance(game, TablaMatch):
            options.update(target=game.target, every_game_opens=game.every_game_opens)
        return NATIVE.playouts(game.id, count, seed, policy=policy, **options)
