"""Random playouts per second of the game engines alone, on one core.

Usage: python bench/engine_playouts.py [--seconds 5] [--game tapa] [--game durak:seats=4]

Uniformly random decisions through the public State API (legal_actions / apply / chance_outcomes), seeded.
OpenSpiel's backgammon (pip install open-spiel), when installed, runs beside it in the same process and the
figures are reported as ratios to it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.games import CHANCE, draw_chance, make_game  # noqa: E402


def kafana_playouts(spec: str, seconds: float, seed: int = 1) -> dict:
    """Play random games of ``spec`` (a game id, optionally ``:key=value,…`` options) for ``seconds``; return
    games/s and decisions/s."""
    game_id, _, text = spec.partition(":")
    game = make_game(game_id, dict(pair.split("=", 1) for pair in text.split(",") if pair))
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state()
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed, "games": games}


def openspiel_playouts(seconds: float, seed: int = 1) -> dict | None:
    """OpenSpiel backgammon driven from Python the same way, or None if open-spiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(draw_chance(outcomes, rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed, "games": games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--game", action="append", help="id[:key=value,...] (repeatable; default: every engine)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    games = args.game or ["tabla", "gjul-bara", "tapa", "tabla-match", "durak", "durak:seats=4"]
    results = {"openspiel_backgammon": openspiel_playouts(args.seconds)}
    for game_id in games:
        results[game_id] = kafana_playouts(game_id, args.seconds)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    base = results["openspiel_backgammon"]
    for name, figures in results.items():
        if figures is None:
            print(f"{name:<22} not installed (pip install open-spiel)")
            continue
        ratio = f"  ratio to OpenSpiel {figures['games_per_s'] / base['games_per_s']:.2f}" if base else ""
        print(f"{name:<22} {figures['games_per_s']:8.1f} games/s {figures['decisions_per_s']:10.0f} decisions/s{ratio}")


if __name__ == "__main__":
    main()
