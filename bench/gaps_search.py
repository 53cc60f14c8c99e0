"""The Gaps solver bot on seeded deals, in process, one core: wins, cards in place, time a deal, deals proved lost.

Usage: python bench/gaps_search.py [--deals-per-game 1] [--games 1000] [--start 0] [--variant montana]
                                   [--seconds 20] [--nodes N]

Game k is dealt from ``random.Random(k)`` (a fixed list of deals; the referee's ``--seed k`` keys its own chance
stream, so its deals differ), so every run meets the same deals. With
``--deals-per-game 1`` (no redeal) every card is visible from the start: a perfect-information puzzle, about 86% of
whose deals are winnable (rules/cards.md §3.3). Each round's plan gets ``--seconds`` (default: 20 s, two thirds
of the default clock's move cap of 30 s, what the bot gives itself in a match). "Proved lost" counts, with one
deal, the deals whose first plan searched every reachable position without a win: the deal cannot be won (a plan
played out is followed by a search from where it ended, which proves nothing of the deal; with redeals a
round proved lost says nothing of what another plan would have left for the next deal, so none are counted).
The clock is wall time (``time.perf_counter``) of whole games, planning and play.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from bots.python.gaps_search_bot import NODES, GapsPlayer
from referee.games import CHANCE, GapsTermination, make_game
from referee.games.engine import ENGINE
from referee.runtime import Clock


def run(variant: str, deals: int, start: int, games: int, seconds: float, nodes: int, progress: bool = False) -> dict:
    """Play the seeded games ``start .. start+games-1``; return the figures (with ``progress``, the figures so far
    go to stderr every 50 games)."""
    game = make_game("gaps", {"variant": variant, "deals": str(deals)})
    wins = placed = proved = 0
    times: list[float] = []
    lost: list[int] = []
    for seed in range(start, start + games):
        began = time.perf_counter()
        rng = random.Random(seed)
        state = game.new_state()
        player = GapsPlayer(nodes, seconds)
        statuses = []
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            state.apply(legal[player.decide(state.view(0), legal, seconds)])
            if player.found is not None:
                statuses.append(player.found.status)
        times.append(time.perf_counter() - began)
        outcome = state.outcome()
        wins += outcome.termination == GapsTermination.WIN
        placed += outcome.points[0]
        if deals == 1 and outcome.termination != GapsTermination.WIN and statuses[:1] == ["exhausted"]:  # the deal's own plan
            proved += 1
            lost.append(seed)
        done = seed - start + 1
        if progress and done % 50 == 0:
            print(f"{done} games: {wins} wins, {proved} proved lost, {placed / done:.1f} cards in place, "
                  f"{statistics.mean(times):.2f} s a game", file=sys.stderr, flush=True)
    return {
        "variant": variant,
        "deals": deals,
        "seeds": [start, start + games - 1],
        "engine": ENGINE,
        "seconds_per_plan": seconds,
        "wins": wins,
        "win_rate": wins / games,
        "proved_lost": proved,
        "proved_lost_seeds": lost,
        "mean_placed": placed / games,
        "seconds_per_game": {"mean": statistics.mean(times), "median": statistics.median(times),
                             "max": max(times)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="montana")
    parser.add_argument("--deals-per-game", type=int, default=1)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=Clock().cap * 2 / 3)
    parser.add_argument("--nodes", type=int, default=NODES)
    args = parser.parse_args()
    figures = run(args.variant, args.deals_per_game, args.start, args.games, args.seconds, args.nodes, progress=True)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
