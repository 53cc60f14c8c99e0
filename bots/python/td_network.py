"""A small value network for the Tabla family, trained by TD(lambda) self-play (:mod:`bots.python.td_train`).

It reads the features of a position (:mod:`referee.games.tabla_family.features`), and a few inputs computed from
them if its input set says so (:mod:`bots.python.td_inputs`), and estimates the points the side that just played
will score from there, between −2 and 2: one hidden layer of sigmoid units and a linear output,
TD-Gammon's shape. Weights are a small ``.npz`` file per game in ``bots/python/weights/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Self

import numpy as np
from threadpoolctl import threadpool_limits

from bots.python.td_inputs import EXTRAS, extends, inputs, width
from referee.games.engine import ACCELERATORS

if TYPE_CHECKING:
    from kafana_native.bots import ValueNet

threadpool_limits(1, user_api="blas")  # small matrices: more BLAS threads only cost (and spin on the other core)

WEIGHTS = Path(__file__).resolve().parent / "weights"
"""Where the trained networks live, one ``<game>.npz`` each."""


@dataclass
class _Layers:
    """One hidden layer of sigmoid units over the features and an output layer: the arrays and how they are kept."""

    w1: np.ndarray  # (hidden, inputs)
    b1: np.ndarray  # (hidden,)
    w2: np.ndarray  # (hidden,) for one output, (outputs, hidden) for several
    b2: np.ndarray  # () or (outputs,)
    inputs: str = "plain"  # the input set (td_inputs.EXTRAS)

    OUTPUTS = 1
    """How many numbers the network gives a position."""
    OUTPUT_BIAS: float | tuple[float, ...] = 0.0
    """The output biases of a new network (a number for one output: its ``w2`` is then a vector)."""

    @classmethod
    def new(cls, hidden: int, rng: np.random.Generator, inputs: str = "plain") -> Self:
        """Small random weights over the input set ``inputs``."""
        bias = np.array(cls.OUTPUT_BIAS, dtype=np.float64)
        return cls(
            rng.normal(0, 1 / np.sqrt(width(inputs)), (hidden, width(inputs))).astype(np.float64),
            np.zeros(hidden),
            rng.normal(0, 1 / np.sqrt(hidden), bias.shape + (hidden,)),
            bias,
            inputs,
        )

    @classmethod
    def load(cls, path: Path) -> Self:
        """A network saved by :meth:`save`.

        Raises:
            ValueError: the file is not a network of this shape.
        """
        try:
            with np.load(path) as saved:
                kind = str(saved["inputs"]) if "inputs" in saved else "plain"
                network = cls(saved["w1"], saved["b1"], saved["w2"], saved["b2"], kind)
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(f"{path}: not a saved network ({error})") from None
        if kind not in EXTRAS:
            raise ValueError(f"{path}: inputs {kind!r}, not one of {', '.join(EXTRAS)}")
        if network.w1.ndim != 2 or network.w1.shape[1] != width(kind) or network.w2.shape[-1:] != network.b1.shape:
            raise ValueError(f"{path}: a network of {network.w1.shape}, not (hidden, {width(kind)})")
        outputs = 1 if network.w2.ndim == 1 else network.w2.shape[0]
        if outputs != cls.OUTPUTS:
            raise ValueError(f"{path}: a network of {outputs} outputs, not {cls.OUTPUTS}")
        return network

    def save(self, path: Path) -> None:
        """Write the weights as float32 (the file is a few tens of kilobytes) and the input set."""
        arrays = {name: getattr(self, name).astype(np.float32) for name in ("w1", "b1", "w2", "b2")}
        np.savez_compressed(path, **arrays, **({} if self.inputs == "plain" else {"inputs": np.array(self.inputs)}))

    def hidden(self, rows: np.ndarray) -> np.ndarray:
        """The hidden units of each row."""
        rows = inputs(rows, self.inputs, self.w1.dtype).astype(self.w1.dtype, copy=False)  # one dtype: BLAS
        return 1 / (1 + np.exp(-(rows @ self.w1.T + self.b1)))

    def widened(self, kind: str) -> Self:
        """This network reading the input set ``kind``, which begins with this network's inputs; the weights of the
        inputs it adds start at zero (it values every position as before until it learns them).

        Raises:
            ValueError: ``kind`` does not begin with this network's inputs.
        """
        if kind == self.inputs:
            return self
        if not extends(kind, self.inputs):
            raise ValueError(f"a network reading {self.inputs!r} cannot be made to read {kind!r}")
        extra = np.zeros((self.w1.shape[0], width(kind) - self.w1.shape[1]), dtype=self.w1.dtype)
        return type(self)(np.concatenate([self.w1, extra], axis=1), self.b1, self.w2, self.b2, kind)

    def grown(self, hidden: int, rng: np.random.Generator) -> Self:
        """This network with ``hidden`` hidden units, the units it adds reading the inputs by small random weights
        and leaving the outputs by zero ones (it values every position as before until it learns them).

        Raises:
            ValueError: ``hidden`` is fewer units than this network has.
        """
        have = self.w1.shape[0]
        if hidden < have:
            raise ValueError(f"a network of {have} hidden units cannot be made one of {hidden}")
        if hidden == have:
            return self
        added = hidden - have
        w1 = rng.normal(0, 1 / np.sqrt(self.w1.shape[1]), (added, self.w1.shape[1])).astype(self.w1.dtype)
        w2 = np.zeros(self.w2.shape[:-1] + (added,), dtype=self.w2.dtype)
        return type(self)(np.concatenate([self.w1, w1]), np.concatenate([self.b1, np.zeros(added, self.b1.dtype)]),
                          np.concatenate([self.w2, w2], axis=-1), self.b2, self.inputs)

    def parameters(self) -> list[np.ndarray]:
        """The arrays the gradient is by, in its order (updated in place by training)."""
        return [self.w1, self.b1, self.w2, self.b2]


class Network(_Layers):
    """``value(x) = w2 · sigmoid(W1 x + b1) + b2`` for rows x of features: the points the side that just played
    will score, less the other side's."""

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The value of each row."""
        return self.hidden(rows) @ self.w2 + self.b2

    def native(self) -> ValueNet | None:
        """A copy of this network, its weights as they are now in float32, in the native core (which values the
        best reply to every roll without handing the rows back), or None without the core."""
        if ACCELERATORS is None:
            return None
        f4 = [np.ascontiguousarray(array, dtype="<f4").tobytes() for array in (self.w1, self.b1, self.w2)]
        return ACCELERATORS.ValueNet(*f4, float(self.b2), self.inputs)

    def gradient(self, row: np.ndarray) -> tuple[float, list[np.ndarray]]:
        """The value of one row and its gradient by (w1, b1, w2, b2)."""
        row = inputs(row[None], self.inputs)[0].astype(self.w1.dtype)
        hidden = 1 / (1 + np.exp(-(self.w1 @ row + self.b1)))
        back = self.w2 * hidden * (1 - hidden)
        return float(hidden @ self.w2 + self.b2), [np.outer(back, row), back, hidden, np.ones(())]


class OutcomeNetwork(_Layers):
    """``outcomes(x) = sigmoid(W2 · sigmoid(W1 x + b1) + b2)``: for the side that just played, the chances that
    it wins, that it wins two points (mars, the mother) and that it loses two, TD-Gammon's outputs. A match
    player weighs these by the match score (:mod:`bots.python.match_equity`); :meth:`values` gives the points
    they imply, as :class:`Network` does (a drawn game counts as half a win)."""

    OUTPUTS = 3
    OUTPUT_BIAS = (0.0, -1.5, -1.5)  # the two-point outputs start near 0.2

    @classmethod
    def from_points(cls, points: Network, rng: np.random.Generator) -> OutcomeNetwork:
        """A network with ``points``' hidden layer (what it learnt of positions) and small random outputs."""
        network = cls.new(points.w1.shape[0], rng, points.inputs)
        network.w1, network.b1 = points.w1.astype(np.float64), points.b1.astype(np.float64)
        return network

    def outcomes(self, rows: np.ndarray) -> np.ndarray:
        """Each row's (P(win), P(win of two), P(loss of two))."""
        return 1 / (1 + np.exp(-(self.hidden(rows) @ self.w2.T + self.b2)))

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The points each row's outcomes imply: 2 P(win) − 1 + P(win of two) − P(loss of two)."""
        p = self.outcomes(rows)
        return 2 * p[:, 0] - 1 + p[:, 1] - p[:, 2]

    def gradient(self, row: np.ndarray, hidden_layer: bool = True) -> tuple[np.ndarray, list[np.ndarray]]:
        """The outcomes of one row and the gradient of each by (w1, b1, w2, b2), or by (w2, b2) alone without
        ``hidden_layer``: arrays with the output first."""
        row = inputs(row[None], self.inputs)[0].astype(self.w1.dtype)
        hidden = 1 / (1 + np.exp(-(self.w1 @ row + self.b1)))
        out = 1 / (1 + np.exp(-(self.w2 @ hidden + self.b2)))
        slope = out * (1 - out)  # (outputs,)
        eye = np.eye(self.OUTPUTS)
        outputs = [eye[:, :, None] * (slope[:, None] * hidden), eye * slope]
        if not hidden_layer:
            return out, outputs
        back = slope[:, None] * self.w2 * (hidden * (1 - hidden))  # (outputs, hidden)
        return out, [back[:, :, None] * row, back, *outputs]


def outcome_target(points: tuple[int, int]) -> np.ndarray:
    """What an :class:`OutcomeNetwork` should say of a finished game with ``points`` (the side's first).

    >>> outcome_target((2, 0)).tolist(), outcome_target((0, 1)).tolist(), outcome_target((1, 1)).tolist()
    ([1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.5, 0.0, 0.0])
    """
    mine, theirs = points
    won = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return np.array([won, float(mine > theirs and mine >= 2), float(theirs > mine and theirs >= 2)])
