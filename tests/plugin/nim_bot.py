"""A Nim bot that knows only the wire: it reads the JSON view Kafana sends for a game bot.proto has no message for,
and plays the nim-sum strategy (a winning move when there is one, else the first legal move)."""

from __future__ import annotations

from functools import reduce
from operator import xor

from bots.python.kit import serve
from referee.wire import ActRequest


def choose(request: ActRequest) -> int:
    """The first legal move that leaves a nim-sum of zero (each move's detail says its heap and count)."""
    heaps = request.view["heaps"]
    total = reduce(xor, heaps, 0)
    for legal in request.legal_actions:
        heap, count = legal.action["heap"], legal.action["count"]
        if total ^ heaps[heap] == heaps[heap] - count:
            return legal.id
    return 0


if __name__ == "__main__":
    serve(choose, name="nim-sum", version="1.0", author="tests", games=["nim"])
