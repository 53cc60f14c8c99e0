"""A solver for a round of Gaps (Montana) and its family (rules/cards.md §3), for the Gaps search bot.

:func:`solve` searches one round depth first, the most promising move first, with a table of the positions seen
keyed by a canonical position: the grid up to the order of its rows (rows are interchangeable, so a position and
any reordering of its rows win or lose alike). A level says which moves it tries:

0. the likely ones: a card in place never moves, and a move growing a row's run is made at once, alone;
1. as 0, but a row's first card may move while it is the only card in place in its row;
2. any card may move (a move growing a run is still made at once, alone);
3. every legal move: a search of this level that sees every reachable position without a win has proved the
   round cannot be won.

:func:`plan` runs the levels in turn within one clock, each with a share of the time left, and stops at the
first win. The native core (``kafana_native.bots.gaps_solve``, Rust) runs the search when it is the engine in use
(:mod:`referee.games.engine`); :func:`python_solve` is its twin in Python (the same positions in the same order,
about twenty times slower).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from referee.games.engine import ACCELERATORS

GAP = -1
ACE, KING = 12, 11
LEVELS = 4
TABLE = 40_000_000
"""Positions the table of one search may hold (16 bytes each in the native core)."""

Move = tuple[int, int, int]
"""(card, from place, to place); places are row * columns + column."""


@dataclass(frozen=True)
class Layout:
    """The grid's shape: ``rows`` x ``columns`` places, complete rows of ``row_length`` cards, headed by aces when
    ``aces_lead`` (else by 2s)."""

    rows: int
    columns: int
    row_length: int
    aces_lead: bool

    def successor(self, card: int) -> int:
        """The card that may follow ``card`` in a row, or -1 after a king."""
        rank = card % 13
        if rank == ACE:
            return card - ACE if self.aces_lead else -1
        return -1 if rank == KING else card + 1

    def heads(self, card: int) -> bool:
        """Whether ``card`` may fill a gap in the first column."""
        return card % 13 == (ACE if self.aces_lead else 0)


@dataclass(frozen=True)
class Found:
    """What a search found: ``status`` is ``won``, ``exhausted`` (no line of the level's moves wins) or
    ``stopped``; ``line`` wins, or reaches the most cards in place found (``placed``); ``nodes`` positions were
    searched."""

    status: str
    placed: int
    line: list[Move]
    nodes: int


class _Round:
    """The position of one search, kept up to date move by move."""

    def __init__(self, layout: Layout, grid: list[int], level: int) -> None:
        self.layout, self.level = layout, level
        self.grid = list(grid)
        self.places: dict[int, list[int]] = {}
        self.gaps = []
        for place, card in enumerate(grid):
            if card == GAP:
                self.gaps.append(place)
            else:
                self.places.setdefault(card, []).append(place)
        self.runs = [self.run(row) for row in range(layout.rows)]
        self.placed = sum(self.runs)
        self.heads = [card for card in range(52) if layout.heads(card)]

    def key(self) -> tuple:
        """The position up to the order of its rows."""
        columns, grid = self.layout.columns, self.grid
        return tuple(sorted(tuple(grid[start:start + columns]) for start in range(0, len(grid), columns)))

    def run(self, row: int) -> int:
        """The cards in place in ``row``: its run from the first column."""
        layout, grid, start = self.layout, self.grid, row * self.layout.columns
        if grid[start] == GAP or not layout.heads(grid[start]):
            return 0
        run = 1
        while run < layout.row_length and grid[start + run] == layout.successor(grid[start + run - 1]):
            run += 1
        return run

    def moves(self) -> list[Move]:
        """The moves of the level, best first (see the Rust twin, ``Search::moves``)."""
        layout, grid, columns, runs = self.layout, self.grid, self.layout.columns, self.runs
        scored = []
        for dst in self.gaps:
            row, column = divmod(dst, columns)
            grows = column == runs[row]
            if column == 0:
                cards = self.heads
            else:
                left = grid[dst - 1]
                card = layout.successor(left) if left != GAP else -1
                cards = [card] if card >= 0 else []
            for card in cards:
                for src in self.places.get(card, ()):
                    if self.movable(src):
                        scored.append((-self.score(card, src, dst, grows), (card, src, dst)))
        scored.sort()
        if self.level < LEVELS - 1:
            for _, move in scored:
                column = move[2] % columns
                if column > 0 and column == runs[move[2] // columns]:
                    return [move]
        return [move for _, move in scored]

    def movable(self, src: int) -> bool:
        """Whether the level lets the card at ``src`` move: below level 2 a card in place stays, but at level 1 a
        row's first card may move while it is the row's only card in place."""
        row, column = divmod(src, self.layout.columns)
        run = self.runs[row]
        return self.level >= 2 or column >= run or (self.level == 1 and run == 1)

    def score(self, card: int, src: int, dst: int, grows: bool) -> int:
        row, column = divmod(src, self.layout.columns)
        score = (100 if grows else 0) - (100 if column < self.runs[row] else 0)
        if column == 0:
            live = True
        else:
            left = card if src - 1 == dst else self.grid[src - 1]
            live = left != GAP and self.layout.successor(left) >= 0
        return score + (10 if live else 0)

    def shift(self, card: int, src: int, dst: int) -> None:
        """Move ``card`` from ``src`` into the gap at ``dst``."""
        columns = self.layout.columns
        self.grid[dst], self.grid[src] = card, GAP
        copies = self.places[card]
        copies[copies.index(src)] = dst
        self.gaps[self.gaps.index(dst)] = src
        for row in {src // columns, dst // columns}:
            self.placed -= self.runs[row]
            self.runs[row] = self.run(row)
            self.placed += self.runs[row]


def python_solve(
    layout: Layout, grid: list[int], level: int, seconds: float, nodes: int, moves: int, table: int = TABLE
) -> Found:
    """Search the round from ``grid`` with the moves of ``level`` within ``seconds``, ``nodes`` positions, lines of
    ``moves`` moves and a table of ``table`` positions."""
    deadline = time.perf_counter() + max(0.0, seconds)
    position = _Round(layout, grid, level)
    goal = layout.rows * layout.row_length
    if position.placed == goal:
        return Found("won", goal, [], 0)
    best_placed, best_line, searched = position.placed, [], 0
    seen = {position.key()}
    line: list[Move] = []
    frames = [iter(position.moves())]
    cut = False
    while frames:
        move = next(frames[-1], None)
        if move is None:
            frames.pop()
            if line:
                card, src, dst = line.pop()
                position.shift(card, dst, src)
            continue
        card, src, dst = move
        position.shift(card, src, dst)
        key = position.key()
        if key in seen:
            position.shift(card, dst, src)
            continue
        seen.add(key)
        searched += 1
        line.append(move)
        if position.placed > best_placed:
            best_placed, best_line = position.placed, list(line)
            if best_placed == goal:
                return Found("won", goal, best_line, searched)
        if searched >= nodes or len(seen) >= table or (not searched & 4095 and time.perf_counter() >= deadline):
            return Found("stopped", best_placed, best_line, searched)
        if len(line) >= moves:
            cut = True
            position.shift(card, dst, src)
            line.pop()
            continue
        frames.append(iter(position.moves()))
    return Found("stopped" if cut else "exhausted", best_placed, best_line, searched)


def solve(
    layout: Layout, grid: list[int], level: int, seconds: float, nodes: int, moves: int, table: int = TABLE
) -> Found:
    """:func:`python_solve`, by the native core when it is installed."""
    if ACCELERATORS is None:
        return python_solve(layout, grid, level, seconds, nodes, moves, table)
    status, placed, line, searched = ACCELERATORS.gaps_solve(
        list(grid), layout.rows, layout.columns, layout.row_length, layout.aces_lead, level, seconds, nodes, moves,
        table,
    )
    return Found(status, placed, [tuple(move) for move in line], searched)


SHARES = (1 / 4, 1 / 3, 2 / 3, 1)
"""The share of the time and positions left that each level gets in :func:`plan` (what a level that ends early
leaves goes to the later ones). Levels 0 and 1 either win quickly or soon see all their positions; level 2 wins
what they miss, and gets most of what is left; level 3 can prove only small rounds lost."""


def plan(layout: Layout, grid: list[int], seconds: float, nodes: int, moves: int) -> Found:
    """The levels in turn, each with its share (:data:`SHARES`) of the time and positions left, until one wins.

    The complete level searches lines of any length, so that its exhaustion proves the round lost whatever the
    move cap; a win of more than ``moves`` moves does not count. Returns the win, or the line to the most cards
    in place found, with status ``exhausted`` when the complete level has proved that no line wins, else
    ``stopped``.
    """
    deadline = time.perf_counter() + seconds
    best: Found | None = None
    searched, proved = 0, False
    for level, share in enumerate(SHARES):
        left = deadline - time.perf_counter()
        complete = level == LEVELS - 1
        found = solve(layout, grid, level, left * share, max(1, int((nodes - searched) * share)),
                      10**9 if complete else moves)
        searched += found.nodes
        if found.status == "won" and len(found.line) > moves:
            found = Found("stopped", 0, [], found.nodes)
        if best is None or found.placed > best.placed:
            best = found
        proved = complete and found.status == "exhausted"
        if found.status == "won" or nodes - searched <= 0 or time.perf_counter() >= deadline:
            break
    assert best is not None
    status = "won" if best.status == "won" else "exhausted" if proved else "stopped"
    return Found(status, best.placed, best.line, searched)
