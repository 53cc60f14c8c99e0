"""A trained policy as a bot: the linear policy of :mod:`bots.python.policy_train` (its ``.npz`` file named by
``KAFANA_POLICY``, relative to the bot's folder), played by :func:`referee.envs.decide_with` exactly as it played
in its training environment, its most likely token each time.

A bot folder for it (``ladder submit`` and ``referee check-bot`` take it)::

    name = "my-policy"
    command = ["python3", "policy_bot.py"]
    games = ["durak"]
    env = { KAFANA_POLICY = "policy-durak.npz" }
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: more threads only cost

from bots.python.kit import serve
from bots.python.policy_train import LinearPolicy
from referee.envs import decide_with

POLICY_ENV = "KAFANA_POLICY"
"""The variable naming the policy's file."""


def main() -> None:
    """Serve the policy named by ``KAFANA_POLICY``."""
    path = os.environ.get(POLICY_ENV)
    if not path:
        raise SystemExit(f"{POLICY_ENV} must name the policy's .npz file (python -m bots.python.policy_train)")
    try:
        policy = LinearPolicy.load(Path(path))
    except (OSError, KeyError, ValueError) as exc:
        raise SystemExit(f"cannot read the policy {path}: {exc}") from None
    serve(decide_with(policy), name=f"policy-{policy.game}", version="1.0", author="Kafana", games=[policy.game])


if __name__ == "__main__":
    main()
