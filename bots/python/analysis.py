"""The shipped bots' judgement of a Tabla-family decision, for ``referee analyse`` (the family's registration names
:func:`judge`): the plays worth a look, and the play made, each valued for the mover by the strongest shipped
evaluator that applies.

- Single games of Tabla and Tapa, with the native core: :mod:`.td2_bot`'s search, two rolls ahead (its
  :data:`~.td2_bot.WIDTH` best plays by the network, the :data:`~.td2_bot.DEEP` best of those two rolls ahead).
- Elsewhere (Gjul Bara, whose turns are chains of stages; a ``tabla-match``, valued by the chance to win the match;
  without the native core): :mod:`.td1_bot`'s, one roll ahead, or to the end of a Gjul Bara chain.

The play made is always valued by the same search as the best. Values are points for the mover; in a match,
twice the mover's chance to win the match less one.
"""

from __future__ import annotations

from typing import NamedTuple

from bots.python import td1_bot, td2_bot
from bots.python.td_bot import Values
from referee.games import State
from referee.games.engine import ACCELERATORS


class Valued(NamedTuple):
    """A decision's plays as :func:`judge` values them."""

    values: dict[int, float]
    """Value for the mover by index into the state's legal actions: the plays searched, the play made among them."""
    search: str
    """How they were valued, e.g. ``td2: two rolls ahead``."""


def judge(game_id: str, state: State, played: int) -> Valued:
    """The plays of ``state``'s decision (a seat to move in a game ``game_id`` of the Tabla family) worth a look,
    and ``played`` (an index into its legal actions), each valued for the mover."""
    single = state.game_state if game_id == "tabla-match" else state  # type: ignore[attr-defined]
    seat = single.current_player
    view = single.view(seat)
    values = Values.at(game_id, view)
    if game_id in td2_bot.SEARCHED and ACCELERATORS is not None and not view.remainder:
        return Valued(td2_bot.two_rolls_ahead(single, values, seat, keep=played), "td2: two rolls ahead")
    if view.later_stages:
        return Valued(td1_bot.through_the_turn(single, values, seat, keep=played), "td1: to the chain's end")
    return Valued(td1_bot.one_roll_ahead(single, values, seat, keep=played), "td1: one roll ahead")
