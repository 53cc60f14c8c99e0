"""An engine state rebuilt from a Tabla-family view, for bots that search or evaluate with the engines, and the
features of the positions a request's plays lead to where no state can be rebuilt (a Gjul Bara remainder)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from bots.python.evaluation import after
from referee.games import GAMES, PIN_MINE, PIN_THEIRS, BackgammonView, Game, State, make_game
from referee.games.tabla_family import pack
from referee.games.tabla_family.features import FEATURES, AfterFeatures, encode
from referee.wire import ActRequest


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


def rebuilt(request: ActRequest) -> tuple[State, list, dict[str, int]] | None:
    """The exact state of ``request``'s view (:func:`state_of`), its legal plays and the request's action ids by
    notation; None where the rebuilt state does not list the request's plays."""
    _, state = state_of(request.view, request.options, exact=True)
    plays = state.legal_actions()
    ids = {legal.notation: legal.id for legal in request.legal_actions}
    return (state, plays, ids) if sorted(play.notation() for play in plays) == sorted(ids) else None


def played_features(view: BackgammonView, plays: Sequence[tuple]) -> AfterFeatures:
    """What :func:`~referee.games.tabla_family.features.after_features` gives of a stage, from ``view`` and its
    plays' steps (``LegalAction.action.raw``, in the request's order) instead of an engine state: for the stages
    :func:`state_of` does not rebuild, a Gjul Bara remainder. The only end it sees is the mover's last checker
    borne off (two points if the opponent has none off), all a remainder can end with."""
    mapping = GAMES[view.variant].theirs_to_mine
    rows, outcomes = [], []
    for raw in plays:
        board = after(view, raw)
        mine = {point: n for point, n in enumerate(board.mine) if n}
        theirs = {(point if point in (0, 25) else mapping(point)): n for point, n in enumerate(board.theirs) if n}
        pins = (sum(1 << (point << 2) for point in board.pinned_mine),
                sum(1 << (mapping(point) << 2) for point in board.pinned_theirs))
        rows.append(encode((pack(mine), pack(theirs)), pins))
        outcomes.append((2 if board.theirs[0] == 0 else 1, 0) if board.mine[0] == 15 else None)
    return np.array(rows, dtype=np.float32).reshape(len(rows), FEATURES), outcomes
