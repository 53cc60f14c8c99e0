"""The random bot: picks a uniformly random legal action. Deterministic for a given match, seat and decision."""

from __future__ import annotations

import random

from bots.python.kit import serve
from referee.games import GAMES as ENGINES
from referee.wire import ActRequest

GAMES = sorted(ENGINES)


def choose(request: ActRequest) -> int:
    """A random legal id, seeded by (match, seat, decision) so that equal games get equal answers."""
    rng = random.Random(f"{request.match_id}/{request.game_number}/{request.seat}/{request.decision}")
    return rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    serve(choose, name="random", version="1.0", author="Kafana", games=GAMES, action_detail=False)  # ids only
