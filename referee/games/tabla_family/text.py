"""The Tabla family's views in text: the board for the terminal, and each point's number in the other seat's
numbering (a move's notation is in its mover's)."""

from __future__ import annotations

import functools

from ._family import FamilyGame
from ._views import PIN_MINE, PIN_THEIRS, BackgammonView
from .gjul_bara import GjulBara
from .tabla import Tabla
from .tapa import Tapa

_VARIANTS: dict[str, type[FamilyGame]] = {"tabla": Tabla, "gjul-bara": GjulBara, "tapa": Tapa}


@functools.cache
def their_numbers(variant: str) -> tuple[int, ...]:
    """For each point 1..24 in one seat's numbering, the opponent's number of it.

    >>> their_numbers("tabla")[:3], their_numbers("gjul-bara")[:3]
    ((24, 23, 22), (13, 14, 15))
    """
    game = _VARIANTS[variant]()
    return tuple(game.theirs_to_mine(point) for point in range(1, 25))


def _cell(mine: int, theirs: int, pin: int) -> str:
    if pin == PIN_THEIRS:
        text = f"o{mine}+x"
    elif pin == PIN_MINE:
        text = f"x{theirs}+o"
    elif mine:
        text = f"o{mine}"
    elif theirs:
        text = f"x{theirs}"
    else:
        text = "."
    return f"{text:>5}"


def render_backgammon(view: BackgammonView, names: tuple[str, ...] | None = None) -> str:
    """An ASCII board drawn from ``view.seat``'s side: ``o`` are that seat's checkers, ``x`` the opponent's.

    Points carry both numberings: ``o``'s above the top row and below the bottom one, ``x``'s in brackets beside
    them (a move's notation is in its mover's numbering). ``o2+x`` marks an opponent checker pinned under two of
    ours, ``x1+o`` one of ours pinned under theirs; a legend line says so when a pin is on the board.

    >>> from referee.games import make_game
    >>> print(render_backgammon(make_game("tapa").new_state().view(0)).splitlines()[1])
      o:    13   14   15   16   17   18 |   19   20   21   22   23   24
    """
    me = f"o = seat {view.seat}" + (f" {names[view.seat]}" if names else "")
    them = f"x = seat {1 - view.seat}" + (f" {names[1 - view.seat]}" if names else "")
    top = range(13, 25)
    bottom = range(12, 0, -1)
    theirs = their_numbers(view.variant)

    def row(points: range) -> str:
        cells = [_cell(view.mine[p - 1], view.theirs[p - 1], view.pins[p - 1]) for p in points]
        return "     " + "".join(cells[:6]) + " |" + "".join(cells[6:])

    def labels(side: str, points: range) -> str:
        cells = [f"{p:>5}" if side == "o" else f"{f'({theirs[p - 1]})':>5}" for p in points]
        return f"  {side}: " + "".join(cells[:6]) + " |" + "".join(cells[6:])

    lines = [
        f"{view.variant}  {me}  {them}",
        labels("o", top),
        labels("x", top),
        row(top),
        row(bottom),
        labels("x", bottom),
        labels("o", bottom),
        f"off: o {view.my_off}  x {view.their_off}"
        + (f"   bar: o {view.my_bar}  x {view.their_bar}" if view.my_bar or view.their_bar else "")
        + (f"   dice: {'-'.join(map(str, view.dice))}" if view.dice else "")
        + (f"   to move: seat {view.turn}" if view.turn >= 0 else ""),
    ]
    if any(view.pins):
        lines.append("pins: o2+x = an x checker pinned under 2 o's; x1+o = an o checker pinned under 1 x")
    if view.later_stages or view.remainder:
        ladder = "playing the opponent's remainder" if view.remainder else "ladder"
        later = ", then " + " ".join(f"{d}x4" for d in view.later_stages) if view.later_stages else ""
        lines.append(f"{ladder}: this stage {'-'.join(map(str, view.dice))}{later}")
    if view.match.target > 1:
        score = ":".join(map(str, view.match.points))
        lines.append(f"match {score} to {view.match.target}, game {view.match.game_number} ({view.match.current_game})")
    return "\n".join(lines)
