"""Train the points network of Tabla or Tapa on the values its own search gives, two rolls ahead.

Usage: python -m bots.python.search_train --game tabla --init FILE [--positions 40000] [--every 3] [--epochs 3]
       [--batch 64] [--rate 0.0003] [--seed 1] [--jobs 1] [--data FILE] [--out FILE]

First the positions: walks of the ``--init`` network's greedy self-play (from the opening position, each roll
drawn with its chance and answered by the network's best play for it, a new game where a play ends one), every
``--every``-th position kept where a turn has passed (the side just moved against the side to roll) until
``--positions`` are kept. Each is valued for the side just moved as td2_bot values a play (:mod:`.td2_bot`): the
opponent's best answer to each of its 21 rolls, then that side's best answer to each of its own, the network
valuing where they leave it (a game that ends by its points, a race of both sides bearing off by the exact bear-off
tables) — search on the network sees what the network alone misses one and two rolls on. Then the network learns
those values (:func:`.rollout_train.fit`: Adam on the squared error, ``--epochs`` passes in orders drawn from
``numpy.random.default_rng(seed)``): distilled into the network, two rolls of search make what the searching bots
look at better judged. Races are kept at the tables' value. The dice come from ``numpy.random.default_rng`` seeded
with ``--seed`` (``--jobs N``: N processes share the positions, each on a stream spawned from it): the same command
makes the same file on the same machine. With ``--data`` the positions and their values are written to that file,
or read from it when it exists. Progress is printed as positions are valued and after each epoch.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from bots.python import td2_bot
from bots.python.rollout_train import train, training_arguments
from bots.python.td_network import Network
from referee.games import make_game
from referee.games.engine import ACCELERATORS
from referee.games.tabla_family.features import FEATURES, ROLLS, Sides, encode

if TYPE_CHECKING:
    from kafana_native.bots import ValueNet

    from referee.games import Tabla, Tapa

GAMES = td2_bot.SEARCHED
"""The games whose network learns from the search: those td2_bot searches."""
CHUNK = 500
"""Positions valued in one call of the search (and between two progress reports of a job)."""


def _walk(network: Network, game_id: str, positions: int, every: int, seed: np.random.SeedSequence,
          job: int) -> tuple[np.ndarray, np.ndarray]:
    """One job's share: ``positions`` positions of ``network``'s greedy self-play and their values two rolls
    ahead, with the dice of ``seed``'s stream."""
    game, net = make_game(game_id), network.native()
    rng = np.random.default_rng(seed)
    opening = game.new_state().sides(0)
    rows, values, kept, position, turns, begun = [], [np.zeros(0)], [], opening, 0, time.perf_counter()
    while len(rows) < positions:
        best = td2_bot.native_best_replies(game, [position], net)
        roll = int(rng.choice(len(ROLLS), p=best.weights / 36))
        turns += 1
        if best.ended[roll]:
            position = opening
            continue
        after = best.afters[roll]
        if turns % every == 0:
            kept.append(after)
            rows.append(encode(after[:2], after[2:]))
        position = td2_bot.turned(after)
        if len(kept) == CHUNK or len(rows) == positions:
            values.append(two_rolls_ahead(game, net, kept))
            kept = []
            print(f"{game_id} job {job}: {len(rows)} positions valued, {time.perf_counter() - begun:.0f} s",
                  flush=True)
    return np.array(rows, dtype=np.float32).reshape(-1, FEATURES), np.concatenate(values)


def two_rolls_ahead(game: Tabla | Tapa, net: ValueNet, afters: list[Sides]) -> np.ndarray:
    """Each position's value (the side just moved first) for that side two rolls ahead, a race's by the tables."""
    rows = np.array([encode(after[:2], after[2:]) for after in afters], dtype="<f4")
    exact = np.frombuffer(ACCELERATORS.bearoff_values(rows.tobytes()), "<f4").astype(np.float64)
    theirs = td2_bot.native_best_replies(game, [td2_bot.turned(after) for after in afters], net)
    replies = partial(td2_bot.native_best_replies, game, net=net)
    ahead = td2_bot.second_roll(theirs, np.arange(len(afters)), replies)
    return np.where(np.isnan(exact), ahead, exact)


def searched(network: Network, game_id: str, positions: int, every: int, seed: int,
             jobs: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The feature rows of ``positions`` positions of ``network``'s greedy self-play (every ``every``-th turn's)
    and their values two rolls ahead for the side just moved, ``jobs`` processes sharing them (their positions in
    the order of the jobs).

    Raises:
        RuntimeError: the native core is not installed.
    """
    if ACCELERATORS is None:
        raise RuntimeError("the native core is not installed (pip install ./native)")
    shares = [positions // jobs + (1 if k < positions % jobs else 0) for k in range(jobs)]
    streams = np.random.SeedSequence(seed).spawn(jobs)
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_walk, [network] * jobs, [game_id] * jobs, shares, [every] * jobs, streams,
                              range(jobs)))
    return np.concatenate([rows for rows, _ in parts]), np.concatenate([values for _, values in parts])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, required=True)
    parser.add_argument("--positions", type=int, default=40000, help="positions to value and train on")
    parser.add_argument("--every", type=int, default=3, help="keep every how many turns' position")
    parser.add_argument("--jobs", type=int, default=1, help="processes to share the positions among (the data "
                        "depends on it: each has a stream of its own)")
    training_arguments(parser, "the points network to search with and train")
    args = parser.parse_args(argv)
    if min(args.positions, args.every, args.jobs) < 1:
        parser.error("--positions, --every and --jobs must be positive")
    return train(parser, args, lambda network: searched(network, args.game, args.positions, args.every, args.seed,
                                                        args.jobs))


if __name__ == "__main__":
    sys.exit(main())
