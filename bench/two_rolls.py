"""What a decision of td2_bot (two rolls ahead) costs: the native core valuing every roll's best reply against the
reference levels (the core lists the replies' rows, numpy values them), on the same positions.

Usage: python bench/two_rolls.py [--game tapa] [--positions 60] [--rounds 5]

The positions are the decisions with a choice of seeded random games, thinned to ``--positions``. Each round
searches all of them both ways, the order alternated from round to round; each figure is the median over the rounds
with min–max, in CPU milliseconds of this process a decision (``time.process_time``: the search is single-threaded,
BLAS limited to one thread, so another process on the machine does not count). The two ways' values of every
searched play are compared once: they agree to float32's rounding, unless two replies' values tie within it and
each way takes another (a Tapa position of the 60 moves by 2.7e-3 so).
"""

from __future__ import annotations

import argparse
import statistics
import time

from bots.python import td2_bot
from bots.python.td_bot import Values
from referee.games import make_game
from referee.games.engine import ACCELERATORS
from referee.playouts import random_decisions


def decisions(game_id: str, count: int, seed: int = 3) -> list:
    """``count`` states with a choice, every fourth of seeded random games'."""
    found = []
    for state, legal in random_decisions(make_game(game_id), 4 * count, seed):
        if legal is not None and len(legal) > 1:
            found.append(state.clone())
        if len(found) == 4 * count:
            break
    return found[::4]


def search(states: list, judge: Values, native: bool) -> tuple[float, list[dict[int, float]]]:
    """CPU milliseconds a decision for searching ``states`` (natively or by the reference), and the values."""
    network = td2_bot._native_network
    if not native:
        td2_bot._native_network = lambda game_id: None
    try:
        start = time.process_time()
        values = [td2_bot.two_rolls_ahead(state, judge, state.current_player) for state in states]
        return 1000 * (time.process_time() - start) / len(states), values
    finally:
        td2_bot._native_network = network


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tapa", choices=td2_bot.SEARCHED)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if ACCELERATORS is None:
        parser.error("the native core is not installed (pip install ./native)")
    states, judge = decisions(args.game, args.positions), Values(args.game)
    _, fast = search(states, judge, native=True)  # warm: the network loaded, the first calls paid
    _, slow = search(states, judge, native=False)
    worst = max(abs(one[index] - other[index]) for one, other in zip(fast, slow) for index in one)
    times: dict[bool, list[float]] = {True: [], False: []}
    for round_ in range(args.rounds):
        for native in ((True, False) if round_ % 2 == 0 else (False, True)):
            times[native].append(search(states, judge, native)[0])
    for native, name in ((True, "native levels"), (False, "reference levels (rows to numpy)")):
        print(f"{args.game} {name}: {statistics.median(times[native]):.1f} ms a decision "
              f"({min(times[native]):.1f}–{max(times[native]):.1f}), CPU of this process")
    ratios = [slow / fast for fast, slow in zip(times[True], times[False])]
    print(f"{args.game}: the reference takes {statistics.median(ratios):.2f}x the native levels' time "
          f"({min(ratios):.2f}–{max(ratios):.2f}), {len(states)} decisions a round, {args.rounds} rounds; "
          f"the values differ by {worst:.1e} at most")


if __name__ == "__main__":
    main()
