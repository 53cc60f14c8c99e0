"""The shipped bots' judgement of a decision, for ``referee analyse`` (the games' registrations name these judges):
the plays worth a look, and the play made, each valued for the mover by the strongest shipped search that applies,
from what the mover may see.

The Tabla family (:func:`judge`):

- Single games of Tabla and Tapa, with the native core: :mod:`.td2_bot`'s search, two rolls ahead (its
  :data:`~.td2_bot.WIDTH` best plays by the network, the :data:`~.td2_bot.DEEP` best of those two rolls ahead).
- Elsewhere (Gjul Bara, whose turns are chains of stages; a ``tabla-match``, valued by the chance to win the match;
  without the native core): :mod:`.td1_bot`'s, one roll ahead, or to the end of a Gjul Bara chain.

The play made is always valued by the same search as the best. Values are points for the mover; in a match,
twice the mover's chance to win the match less one.

Durak (:func:`judge_durak`): :mod:`.durak_mc_bot`'s search on the seat's view, every legal action valued by its
guesses of the hidden cards and greedy playouts (:data:`DURAK_WORLDS` guesses, more than the bot makes in its
time, so that the noise of the estimate stays well below the thresholds); values are the seat's points less the
others' mean. It needs the native core.
"""

from __future__ import annotations

import random
from typing import Any

from bots.python import durak_mc_bot, td1_bot, td2_bot
from bots.python.td_bot import Values
from referee.analysis import AnalysisError, Judged
from referee.games import Game, State
from referee.games.engine import ACCELERATORS

DURAK_WORLDS = 256
"""Guesses of the hidden cards a Durak decision is judged over (:data:`.durak_mc_bot.ROLLOUTS` playouts of every
action in each)."""


def judge(game: Game, state: State, played: int) -> Judged:
    """The plays of ``state``'s decision (a seat to move in ``game``, of the Tabla family) worth a look, and
    ``played`` (an index into its legal actions), each valued for the mover."""
    single: Any = state.game_state if game.id == "tabla-match" else state  # type: ignore[attr-defined]
    seat = single.current_player
    view = single.view(seat)
    values = Values.at(game.id, view)
    if game.id in td2_bot.SEARCHED and ACCELERATORS is not None and not view.remainder:
        return Judged(td2_bot.two_rolls_ahead(single, values, seat, keep=played), "td2: two rolls ahead")
    if view.later_stages:
        return Judged(td1_bot.through_the_turn(single, values, seat, keep=played), "td1: to the chain's end")
    return Judged(td1_bot.one_roll_ahead(single, values, seat, keep=played), "td1: one roll ahead")


def judge_durak(game: Game, state: State, played: int) -> Judged:
    """Every legal action of ``state``'s decision (a seat to act in a Durak deal of ``game``) valued for the seat
    by the Durak search bot's rollouts over guesses of what the seat does not see; the guesses are seeded by the
    seat's view, so a decision is judged alike every time."""
    if ACCELERATORS is None:
        raise AnalysisError("judging Durak needs the native core (pip install ./native)")
    view = state.view(state.current_player)
    keys = [(action.kind, tuple(action.cards)) for action in state.legal_actions()]
    seeded = random.Random(repr(view))
    valued, worlds = durak_mc_bot.means(view, game, keys, seeded, DURAK_WORLDS)  # type: ignore[arg-type]
    return Judged({index: valued[key] for index, key in enumerate(keys)},
                  f"durak-mc: {worlds} guesses x {durak_mc_bot.ROLLOUTS} playouts")
