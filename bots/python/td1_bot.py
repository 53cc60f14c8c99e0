"""The learned bot looking one roll ahead (1-ply): of the plays its network values best (:mod:`.td_bot`, 0-ply),
it takes the one whose position is best on average over the opponent's 21 rolls, each answered by the opponent's
own best play by the same network; in a ``tabla-match`` every position is valued by the chance to win the match
(:class:`.td_bot.Values`). Tabla and Tapa (one stage a roll). In Gjul Bara a double from the ladder's roll on is
a chain of stages the same side plays, with no chance between them: there the bot follows each of a stage's best
plays through the chain's later stages (and a rest handed to the opponent, which the opponent plays) and takes
the play whose turn ends best. Elsewhere in Gjul Bara, wherever the rebuilt position does not list the request's
plays, and when the move must be made in less than :data:`MIN_LIMIT_MS`, it plays as td_bot.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402

from bots.python import td_bot  # noqa: E402
from bots.python.kit import serve  # noqa: E402
from bots.python.positions import state_of  # noqa: E402
from bots.python.td_bot import Values  # noqa: E402
from referee.games import CHANCE, State  # noqa: E402
from referee.games.tabla_family.features import after_features, encode  # noqa: E402
from referee.wire import ActRequest, ActResponse  # noqa: E402

WIDTH = 6
"""How many of the 0-ply best plays are searched one roll deeper."""
MIN_LIMIT_MS = 2000
"""The least time for the move in which the bot looks ahead (usually 10 ms; a stage of hundreds of plays, or a
roll ahead with doubles, takes more)."""
LOOKS_AHEAD = ("tabla", "tapa")
"""The games with one stage a roll, where the opponent's reply to each roll is one play."""
CHAIN_WIDTH = 3
"""How many of each stage's best plays (0-ply) are followed through a Gjul Bara ladder chain."""


class _Replies:
    """The opponent's replies to every roll after each searched play, their positions valued in one batch."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []
        self.size = 0
        self.entries: list[tuple[int, float, int, int, list | None, tuple[int, int]]] = []
        """(play index, probability, first row, end row, outcomes of the rows, or None when the game ended before
        the reply, then the mover's and the opponent's points)"""

    def add(self, index: int, state: State, mover: int) -> None:
        """The replies to each roll of ``state`` (after ``mover``'s play ``index``, the opponent to roll)."""
        for roll, probability in state.chance_outcomes():
            after = state.clone()
            after.apply(roll)
            if after.current_player == 1 - mover:
                rows, outcomes = after_features(after)
                self._rows(index, probability, rows, outcomes)
            elif after.is_terminal():  # the stuck guard
                points = after.outcome().points
                self.entries.append((index, probability, 0, 0, None, (points[mover], points[1 - mover])))
            else:  # the opponent could not play: it is as if it had played and left this position
                boards = (after._boards[1 - mover], after._boards[mover])
                pins = (after._pins[1 - mover], after._pins[mover])
                self._rows(index, probability, np.array([encode(boards, pins)], dtype=np.float32), [None])

    def _rows(self, index: int, probability: float, rows: np.ndarray, outcomes: list) -> None:
        self.entries.append((index, probability, self.size, self.size + len(rows), outcomes, (0, 0)))
        self.rows.append(rows)
        self.size += len(rows)

    def expected(self, values: Values) -> dict[int, float]:
        """Each searched play's value for the mover, averaged over the rolls (the opponent's best reply each)."""
        every = [one for entry in self.entries if entry[4] is not None for one in entry[4]]
        replies = values.plays(np.concatenate(self.rows), every, mine=False) if self.rows else np.empty(0)
        totals: dict[int, float] = {}
        for index, probability, first, end, outcomes, points in self.entries:
            value = values.ended(points) if outcomes is None else -float(np.max(replies[first:end]))
            totals[index] = totals.get(index, 0.0) + probability * value
        return totals


def through_the_turn(state: State, judge: Values, seat: int) -> dict[int, float]:
    """The :data:`CHAIN_WIDTH` plays of the stage at hand that ``judge`` values best (by index into its legal
    actions), each valued for the side that plays it where the turn ends: the stages that follow before the next
    roll (a Gjul Bara chain's, the same side's; a rest handed over, the opponent's) are each played by the best of
    their own followed plays. ``seat`` is the requesting seat, whose side ``judge`` values as its own."""
    player = state.current_player
    values = judge.plays(*after_features(state), mine=player == seat)
    plays = state.legal_actions()
    followed = {}
    for index in np.argsort(-values)[:CHAIN_WIDTH]:
        after = state.clone()
        after.apply(plays[index])
        if after.is_terminal() or after.current_player == CHANCE:
            followed[int(index)] = float(values[index])
        else:
            deeper = max(through_the_turn(after, judge, seat).values())
            followed[int(index)] = deeper if after.current_player == player else -deeper
    return followed


def _through_the_chain(request: ActRequest) -> ActResponse:
    """The play of a Gjul Bara ladder stage whose chain ends best (td_bot's where the rebuilt chain differs)."""
    _, state = state_of(request.view, request.options, ladder=True)
    plays = state.legal_actions()
    ids = {legal.notation: legal.id for legal in request.legal_actions}
    if sorted(play.notation() for play in plays) != sorted(ids):
        return td_bot.choose(request)
    followed = through_the_turn(state, Values.of(request), request.view.seat)
    best = max(followed, key=followed.__getitem__)
    return ActResponse(ids[plays[best].notation()], f"value {followed[best]:+.2f} at the chain's end")


def choose(request: ActRequest) -> ActResponse:
    """The play that is best one roll ahead, or at the end of a Gjul Bara chain (td_bot's choice elsewhere)."""
    view = request.view
    short = request.clock.move_limit_ms < MIN_LIMIT_MS
    if len(request.legal_actions) == 1 or short:
        return td_bot.choose(request)
    if view.later_stages and not view.remainder:
        return _through_the_chain(request)
    if view.variant not in LOOKS_AHEAD:
        return td_bot.choose(request)
    _, state = state_of(view)
    plays = list(state.legal_actions())
    ids = {legal.notation: legal.id for legal in request.legal_actions}
    if sorted(play.notation() for play in plays) != sorted(ids):
        return td_bot.choose(request)
    judge = Values.of(request)
    values = judge.plays(*after_features(state))
    mover = state.current_player
    replies = _Replies()
    finished = {}
    for index in np.argsort(-values)[:WIDTH]:
        after = state.clone()
        after.apply(plays[index])
        if after.is_terminal():
            finished[int(index)] = float(values[index])
        else:
            replies.add(int(index), after, mover)
    ahead = replies.expected(judge) | finished
    best = max(ahead, key=ahead.__getitem__)
    best_value = ahead[best]
    return ActResponse(ids[plays[best].notation()], f"value {best_value:+.2f} one roll ahead")


if __name__ == "__main__":
    serve(choose, name="td1", version="1.0", author="Kafana", games=td_bot.GAMES)
