"""Views of the Tabla family: what one seat sees, drawn from its own side."""

from __future__ import annotations

from dataclasses import dataclass

PIN_NONE, PIN_MINE, PIN_THEIRS = 0, 1, 2


@dataclass(frozen=True)
class MatchScore:
    """The match around a game: points per seat, the target, and which game of the match is played."""

    points: tuple[int, ...] = (0, 0)
    target: int = 1
    game_number: int = 1
    current_game: str = ""


@dataclass(frozen=True)
class BackgammonView:
    """One seat's view of a Tabla-family game, in that seat's own numbering (nothing is hidden in these games).

    Attributes:
        variant: ``"tabla"``, ``"gjul-bara"`` or ``"tapa"``.
        seat: the seat this view is for.
        mine: 24 counts; ``mine[i]`` is the seat's checkers on its point ``i + 1`` (pinned ones included).
        theirs: 24 counts of the opponent's checkers on the same points, in the seat's numbering.
        pins: 24 markers, :data:`PIN_NONE`, :data:`PIN_MINE` (the seat's checker is pinned there) or
            :data:`PIN_THEIRS`.
        my_bar, their_bar, my_off, their_off: checkers on the bar and borne off.
        dice: the dice of the decision at hand, e.g. ``(6, 3)`` or ``(4, 4, 4, 4)``; empty outside a decision.
        turn: the seat to move (or to roll), or -1 before the opening throw decides and when the game is over.
        match: the match score and which game is being played.
        rolls: rolls made so far in this game, per seat.
        later_stages: Gjul Bara's ladder: the die values of the stages still to come after this one (four dice
            each), e.g. ``(5, 6)``; empty otherwise.
        remainder: Gjul Bara: True while the seat plays the rest of its opponent's ladder.
    """

    variant: str
    seat: int
    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    pins: tuple[int, ...]
    my_bar: int
    their_bar: int
    my_off: int
    their_off: int
    dice: tuple[int, ...]
    turn: int
    match: MatchScore
    rolls: tuple[int, ...]
    later_stages: tuple[int, ...] = ()
    remainder: bool = False
