"""The legal actions of one decision, spelled in tokens: which tokens continue what was picked so far, and which
action the picks stand for once they spell one.

>>> choices = Choices(["lead 9C", "lead 9C 9D", "take"], {"lead 9C": (0, 9), "lead 9C 9D": (0, 9, 10),
...                                                       "take": (4,)}.__getitem__, vocabulary=11)
>>> [token for token, allowed in enumerate(choices.mask()) if allowed]
[0, 4]
>>> choices.pick(0), choices.pick(9), [token for token, allowed in enumerate(choices.mask()) if allowed]
(None, None, [10, 11])
>>> choices.pick(choices.end)  # the end token: the action spelled so far
0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


class Choices:
    """The actions of one decision (in the engine's order) and the tokens picked so far.

    A token is offered when it continues the picks towards some action; ``end`` (the token after the
    vocabulary) is offered when the picks spell one action whole and others continue them. Once one action alone
    continues the picks, it is the choice.

    Raises:
        ValueError: two actions are spelled alike (the encoding cannot tell them apart), or an action is not
            spelled at all.
    """

    def __init__(self, actions: Sequence[Any], spell: Callable[[Any], tuple[int, ...]], vocabulary: int) -> None:
        self.end = vocabulary
        self.spelled = [spell(action) for action in actions]
        if len(set(self.spelled)) != len(self.spelled) or any(not tokens for tokens in self.spelled):
            raise ValueError(f"actions spelled alike or not at all: {self.spelled}")
        self.picked: list[int] = []
        self._left = list(range(len(self.spelled)))

    def mask(self) -> np.ndarray:
        """1 for each token that may be picked next (the vocabulary's tokens, then ``end``), as int8."""
        allowed = np.zeros(self.end + 1, dtype=np.int8)
        depth = len(self.picked)
        for index in self._left:
            tokens = self.spelled[index]
            allowed[tokens[depth] if len(tokens) > depth else self.end] = 1
        return allowed

    def pick(self, token: int) -> int | None:
        """Pick ``token``; returns the index of the chosen action once the picks choose one, else None.

        Raises:
            ValueError: ``token`` is not offered (:meth:`mask`).
        """
        depth = len(self.picked)
        if token == self.end:
            whole = [index for index in self._left if len(self.spelled[index]) == depth]
            if not whole:
                raise ValueError("end is not offered: the picks spell no action yet")
            return whole[0]
        left = [i for i in self._left if len(self.spelled[i]) > depth and self.spelled[i][depth] == token]
        if not left:
            raise ValueError(f"token {token} is not offered here")
        self.picked.append(token)
        self._left = left
        if len(left) == 1:
            return left[0]
        return None
