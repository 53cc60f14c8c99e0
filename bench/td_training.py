"""What TD(λ) self-play costs: the native core's training (``td_train --engine native``) against the numpy
reference (``td_train``), the same number of games from the same first network.

Usage: python bench/td_training.py [--game tabla] [--games 300] [--hidden 128] [--inputs blocks] [--rounds 5]

Each round trains ``--games`` games both ways from one network (grown from nothing to ``--hidden`` units over the
input set ``--inputs``), the order alternated from round to round; each figure is the median over the rounds with
min–max, in games a second of CPU of this process (``time.process_time``: both train on one thread, BLAS limited to
one, so another process on the machine does not count). The games differ (the reference draws its dice from
``random.Random``, the core from the playouts' stream), so both play whole games of the same network's self-play,
not the same games.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bots.python import td_inputs, td_train
from referee.games.engine import ACCELERATORS


def rate(game_id: str, games: int, hidden: int, inputs: str, native: bool, seed: int) -> float:
    """Games a CPU second of ``games`` games of training one way."""
    quiet = lambda line: None  # noqa: E731
    start = time.process_time()
    if native:
        td_train.train_native(game_id, games, hidden, seed, 0.01, 0.7, report=quiet, inputs=inputs)
    else:
        td_train.train(game_id, games, hidden, seed, 0.01, 0.7, report=quiet, inputs=inputs)
    return games / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tabla", choices=td_train.GAMES)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--inputs", default="blocks", choices=list(td_inputs.EXTRAS))
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    try:
        td_inputs.check_suits(args.inputs, args.game)
    except ValueError as error:
        parser.error(str(error))
    if ACCELERATORS is None:
        parser.error("the native core is not installed (pip install ./native)")
    rates: dict[bool, list[float]] = {True: [], False: []}
    for round_ in range(args.rounds):
        for native in ((True, False) if round_ % 2 == 0 else (False, True)):
            rates[native].append(rate(args.game, args.games, args.hidden, args.inputs, native, round_))
    for native, name in ((True, "native core"), (False, "numpy reference")):
        print(f"{args.game} {name}: {statistics.median(rates[native]):.0f} games/s "
              f"({min(rates[native]):.0f}–{max(rates[native]):.0f}), CPU of this process")
    ratios = [fast / slow for fast, slow in zip(rates[True], rates[False])]
    print(f"{args.game}: the core trains {statistics.median(ratios):.1f}x as many games a second "
          f"({min(ratios):.1f}–{max(ratios):.1f}), {args.games} games a round, {args.hidden} hidden units, "
          f"{args.inputs} inputs, {args.rounds} rounds")


if __name__ == "__main__":
    main()
