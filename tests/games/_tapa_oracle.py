"""An independent, slow Tapa step enumerator for the tests: plain lists, every dice order, no deduplication
tricks. It knows the rules of rules/tabla.md §1 and §4 and nothing of the engine's packed boards."""

from __future__ import annotations

from referee.games import PIN_MINE, BackgammonView


def end_positions(view: BackgammonView, dice: tuple[int, ...], blocks_all: bool = False) -> set[tuple[int, ...]]:
    """The set of legal end positions (off, points 1..24 of the mover) for ``dice`` from ``view``."""
    pinned = {p + 1 for p, pin in enumerate(view.pins) if pin == PIN_MINE}
    theirs = [0, *view.theirs]
    start = [view.my_off, *view.mine]

    def closed(point: int) -> bool:
        return theirs[point] >= 2 or point in pinned

    def terminal(board: list[int]) -> bool:
        if board[0] == 15:
            return True
        return theirs[1] >= 1 and board[1] >= 1 and (board[24] == 0 or 24 in pinned)

    def steps(board: list[int], die: int):
        home = all(board[p] == 0 for p in range(7, 25)) and not (blocks_all and pinned)
        for src in range(1, 25):
            if board[src] == 0 or src in pinned:
                continue
            dst = src - die
            if dst >= 1:
                if not closed(dst):
                    yield src, dst
            elif home and (dst == 0 or all(board[p] == 0 for p in range(src + 1, 25))):
                yield src, 0

    results: list[tuple[tuple[int, ...], int, int]] = []  # (end, dice used, first die)

    def walk(board: list[int], left: tuple[int, ...], used: int, first: int) -> None:
        moved = False
        for index, die in enumerate(left):
            if index and die == left[index - 1]:
                continue
            for src, dst in steps(board, die):
                moved = True
                nxt = list(board)
                nxt[src] -= 1
                nxt[dst] += 1
                rest = left[:index] + left[index + 1 :]
                if terminal(nxt):
                    results.append((tuple(nxt), len(dice), first or die))
                else:
                    walk(nxt, rest, used + 1, first or die)
        if not moved and used:
            results.append((tuple(board), used, first))

    walk(start, tuple(dice), 0, 0)
    if not results:
        return set()
    most = max(used for _, used, _ in results)
    best = [(end, first) for end, used, first in results if used == most]
    if most == 1 and len(dice) == 2 and dice[0] != dice[1]:
        high = max(dice)
        if any(first == high for _, first in best):
            best = [(end, first) for end, first in best if first == high]
    return {end for end, _ in best}
