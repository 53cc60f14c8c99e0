"""A GNU Backgammon seat for the Tabla benchmarks: gnubg's 0-ply evaluation picks the play (bench only: GPL, not
shipped; ``pip install -e '.[bench]'`` brings the ``gnubg`` wheel).

Tabla is backgammon without the cube and without a triple game (docs/rules: mars, the loser has none off, is 2
points). So for each legal play of the request the seat sets up the position after it, with the opponent on roll,
has gnubg evaluate it cubeless at 0 ply, and takes the play that leaves the opponent the least: win + gammon
(gnubg's gammons include its backgammons, which Tabla scores as mars) minus loss + lost gammon. The plays are the
referee's, so the seat never plays what Tabla forbids; a play that bears off the last checker is taken at once.
"""

from __future__ import annotations

import gnubg

from referee.wire import ActRequest

_CUBELESS = gnubg.cubeinfo()
_ZERO_PLY = gnubg.evalcontext(0, 0, 1, 0, 0.0)
"""Cubeless, 0 ply, deterministic, no pruning, no noise."""
BAR = 25


def _after(request: ActRequest, steps) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """gnubg's board after ``steps`` (board[1] on roll: the opponent; each side's points 1..24 in its own numbering,
    index 24 its bar), or None when the play bears off the mover's last checker."""
    view = request.view
    mine = [0, *view.mine, view.my_bar]  # mine[p]: the mover's checkers on its point p (25: the bar)
    theirs = [0, *view.theirs]  # theirs[p]: the opponent's checkers on the mover's point p
    their_bar = view.their_bar
    for src, dst, _die, hit in steps:
        mine[src] -= 1
        if dst > 0:
            mine[dst] += 1
        if hit:
            theirs[dst] -= 1
            their_bar += 1
    if sum(mine) == 0:
        return None
    opponent = tuple(theirs[25 - q] for q in range(1, 25)) + (their_bar,)
    return tuple(mine[1:25]) + (mine[BAR],), opponent


def _left_to_opponent(board) -> float:
    win, gammon, _, lost_gammon, _, _ = gnubg.evaluate(board, _CUBELESS, _ZERO_PLY)
    return win + gammon - (1 - win) - lost_gammon


def choose(request: ActRequest) -> int:
    """The id of the play after which gnubg gives the opponent the least."""
    if request.game != "tabla":
        raise ValueError(f"the gnubg seat plays tabla only, not {request.game!r}")
    best, best_value = 0, float("inf")
    for legal in request.legal_actions:
        board = _after(request, legal.action.raw)
        if board is None:
            return legal.id
        value = _left_to_opponent(board)
        if value < best_value:
            best, best_value = legal.id, value
    return best
