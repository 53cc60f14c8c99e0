"""What the three games of the Tabla family share: phases, dice, stages, the stuck guard, views and positions.

A turn is a queue of *stages*, each one decision: ``(6, 3)``, ``(4, 4, 4, 4)``, or in Gjul Bara a ladder of
stages. Subclasses say which points are closed (``_stage``), what a play does to the other side (``_after_play``)
and how stages follow one another (``_roll`` and ``_stage_done``).
"""

from __future__ import annotations

import copy
import random
from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from enum import StrEnum
from typing import ClassVar, Self, overload

from .._core import (
    CHANCE,
    TERMINAL,
    Game,
    GameOption,
    IllegalActionError,
    Outcome,
    State,
    decision_limit_option,
    resolve_options,
)
from ..engine import NATIVE
from ._dice import OPENING_OUTCOMES, ROLL_OUTCOMES, OpeningThrow, Roll, draw_roll, parse_dice
from ._ends import NATIVE_MOVES, PYTHON_MOVES, Listed, MoveGenerator, PythonStage, StagePlays
from ._movegen import BAR_POINT, BOARD_MASK, Stage, count, pack
from ._plays import Play, RawPlay, parse_steps
from ._views import PIN_NONE, BackgammonView, MatchScore

OPENING, ROLL, MOVE, OVER = "opening", "roll", "move", "over"

STUCK_OPTION = GameOption("stuck_limit", "100", (), "rolls in a row with no checker moved before the game is drawn")
DECISION_LIMIT = decision_limit_option(2000)
"""The family's backstop: random play's longest game measured about 370 decisions."""


class FamilyTermination(StrEnum):
    """How a game of the Tabla family ends (the native core's ``Termination`` spells them alike)."""

    NORMAL = "normal"
    """Borne off while the loser has borne off a checker: 1 point."""
    MARS = "mars"
    """Borne off before the loser bore off any: 2 points."""
    MOTHER = "mother"
    """Tapa: a lone checker on the loser's starting point (its mother) pinned, the winner's own mother free: 2
    points."""
    BOTH_MOTHERS = "both_mothers"
    """Tapa: both mothers pinned: a draw (1:1 or 0:0, as the option says)."""
    STUCK = "stuck"
    """No checker moved for the stuck limit's rolls in a row: a draw."""


