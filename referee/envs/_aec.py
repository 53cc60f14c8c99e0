"""Every game as a PettingZoo AEC environment: agents ``seat_0`` … act in the engine's order, one token at a
time (:mod:`._choices`); chance is drawn from a seeded stream between decisions.

The observation of an agent is a dict: ``observation`` (its encoding's numbers of its own view, then how often each
token was picked so far in the decision at hand) and ``action_mask`` (the tokens it may pick, the last one being
``end``; all zeros when it is not its turn). Rewards come once, at the end: a seat's points minus the mean points
of the other seats (a one-seat game: its points).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from referee.chance import ChanceStream
from referee.games import CHANCE, Game, State
from referee.render import render_view

from ._choices import Choices
from ._encoding import Encoding
from ._encodings import encoding_for


class KafanaEnv(AECEnv):
    """One game (``game``, with its options) as an AEC environment; ``render_mode="ansi"`` renders the spectator's
    view as text."""

    metadata = {"render_modes": ["ansi"], "name": "kafana_v0", "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: use None or 'ansi'")
        self.game = game
        self.encoding: Encoding = encoding_for(game)
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(game.num_seats)]
        self._tokens = len(self.encoding.vocabulary)
        size = self.encoding.observation_size + self._tokens
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self._tokens + 1,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self._tokens + 1) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.state_: State | None = None
        self._choices: Choices | None = None
        self._rng: ChanceStream | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent`` (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The tokens of the game's vocabulary and ``end``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game, its chance drawn from ``seed`` (the same seed, the same game for the same actions); without
        one, from the environment's own sequence of seeds (itself seeded by the last seed given)."""
        if seed is not None:
            self._seeds.seed(seed)
        self._rng = ChanceStream(str(seed if seed is not None else self._seeds.getrandbits(64)))
        self.state_ = self.game.new_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._next_decision()

    def _next_decision(self) -> None:
        """Draw chance up to the next decision (or the end) and select its agent."""
        state = self.state_
        assert state is not None and self._rng is not None
        while state.current_player == CHANCE:
            state.apply(state.sample_chance(self._rng))
        if state.is_terminal():
            self._choices = None
            points = state.outcome().points
            for seat, agent in enumerate(self.possible_agents):
                others = [p for other, p in enumerate(points) if other != seat]
                self.rewards[agent] = float(points[seat] - (sum(others) / len(others) if others else 0))
                self.terminations[agent] = True
            self.agent_selection = self.agents[0]
            return
        self._choices = Choices(state.legal_actions(), self.encoding.tokens, self._tokens)
        self.agent_selection = self.possible_agents[state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation: its view's encoding and the picks so far, and its action mask."""
        assert self.state_ is not None
        seat = self.possible_agents.index(agent)
        picked = np.zeros(self._tokens, dtype=np.float32)
        mask = np.zeros(self._tokens + 1, dtype=np.int8)
        if self._choices is not None and agent == self.agent_selection:
            np.add.at(picked, self._choices.picked, 1.0)
            mask = self._choices.mask()
        view = self.encoding.observe(self.state_.view(seat))
        return {"observation": np.concatenate([view, picked]), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent picks token ``action`` (None once it is terminated).

        Raises:
            ValueError: the token is not offered (see the action mask).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._choices is not None and self.state_ is not None
        self._cumulative_rewards[agent] = 0.0
        chosen = self._choices.pick(int(action))  # type: ignore[arg-type]
        if chosen is not None:
            self.state_.apply(self.state_.legal_actions()[chosen])
            self._next_decision()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The spectator's view as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return render_view(self.state_.spectator_view())

    def close(self) -> None:
        """Nothing to release."""
