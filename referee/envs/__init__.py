"""Training environments: every game as a PettingZoo AEC environment, with a fixed, documented encoding of a
seat's view and a fixed vocabulary of tokens that spells every legal action (docs/training.md), and the helper
that plays a trained policy as a bot (:func:`decide_with`).

>>> environment = env("tapa")
>>> environment.reset(seed=3)
>>> observation, reward, terminated, truncated, info = environment.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
((413,), True)
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.games import make_game

from ._aec import KafanaEnv
from ._choices import Choices
from ._encoding import Encoding
from ._encodings import encoding_for
from .policy import Policy, decide_with


def env(game_id: str, options: Mapping[str, str] | None = None, render_mode: str | None = None) -> KafanaEnv:
    """The AEC environment of ``game_id`` with ``options`` (the game's own: ``variant``, ``seats``, ``deck`` …).

    Raises:
        referee.games.UnknownGameError, referee.games.InvalidOptionError: as :func:`referee.games.make_game`.
    """
    return KafanaEnv(make_game(game_id, dict(options or {})), render_mode=render_mode)


__all__ = ["Choices", "Encoding", "KafanaEnv", "Policy", "decide_with", "encoding_for", "env"]
