"""The learned bot of the Tabla family: a value network trained by TD(lambda) self-play picks the play whose
position it values best (0-ply). Networks: ``bots/python/weights/<game>.npz``, made by :mod:`bots.python.td_train`
(the commands and times are in docs/performance.md). In a ``tabla-match`` it plays each game with that game's
network and does not yet weigh the match score. Where the rebuilt position does not list the request's plays
(some Gjul Bara ladder stages and remainders) it plays the heuristic's choice.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: more threads only cost

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402

from bots.python.heuristic_bot import ranked  # noqa: E402
from bots.python.kit import serve  # noqa: E402
from bots.python.positions import state_of  # noqa: E402
from bots.python.td_network import WEIGHTS, Network  # noqa: E402
from referee.games.tabla_family.features import after_features  # noqa: E402
from referee.wire import ActRequest, ActResponse  # noqa: E402

GAMES = ["tabla", "gjul-bara", "tapa", "tabla-match"]


@cache
def network(game_id: str) -> Network:
    """The trained network of a game of the family."""
    return Network.load(WEIGHTS / f"{game_id}.npz")


def choose(request: ActRequest) -> ActResponse:
    """The play whose position the game's network values best for the mover."""
    view = request.view
    ids = {legal.notation: legal.id for legal in request.legal_actions}
    if len(ids) == 1:
        return ActResponse(request.legal_actions[0].id, "forced")
    notations = []
    if len(view.dice) in (2, 4) and not view.remainder:
        _, state = state_of(view)
        notations = [play.notation() for play in state.legal_actions()]
    if sorted(notations) != sorted(ids):
        return ActResponse(ranked(request)[0][1], "heuristic")
    rows, outcomes = after_features(state)
    values = network(view.variant).values(rows)
    for index, points in enumerate(outcomes):
        if points is not None:
            values[index] = points[0] - points[1]
    best = int(np.argmax(values))
    return ActResponse(ids[notations[best]], f"value {values[best]:+.2f}")


if __name__ == "__main__":
    serve(choose, name="td", version="1.0", author="Kafana", games=GAMES)
