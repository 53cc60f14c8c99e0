"""A Kafana bot in Python with nothing but the kit: a uniformly random legal action, seeded by the decision so
that equal requests get equal answers. Write your own decision in ``choose``; the view (``request.backgammon``,
``request.durak``, ...) and each action's detail are described in the protocol, ``proto/kafana/v1/bot.proto``."""

import random

from kafana_kit import serve

GAMES = ["durak", "gapa", "gaps", "gjul-bara", "tabla", "tabla-match", "tapa"]


def choose(request) -> int:
    """The id of a random legal action (``request`` is a ``kafana.v1.ActRequest`` message)."""
    rng = random.Random(f"{request.match_id}/{request.game_number}/{request.seat}/{request.decision}")
    return request.legal_actions[rng.randrange(len(request.legal_actions))].id


if __name__ == "__main__":
    serve(choose, name="random-kit", version="1.0", author="Kafana", games=GAMES, action_detail=False)  # ids only
