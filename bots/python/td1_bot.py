"""The learned bot looking one roll ahead (1-ply): of the plays its network values best (:mod:`.td_bot`, 0-ply),
it takes the one whose position is best on average over the opponent's 21 rolls, each answered by the opponent's
own best play by the same network; in a ``tabla-match`` every position is valued by the chance to win the match
(:class:`.td_bot.Values`). In Gjul Bara a double from the ladder's roll on is a chain of stages the same side
plays, with no chance between them: at a stage of its own chain the bot follows each of the stage's best plays
through the chain's later stages (and a rest handed to the opponent, which the opponent plays) and takes the play
whose turn ends best; an opponent's reply that is a chain is followed through it the same way. On a remainder,
wherever the rebuilt position does not list the request's plays, and when the move must be made in less than
:data:`MIN_LIMIT_MS`, it plays as td_bot.
"""

from __future__ import annotations

import numpy as np

from bots.python import td_bot
from bots.python.kit import serve
from bots.python.positions import rebuilt
from bots.python.td_bot import Values
from referee.games import CHANCE, State
from referee.games.tabla_family.features import after_features, encode
from referee.wire import ActRequest, ActResponse

WIDTH = 6
"""How many of the 0-ply best plays are searched one roll deeper."""
MIN_LIMIT_MS = 2000
"""The least time for the move in which the bot looks ahead (usually 10 ms; a stage of hundreds of plays, or a
roll ahead with doubles, takes more)."""
CHAIN_WIDTH = 3
"""How many of each stage's best plays (0-ply) are followed through the bot's own Gjul Bara ladder chain (an
opponent's chain, one roll ahead: its best play of each stage)."""


class _Replies:
    """The opponent's replies to every roll after each searched play of ``seat``: the positions of the one-stage
    replies valued in one batch, a reply that is a ladder chain followed through it."""

    def __init__(self, judge: Values, seat: int) -> None:
        self.judge = judge
        self.seat = seat
        self.rows: list[np.ndarray] = []
        self.size = 0
        self.entries: list[tuple[int, float, int, int, list, float | None]] = []
        """(play index, probability, first row, end row, outcomes of the rows, or the value for ``seat`` when it
        is known without the batch)"""

    def add(self, index: int, state: State) -> None:
        """The replies to each roll of ``state`` (after the seat's play ``index``, the opponent to roll)."""
        mover = self.seat
        for roll, probability in state.chance_outcomes():
            after = state.clone()
            after.apply(roll)
            if after.is_terminal():  # the stuck guard
                points = after.outcome().points
                self._known(index, probability, self.judge.ended((points[mover], points[1 - mover])))
            elif roll.is_double and after.current_player == 1 - mover and after.view(1 - mover).later_stages:
                replies = through_the_turn(after, self.judge, mover, width=1)
                self._known(index, probability, -max(replies.values()))
            elif after.current_player == 1 - mover:
                rows, outcomes = after_features(after)
                self._rows(index, probability, rows, outcomes)
            else:  # the opponent could not play: it is as if it had played and left this position
                board, other, pins, other_pins = after.sides(1 - mover)
                self._rows(index, probability, np.array([encode((board, other), (pins, other_pins))], dtype=np.float32),
                           [None])

    def _known(self, index: int, probability: float, value: float) -> None:
        self.entries.append((index, probability, 0, 0, [], value))

    def _rows(self, index: int, probability: float, rows: np.ndarray, outcomes: list) -> None:
        self.entries.append((index, probability, self.size, self.size + len(rows), outcomes, None))
        self.rows.append(rows)
        self.size += len(rows)

    def expected(self) -> dict[int, float]:
        """Each searched play's value for the seat, averaged over the rolls (the opponent's best reply each)."""
        every = [one for entry in self.entries for one in entry[4]]
        replies = self.judge.plays(np.concatenate(self.rows), every, mine=False) if self.rows else np.empty(0)
        totals: dict[int, float] = {}
        for index, probability, first, end, _, known in self.entries:
            value = known if known is not None else -float(np.max(replies[first:end]))
            totals[index] = totals.get(index, 0.0) + probability * value
        return totals


def _searched(values: np.ndarray, width: int, keep: int | None) -> list[int]:
    """The indices of the ``width`` best ``values``, best first, and ``keep`` after them when it is not one."""
    best = [int(index) for index in np.argsort(-values)[:width]]
    return best + [keep] if keep is not None and keep not in best else best


def through_the_turn(
    state: State, judge: Values, seat: int, width: int = CHAIN_WIDTH, keep: int | None = None
) -> dict[int, float]:
    """The ``width`` plays of the stage at hand that ``judge`` values best (by index into its legal actions), each
    valued for the side that plays it where the turn ends: the stages that follow before the next roll (a Gjul
    Bara chain's, the same side's; a rest handed over, the opponent's) are each played by the best of their own
    ``width`` best plays. ``seat`` is the requesting seat, whose side ``judge`` values as its own. The play ``keep``
    of the stage at hand (an index) is followed too when given."""
    player = state.current_player
    values = judge.plays(*after_features(state), mine=player == seat)
    plays = state.legal_actions()
    followed = {}
    for index in _searched(values, width, keep):
        after = state.clone()
        after.apply(plays[index])
        if after.is_terminal() or after.current_player == CHANCE:
            followed[int(index)] = float(values[index])
        else:
            deeper = max(through_the_turn(after, judge, seat, width).values())
            followed[int(index)] = deeper if after.current_player == player else -deeper
    return followed


def one_roll_ahead(state: State, judge: Values, seat: int, keep: int | None = None) -> dict[int, float]:
    """The :data:`WIDTH` plays ``judge`` values best (by index), and the play ``keep`` (an index) too when given,
    each valued for ``seat`` one roll ahead: over the opponent's rolls where the play ends the turn; where it hands a
    rest of a ladder chain over, through it."""
    values = judge.plays(*after_features(state))
    plays = state.legal_actions()
    replies = _Replies(judge, seat)
    ahead = {}
    for index in _searched(values, WIDTH, keep):
        after = state.clone()
        after.apply(plays[index])
        if after.is_terminal():
            ahead[int(index)] = float(values[index])
        elif after.current_player == CHANCE:
            replies.add(int(index), after)
        else:
            deeper = max(through_the_turn(after, judge, seat).values())
            ahead[int(index)] = deeper if after.current_player == seat else -deeper
    return replies.expected() | ahead


def choose(request: ActRequest) -> ActResponse:
    """The play that is best one roll ahead, or at the end of the bot's Gjul Bara chain (td_bot's choice where the
    bot does not look ahead)."""
    view = request.view
    short = request.clock.move_limit_ms < MIN_LIMIT_MS
    if len(request.legal_actions) == 1 or short or view.remainder or len(view.dice) not in (2, 4):
        return td_bot.choose(request)
    found = rebuilt(request)
    if found is None:
        return td_bot.choose(request)
    state, plays, ids = found
    judge = Values.of(request)
    if view.later_stages:
        ahead, where = through_the_turn(state, judge, view.seat), "at the chain's end"
    else:
        ahead, where = one_roll_ahead(state, judge, view.seat), "one roll ahead"
    best = max(ahead, key=ahead.__getitem__)
    return ActResponse(ids[plays[best].notation()], f"value {ahead[best]:+.2f} {where}")


if __name__ == "__main__":
    serve(choose, name="td1", version="1.0", author="Kafana", games=td_bot.GAMES)
