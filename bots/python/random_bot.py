"""The random bot: picks a uniformly random legal action. Deterministic for a given match, seat and decision."""

from __future__ import annotations

import random
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots.python.kit import serve  # noqa: E402
from referee.games import GAMES as ENGINES  # noqa: E402
from referee.wire import ActRequest  # noqa: E402

GAMES = sorted(ENGINES)


def choose(request: ActRequest) -> int:
    """A random legal id, seeded by (match, seat, decision) so that equal games get equal answers."""
    rng = random.Random(f"{request.match_id}/{request.game_number}/{request.seat}/{request.decision}")
    return rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    serve(choose, name="random", version="1.0", author="Kafana", games=GAMES, action_detail=False)  # ids only
