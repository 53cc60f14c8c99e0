"""A trained policy played as a bot: the request a bot is sent, encoded as the training environment encodes it,
and the policy's tokens picked until they choose a legal action.

>>> from bots.python.kit import serve                               # doctest: +SKIP
>>> serve(decide_with(my_policy), name="mine", games=["tapa"])      # doctest: +SKIP

The bot must ask for each legal action's structured detail (the kit's default): the tokens spell it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np

from referee.games import make_game
from referee.wire import ActRequest, ActResponse

from ._choices import Choices
from ._encoding import Encoding
from ._encodings import encoding_for

log = logging.getLogger(__name__)

Policy = Callable[[np.ndarray, np.ndarray], int]
"""A policy: an observation (the environment's ``observation`` array) and its action mask in, a token out."""


def decide_with(policy: Policy) -> Callable[[ActRequest], ActResponse]:
    """A bot's decision function (for ``bots.python.kit.serve``) that plays ``policy``, exactly as the
    environment of :mod:`referee.envs` would have it play: the same observation, the same mask, the same tokens.
    A token the mask does not offer is replaced by the first one it offers (and logged): a bot never answers
    with an action that is not legal.

    Raises:
        ValueError: the request carries no structured detail of its actions (a bot must not decline it).
    """
    encodings: dict[str, Encoding] = {}

    def decide(request: ActRequest) -> ActResponse:
        encoding = encodings.get(request.game)
        if encoding is None:
            encoding = encodings[request.game] = encoding_for(make_game(request.game, request.options))
        actions = [legal.action for legal in request.legal_actions]
        if any(action is None for action in actions):
            raise ValueError("the request's legal actions carry no detail: serve with action_detail=True")
        tokens = len(encoding.vocabulary)
        choices = Choices(actions, encoding.tokens, tokens)
        view = encoding.observe(request.view)
        picked = np.zeros(tokens, dtype=np.float32)
        while True:
            mask = choices.mask()
            token = int(policy(np.concatenate([view, picked]), mask))
            if not 0 <= token < len(mask) or not mask[token]:
                log.warning("the policy picked token %d, which is not offered; playing the first offered", token)
                token = int(np.flatnonzero(mask)[0])
            chosen = choices.pick(token)
            if chosen is not None:
                return ActResponse(request.legal_actions[chosen].id)
            picked[token] += 1.0

    return decide
