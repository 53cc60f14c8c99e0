"""Train a policy in minutes: a linear softmax over the tokens of a game's environment (:mod:`referee.envs`),
learned by REINFORCE against a random opponent, with numpy alone. An example of the training API, not a strong bot:
the network of :mod:`bots.python.td_train` is what a serious Tabla bot learns with.

Usage: python -m bots.python.policy_train --game durak --games 3000 --out policy-durak.npz [--seed 1]

It plays ``--games`` games in the environment (the learner in every seat in turn, the others picking uniformly
among the offered tokens), nudges the weights after each game towards the tokens picked, by the game's reward
above the running average, and prints the learner's results against random every tenth of the way, each over the
same seeded games. The policy it saves is served as a bot by :mod:`bots.python.policy_bot`.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from referee.envs import env


@dataclass
class LinearPolicy:
    """Logits ``weights @ [observation, 1]`` over the tokens, masked; the most likely token, or (with ``rng``) one
    drawn from the softmax."""

    game: str
    weights: np.ndarray

    @classmethod
    def zeros(cls, game: str) -> LinearPolicy:
        """An untrained policy for ``game``: every offered token alike."""
        space = env(game)
        agent = space.possible_agents[0]
        tokens = space.action_space(agent).n
        size = space.observation_space(agent)["observation"].shape[0]
        return cls(game, np.zeros((tokens, size + 1), dtype=np.float64))

    def probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The softmax of the offered tokens' logits (zero for the others)."""
        logits = self.weights @ np.append(observation, 1.0)
        logits = np.where(mask.astype(bool), logits, -np.inf)
        logits -= logits.max()
        weights = np.exp(logits)
        return weights / weights.sum()

    def __call__(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None = None) -> int:
        """A token: the most likely, or one drawn with ``rng``."""
        chances = self.probabilities(observation, mask)
        return int(rng.choice(len(chances), p=chances)) if rng is not None else int(np.argmax(chances))

    def save(self, path: Path) -> None:
        """Write the weights and the game to an ``.npz`` file."""
        np.savez_compressed(path, weights=self.weights, game=np.array(self.game))

    @classmethod
    def load(cls, path: Path) -> LinearPolicy:
        """Read a policy written by :meth:`save`."""
        with np.load(path) as data:
            return cls(str(data["game"]), data["weights"])


def play(policy: LinearPolicy, game: str, seed: int, learner: int, rng: np.random.Generator | None,
         opponent: random.Random) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
    """One game: the learner's reward and its (observation, mask, token) picks."""
    space = env(game)
    space.reset(seed=seed)
    mine = space.possible_agents[learner]
    picks = []
    result = 0.0
    for agent in space.agent_iter():
        observation, reward, terminated, truncated, _ = space.last()
        if terminated or truncated:
            if agent == mine:
                result = reward
            space.step(None)
            continue
        mask = observation["action_mask"]
        if agent == mine:
            token = policy(observation["observation"], mask, rng)
            picks.append((observation["observation"], mask, token))
        else:
            token = opponent.choice(np.flatnonzero(mask).tolist())
        space.step(token)
    return result, picks


def evaluate(policy: LinearPolicy, game: str, games: int, seed: int = 10_000) -> float:
    """The learner's mean reward over ``games`` seeded games against random, in every seat in turn, its tokens
    drawn from its softmax (an untrained policy is then a random player too: 0 on average in a fair game)."""
    seats = len(env(game).possible_agents)
    rng = np.random.default_rng(seed)
    total = 0.0
    for index in range(games):
        reward, _ = play(policy, game, seed + index, index % seats, rng, random.Random(seed + index))
        total += reward
    return total / games


def train(game: str, games: int, seed: int = 1, rate: float = 0.01,
          report: int = 0) -> LinearPolicy:
    """REINFORCE with a running-average baseline, ``games`` games; every ``report`` games, print the results."""
    policy = LinearPolicy.zeros(game)
    rng = np.random.default_rng(seed)
    opponent = random.Random(seed)
    seats = len(env(game).possible_agents)
    baseline = 0.0
    start = time.perf_counter()
    for index in range(games):
        reward, picks = play(policy, game, seed * 1_000_003 + index, index % seats, rng, opponent)
        advantage = reward - baseline
        baseline += 0.01 * (reward - baseline)
        for observation, mask, token in picks:
            chances = policy.probabilities(observation, mask)
            chances[token] -= 1.0  # minus the gradient of log p(token) with respect to the logits
            policy.weights -= rate * advantage * np.outer(chances, np.append(observation, 1.0))
        if report and (index + 1) % report == 0:
            print(f"{index + 1} games, {time.perf_counter() - start:.0f} s: mean reward against random "
                  f"{evaluate(policy, game, 100):+.3f}", flush=True)
    return policy


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="durak")
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate", type=float, default=0.01)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    print(f"untrained: mean reward against random {evaluate(LinearPolicy.zeros(args.game), args.game, 100):+.3f}")
    policy = train(args.game, args.games, args.seed, args.rate, report=max(args.games // 10, 1))
    policy.save(args.out)
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
