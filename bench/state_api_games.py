"""Plays N uniformly random games of one game through the public State API, seeded, and nothing else: the loop
whose instructions docs/performance.md counts (callgrind, this script with N games less the same with none, which
counts the imports and the game's set-up alone).

Usage: valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/state_api_games.py --games 200
       valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/state_api_games.py --games 0
"""

from __future__ import annotations

import argparse
import random

from referee.games import CHANCE, make_game


def play(game_id: str, games: int, seed: int) -> int:
    """Play ``games`` games of ``game_id`` with random decisions and chance from ``seed``; the decisions made."""
    game = make_game(game_id)
    rng = random.Random(seed)
    decisions = 0
    for _ in range(games):
        state = game.new_state()
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tabla")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.games} {args.game} games, {play(args.game, args.games, args.seed)} decisions")


if __name__ == "__main__":
    main()
