"""Train a Tabla-family value network by TD(lambda) self-play (TD-Gammon's method).

Usage: python -m bots.python.td_train --game tabla [--games 20000] [--hidden 40] [--inputs plain] [--seed 1]
       [--out FILE] [--init POINTS_FILE] [--outcomes] [--engine python|native]

Both seats play the same network greedily: every decision takes the play whose position the network values
best for the mover (a play that ends the game is worth its points). Each seat learns from its own positions:
the value of its previous position moves toward the value of the position it chooses next, and at the end
toward the points it scored, with an eligibility trace per seat (lambda). Dice come from ``random.Random(seed)``
and the first weights from ``numpy.random.default_rng(seed)``: the same command makes the same file on the same
machine. Progress (games played, games/s) is printed every thousand games. With ``--engine native`` the games are
played and the network learns in the native core (:func:`train_native`, the same algorithm in float32, its dice
from the playouts' stream seeded alike), about eight times faster (``bench/td_training.py``).

With ``--outcomes`` it trains an :class:`OutcomeNetwork` instead (the chances of winning, of winning two points
and of losing two, what a match player needs; written to ``<game>-outcomes.npz``), choosing plays by the points
those imply; with ``--init`` it keeps a trained points network's hidden layer as it is and learns only the outputs
on top of it (three times faster a game, and the plays stay about those of the points network). ``--init`` without
``--outcomes`` goes on training a points network (all of it; ``--hidden`` more units than the file's grows it,
the new units' outputs starting at zero): a long training can be made as a chain of shorter ones, each on its own
seed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from bots.python import td_inputs
from bots.python.td_network import WEIGHTS, Network, OutcomeNetwork, outcome_target
from referee.games import CHANCE, State, make_game
from referee.games.engine import ACCELERATORS
from referee.games.tabla_family.features import after_features

GAMES = ("tabla", "gjul-bara", "tapa")
DEFAULT_HIDDEN = 40
"""Hidden units of a network trained from nothing unless ``--hidden`` says otherwise."""


Trained = Network | OutcomeNetwork


def final(network: Trained, points: tuple[int, int]) -> float | np.ndarray:
    """What ``network`` should say of a finished game with ``points`` (the side's first)."""
    if isinstance(network, OutcomeNetwork):
        return outcome_target(points)
    return float(points[0] - points[1])


def choose(network: Trained, state) -> tuple[int, np.ndarray, float | np.ndarray, bool]:
    """The index of the mover's best play (by the points the network expects), its position's features, what the
    network says of it (what the game's end says, if the play ends it) and whether it ends the game."""
    rows, outcomes = after_features(state)
    rows = td_inputs.inputs(rows, network.inputs)  # once: what the network reads, also for its gradient later
    values = network.values(rows)
    for index, points in enumerate(outcomes):
        if points is not None:
            values[index] = points[0] - points[1]
    best = int(np.argmax(values))
    ended = outcomes[best] is not None
    if ended:
        return best, rows[best], final(network, outcomes[best]), True
    if isinstance(network, OutcomeNetwork):
        return best, rows[best], network.outcomes(rows[best:best + 1])[0], False
    return best, rows[best], float(values[best]), False


def start(hidden: int | None, rng: np.random.Generator, outcomes: bool = False,
          init: Network | None = None, inputs: str | None = None) -> Trained:
    """The network a training starts from: a points :class:`Network`, or with ``outcomes`` an
    :class:`OutcomeNetwork` (on ``init``'s hidden layer, if given). A points network goes on from ``init`` when
    given, grown to ``hidden`` units if that is more than its own (:meth:`Network.grown`; ``hidden`` is 40 without
    ``init``). The network reads the input set ``inputs`` (:mod:`bots.python.td_inputs`; by default ``init``'s,
    else plain): ``init`` is widened to it (:meth:`Network.widened`). New weights are drawn from ``rng``."""
    inputs = inputs or (init.inputs if init else "plain")
    init = init.widened(inputs) if init else None
    if outcomes:
        return (OutcomeNetwork.from_points(init, rng) if init
                else OutcomeNetwork.new(hidden or DEFAULT_HIDDEN, rng, inputs))
    if init:
        grown = init.grown(hidden or init.w1.shape[0], rng)
        return Network(*(array.astype(np.float64) for array in grown.parameters()), grown.inputs)
    return Network.new(hidden or DEFAULT_HIDDEN, rng, inputs)


def train(game_id: str, games: int, hidden: int | None, seed: int, alpha: float, lam: float,
          report=print, outcomes: bool = False, init: Network | None = None, inputs: str | None = None,
          chance: Callable[[State], Any] | None = None) -> Trained:
    """A network trained by ``games`` games of self-play, from the network :func:`start` makes (its new weights
    drawn from ``numpy.random.default_rng(seed)``); an :class:`OutcomeNetwork` on ``init``'s hidden layer learns
    its outputs alone. The dice are drawn by ``chance`` (a state's chance outcome), by default from
    ``random.Random(seed)``."""
    game = make_game(game_id)
    if chance is None:
        rng = random.Random(seed)
        chance = lambda state: state.sample_chance(rng)  # noqa: E731
    network = start(hidden, np.random.default_rng(seed), outcomes, init, inputs)
    hidden_layer = init is None or not outcomes
    parameters = network.parameters() if hidden_layer else network.parameters()[2:]
    begun = time.perf_counter()
    for number in range(1, games + 1):
        state = game.new_state()
        traces: list[list[np.ndarray] | None] = [None, None]
        last: list[np.ndarray | None] = [None, None]

        def learn(seat: int, target: float | np.ndarray) -> None:
            """Move the value of ``seat``'s previous position toward ``target``."""
            row = last[seat]
            if row is None:
                return
            value, grads = network.gradient(row) if hidden_layer else network.gradient(row, hidden_layer=False)
            trace = traces[seat]
            if trace is None:
                trace = traces[seat] = [np.zeros_like(g) for g in grads]
            for t, g in zip(trace, grads):
                t *= lam
                t += g
            error = alpha * (target - value)
            for t, p in zip(trace, parameters):
                p += np.tensordot(error, t, axes=1) if np.ndim(error) else error * t  # one trace per output

        ended, seat = False, 0
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(chance(state))
                continue
            seat = state.current_player
            index, row, value, ended = choose(network, state)
            learn(seat, value)
            last[seat] = row
            state.apply(state.legal_actions()[index])
        points = state.outcome().points
        # The play that ended the game was valued by its points; the other seat (both, after a draw by the
        # stuck guard) learns the points it scored.
        for learner in (1 - seat,) if ended else (0, 1):
            learn(learner, final(network, (points[learner], points[1 - learner])))
        if number % 1000 == 0:
            elapsed = time.perf_counter() - begun
            report(f"{game_id}: {number} games, {number / elapsed:.0f} games/s")
    return network


CHUNK = 1000
"""Games the native core plays between two progress reports."""


def train_native(game_id: str, games: int, hidden: int | None, seed: int, alpha: float, lam: float,
                 report=print, init: Network | None = None, inputs: str | None = None,
                 chunk: int = CHUNK) -> Network:
    """:func:`train` of a points network in the native core (float32; several times faster), its dice drawn from
    the playouts' stream seeded with ``seed`` (:class:`referee.playouts.SplitMix64`), as :func:`train` draws them
    when given that stream. Progress is reported every ``chunk`` games (the same network whatever ``chunk``).

    Raises:
        RuntimeError: the native core is not installed.
    """
    if ACCELERATORS is None:
        raise RuntimeError("the native core is not installed (pip install ./native)")
    network = start(hidden, np.random.default_rng(seed), init=init, inputs=inputs)
    assert isinstance(network, Network)
    options = make_game(game_id).core_options()
    weights = [np.ascontiguousarray(array, dtype="<f4").tobytes() for array in (network.w1, network.b1, network.w2)]
    b2, stream, begun = float(network.b2), seed, time.perf_counter()
    for done in range(0, games, chunk):
        step = min(chunk, games - done)
        *weights, b2, stream = ACCELERATORS.td_self_play(game_id, *weights, b2, network.inputs, games=step,
                                                        rng=stream, alpha=alpha, lam=lam, **options)
        report(f"{game_id}: {done + step} games, {(done + step) / (time.perf_counter() - begun):.0f} games/s")
    w1, b1, w2 = (np.frombuffer(data, dtype="<f4").astype(np.float64) for data in weights)
    return Network(w1.reshape(network.w1.shape), b1, w2, np.array(b2), network.inputs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, required=True)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--hidden", type=int, help=f"hidden units (default {DEFAULT_HIDDEN}, or --init's; more "
                        "than --init's grows it)")
    parser.add_argument("--inputs", choices=list(td_inputs.EXTRAS),
                        help="what the network reads besides the features (bots/python/td_inputs.py; default: "
                        "--init's, else plain)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--alpha", type=float, default=0.01, help="learning rate")
    parser.add_argument("--lam", type=float, default=0.7, help="trace decay (lambda)")
    parser.add_argument("--out", type=Path,
                        help=f"where to write the network (default {WEIGHTS}/<game>.npz or <game>-outcomes.npz)")
    parser.add_argument("--outcomes", action="store_true", help="train an outcome network (win, win of 2, loss of 2)")
    parser.add_argument("--init", type=Path, help="a points network to go on training (with --outcomes: whose hidden "
                        "layer to learn on)")
    parser.add_argument("--engine", choices=("python", "native"), default="python",
                        help="where the games are played and the network learns: in numpy (float64, dice from "
                        "random.Random) or in the native core (float32, dice from the playouts' stream, about eight "
                        "times faster; points networks only)")
    args = parser.parse_args(argv)
    if args.games < 1 or (args.hidden is not None and args.hidden < 1):
        parser.error("--games and --hidden must be positive")
    if args.engine == "native" and args.outcomes:
        parser.error("--outcomes trains in numpy only: leave out --engine native")
    if args.engine == "native" and ACCELERATORS is None:
        parser.error("--engine native: the native core is not installed (pip install ./native)")
    try:
        init = Network.load(args.init) if args.init else None
        td_inputs.check_suits(args.inputs or (init.inputs if init else "plain"), args.game)
        if init and args.inputs:
            init.widened(args.inputs)
        if init and args.hidden:
            if args.outcomes and args.hidden != init.w1.shape[0]:
                raise ValueError("--outcomes learns on --init's hidden layer: leave --hidden out")
            init.grown(args.hidden, np.random.default_rng(0))
    except ValueError as error:
        parser.error(str(error))
    start = time.perf_counter()
    if args.engine == "native":
        network: Trained = train_native(args.game, args.games, args.hidden, args.seed, args.alpha, args.lam,
                                        init=init, inputs=args.inputs)
    else:
        network = train(args.game, args.games, args.hidden, args.seed, args.alpha, args.lam, outcomes=args.outcomes,
                        init=init, inputs=args.inputs)
    out = args.out or WEIGHTS / f"{args.game}{'-outcomes' if args.outcomes else ''}.npz"
    network.save(out)
    print(f"{out}: {args.games} games in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
