"""The Python Durak search (``bots.python.durak_search_bot``) on a short clock: it answers in time, however slow
the machine."""

from __future__ import annotations

import itertools

from bots.python import durak_search_bot
from referee.checkbot import SHORT_CLOCK_MS, decision_request, hard_requests


def test_a_clock_too_short_for_one_guess_gets_the_playout_policys_action(monkeypatch):
    """The largest request check-bot sends, on a machine so slow that each look at the clock finds a second gone:
    no guess is searched to its end, and the answer is the greedy policy's, at once and legal."""
    _, game, state = next(hard_requests("durak"))
    request = decision_request(game, state, limit_ms=SHORT_CLOCK_MS)
    looks = itertools.count()
    monkeypatch.setattr(durak_search_bot.time, "perf_counter", lambda: float(next(looks)))
    answer = durak_search_bot.choose(request)
    assert answer.action_id in {action.id for action in request.legal_actions}
    assert answer.comment == "the clock is short: the playout policy's action"
    assert next(looks) == 2  # the deadline set, and the clock read once more, before the first action's playouts
