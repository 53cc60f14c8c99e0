"""Chance: every die and card the referee draws comes from one seed through a keyed pseudo-random function.

A :class:`ChanceStream` is HMAC-SHA256 in counter mode keyed by the seed: block ``i`` is
``HMAC-SHA256(seed, "kafana-chance/1:" + i)``, read as a stream of bits. Without the seed, no number of draws
already seen predicts the next one (the draws of a Mersenne Twister give its state away after a few hundred), and
nothing public about a match (its id, its place in a league, the bots) is an input.

A seed is public or secret (:class:`Chance`). ``referee play --seed N`` gives public seeds: anybody can replay the
same dice. A ladder match draws a secret seed of 256 bits from :mod:`secrets`; the replay's header carries only its
*commitment* (a SHA-256 hash) while the match is played, the seed itself is written when the match ends, and
``referee verify`` checks the seed against the commitment and draws every chance step again.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from dataclasses import dataclass

_BLOCK_PREFIX = b"kafana-chance/1:"
_COMMIT_PREFIX = b"kafana-seed/1:"
SECRET_BYTES = 32
"""Bytes of a secret seed (256 bits)."""


def new_secret_seed() -> str:
    """A fresh secret seed: 256 bits from the operating system, as hex.

    >>> len(new_secret_seed())
    64
    """
    return secrets.token_hex(SECRET_BYTES)


def commitment(seed: str) -> str:
    """The public commitment to ``seed`` (hex SHA-256 with a domain prefix): it names the seed without telling it.

    >>> commitment("7") == commitment("7") != commitment("8")
    True
    """
    return hashlib.sha256(_COMMIT_PREFIX + seed.encode()).hexdigest()


class ChanceStream(random.Random):
    """A :class:`random.Random` whose bits come from HMAC-SHA256 of ``seed`` in counter mode.

    Engines draw with ``random()`` and ``randrange()``, which read :meth:`getrandbits` (the way
    :class:`random.SystemRandom` does), so the same seed gives the same draws on every machine and Python version.

    >>> a, b = ChanceStream("7"), ChanceStream("7")
    >>> [a.randrange(6) for _ in range(5)] == [b.randrange(6) for _ in range(5)]
    True
    >>> 0.0 <= ChanceStream("7").random() < 1.0
    True
    """

    def __init__(self, seed: str) -> None:
        self._key = b""
        self._counter = 0
        self._bits = 0
        self._left = 0
        super().__init__(seed)

    def seed(self, a: object = None, version: int = 2) -> None:  # noqa: ARG002 (random.Random's signature)
        """Start the stream of the seed ``a`` (a string) from its first block."""
        if not isinstance(a, str):
            raise TypeError(f"a chance seed is a string, not {type(a).__name__}")
        self._key = a.encode()
        self._counter = 0
        self._bits = 0
        self._left = 0

    def getrandbits(self, k: int) -> int:
        """The next ``k`` bits of the stream as an integer."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._left < k:
            block = hmac.digest(self._key, _BLOCK_PREFIX + self._counter.to_bytes(8, "big"), "sha256")
            self._counter += 1
            self._bits = (self._bits << 256) | int.from_bytes(block, "big")
            self._left += 256
        self._left -= k
        value = self._bits >> self._left
        self._bits &= (1 << self._left) - 1
        return value

    def random(self) -> float:
        """A float in [0, 1) from the next 53 bits."""
        return self.getrandbits(53) * (2.0**-53)

    def getstate(self) -> tuple[int, ...]:
        """Not supported: a stream is rebuilt from its seed."""
        raise NotImplementedError("a chance stream has no state to save; make a new one from the seed")

    def setstate(self, state: object) -> None:
        """Not supported (see :meth:`getstate`)."""
        raise NotImplementedError("a chance stream has no state to restore; make a new one from the seed")


@dataclass(frozen=True)
class Chance:
    """The seed of one match and whether it is public (local play) or secret until the match ends (a ladder)."""

    seed: str
    public: bool = True

    @property
    def commitment(self) -> str:
        """The commitment to the seed, public from the start."""
        return commitment(self.seed)

    def stream(self) -> ChanceStream:
        """A fresh stream of the seed, from its first draw."""
        return ChanceStream(self.seed)
