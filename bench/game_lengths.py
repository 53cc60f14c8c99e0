"""How long games run: decisions (not chance steps) per game of uniformly random play, for every game and the
options that make games longest, over many seeded games; the figures behind each game's ``decision_limit``
default (docs/bot-protocol.md, "Every game ends").

Usage: python bench/game_lengths.py [--games 2000]

Printed per game and options: the mean, the 99.9th percentile and the longest game in decisions. For a match or a
session the count is per game of it (the limit is per game). Random play is the long case for these games: it
wanders where players would finish.
"""

from __future__ import annotations

import argparse
import random
import statistics

from referee.games import CHANCE, make_game

CASES = [
    ("tabla", {}), ("gjul-bara", {}), ("tapa", {}), ("tabla-match", {}),
    ("durak", {}), ("durak", {"seats": "6"}), ("durak", {"seats": "6", "variant": "perevodnoy"}),
    ("durak", {"seats": "2", "deck": "52"}), ("durak", {"seats": "6", "deck": "52", "variant": "perevodnoy"}),
    ("durak", {"seats": "4", "teams": "2v2"}),
    ("gapa", {}), ("gapa", {"gapa": "penalty", "side_deal": "first_player_both", "own_big_up_playable": "true"}),
    ("gaps", {}), ("gaps", {"variant": "blue_moon"}), ("gaps", {"variant": "spaces"}),
]


def lengths(game_id: str, options: dict[str, str], games: int) -> list[int]:
    """Decisions in each game (each game of a match) of ``games`` seeded random games."""
    game = make_game(game_id, options)
    found = []
    for seed in range(games):
        rng = random.Random(f"{game_id}/{options}/{seed}")
        state = game.new_state()
        number, decisions = state.game_number, 0
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            if state.game_number != number:
                found.append(decisions)
                number, decisions = state.game_number, 0
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        found.append(decisions)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    for game_id, options in CASES:
        found = sorted(lengths(game_id, options, args.games))
        tail = found[min(len(found) - 1, int(len(found) * 0.999))]
        shown = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
        print(f"{game_id:12s} {shown:62s} mean {statistics.mean(found):8.0f}  99.9% {tail:6d}  longest {found[-1]:6d}"
              f"  ({len(found)} games)", flush=True)


if __name__ == "__main__":
    main()
