"""A solver bot for Gaps (Montana) and its family: at the start of each round it plans the round with
:mod:`bots.python.gaps_solver` (a depth-first search with a table of canonical positions, the likely moves first,
then every legal move) for a win, else for the most cards in place (what a redeal keeps), and then follows the
plan; when the plan is played out it ends the round.

Each plan takes at most two thirds of the move's time limit and at most :data:`PLAN_SECONDS`. The search runs in
the native core when it is installed, else in Python (the same moves, about twenty times slower).
"""

from __future__ import annotations

from bots.python.gaps_solver import Found, Layout, Move, plan
from bots.python.kit import serve
from referee.games import GAP, GapsMove, GapsView
from referee.wire import ActRequest, ActResponse

PLAN_SECONDS = 20.0
"""The longest a round's plan may take."""

NODES = 10**12
"""Positions a plan may search (the clock ends it first)."""


def layout_of(view: GapsView) -> Layout:
    """The solver's layout of a view's grid."""
    return Layout(view.rows, view.columns, view.row_length, aces_lead=view.row_length == 13)


class GapsPlayer:
    """Plans each round once and follows the plan."""

    def __init__(self, nodes: int = NODES, seconds: float = PLAN_SECONDS) -> None:
        self.nodes, self.seconds = nodes, seconds
        self.plan: list[Move] = []
        self.key: tuple | None = None
        self.found: Found | None = None
        """The last plan's search, for the comment of its first move."""
        self.settled = False
        """Whether the plan being followed is the best line of every position its round can reach."""

    def decide(self, view: GapsView, legal: list[GapsMove], seconds: float = 60.0) -> int:
        """The index in ``legal`` of the next move of the plan, or of ``end_round`` when no better line is found.

        It plans, for at most ``seconds`` and :attr:`seconds`, when the grid is not where the plan left it, and when
        the plan is played out unless that plan was proved the best of its whole round."""
        self.found = None
        played_out = (view.round, view.grid) == self.key and not self.plan
        if played_out and self.settled:  # its search saw every position of the round: nothing better is left
            self.key = None
        elif (view.round, view.grid) != self.key or not self.plan:
            self.found = plan(layout_of(view), list(view.grid), min(seconds, self.seconds), self.nodes,
                              view.move_cap - view.moves)
            self.plan = list(self.found.line)
            self.settled = self.found.status == "exhausted"
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


def choose(request: ActRequest) -> ActResponse:
    """The next move of the round's plan; a new plan says in the comment what its search found."""
    legal = [entry.action for entry in request.legal_actions]
    index = PLAYER.decide(request.view, legal, request.clock.move_limit_ms / 1500)
    found = PLAYER.found
    if found is None:
        return ActResponse(index)
    return ActResponse(index, f"plan: {found.status}, {found.placed} in place in {len(found.line)} moves, "
                              f"{found.nodes} positions")


if __name__ == "__main__":
    serve(choose, name="gaps-search", version="2.0", author="Kafana", games=["gaps"])
