"""An independent, slow step enumerator for the Tabla family, for the tests: plain lists, every dice order, no
deduplication tricks. It reads only a seat's view and knows rules/tabla.md §1–§4; nothing of the engines."""

from __future__ import annotations

from referee.games import PIN_MINE, BackgammonView

BAR = 25


def end_positions(view: BackgammonView, dice: tuple[int, ...], blocks_all: bool = False) -> set[tuple]:
    """The legal end positions for ``dice``: (my off, my points 1..25, their points 1..24, their bar)."""
    game = view.variant
    pinned = {p + 1 for p, pin in enumerate(view.pins) if pin == PIN_MINE}
    start_mine = [view.my_off, *view.mine, view.my_bar]
    start_theirs = [0, *view.theirs]

    def closed(theirs: list[int], point: int) -> bool:
        if game == "gjul-bara":
            return theirs[point] >= 1
        return theirs[point] >= 2 or point in pinned

    def terminal(mine: list[int]) -> bool:
        if mine[0] == 15:
            return True
        if game == "tapa":
            return start_theirs[1] >= 1 and mine[1] >= 1 and (mine[24] == 0 or 24 in pinned)
        return False

    def steps(mine: list[int], theirs: list[int], die: int):
        if mine[BAR]:
            if not closed(theirs, BAR - die):
                yield BAR, BAR - die
            return
        home = all(mine[p] == 0 for p in range(7, 26)) and not (blocks_all and pinned)
        for src in range(1, 25):
            if mine[src] == 0 or src in pinned:
                continue
            dst = src - die
            if dst >= 1:
                if not closed(theirs, dst):
                    yield src, dst
            elif home and (dst == 0 or all(mine[p] == 0 for p in range(src + 1, 25))):
                yield src, 0

    results: list[tuple[tuple, int, int]] = []  # (end, dice used, first die)

    def walk(mine: list[int], theirs: list[int], their_bar: int, left: tuple[int, ...], used: int, first: int):
        moved = False
        for index, die in enumerate(left):
            if index and die == left[index - 1]:
                continue
            for src, dst in steps(mine, theirs, die):
                moved = True
                nxt, opp, bar = list(mine), list(theirs), their_bar
                nxt[src] -= 1
                nxt[dst] += 1
                if game == "tabla" and dst and opp[dst] == 1:
                    opp[dst] = 0
                    bar += 1
                rest = left[:index] + left[index + 1 :]
                if terminal(nxt):
                    results.append(((tuple(nxt), tuple(opp), bar), len(dice), first or die))
                else:
                    walk(nxt, opp, bar, rest, used + 1, first or die)
        if not moved and used:
            results.append(((tuple(mine), tuple(theirs), their_bar), used, first))

    walk(start_mine, start_theirs, view.their_bar, tuple(sorted(dice, reverse=True)), 0, 0)
    if not results:
        return set()
    most = max(used for _, used, _ in results)
    best = [(end, first) for end, used, first in results if used == most]
    if most == 1 and len(dice) == 2 and dice[0] != dice[1]:
        high = max(dice)
        if any(first == high for _, first in best):
            best = [(end, first) for end, first in best if first == high]
    return {end for end, _ in best}


def engine_end(view: BackgammonView) -> tuple:
    """The same key as :func:`end_positions`, read from the mover's view after a play."""
    return ((view.my_off, *view.mine, view.my_bar), (0, *view.theirs), view.their_bar)
