"""What ``referee analyse`` costs a decision: each game's judge (``bots/python/analysis.py``: the Tabla family's
and Durak's) on every decision with a choice of seeded random games, a random legal play taken as the one made.

Usage: python bench/analysis.py [--games 3] [--seed 1]

Per game: the judge's search, the decisions judged, and the CPU milliseconds of this process a decision
(``time.process_time``: the search is single-threaded, BLAS limited to one thread), median, 95th percentile and
min–max over the decisions. Random games' positions are not a strong player's, but the search's work is the same
kind: its width is fixed, not the number of legal plays.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from referee.analysis import judge_of
from referee.games import make_game
from referee.playouts import random_decisions

GAMES = ("tabla", "tapa", "gjul-bara", "tabla-match", "durak")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="random games (or matches) of each kind")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for game_id in GAMES:
        times, searches, game, judge = [], set(), make_game(game_id), judge_of(game_id)
        for state, legal in random_decisions(game, args.games, args.seed):
            if legal is None or len(legal) < 2:
                continue
            started = time.process_time()
            searches.add(judge(game, state, rng.randrange(len(legal))).search)
            times.append(1000 * (time.process_time() - started))
        times.sort()
        print(f"{game_id:12s} {', '.join(sorted(searches))}: {len(times)} decisions, median "
              f"{statistics.median(times):.1f} ms, p95 {times[int(0.95 * (len(times) - 1))]:.1f} ms "
              f"({times[0]:.1f}–{times[-1]:.1f}), CPU of this process", flush=True)


if __name__ == "__main__":
    main()
