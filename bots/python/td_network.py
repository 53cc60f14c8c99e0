"""A small value network for the Tabla family, trained by TD(lambda) self-play (:mod:`bots.python.td_train`).

It reads the features of a position (:mod:`referee.games.tabla_family.features`) and estimates the points the side
that just played will score from there, between −2 and 2: one hidden layer of sigmoid units and a linear output,
TD-Gammon's shape. Weights are a small ``.npz`` file per game in ``bots/python/weights/``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: more threads only cost
import numpy as np  # noqa: E402

from referee.games.tabla_family.features import FEATURES

WEIGHTS = Path(__file__).resolve().parent / "weights"
"""Where the trained networks live, one ``<game>.npz`` each."""


@dataclass
class Network:
    """``value(x) = w2 · sigmoid(W1 x + b1) + b2`` for rows x of features."""

    w1: np.ndarray  # (hidden, FEATURES)
    b1: np.ndarray  # (hidden,)
    w2: np.ndarray  # (hidden,)
    b2: np.ndarray  # ()

    @classmethod
    def new(cls, hidden: int, rng: np.random.Generator) -> Network:
        """Small random weights."""
        scale = 1 / np.sqrt(FEATURES)
        return cls(
            rng.normal(0, scale, (hidden, FEATURES)).astype(np.float64),
            np.zeros(hidden),
            rng.normal(0, 1 / np.sqrt(hidden), hidden),
            np.zeros(()),
        )

    @classmethod
    def load(cls, path: Path) -> Network:
        """A network saved by :meth:`save`.

        Raises:
            ValueError: the file is not a network of this shape.
        """
        try:
            with np.load(path) as saved:
                network = cls(saved["w1"], saved["b1"], saved["w2"], saved["b2"])
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(f"{path}: not a saved network ({error})") from None
        if network.w1.ndim != 2 or network.w1.shape[1] != FEATURES or network.w2.shape != network.b1.shape:
            raise ValueError(f"{path}: a network of {network.w1.shape}, not (hidden, {FEATURES})")
        return network

    def save(self, path: Path) -> None:
        """Write the weights as float32 (the file is a few tens of kilobytes)."""
        np.savez_compressed(path, **{name: getattr(self, name).astype(np.float32) for name in ("w1", "b1", "w2", "b2")})

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The value of each row."""
        hidden = 1 / (1 + np.exp(-(rows.astype(self.w1.dtype) @ self.w1.T + self.b1)))  # one dtype: BLAS
        return hidden @ self.w2 + self.b2

    def gradient(self, row: np.ndarray) -> tuple[float, list[np.ndarray]]:
        """The value of one row and its gradient by (w1, b1, w2, b2)."""
        row = row.astype(self.w1.dtype)
        hidden = 1 / (1 + np.exp(-(self.w1 @ row + self.b1)))
        back = self.w2 * hidden * (1 - hidden)
        return float(hidden @ self.w2 + self.b2), [np.outer(back, row), back, hidden, np.ones(())]

    def parameters(self) -> list[np.ndarray]:
        """The arrays the gradient is by, in its order (updated in place by training)."""
        return [self.w1, self.b1, self.w2, self.b2]
