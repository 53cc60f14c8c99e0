"""A heuristic Tapa bot: values pins, safety of its lone checkers, made points and the race.

For every legal play it rebuilds the resulting board from the view and the play's steps, scores it, and picks
the best (ties broken by the lowest id, so it is deterministic).
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots.python.kit import serve  # noqa: E402
from referee.games import PIN_MINE, PIN_THEIRS, BackgammonView  # noqa: E402
from referee.wire import ActRequest, ActResponse  # noqa: E402

GAMES = ["tapa"]
WIN = 10_000.0


def _after(view: BackgammonView, raw: tuple) -> tuple[list[int], list[int], set[int], set[int], int]:
    """(mine, theirs, points where theirs is pinned, points where mine is pinned, my off) after the play."""
    mine = [0, *view.mine]
    theirs = [0, *view.theirs]
    pinned_theirs = {p + 1 for p, pin in enumerate(view.pins) if pin == PIN_THEIRS}
    pinned_mine = {p + 1 for p, pin in enumerate(view.pins) if pin == PIN_MINE}
    off = view.my_off
    for src, dst, _die, hit in raw:
        mine[src] -= 1
        if not mine[src]:
            pinned_theirs.discard(src)
        if dst <= 0:
            off += 1
        else:
            mine[dst] += 1
            if hit:
                pinned_theirs.add(dst)
    return mine, theirs, pinned_theirs, pinned_mine, off


def evaluate(view: BackgammonView, raw: tuple) -> float:
    """Score the position after playing ``raw`` (higher is better for the mover)."""
    mine, theirs, pinned_theirs, pinned_mine, off = _after(view, raw)
    if off == 15:
        return WIN
    if 1 in pinned_theirs and not mine[24]:
        return WIN
    score = 0.0
    score -= sum(point * mine[point] for point in range(1, 25))
    score += 6.0 * off
    for point in pinned_theirs:
        score += 12.0 + 0.8 * (25 - point)
        if point == 1:
            score += 60.0
    for point in pinned_mine:
        score -= 12.0 + 0.8 * point
        if point == 24:
            score -= 80.0
    free_shooters = [p for p in range(1, 25) if theirs[p] and p not in pinned_theirs]
    for point in range(1, 25):
        if mine[point] >= 2:
            score += 3.0 if point > 6 else 2.0
        if mine[point] == 1 and point not in pinned_mine and point not in pinned_theirs and theirs[point] == 0:
            shots = sum(theirs[p] > 0 for p in free_shooters if 0 < point - p <= 6)
            indirect = sum(theirs[p] > 0 for p in free_shooters if 6 < point - p <= 12)
            danger = (11 * shots + 3 * indirect) / 36
            weight = 10.0 + 0.8 * point + (70.0 if point == 24 else 0.0)
            score -= danger * weight
    return score


def choose(request: ActRequest) -> ActResponse:
    """The best-scoring legal play."""
    view = request.view
    best_id, best = 0, float("-inf")
    for legal in request.legal_actions:
        value = evaluate(view, legal.action.raw)
        if value > best:
            best_id, best = legal.id, value
    return ActResponse(best_id, f"eval {best:.1f}")


if __name__ == "__main__":
    serve(choose, name="tapa-heuristic", version="1.0", author="Kafana", games=GAMES)
