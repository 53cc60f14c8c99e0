"""Tapa (Plakoto, Mahbusa): the pinning game of the Tabla family.

Rules: ../shared/rules/tabla.md §0, §1 and §4 (the opening throw of §5 starts a single game). Seat mapping: seats
0 and 1 each count the points in their own direction of travel; seat s's point q is the opponent's point 25 − q.
Both start with 15 checkers on their own 24. Whoever throws the higher die in the opening throw moves first, after a
fresh roll of both dice.

Options (strings):

============================== =========== ==========================================================
option                         default     alternatives
============================== =========== ==========================================================
``tapa.pinned_home_blocks_all`` ``false``   ``true``: no bearing off at all while a checker is pinned
``tapa.both_mothers``           ``draw_0_0`` ``draw_1_1``: both mothers pinned scores 1 point each
``stuck_limit``                 ``100``     any positive integer: rolls in a row with no checker moved → draw
============================== =========== ==========================================================

Outcomes: ``normal`` 1 point, ``mars`` 2 (the loser has borne off none), ``mother`` 2, ``both_mothers`` and
``stuck`` draws.

>>> game = Tapa()
>>> state = game.new_state()
>>> state.apply(OpeningThrow((5, 2)))
>>> state.apply(Roll(6, 3))
>>> [a.notation() for a in state.legal_actions()]
['24/18 18/15', '24/18 24/21']
"""

from __future__ import annotations

from collections.abc import Mapping

from ._core import (
    CHANCE,
    TERMINAL,
    Game,
    GameOption,
    IllegalActionError,
    InvalidActionError,
    Outcome,
    State,
    resolve_options,
)
from ._dice import OPENING_OUTCOMES, ROLL_OUTCOMES, OpeningThrow, Roll, parse_dice
from ._movegen import Stage, count, pack
from ._plays import Play, parse_steps
from ._views import PIN_MINE, PIN_NONE, PIN_THEIRS, BackgammonView, MatchScore

_OPENING, _ROLL, _MOVE, _OVER = "opening", "roll", "move", "over"
_START = pack({24: 15})


class Tapa(Game):
    """The Tapa game definition (immutable)."""

    id = "tapa"
    max_points = 2
    OPTIONS = (
        GameOption("tapa.pinned_home_blocks_all", "false", ("false", "true"), "no bear-off while any own checker is pinned"),
        GameOption("tapa.both_mothers", "draw_0_0", ("draw_0_0", "draw_1_1"), "score when both mothers are pinned"),
        GameOption("stuck_limit", "100", (), "rolls in a row with no checker moved before the game is drawn"),
    )

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = resolve_options(self.id, self.OPTIONS, options)
        self.blocks_all = self.options["tapa.pinned_home_blocks_all"] == "true"
        self.both_mothers_points = 1 if self.options["tapa.both_mothers"] == "draw_1_1" else 0
        self.stuck_limit = int(self.options["stuck_limit"])

    @property
    def num_seats(self) -> int:
        """Two seats."""
        return 2

    def new_state(self, starter: int | None = None, match: MatchScore | None = None) -> TapaState:
        """A new game: an opening throw, or ``starter`` rolls first (a match's previous winner)."""
        return TapaState(self, starter, match or MatchScore(current_game=self.id))

    def position(
        self,
        mover: int,
        mine: Mapping[int, int],
        theirs: Mapping[int, int],
        *,
        pinned_mine: tuple[int, ...] = (),
        pinned_theirs: tuple[int, ...] = (),
        dice: tuple[int, int] | None = None,
    ) -> TapaState:
        """A position for tests and analysis, written from the mover's side as in rules §8.

        ``mine`` and ``theirs`` map the mover's point numbers to checkers; checkers not placed are borne off.
        ``pinned_mine``/``pinned_theirs`` list the mover's point numbers where that side's checker is pinned.
        With ``dice`` the mover is to play that roll, else the mover is to roll.
        """
        state = self.new_state(starter=mover)
        other = 1 - mover
        placed_mine = {p: n for p, n in mine.items()}
        placed_theirs = {25 - p: n for p, n in theirs.items()}
        for board in (placed_mine, placed_theirs):
            board[0] = 15 - sum(board.values())
            if board[0] < 0:
                raise ValueError("more than 15 checkers on one side")
        state._boards[mover] = pack(placed_mine)
        state._boards[other] = pack(placed_theirs)
        state._pins[mover] = sum(1 << p for p in pinned_mine)
        state._pins[other] = sum(1 << (25 - p) for p in pinned_theirs)
        if dice is not None:
            state.apply(Roll(max(dice), min(dice)))
        return state

    def parse_action(self, text: str, state: State) -> Roll | OpeningThrow | Play:
        """Read a dice action (``roll 6-3``, ``opening 4-2``) or a play (``24/18 18/13``) legal in ``state``."""
        text = " ".join(text.split())
        if text.startswith(("roll", "opening")):
            return parse_dice(text)
        steps = parse_steps(text)
        if not isinstance(state, TapaState) or state.current_player < 0:
            raise IllegalActionError(f"{text!r}: nobody is to play a move here")
        for action in state.legal_actions():
            if action.notation() == text:
                return action
        stage, board = state._stage()
        end = stage.follow(board, state._dice, steps)
        for raw, legal_end in state._legal().items():
            if legal_end == end:
                return Play(raw)
        raise IllegalActionError(f"{text!r} is not a legal play with {'-'.join(map(str, state._dice))}")


