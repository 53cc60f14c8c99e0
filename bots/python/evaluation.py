"""Position evaluation for the Tabla family, shared by the heuristic and expectimax bots.

Everything works from a seat's view: :func:`after` plays a legal action's steps on a plain copy of the board, and
:func:`evaluate` scores a board for the seat that owns it (higher is better).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.games import PIN_MINE, PIN_THEIRS, BackgammonView

WIN = 10_000.0
BAR = 25


@dataclass
class Board:
    """A board seen from one seat: index 0 = off, 1..24 the seat's points, 25 the bar; ``theirs`` in the same
    numbering (``theirs[25]`` their bar, ``theirs[0]`` their off)."""

    variant: str
    mine: list[int]
    theirs: list[int]
    pinned_theirs: set[int]
    pinned_mine: set[int]


def board_of(view: BackgammonView) -> Board:
    """The board of ``view``."""
    return Board(
        view.variant,
        [view.my_off, *view.mine, view.my_bar],
        [view.their_off, *view.theirs, view.their_bar],
        {p + 1 for p, pin in enumerate(view.pins) if pin == PIN_THEIRS},
        {p + 1 for p, pin in enumerate(view.pins) if pin == PIN_MINE},
    )


def after(view: BackgammonView, raw: tuple) -> Board:
    """The board after playing the steps ``raw`` (src, dst, die, hit) from ``view``."""
    board = board_of(view)
    for src, dst, _die, hit in raw:
        board.mine[src] -= 1
        if not board.mine[src]:
            board.pinned_theirs.discard(src)
        board.mine[max(dst, 0)] += 1
        if board.variant == "tapa" and dst > 0 and board.theirs[dst]:
            board.pinned_theirs.add(dst)  # pinned, or pinned again after a step of the play freed it
        elif hit and dst > 0:
            board.theirs[dst] -= 1
            board.theirs[BAR] += 1
    return board


def evaluate(board: Board) -> float:
    """The value of ``board`` for the seat it is seen from."""
    if board.mine[0] == 15:
        return WIN
    if board.variant == "tapa":
        return _tapa(board)
    if board.variant == "tabla":
        return _tabla(board)
    return _gjul_bara(board)


def _their_pips_opposite(board: Board) -> int:
    return sum((25 - q) * board.theirs[q] for q in range(1, 25)) + 25 * board.theirs[BAR]


def _tabla(board: Board) -> float:
    mine, theirs = board.mine, board.theirs
    my_pips = sum(q * mine[q] for q in range(1, 26))
    score = float(_their_pips_opposite(board) - my_pips) + 4.0 * mine[0] + 6.0 * theirs[BAR]
    contact = max((q for q in range(1, 26) if mine[q]), default=0) > min(
        (q for q in range(1, 25) if theirs[q]), default=25 if not theirs[BAR] else 0
    )
    if not contact:
        return score + 2.0 * mine[0]
    shooters = [q for q in range(1, 25) if theirs[q]]
    for point in range(1, 25):
        if mine[point] >= 2:
            score += 5.0 if point <= 7 else 2.5
        elif mine[point] == 1:
            shots = sum(1 for r in shooters if 0 < point - r <= 6) + (point <= 6 and theirs[BAR] > 0)
            indirect = sum(1 for r in shooters if 6 < point - r <= 12)
            score -= (11 * shots + 3 * indirect) / 36 * (25 - point + 10)
    return score


def _gjul_bara(board: Board) -> float:
    mine, theirs = board.mine, board.theirs
    my_pips = sum(q * mine[q] for q in range(1, 25))
    their_pips = sum((q + 12 if q <= 12 else q - 12) * theirs[q] for q in range(1, 25))
    score = float(their_pips - my_pips) + 4.0 * mine[0]
    run = best_run = 0
    for point in range(1, 25):
        if mine[point]:
            run += 1
            best_run = max(best_run, run)
        else:
            run = 0
    occupied = sum(1 for point in range(1, 25) if mine[point])
    return score + 2.0 * occupied + 3.0 * best_run


def _tapa(board: Board) -> float:
    mine, theirs = board.mine, board.theirs
    if 1 in board.pinned_theirs and not mine[24]:
        return WIN
    score = -float(sum(q * mine[q] for q in range(1, 25))) + 6.0 * mine[0]
    for point in board.pinned_theirs:
        score += 12.0 + 0.8 * (25 - point) + (60.0 if point == 1 else 0.0)
    for point in board.pinned_mine:
        score -= 12.0 + 0.8 * point + (80.0 if point == 24 else 0.0)
    shooters = [q for q in range(1, 25) if theirs[q] and q not in board.pinned_theirs]
    for point in range(1, 25):
        if mine[point] >= 2:
            score += 3.0 if point > 6 else 2.0
        free_blot = point not in board.pinned_mine and point not in board.pinned_theirs and not theirs[point]
        if mine[point] == 1 and free_blot:
            shots = sum(1 for r in shooters if 0 < point - r <= 6)
            indirect = sum(1 for r in shooters if 6 < point - r <= 12)
            weight = 10.0 + 0.8 * point + (70.0 if point == 24 else 0.0)
            score -= (11 * shots + 3 * indirect) / 36 * weight
    return score
