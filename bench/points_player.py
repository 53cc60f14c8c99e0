"""``td_bot`` playing every game of a match for its points alone, as it did before it weighed the score: the
baseline of the score-weighing bot (``python bench/strength.py td_bot points --game tabla-match``)."""

from __future__ import annotations

import dataclasses

from bots.python import td_bot
from referee.wire import ActRequest, ActResponse


def choose(request: ActRequest) -> ActResponse:
    """td_bot's play for the game alone: the request as if the game were not part of a match."""
    return td_bot.choose(dataclasses.replace(request, game=request.view.variant))
