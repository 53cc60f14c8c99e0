"""A heuristic bot for the Tabla family (tabla, gjul-bara, tapa and the tabla-match), Durak, Gapa and Gaps.

Durak: see :mod:`bots.python.durak_heuristic`; Gapa: :mod:`bots.python.gapa_greedy`. Gaps: the search of
:mod:`bots.python.gaps_search_bot` with a small budget (a short look ahead for each round). The Tabla family: for
every legal play it rebuilds the resulting board from the view and the play's steps, scores it with
:mod:`bots.python.evaluation` (race, safety of lone checkers, made points and primes, hits and pins), and picks
the best; ties go to the lowest id, so it is deterministic.
"""

from __future__ import annotations

from bots.python import durak_heuristic, gapa_greedy
from bots.python.evaluation import after, evaluate
from bots.python.gaps_search_bot import GapsPlayer
from bots.python.kit import serve
from referee.wire import ActRequest, ActResponse

GAMES = ["tabla", "gjul-bara", "tapa", "tabla-match", "durak", "gaps", "gapa"]
GAPS = GapsPlayer(nodes=2_000)


def ranked(request: ActRequest) -> list[tuple[float, int]]:
    """(value, id) of every legal action, best first."""
    view = request.view
    scored = [(evaluate(after(view, legal.action.raw)), -legal.id) for legal in request.legal_actions]
    scored.sort(reverse=True)
    return [(value, -negative_id) for value, negative_id in scored]


def choose(request: ActRequest) -> ActResponse:
    """The best-scoring legal action."""
    if request.game == "durak":
        return durak_heuristic.choose(request)
    if request.game == "gapa":
        return gapa_greedy.choose(request)
    if request.game == "gaps":
        legal = [entry.action for entry in request.legal_actions]
        return ActResponse(GAPS.decide(request.view, legal, request.clock.move_limit_ms / 2000))
    value, action_id = ranked(request)[0]
    return ActResponse(action_id, f"eval {value:.1f}")


if __name__ == "__main__":
    serve(choose, name="heuristic", version="1.0", author="Kafana", games=GAMES)
