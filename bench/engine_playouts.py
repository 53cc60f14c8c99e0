"""Random playouts per second of the game engines alone, on one core.

Usage: python bench/engine_playouts.py [--seconds 1] [--rounds 5] [--game tapa] [--game durak:seats=4] [--core]
       [--reference] [--policy steps]

Uniformly random decisions through the public State API (legal_actions / apply / sample_chance), seeded; with
``--core``, whole random games of the Tabla family played inside the native core (``referee.playouts.playouts``,
in batches of 100 games; ``--policy steps``: random single steps instead of uniformly random plays, see
``referee.playouts.POLICIES``), against the same OpenSpiel loop. With ``--reference``, the same loop over the Python
engine's states (``game.reference()``) runs in the same rounds too, and each engine's ratio to it is given.
OpenSpiel's backgammon (pip install open-spiel), when installed, runs beside each engine in the same process, in
alternating rounds of ``--seconds`` each, and every figure is the median over the rounds of the engine's games/s
and of its ratio to OpenSpiel in the same round: this machine's speed drifts by ±30% from minute to minute, and
alternating keeps the ratios steady. Absolute targets are also given at the reference speed, the speed at which
OpenSpiel's backgammon plays 730 games/s (this machine at its usual speed): ratio × 730.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from referee.games import CHANCE, draw_chance, make_game
from referee.games.registry import registration_of
from referee.games.tabla_family.tabla_match import TablaMatchState
from referee.playouts import POLICIES, playout_games, playouts

CORE_BATCH = 100
"""Games per call of the core's playouts (the clock is read between calls)."""


def kafana_playouts(spec: str, seconds: float, seed: int = 1, reference: bool = False) -> dict:
    """Play random games of ``spec`` (a game id, optionally ``:key=value,…`` options) for ``seconds`` (with
    ``reference``, the Python engine's states); return games/s and decisions/s (a ``tabla-match``'s games/s are
    whole matches, and ``member_games_per_s`` counts the games played in them)."""
    game_id, _, text = spec.partition(":")
    game = make_game(game_id, dict(pair.split("=", 1) for pair in text.split(",") if pair))
    if reference:
        game = game.reference()
    rng = random.Random(seed)
    games = decisions = members = 0
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
        members += len(state.completed_games()) if isinstance(state, TablaMatchState) else 1
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "decisions_per_s": decisions / elapsed, "games": games,
            "member_games_per_s": members / elapsed}


def core_playouts(spec: str, seconds: float, seed: int = 1, policy: str = "uniform") -> dict:
    """Whole random games of ``spec`` inside the native core for ``seconds``, in batches, plays chosen by
    ``policy``; games/s and decisions/s."""
    game_id, _, text = spec.partition(":")
    game = make_game(game_id, dict(pair.split("=", 1) for pair in text.split(",") if pair))
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        played = playouts(game, CORE_BATCH, seed * 1_000_003 + games, policy=policy)
        games += len(played)
        decisions += sum(one.decisions for one in played)
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


REFERENCE_OPENSPIEL = 730.0
"""OpenSpiel backgammon's random games/s on this machine at its usual speed (the brief's reference figure)."""


def _median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one round of one engine")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per engine (the median counts)")
    parser.add_argument("--game", action="append", help="id[:key=value,...] (repeatable; default: every engine)")
    parser.add_argument("--core", action="store_true", help="whole games inside the native core (Tabla family)")
    parser.add_argument("--reference", action="store_true", help="the Python engine's states too, in the same rounds")
    parser.add_argument("--policy", choices=POLICIES, default="uniform", help="the core's playout policy (--core)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.core:
        playable = [game for game in playout_games() if args.policy in registration_of(game).playouts.policies]
        games = args.game or playable
        if any(spec.partition(":")[0] not in playable for spec in games):
            parser.error(f"--core --policy {args.policy} plays {', '.join(playable)}")
    else:
        games = args.game or ["tabla", "gjul-bara", "tapa", "tabla-match", "durak", "durak:seats=4"]
    if args.policy != "uniform" and not args.core:
        parser.error("--policy is for whole games inside the core: add --core")

    def measure(game_id: str, seconds: float, seed: int) -> dict:
        if args.core:
            return core_playouts(game_id, seconds, seed=seed, policy=args.policy)
        return kafana_playouts(game_id, seconds, seed=seed)

    results: dict[str, dict | None] = {}
    openspiel_rates: list[float] = []
    for game_id in games:
        rates, decisions, ratios, python_rates, to_python, per_game = [], [], [], [], [], []
        for index in range(args.rounds):
            base = openspiel_playouts(args.seconds, seed=index)
            if args.reference and index % 2:
                python_rates.append(kafana_playouts(game_id, args.seconds, seed=index, reference=True)["games_per_s"])
            figures = measure(game_id, args.seconds, seed=index)
            if args.reference and not index % 2:
                python_rates.append(kafana_playouts(game_id, args.seconds, seed=index, reference=True)["games_per_s"])
            if python_rates:
                to_python.append(figures["games_per_s"] / python_rates[-1])
            rates.append(figures["games_per_s"])
            decisions.append(figures["decisions_per_s"])
            if base is not None:
                openspiel_rates.append(base["games_per_s"])
                ratios.append(figures["games_per_s"] / base["games_per_s"])
                if "member_games_per_s" in figures and game_id.startswith("tabla-match"):
                    per_game.append(figures["member_games_per_s"] / base["games_per_s"])
        results[game_id] = {
            "games_per_s": _median(rates),
            "decisions_per_s": _median(decisions),
            "ratio_to_openspiel": _median(ratios) if ratios else None,
            "at_reference_speed": _median(ratios) * REFERENCE_OPENSPIEL if ratios else None,
        }
        if per_game:
            results[game_id]["games_in_matches_ratio_to_openspiel"] = _median(per_game)
        if to_python:
            results[game_id].update(python_games_per_s=_median(python_rates), ratio_to_python=_median(to_python),
                                    ratio_to_python_range=(min(to_python), max(to_python)))
    results["openspiel_backgammon"] = (
        {"games_per_s": _median(openspiel_rates), "ratio_to_openspiel": 1.0} if openspiel_rates else None
    )
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name, figures in results.items():
        if figures is None:
            print(f"{name:<22} not installed (pip install open-spiel)")
            continue
        line = f"{name:<22} {figures['games_per_s']:8.1f} games/s"
        if "decisions_per_s" in figures:
            line += f" {figures['decisions_per_s']:10.0f} decisions/s"
        if figures.get("at_reference_speed"):
            line += f"  ratio to OpenSpiel {figures['ratio_to_openspiel']:.2f}"
            line += f"  = {figures['at_reference_speed']:.0f} games/s at the reference speed"
        if figures.get("games_in_matches_ratio_to_openspiel"):
            line += f"  (its games: {figures['games_in_matches_ratio_to_openspiel']:.2f}x OpenSpiel's)"
        if figures.get("ratio_to_python"):
            low, high = figures["ratio_to_python_range"]
            line += f"  ratio to the Python engine {figures['ratio_to_python']:.2f} ({low:.2f}-{high:.2f};"
            line += f" it ran {figures['python_games_per_s']:.0f} games/s)"
        print(line)


if __name__ == "__main__":
    main()
