"""A search bot for Gaps (Montana): at the start of each round it searches the round's moves depth first (with a
table of the grids already seen) for a win, else for the most cards in place, and then follows the best line it
found; when the line is played out it ends the round.

Pruning: a card already in place never moves (a row's first card therefore never moves from one first column to
another, which can miss the wins that need such a move). Moves that extend a row's run are tried first.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots.python.kit import serve  # noqa: E402
from referee.games import GAP, GapsMove, GapsView  # noqa: E402
from referee.wire import ActRequest, ActResponse  # noqa: E402

NODES = 100_000
"""Positions searched per round at most."""

Move = tuple[int, int, int]
"""(card, from place, to place)."""


class Round:
    """The search of one round, from the grid of a view (and its rows' runs, which the view gives)."""

    def __init__(self, view: GapsView) -> None:
        self.rows, self.columns, self.length = view.rows, view.columns, view.row_length
        self.start_runs = list(view.runs)
        self.aces_lead = view.row_length == 13
        self.head = 12 if self.aces_lead else 0  # the rank index (card % 13) of a row's first card
        self.goal = view.rows * view.row_length

    def follower(self, card: int) -> int:
        """The card that may follow ``card`` in a row, or -1."""
        rank = card % 13
        if rank == 12:
            return card - 12 if self.aces_lead else -1
        return card + 1 if rank < 11 else -1

    def search(self, grid: list[int], nodes: int = NODES, seconds: float = 60.0) -> tuple[int, list[Move]]:
        """The most cards in place found within ``nodes`` positions and ``seconds`` (a win stops the search), and
        the line to it.

        Depth first, with the gaps, the cards' places and the rows' runs kept up to date move by move (a card in
        place never moves, so a run only grows while the search goes down). Moves that extend a run come first.
        """
        columns, length, head, follower = self.columns, self.length, self.head, self.follower
        runs = list(self.start_runs)
        gaps = [place for place, card in enumerate(grid) if card == GAP]
        where: dict[int, list[int]] = {}
        for place, card in enumerate(grid):
            if card != GAP and place % columns >= runs[place // columns]:
                where.setdefault(card, []).append(place)
        heads = [card for card in set(grid) if card != GAP and card % 13 == head]

        def moves() -> list[Move]:
            first: list[Move] = []
            rest: list[Move] = []
            for dst in gaps:
                row, column = divmod(dst, columns)
                if column == 0:  # a row's first card, unless it already heads a row
                    found = [(card, src) for card in heads for src in where.get(card, ()) if src % columns]
                else:
                    left = grid[dst - 1]
                    wanted = follower(left) if left != GAP else -1
                    found = [(wanted, src) for src in where.get(wanted, ())]
                target = first if runs[row] == column else rest
                target.extend((card, src, dst) for card, src in found)
            return first + rest

        placed = sum(runs)
        best_placed, best_line = placed, []
        seen = {tuple(grid)}
        line: list[Move] = []
        undo: list[tuple[int, int, int]] = []  # per move on the line: its row's run before, the gap's slot
        stack = [iter(moves())]
        deadline = time.perf_counter() + seconds
        while stack and nodes > 0:
            move = next(stack[-1], None)
            if move is None:
                stack.pop()
                if line:
                    card, src, dst = line.pop()
                    run, slot = undo.pop()
                    row = dst // columns
                    if dst % columns >= runs[row]:
                        where[card].remove(dst)
                    placed -= runs[row] - run
                    runs[row] = run
                    grid[src], grid[dst] = card, GAP
                    gaps[slot] = dst
                    where[card].append(src)
                continue
            card, src, dst = move
            grid[dst], grid[src] = card, GAP
            key = tuple(grid)
            if key in seen:
                grid[src], grid[dst] = card, GAP
                continue
            seen.add(key)
            nodes -= 1
            if not nodes & 1023 and time.perf_counter() > deadline:
                break
            row, column = divmod(dst, columns)
            run = runs[row]
            if run == column:  # the run grows, perhaps by more than this card
                start, new = row * columns, run + 1
                while new < length and grid[start + new] == follower(grid[start + new - 1]):
                    new += 1
                runs[row] = new
                placed += new - run
            slot = gaps.index(dst)
            gaps[slot] = src
            where[card].remove(src)
            if column >= runs[row]:
                where[card].append(dst)
            line.append(move)
            undo.append((run, slot))
            if placed > best_placed:
                best_placed, best_line = placed, list(line)
                if placed == self.goal:
                    break
            stack.append(iter(moves()))
        return best_placed, best_line


class GapsPlayer:
    """Plans each round once and follows the plan."""

    def __init__(self, nodes: int = NODES) -> None:
        self.nodes = nodes
        self.plan: list[Move] = []
        self.key: tuple | None = None

    def decide(self, view: GapsView, legal: list[GapsMove], seconds: float = 60.0) -> int:
        """The index in ``legal`` of the next move of the plan (planning, for at most ``seconds``, when the grid is
        not where the plan left it or the plan is played out), or of ``end_round`` when no better line is found."""
        if (view.round, view.grid) != self.key or not self.plan:
            _, self.plan = Round(view).search(list(view.grid), self.nodes, seconds)
        if self.plan:
            card, src, dst = self.plan.pop(0)
            for index, action in enumerate(legal):
                if (action.card, action.src, action.dst) == (card, src, dst):
                    grid = list(view.grid)
                    grid[dst], grid[src] = card, GAP
                    self.key = (view.round, tuple(grid))
                    return index
        self.plan, self.key = [], None
        ends = [index for index, action in enumerate(legal) if action.ends_round]
        return ends[0] if ends else 0


PLAYER = GapsPlayer()


def choose(request: ActRequest) -> int | ActResponse:
    """The next move of the round's plan."""
    legal = [entry.action for entry in request.legal_actions]
    return PLAYER.decide(request.view, legal, request.clock.move_limit_ms / 2000)


if __name__ == "__main__":
    serve(choose, name="gaps-search", version="1.0", author="Kafana", games=["gaps"])