class FamilyGame(Game):
    """A game of the Tabla family: two seats, an opening throw, whole plays per stage."""

    terminations = FamilyTermination
    variant: str
    OPTIONS: ClassVar[tuple[GameOption, ...]] = (STUCK_OPTION, DECISION_LIMIT)
    max_points = 2

    reference_state: type[FamilyState]
    """The game's state in Python: the reference, and the state used without the native core."""
    native_state: type[FamilyState]
    """The same state run by the native core's state machine (:mod:`._native`)."""

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = resolve_options(self.id, self.OPTIONS, options)
        self.stuck_limit = int(self.options["stuck_limit"])
        self.native = NATIVE is not None
        self.moves: MoveGenerator = NATIVE_MOVES if NATIVE is not None else PYTHON_MOVES
        """How its Python states list a stage's plays: the native core's generator when it is installed (also for
        the :meth:`reference`), the step generator :meth:`on` the Python engine."""

    def on(self, engine: str) -> Self:
        """This game run by ``engine`` (``Game.on``); on ``python`` its plays are the step generator's too."""
        other = super().on(engine)
        if engine != "python" or other.moves is PYTHON_MOVES:
            return other
        other = copy.copy(other)
        other.moves = PYTHON_MOVES
        return other

    def core_options(self) -> dict[str, int | bool]:
        """The resolved options as the native core's ``FamilyCore`` and ``playouts`` take them."""
        return {"stuck_limit": self.stuck_limit}

    @property
    def num_seats(self) -> int:
        """Two seats."""
        return 2

    @staticmethod
    @abstractmethod
    def theirs_to_mine(point: int) -> int:
        """The mover's number of the opponent's ``point`` (its own inverse)."""

    @abstractmethod
    def start(self) -> dict[int, int]:
        """Each side's starting checkers, {own point: count}."""

    def new_state(
        self, starter: int | None = None, match: MatchScore | None = None, opening_dice_play: bool = False
    ) -> FamilyState:
        """A new game: an opening throw, or ``starter`` rolls first (a match's previous winner).

        With ``opening_dice_play`` the two opening dice are the starter's first roll (backgammon style).
        """
        kind = self.native_state if self.native else self.reference_state
        return kind(self, starter, match or MatchScore(current_game=self.id), opening_dice_play)

    def position(
        self,
        mover: int,
        mine: Mapping[int, int],
        theirs: Mapping[int, int],
        *,
        pinned_mine: tuple[int, ...] = (),
        pinned_theirs: tuple[int, ...] = (),
        dice: tuple[int, int] | None = None,
        rolls: tuple[int, int] = (0, 0),
    ) -> FamilyState:
        """A position for tests and analysis, written from the mover's side as in rules §8.

        ``mine`` and ``theirs`` map the mover's point numbers (25 = that side's bar) to checkers; checkers not
        placed are borne off. ``pinned_mine``/``pinned_theirs`` list the mover's points where that side's
        checker is pinned (Tapa). ``rolls`` are the rolls each seat made before (Gjul Bara's ladder counts
        them). With ``dice`` the mover rolls them now, else the mover is to roll.
        """
        state = self.new_state(starter=mover)
        other = 1 - mover
        placed_mine = dict(mine)
        placed_theirs = {(BAR_POINT if p == BAR_POINT else self.theirs_to_mine(p)): n for p, n in theirs.items()}
        for board in (placed_mine, placed_theirs):
            board[0] = 15 - sum(board.values())
            if board[0] < 0:
                raise ValueError("more than 15 checkers on one side")
        boards, pins = [0, 0], [0, 0]
        boards[mover], boards[other] = pack(placed_mine), pack(placed_theirs)
        pins[mover] = sum(1 << (p << 2) for p in pinned_mine)
        pins[other] = sum(1 << (self.theirs_to_mine(p) << 2) for p in pinned_theirs)
        state._place(boards, pins, list(rolls))
        if dice is not None:
            state.apply(Roll(max(dice), min(dice)))
        return state

    def parse_action(self, text: str, state: State) -> Roll | OpeningThrow | Play:
        """Read a dice action (``roll 6-3``, ``opening 4-2``) or a play (``24/18 18/13``) legal in ``state``.

        A play may list its steps in any legal order; it is matched to the legal play with the same result.
        """
        text = " ".join(text.split())
        if text.startswith(("roll", "opening")):
            return parse_dice(text)
        steps = parse_steps(text)
        if not isinstance(state, FamilyState) or state.current_player < 0:
            raise IllegalActionError(f"{text!r}: nobody is to play a move here")
        for action in state.legal_actions():
            if action.notation() == text:
                return action
        stage, board = state._stage(state._dice)
        end = stage.follow(board, steps)
        plays = state._plays
        if end is not None and plays is not None and end in plays.ends:
            return Play(None, end, plays)
        raise IllegalActionError(f"{text!r} is not a legal play with {'-'.join(map(str, state._dice))}")


class Plays(Sequence[Play]):
    """The legal plays of one stage in end-position order; each :class:`Play` is made only when it is read, and
    the steps of all of them are built together the first time one play's steps are.

    A random playout reads one play of dozens (hundreds after doubles), so the engines keep their plays as end
    positions and hand out this view of them (one per stage, however often it is asked for).
    """

    __slots__ = ("_ends", "_source", "_plays")

    def __init__(self, ends: Sequence[int], source: StagePlays) -> None:
        self._ends = ends
        self._source = source
        self._plays: Listed | None = None
        """The plays' steps and notations, made the first time one is read."""

    def __len__(self) -> int:
        return len(self._ends)

    @overload
    def __getitem__(self, index: int) -> Play: ...

    @overload
    def __getitem__(self, index: slice) -> list[Play]: ...

    def __getitem__(self, index: int | slice) -> Play | list[Play]:
        end = self._ends[index]
        if end.__class__ is list:  # a slice
            return [Play(None, one, self) for one in end]
        return Play(None, end, self)  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[Play]:
        return (Play(None, end, self) for end in self._ends)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    def __repr__(self) -> str:
        return f"Plays({list(self)!r})"

    @property
    def ends(self) -> list[int]:
        """The end positions of the plays, sorted."""
        return list(self._ends)

    def _listed(self) -> Listed:
        if self._plays is None:
            self._plays = self._source.plays()
        return self._plays

    def steps(self, end: int) -> RawPlay:
        """The steps of the legal play ending in ``end``."""
        return self._listed()[end][0]

    def notation(self, end: int) -> str:
        """The notation of the legal play ending in ``end`` (the stage's own, when it gives one without listing
        every play)."""
        if self._plays is None and (text := self._source.notation(end)) is not None:
            return text
        return self._listed()[end][1]

    def wire_records(self, detail: bool) -> bytes | None:
        """The plays as an ActRequest's ``legal_actions`` records (ids in this order; with ``detail``, the steps
        too), when the stage writes them itself (the native core's); else None."""
        return self._source.records(detail)

    def end_of(self, raw: RawPlay) -> int | None:
        """The end of the legal play with exactly these steps, if there is one."""
        return next((end for end, (steps, _) in self._listed().items() if steps == raw), None)


