"""Text rendering of views (a function of a view, never of the engine's internals)."""

from __future__ import annotations

from referee.games import PIN_MINE, PIN_THEIRS, BackgammonView


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


def render_backgammon(view: BackgammonView, names: tuple[str, str] | None = None) -> str:
    """An ASCII board drawn from ``view.seat``'s side: ``o`` are that seat's checkers, ``x`` the opponent's.

    ``o2+x`` marks an opponent checker pinned under two of ours, ``x1+o`` one of ours pinned under theirs.

    >>> from referee.games import make_game
    >>> print(render_backgammon(make_game("tapa").new_state().view(0)).splitlines()[1])
       13   14   15   16   17   18 |   19   20   21   22   23   24
    """
    me = f"o = seat {view.seat}" + (f" {names[view.seat]}" if names else "")
    them = f"x = seat {1 - view.seat}" + (f" {names[1 - view.seat]}" if names else "")
    top = range(13, 25)
    bottom = range(12, 0, -1)

    def row(points: range) -> str:
        cells = [_cell(view.mine[p - 1], view.theirs[p - 1], view.pins[p - 1]) for p in points]
        return "".join(cells[:6]) + " |" + "".join(cells[6:])

    def labels(points: range) -> str:
        cells = [f"{p:>5}" for p in points]
        return "".join(cells[:6]) + " |" + "".join(cells[6:])

    lines = [
        f"{view.variant}  {me}  {them}",
        labels(top),
        row(top),
        row(bottom),
        labels(bottom),
        f"off: o {view.my_off}  x {view.their_off}"
        + (f"   bar: o {view.my_bar}  x {view.their_bar}" if view.my_bar or view.their_bar else "")
        + (f"   dice: {'-'.join(map(str, view.dice))}" if view.dice else "")
        + (f"   to move: seat {view.turn}" if view.turn >= 0 else ""),
    ]
    if view.later_stages or view.remainder:
        ladder = "playing the opponent's remainder" if view.remainder else "ladder"
        later = ", then " + " ".join(f"{d}x4" for d in view.later_stages) if view.later_stages else ""
        lines.append(f"{ladder}: this stage {'-'.join(map(str, view.dice))}{later}")
    if view.match.target > 1:
        score = ":".join(map(str, view.match.points))
        lines.append(f"match {score} to {view.match.target}, game {view.match.game_number} ({view.match.current_game})")
    return "\n".join(lines)


def render_view(view: object, names: tuple[str, ...] | None = None) -> str:
    """Render any view the framework knows."""
    if isinstance(view, BackgammonView):
        return render_backgammon(view, names)  # type: ignore[arg-type]
    raise TypeError(f"no renderer for {type(view).__name__}")
