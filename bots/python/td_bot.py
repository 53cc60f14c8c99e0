"""The learned bot of the Tabla family: a value network trained by TD(lambda) self-play picks the play whose
position it values best (0-ply). Networks: ``bots/python/weights/<game>.npz``, made by :mod:`bots.python.td_train`
(the commands and times are in docs/performance.md). In a ``tabla-match`` it weighs the score: each game's outcome
network (``<game>-outcomes.npz``: the chances of winning, of winning two points, of losing two) and the match
equity table (:mod:`bots.python.match_equity`) value a play by the chance it leaves of winning the match. In single
games of Tabla and Tapa a race in which both sides bear off is valued exactly by the native core's one-sided
bear-off tables instead of the network. Where the rebuilt position does not list the request's plays (a Gjul Bara
remainder) the positions are those the request's plays make on the view's board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from bots.python.kit import serve
from bots.python.match_equity import equity, outcome_equity
from bots.python.positions import played_features, state_of
from bots.python.td_network import WEIGHTS, Network, OutcomeNetwork
from referee.games import BackgammonView
from referee.games.engine import ACCELERATORS
from referee.games.tabla_family.features import after_features
from referee.wire import ActRequest, ActResponse

GAMES = ["tabla", "gjul-bara", "tapa", "tabla-match"]
RACES = ("tabla", "tapa")
"""The games whose races of both sides bearing off the native core values exactly (``bearoff_values``): in Gjul
Bara doubles climb the ladder."""


@cache
def network(game_id: str) -> Network:
    """The trained network of a game of the family."""
    return Network.load(WEIGHTS / f"{game_id}.npz")


@cache
def outcome_network(game_id: str) -> OutcomeNetwork:
    """The trained outcome network of a game of the family."""
    return OutcomeNetwork.load(WEIGHTS / f"{game_id}-outcomes.npz")


@dataclass(frozen=True)
class Values:
    """How the learned bots value the positions a stage's plays lead to, for the side that makes them: by the points
    the game's network expects, or in a match by the chance to win the match, as 2p − 1 (so that in both one side's
    value is minus the other's). ``away`` is (my points to go, the opponent's, the game's number) in a match."""

    game_id: str
    away: tuple[int, int, int] | None = None

    @classmethod
    def of(cls, request: ActRequest) -> Values:
        """The values for ``request``'s seat: in a ``tabla-match``, by its score."""
        return cls.at(request.game, request.view)

    @classmethod
    def at(cls, game_id: str, view: BackgammonView) -> Values:
        """The values for ``view``'s seat in a game ``game_id``: in a ``tabla-match``, by its score."""
        if game_id != "tabla-match":
            return cls(view.variant)
        score = view.match
        mine, theirs = score.points[view.seat], score.points[1 - view.seat]
        return cls(view.variant, (score.target - mine, score.target - theirs, score.game_number))

    def plays(self, rows: np.ndarray, outcomes: list, mine: bool = True) -> np.ndarray:
        """The value of each row (``after_features``' rows and their outcomes) for the side that played it: this
        seat's (``mine``) or its opponent's."""
        if self.away is None:
            values = network(self.game_id).values(rows)
            if self.game_id in RACES and ACCELERATORS is not None:
                exact = np.frombuffer(ACCELERATORS.bearoff_values(np.ascontiguousarray(rows, dtype="<f4").tobytes()), "<f4")
                values = np.where(np.isnan(exact), values, exact)
        else:
            away, other, number = self.away if mine else (self.away[1], self.away[0], self.away[2])
            values = 2 * outcome_equity(self.chances(rows), away, other, number) - 1
        for index, points in enumerate(outcomes):
            if points is not None:
                values[index] = self.ended(points, mine)
        return values

    def chances(self, rows: np.ndarray) -> np.ndarray:
        """Each row's (P(win), P(win of two), P(loss of two)) for the side that played it: the outcome network's
        two-point chances, and the chance of winning that makes the three add up to the points the points network
        expects (the better judge of the two), so that far from the target the bot plays the points network's
        plays."""
        chances = outcome_network(self.game_id).outcomes(rows)
        points = network(self.game_id).values(rows)
        chances[:, 0] = np.clip((points + 1 - chances[:, 1] + chances[:, 2]) / 2, 0, 1)
        return chances

    def ended(self, points: tuple[int, int], mine: bool = True) -> float:
        """The value of a finished game with ``points`` (the side's first) for that side."""
        if self.away is None:
            return float(points[0] - points[1])
        away, other, number = self.away if mine else (self.away[1], self.away[0], self.away[2])
        return 2 * equity(away - points[0], other - points[1], number + 1) - 1


def choose(request: ActRequest) -> ActResponse:
    """The play whose position is best for the mover (:class:`Values`)."""
    view = request.view
    ids = {legal.notation: legal.id for legal in request.legal_actions}
    if len(ids) == 1:
        return ActResponse(request.legal_actions[0].id, "forced")
    notations = []
    if len(view.dice) in (2, 4) and not view.remainder:
        _, state = state_of(view)
        notations = [play.notation() for play in state.legal_actions()]
    if sorted(notations) == sorted(ids):
        values = Values.of(request).plays(*after_features(state))
        best = int(np.argmax(values))
        return ActResponse(ids[notations[best]], f"value {values[best]:+.2f}")
    legal = request.legal_actions
    values = Values.of(request).plays(*played_features(view, [entry.action.raw for entry in legal]))
    best = int(np.argmax(values))
    return ActResponse(legal[best].id, f"value {values[best]:+.2f} (played on the view)")


if __name__ == "__main__":
    serve(choose, name="td", version="1.0", author="Kafana", games=GAMES)