class FamilyState(State):
    """A position of a Tabla-family game; boards are packed per seat in the seat's own numbering."""

    def __init__(
        self, game: FamilyGame, starter: int | None, match: MatchScore, opening_dice_play: bool = False
    ) -> None:
        self._game = game
        self._opening_dice_play = opening_dice_play
        self._match = match
        start = pack(game.start())
        self._boards = [start, start]
        self._pins = [0, 0]
        self._phase = OPENING if starter is None else ROLL
        self.current_player = CHANCE
        self._turn = 0 if starter is None else starter
        self._dice: tuple[int, ...] = ()
        self._stages: list[tuple[int, ...]] = []
        self._rolls = [0, 0]
        self._stuck = 0
        self._moved = False
        self._outcome: Outcome | None = None
        self._used = 0  # how many dice the current stage's legal plays use
        self._plays: Plays | None = None  # the current stage's legal plays, by sorted end position

    def sides(self, seat: int) -> tuple[int, int, int, int]:
        """The position as evaluators read it, ``seat``'s side first: (its board, the other's board, its pins, the
        other's pins), each board packed (:func:`._movegen.pack`) in its own side's numbering
        (:data:`.features.Sides`)."""
        boards, pins = self._boards, self._pins
        return boards[seat], boards[1 - seat], pins[seat], pins[1 - seat]

    @property
    def game(self) -> FamilyGame:
        """The game this is a position of (its ``id`` and ``core_options()`` are what the native core's functions of a
        position take)."""
        return self._game

    def clone(self) -> FamilyState:
        """An independent copy."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._boards = list(self._boards)
        other._pins = list(self._pins)
        other._rolls = list(self._rolls)
        other._stages = list(self._stages)
        return other

    current_player: int = CHANCE
    """The seat to move, CHANCE before the opening throw and each roll, TERMINAL at the end (an attribute: the
    hottest read of a playout)."""

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self._phase == OVER

    def chance_outcomes(self) -> list[tuple[OpeningThrow | Roll, float]]:
        """The opening throw's 36 outcomes or a roll's 21."""
        if self._phase == OPENING:
            return list(OPENING_OUTCOMES)
        if self._phase == ROLL:
            return list(ROLL_OUTCOMES)
        return []

    def sample_chance(self, rng: random.Random) -> OpeningThrow | Roll:
        """A chance outcome drawn with the probabilities of :meth:`chance_outcomes` (rolls by one uniform draw)."""
        if self._phase == ROLL:
            return draw_roll(rng)
        return super().sample_chance(rng)

    def legal_actions(self) -> Plays | list[Play]:
        """The whole plays of the stage at hand, one per distinct end position, in end-position order."""
        return self._plays if self._phase == MOVE else []  # type: ignore[return-value]

    def current_stage(self) -> tuple[Stage, int]:
        """The stage the seat to move plays and its board (a seat must be to move)."""
        if self._phase != MOVE:
            raise ValueError("no seat is to move")
        return self._stage(self._dice)

    @abstractmethod
    def _stage(self, dice: tuple[int, ...]) -> tuple[Stage, int]:
        """The constant facts of the mover's stage with ``dice``, and the mover's board."""

    @abstractmethod
    def _after_play(self, end: int) -> None:
        """Apply the end board (with any hit bits) of the mover's play; finish the game if it ended."""

    def apply(self, action: OpeningThrow | Roll | Play) -> None:
        """Apply an opening throw, a roll or a play."""
        kind = action.__class__
        if kind is Play and self._phase == MOVE:
            plays = self._plays
            # A play listed by this stage's view carries one of its end positions; any other is matched by steps.
            end = action.key if action._source is plays else plays.end_of(action.raw)  # type: ignore[union-attr]
            if end is None:
                raise IllegalActionError(f"seat {self._turn}: {action.notation()} is not legal with {self._dice}")
            self._boards[self._turn] = end & BOARD_MASK
            self._moved = True
            self._after_play(end)
            if self._phase != OVER:
                self._stage_done(self._used)
                self._advance()
        elif kind is Roll and self._phase == ROLL:
            self._rolls[self._turn] += 1
            self._moved = False
            self._roll(action)  # type: ignore[arg-type]
            self._advance()
        elif kind is OpeningThrow and self._phase == OPENING:
            first, second = action.dice  # type: ignore[union-attr]
            if first != second:
                self._turn = 0 if first > second else 1
                self._phase = ROLL
                if self._opening_dice_play:  # backgammon style: the opening dice are the first roll
                    self.apply(Roll(max(first, second), min(first, second)))
        else:
            raise IllegalActionError(f"{action!r} cannot be applied in phase {self._phase}")

    def _roll(self, roll: Roll) -> None:
        """Queue the stages of a roll (Gjul Bara's ladder overrides this)."""
        high, low = roll.high, roll.low
        self._stages = [(high, high, high, high) if high == low else (high, low)]

    def _stage_done(self, used: int) -> None:
        """The current stage was played with ``used`` dice (0 when it had no play)."""
        self._stages.pop(0)

    def _advance(self) -> None:
        """Go to the next stage with a legal play; stages without one are done with 0 dice; then pass."""
        while self._stages:
            dice = self._dice = self._stages[0]
            stage, board = self._stage(dice)
            moves = self._game.moves
            ends, used = moves.ends(stage, board)
            if ends:
                self._phase = MOVE
                self.current_player = self._turn
                self._used = used
                self._plays = Plays(ends, PythonStage(stage, board, moves))
                return
            self._stage_done(0)
        self._end_turn()

    def _end_turn(self) -> None:
        """The turn is over: count it for the stuck guard and hand the dice to the other seat."""
        self._stuck = 0 if self._moved else self._stuck + 1
        self._to_roll(1 - self._turn)
        if self._stuck >= self._game.stuck_limit:
            self._finish(Outcome(FamilyTermination.STUCK, (0, 0)))

    def _to_roll(self, seat: int) -> None:
        self._turn = seat
        self._dice = ()
        self._stages = []
        self._plays = None
        self._phase = ROLL
        self.current_player = CHANCE

    def _finish(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._phase = OVER
        self.current_player = TERMINAL
        self._dice = ()
        self._stages = []
        self._plays = None

    def _win(self, seat: int, termination: FamilyTermination | None = None) -> None:
        """``seat`` bore off its last checker (or won otherwise): 1 point, or 2 (mars) if the loser has none off."""
        loser_off = count(self._boards[1 - seat], 0)
        points = [0, 0]
        points[seat] = 2 if termination == FamilyTermination.MOTHER or not loser_off else 1
        ended = termination or (FamilyTermination.NORMAL if loser_off else FamilyTermination.MARS)
        self._finish(Outcome(ended, tuple(points)))

    def outcome(self) -> Outcome:
        """The result; raises ValueError before the end."""
        if self._outcome is None:
            raise ValueError("the game is not over")
        return self._outcome

    def _place(self, boards: list[int], pins: list[int], rolls: list[int]) -> None:
        """Set both sides' boards and pins and the rolls made (:meth:`FamilyGame.position`)."""
        self._boards, self._pins, self._rolls = boards, pins, rolls

    def _pin_markers(self, seat: int) -> tuple[int, ...]:
        return (PIN_NONE,) * 24

    def _ladder(self) -> tuple[tuple[int, ...], bool]:
        """The stages queued after the current one and whether the seat plays a remainder (Gjul Bara)."""
        return (), False

    def view(self, seat: int) -> BackgammonView:
        """The board from ``seat``'s side (everything in these games is public)."""
        if seat not in (0, 1):
            raise ValueError(f"{self._game.id} has seats 0 and 1, not {seat}")
        me, opp = self._boards[seat], self._boards[1 - seat]
        mapping = self._game.theirs_to_mine
        later, remainder = self._ladder()
        return BackgammonView(
            variant=self._game.variant,
            seat=seat,
            mine=tuple((me >> (p << 2)) & 15 for p in range(1, 25)),
            theirs=tuple(count(opp, mapping(p)) for p in range(1, 25)),
            pins=self._pin_markers(seat),
            my_bar=count(me, BAR_POINT),
            their_bar=count(opp, BAR_POINT),
            my_off=me & 15,
            their_off=opp & 15,
            dice=self._dice,
            turn=self._turn if self._phase not in (OVER, OPENING) else -1,
            match=self._match,
            rolls=tuple(self._rolls),
            later_stages=later,
            remainder=remainder,
        )

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self._phase} turn={self._turn} dice={self._dice} stages={self._stages} "
            f"boards={self._boards} pins={self._pins}>"
        )
