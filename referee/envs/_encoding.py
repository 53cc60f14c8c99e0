"""What a training environment needs of a game family: a fixed observation of a seat's view and a fixed
vocabulary of tokens that spells every legal action.

An action is spelled as a short sequence of tokens (a Tabla play as its steps, a Durak action as its kind and
cards); an agent picks one token at a time among those that continue some legal action (:mod:`._choices`), so
the action space is the vocabulary, the same at every decision, and the mask is exact. The observation is made
from the seat's view alone (the only thing a bot is sent), followed by how often each token was picked so far in
the decision at hand.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np


class Encoding(Protocol):
    """A game family's fixed encoding of views and actions, for one game with its options."""

    observation_size: int
    """Numbers in :meth:`observe`'s array (the picked tokens' counts not included)."""
    vocabulary: tuple[str, ...]
    """Every token's name (``token(i)`` is ``vocabulary[i]``), for documentation and debugging."""

    def observe(self, view: Any) -> np.ndarray:
        """The float32 array of ``view`` (a seat's view of the game)."""
        ...

    def tokens(self, action: Any) -> tuple[int, ...]:
        """The tokens that spell ``action`` (distinct actions of one decision are spelled differently)."""
        ...


def floats(*values: float) -> np.ndarray:
    """A float32 array of ``values`` (True and False as 1 and 0)."""
    return np.array(values, dtype=np.float32)


def one_hot(size: int, index: int) -> np.ndarray:
    """A float32 array of ``size`` zeros with a one at ``index`` (none when ``index`` is out of range)."""
    out = np.zeros(size, dtype=np.float32)
    if 0 <= index < size:
        out[index] = 1.0
    return out


def cards_hot(cards: Any, deck: int = 52) -> np.ndarray:
    """A float32 array with a one for each card of ``cards`` (card integers 0..51; others are left out)."""
    out = np.zeros(deck, dtype=np.float32)
    for card in cards:
        if 0 <= card < deck:
            out[card] = 1.0
    return out
