"""The Gaps search bot on seeded deals, in process: win rate and cards in place.

Usage: python bench/gaps_search.py [--deals-per-game 1] [--games 1000] [--nodes 100000] [--variant montana]

Game k is dealt from seed k (as the referee would with ``--seed``), so every run meets the same deals. With
``--deals-per-game 1`` (no redeal) every card is visible from the start: a perfect-information puzzle, about 86% of
whose deals are winnable (rules/cards.md §3.3).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.python.gaps_search_bot import GapsPlayer  # noqa: E402
from referee.games import CHANCE, make_game  # noqa: E402


def run(variant: str, deals: int, games: int, nodes: int, progress: bool = False) -> dict:
    """Play ``games`` seeded games; return the win rate, the mean cards in place and the seconds per game (with
    ``progress``, the figures so far go to stderr every 100 games)."""
    game = make_game("gaps", {"variant": variant, "deals": str(deals)})
    wins = placed = 0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state()
        player = GapsPlayer(nodes)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            state.apply(legal[player.decide(state.view(0), legal)])
        outcome = state.outcome()
        wins += outcome.termination == "win"
        placed += outcome.points[0]
        if progress and (seed + 1) % 100 == 0:
            print(f"{seed + 1} games: {wins} wins, {placed / (seed + 1):.1f} cards in place", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - start
    return {
        "variant": variant,
        "deals": deals,
        "games": games,
        "nodes": nodes,
        "win_rate": wins / games,
        "mean_placed": placed / games,
        "seconds_per_game": seconds / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="montana")
    parser.add_argument("--deals-per-game", type=int, default=1)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=100_000)
    args = parser.parse_args()
    print(json.dumps(run(args.variant, args.deals_per_game, args.games, args.nodes, progress=True)))


if __name__ == "__main__":
    main()
