"""An engine state rebuilt from a Tabla-family view, for bots that search or evaluate with the engines."""

from __future__ import annotations

from referee.games import PIN_MINE, PIN_THEIRS, BackgammonView, Game, State, make_game


def state_of(view: BackgammonView) -> tuple[Game, State]:
    """An engine state of ``view``'s position with the seat to play ``view.dice`` (ladder counts left out: a
    Gjul Bara remainder or ladder stage is not rebuilt exactly, so compare its legal plays with the request's)."""
    game = make_game(view.variant)
    mine = {p + 1: n for p, n in enumerate(view.mine) if n}
    theirs = {p + 1: n for p, n in enumerate(view.theirs) if n}
    if view.my_bar:
        mine[25] = view.my_bar
    if view.their_bar:
        theirs[25] = view.their_bar
    state = game.position(
        view.seat,
        mine,
        theirs,
        pinned_mine=tuple(p + 1 for p, pin in enumerate(view.pins) if pin == PIN_MINE),
        pinned_theirs=tuple(p + 1 for p, pin in enumerate(view.pins) if pin == PIN_THEIRS),
        dice=(view.dice[0], view.dice[1]),
    )
    return game, state