class TapaState(State):
    """A Tapa position. Boards are packed per seat in the seat's own numbering (see ``_movegen``)."""

    def __init__(self, game: Tapa, starter: int | None, match: MatchScore) -> None:
        self._game = game
        self._match = match
        self._boards = [_START, _START]
        self._pins = [0, 0]
        self._phase = _OPENING if starter is None else _ROLL
        self._turn = 0 if starter is None else starter
        self._dice: tuple[int, ...] = ()
        self._rolls = [0, 0]
        self._stuck = 0
        self._outcome: Outcome | None = None
        self._plays: dict[tuple, int] | None = None

    def clone(self) -> TapaState:
        """An independent copy."""
        other = TapaState.__new__(TapaState)
        other.__dict__.update(self.__dict__)
        other._boards = list(self._boards)
        other._pins = list(self._pins)
        other._rolls = list(self._rolls)
        return other

    @property
    def current_player(self) -> int:
        """The seat to move, CHANCE before the opening throw and each roll, TERMINAL at the end."""
        if self._phase == _MOVE:
            return self._turn
        if self._phase == _OVER:
            return TERMINAL
        return CHANCE

    def chance_outcomes(self) -> list[tuple[OpeningThrow | Roll, float]]:
        """The opening throw's 36 outcomes or a roll's 21."""
        if self._phase == _OPENING:
            return list(OPENING_OUTCOMES)
        if self._phase == _ROLL:
            return list(ROLL_OUTCOMES)
        return []

    def legal_actions(self) -> list[Play]:
        """The whole plays of the roll at hand, sorted, one per distinct end position."""
        if self._phase != _MOVE:
            return []
        return [Play(raw) for raw in sorted(self._legal())]

    def _legal(self) -> dict[tuple, int]:
        """{raw steps: end board} of the legal plays."""
        if self._plays is None:
            plays, _ = self._generate()
            self._plays = {steps: end for end, steps in plays.items()}
        return self._plays

    def _generate(self) -> tuple[dict[int, tuple], int]:
        stage, board = self._stage()
        return stage.plays(board, self._dice)

    def _stage(self) -> tuple[Stage, int]:
        """The constant facts of the mover's stage, and the mover's board."""
        mover = self._turn
        me, opp = self._boards[mover], self._boards[1 - mover]
        my_pins, their_pins = self._pins[mover], self._pins[1 - mover]
        closed = singles = 0
        for point in range(1, 25):
            theirs = count(opp, 25 - point)
            if theirs >= 2 or (my_pins >> point) & 1:
                closed |= 1 << point
            elif theirs == 1 and not (their_pins >> (25 - point)) & 1:
                singles |= 1 << point
        mother_there = count(opp, 24) >= 1
        my_mother_pinned = bool((my_pins >> 24) & 1)

        def terminal(board: int) -> bool:
            if board & 15 == 15:
                return True
            if mother_there and (board >> 4) & 15:
                return not (board >> 96) & 15 or my_mother_pinned
            return False

        can_bear_off = not (self._game.blocks_all and my_pins)
        return Stage(closed, my_pins, singles, can_bear_off, terminal), me

    def apply(self, action: OpeningThrow | Roll | Play) -> None:
        """Apply an opening throw, a roll or a play."""
        if self._phase == _OPENING and isinstance(action, OpeningThrow):
            first, second = action.dice
            if first != second:
                self._turn = 0 if first > second else 1
                self._phase = _ROLL
        elif self._phase == _ROLL and isinstance(action, Roll):
            self._roll(action)
        elif self._phase == _MOVE and isinstance(action, Play):
            end = self._legal().get(action.raw)
            if end is None:
                raise IllegalActionError(f"seat {self._turn}: {action.notation()} is not legal with {self._dice}")
            self._play(end)
        else:
            raise IllegalActionError(f"{action!r} cannot be applied in phase {self._phase}")

    def _roll(self, roll: Roll) -> None:
        self._rolls[self._turn] += 1
        self._dice = (roll.high,) * 4 if roll.is_double else (roll.high, roll.low)
        self._plays = None
        self._phase = _MOVE
        if not self._legal():
            self._stuck += 1
            self._pass_turn()
            if self._stuck >= self._game.stuck_limit:
                self._finish(Outcome("stuck", (0, 0)))

    def _pass_turn(self) -> None:
        self._turn = 1 - self._turn
        self._dice = ()
        self._plays = None
        self._phase = _ROLL

    def _play(self, end: int) -> None:
        mover, other = self._turn, 1 - self._turn
        self._boards[mover] = end
        opp = self._boards[other]
        my_pins = self._pins[mover]
        their_pins = 0
        for point in range(1, 25):
            if count(opp, point) == 1 and count(end, 25 - point) and not (my_pins >> (25 - point)) & 1:
                their_pins |= 1 << point
        self._pins[other] = their_pins
        self._stuck = 0
        points = [0, 0]
        if end & 15 == 15:
            points[mover] = 1 if count(opp, 0) else 2
            self._finish(Outcome("normal" if count(opp, 0) else "mars", tuple(points)))
        elif count(opp, 24) and count(end, 1):
            if not count(end, 24):
                points[mover] = 2
                self._finish(Outcome("mother", tuple(points)))
            elif (my_pins >> 24) & 1:
                draw = self._game.both_mothers_points
                self._finish(Outcome("both_mothers", (draw, draw)))
        if self._phase != _OVER:
            self._pass_turn()

    def _finish(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._phase = _OVER
        self._dice = ()
        self._plays = None

    def outcome(self) -> Outcome:
        """The result; raises ValueError before the end."""
        if self._outcome is None:
            raise ValueError("the game is not over")
        return self._outcome

    def view(self, seat: int) -> BackgammonView:
        """The board from ``seat``'s side (everything in Tapa is public)."""
        if seat not in (0, 1):
            raise ValueError(f"Tapa has seats 0 and 1, not {seat}")
        other = 1 - seat
        me, opp = self._boards[seat], self._boards[other]
        pins = []
        for point in range(1, 25):
            if (self._pins[seat] >> point) & 1:
                pins.append(PIN_MINE)
            elif (self._pins[other] >> (25 - point)) & 1:
                pins.append(PIN_THEIRS)
            else:
                pins.append(PIN_NONE)
        return BackgammonView(
            variant="tapa",
            seat=seat,
            mine=tuple(count(me, p) for p in range(1, 25)),
            theirs=tuple(count(opp, 25 - p) for p in range(1, 25)),
            pins=tuple(pins),
            my_bar=0,
            their_bar=0,
            my_off=count(me, 0),
            their_off=count(opp, 0),
            dice=self._dice,
            turn=self._turn if self._phase not in (_OVER, _OPENING) else -1,
            match=self._match,
            rolls=tuple(self._rolls),
        )

    def __repr__(self) -> str:
        return f"<TapaState {self._phase} turn={self._turn} dice={self._dice} boards={self._boards} pins={self._pins}>"
