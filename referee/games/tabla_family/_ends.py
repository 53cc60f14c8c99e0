"""The engines' entry points to a stage's legal plays: their end positions (a packed board with the hit bits of
:mod:`._movegen`), each once, in increasing order, and how many dice they use.

Engines list, check and apply plays by end position; the steps of a play are needed only to show or send it,
and a :class:`MoveGenerator`'s ``plays`` builds them then. A game lists its plays with the native core's
generator when the core is installed and the game runs on it (``FamilyGame.moves``); else they are the keys of
the step generator's plays, which is the reference: tests compare the two on every dice of random positions, and
the step generator with an independent brute-force enumerator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple, Protocol

from ..engine import NATIVE
from ._movegen import Raw, Stage
from ._plays import notation_of

Listed = dict[int, tuple[tuple[Raw, ...], str]]
"""A stage's plays as :func:`python_stage_plays` gives them: ``{end: (steps, notation)}``."""


def python_stage_ends(stage: Stage, board: int) -> tuple[list[int], int]:
    """The end positions of every legal play of the stage's dice from ``board``, each once and in increasing
    order, and how many dice they use: the keys of ``stage.plays(board)``."""
    plays, used = stage.plays(board)
    return sorted(plays), used


def native_stage_ends(stage: Stage, board: int) -> tuple[list[int], int]:
    """:func:`python_stage_ends` computed by the native core."""
    return NATIVE.stage_ends(  # type: ignore[union-attr]
        board, stage.dice, stage.closed, stage.frozen, stage.singles, stage.can_bear_off, stage.track_hits, stage.rule
    )


def python_stage_plays(stage: Stage, board: int) -> tuple[Listed, int]:
    """Every legal play with its steps and notation, ``{end: (steps, notation)}`` (the steps of
    ``stage.plays(board)``), and the dice they use."""
    plays, used = stage.plays(board)
    return {end: (steps, notation_of(steps)) for end, steps in plays.items()}, used


def native_stage_plays(stage: Stage, board: int) -> tuple[Listed, int]:
    """:func:`python_stage_plays` computed by the native core (the same steps and notation for each end)."""
    return NATIVE.stage_plays(  # type: ignore[union-attr]
        board, stage.dice, stage.closed, stage.frozen, stage.singles, stage.can_bear_off, stage.track_hits, stage.rule
    )


class MoveGenerator(NamedTuple):
    """A stage's plays from one generator: their ends (:func:`python_stage_ends`) and their steps and notation
    (:func:`python_stage_plays`), the Python one's or the native core's."""

    ends: Callable[[Stage, int], tuple[list[int], int]]
    plays: Callable[[Stage, int], tuple[Listed, int]]


PYTHON_MOVES = MoveGenerator(python_stage_ends, python_stage_plays)
"""The step generator's plays: the reference."""
NATIVE_MOVES = MoveGenerator(native_stage_ends, native_stage_plays)
"""The native core's plays (when it is installed)."""


class StagePlays(Protocol):
    """Where a stage's listed plays find their steps and notations when one is first shown (the native core's
    ``FamilyStage``, or :class:`PythonStage`)."""

    def plays(self) -> Listed:
        """Every play of the stage, ``{end: (steps, notation)}``."""
        ...

    def notation(self, end: int) -> str | None:
        """The notation of the play that ends in ``end``; None where only :meth:`plays` lists them."""
        ...

    def records(self, detail: bool) -> bytes | None:
        """The plays as an ActRequest's ``legal_actions`` records, ids in end order (with ``detail``, each play's
        steps too); None where only :mod:`referee.wire` writes them."""
        ...


class PythonStage(NamedTuple):
    """A stage of the Python engines and the mover's board: :class:`StagePlays` by ``moves``, the game's generator."""

    stage: Stage
    board: int
    moves: MoveGenerator

    def plays(self) -> Listed:
        """Every play of the stage, ``{end: (steps, notation)}``."""
        return self.moves.plays(self.stage, self.board)[0]

    def notation(self, end: int) -> None:
        """None: a play's notation is read from :meth:`plays`."""
        return None

    def records(self, detail: bool) -> None:
        """None: the wire writes the records from the plays."""
        return None
