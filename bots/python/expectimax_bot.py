"""A 1-ply expectimax bot for the Tabla family: it looks at the opponent's reply to each of its best plays.

For the few plays the heuristic ranks highest, it rebuilds the position in an engine, and for each of the 21
rolls the opponent may throw it finds the opponent's best reply by the same evaluation; it picks the play whose
expected value after the reply is best. Ladder stages and remainders of Gjul Bara are left to the heuristic.

At Durak the expectation is over the hidden cards instead: the determinized search of ``durak_search_bot`` on a
small budget (four guesses, one playout per action in each), a quicker and weaker player than that bot.
"""

from __future__ import annotations

import random

from bots.python.durak_search_bot import search as durak_search
from bots.python.evaluation import WIN, after, board_of, evaluate
from bots.python.heuristic_bot import ranked
from bots.python.kit import serve
from bots.python.positions import state_of
from referee.games import CHANCE, DurakView
from referee.wire import ActRequest, ActResponse

GAMES = ["tabla", "gjul-bara", "tapa", "tabla-match", "durak"]
DURAK_GUESSES = 4
"""Guesses of the hidden cards per Durak decision."""

CANDIDATES = 4
"""How many of the heuristic's best plays are searched."""


def _reply_value(state, me: int) -> float:
    """The expected value for ``me`` after the opponent's roll and best reply."""
    if state.is_terminal():
        return WIN if state.outcome().winner == me else -WIN
    total = 0.0
    for roll, probability in state.chance_outcomes():
        trial = state.clone()
        trial.apply(roll)
        if trial.current_player == CHANCE or trial.is_terminal():
            value = evaluate(board_of(trial.view(me))) if not trial.is_terminal() else -WIN
        else:
            seen = trial.view(trial.current_player)
            value = -max(evaluate(after(seen, action.raw)) for action in trial.legal_actions())
        total += probability * value
    return total


def choose(request: ActRequest) -> ActResponse:
    """The candidate play with the best expected value after the opponent's reply (Durak: see the module)."""
    view = request.view
    if isinstance(view, DurakView):
        rng = random.Random(f"{request.match_id}/{request.game_number}/{request.seat}/{request.decision}")
        action_id, comment = durak_search(request, rng, worlds_at_most=DURAK_GUESSES, rollouts=1)
        return ActResponse(action_id, comment)
    order = ranked(request)
    if view.later_stages or view.remainder or len(view.dice) not in (2, 4) or len(order) == 1:
        return ActResponse(order[0][1], "heuristic")
    game, state = state_of(view)
    best_id, best = order[0][1], -float("inf")
    for _, action_id in order[:CANDIDATES]:
        trial = state.clone()
        trial.apply(game.parse_action(request.legal_actions[action_id].notation, trial))
        value = _reply_value(trial, view.seat)
        if value > best:
            best_id, best = action_id, value
    return ActResponse(best_id, f"expect {best:.1f}")


if __name__ == "__main__":
    serve(choose, name="expectimax", version="1.0", author="Kafana", games=GAMES)
