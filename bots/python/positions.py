"""An engine state rebuilt from a Tabla-family view, for bots that search or evaluate with the engines."""

from __future__ import annotations

from collections.abc import Mapping

from referee.games import GAMES, PIN_MINE, PIN_THEIRS, BackgammonView, Game, State, make_game


def state_of(
    view: BackgammonView, options: Mapping[str, str] | None = None, *, exact: bool = False
) -> tuple[Game, State]:
    """An engine state of ``view``'s position with the seat to play ``view.dice``, by default with no rolls made
    and the default options (a Gjul Bara remainder or ladder stage is then not rebuilt exactly: compare its legal
    plays with the request's).

    With ``exact`` the rolls made are rebuilt too, and the game takes its options from ``options`` (a request's:
    those the view's game knows), so that the position goes on by the game's rules: in Gjul Bara a stage of the
    ladder is followed by the chain's later stages, an unplayable rest is handed over, and the opponent's doubles
    climb the ladder as in the game. A remainder is not rebuilt.
    """
    rolls, rules = [0, 0], {}
    if exact:
        known = {option.name for option in GAMES[view.variant].OPTIONS}
        rules = {name: value for name, value in (options or {}).items() if name in known}
        rolls = list(view.rolls)
        rolls[view.seat] = max(0, rolls[view.seat] - 1)  # the roll being played is made again below
    game = make_game(view.variant, rules)
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
        rolls=(rolls[0], rolls[1]),
    )
    return game, state
