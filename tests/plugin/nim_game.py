"""Nim as a game added from outside the project: one module and one registration, found through the entry point
group ``kafana.games`` (the test makes the entry point; nothing of Kafana names this game).

Normal play: two seats take turns taking one or more objects from one heap; whoever takes the last object wins.
The heaps (``heaps`` of them, 1 to 7 objects each) are drawn by chance at the start.

>>> game = Nim()
>>> state = game.new_state()
>>> state.apply(Heaps((1, 2, 3)))
>>> [a.notation() for a in state.legal_actions()][:4]
['take 1 from heap 1', 'take 1 from heap 2', 'take 2 from heap 2', 'take 1 from heap 3']
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, NamedTuple

import numpy as np

from referee.games import (
    CHANCE,
    TERMINAL,
    Game,
    GameOption,
    IllegalActionError,
    InvalidActionError,
    Outcome,
    State,
    decision_limit_option,
    resolve_options,
)
from referee.games.registry import Registration

MOST = 7
"""The most objects a heap starts with."""


class NimTermination(StrEnum):
    """How a game of Nim ends."""

    LAST_TAKEN = "last_taken"


class Heaps(NamedTuple):
    """The chance step: the heaps the game starts with."""

    sizes: tuple[int, ...]

    def notation(self) -> str:
        return "heaps " + " ".join(map(str, self.sizes))


class Take(NamedTuple):
    """Take ``count`` objects from heap ``heap`` (0-based; written 1-based)."""

    heap: int
    count: int

    def notation(self) -> str:
        return f"take {self.count} from heap {self.heap + 1}"


@dataclasses.dataclass(frozen=True)
class NimView:
    """What a seat sees (everything): the heaps and whose turn it is (-1: chance or the end)."""

    seat: int
    heaps: tuple[int, ...]
    to_move: int


class Nim(Game):
    """Nim with ``heaps`` heaps."""

    id = "nim"
    terminations = NimTermination
    OPTIONS = (GameOption("heaps", "3", ("2", "3", "4"), "heaps to play with"), decision_limit_option(100))

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = resolve_options(self.id, self.OPTIONS, options)
        self.heaps = int(self.options["heaps"])

    @property
    def num_seats(self) -> int:
        return 2

    def new_state(self) -> NimState:
        return NimState(self)

    def parse_action(self, text: str, state: State) -> Any:
        if text.startswith("heaps "):
            try:
                action: Any = Heaps(tuple(int(word) for word in text.split()[1:]))
            except ValueError:
                raise InvalidActionError(f"not a Nim chance step: {text!r}") from None
            legal = [outcome for outcome, _ in state.chance_outcomes()]
        else:
            words = text.split()
            if len(words) != 5 or words[0] != "take" or not words[1].isdigit() or not words[4].isdigit():
                raise InvalidActionError(f"not a Nim move: {text!r}")
            action = Take(int(words[4]) - 1, int(words[1]))
            legal = list(state.legal_actions())
        if action not in legal:
            raise IllegalActionError(f"{text!r} is not legal here")
        return action


class NimState(State):
    """A position of Nim."""

    def __init__(self, game: Nim) -> None:
        self.game = game
        self.heaps: tuple[int, ...] = ()
        self.to_move = CHANCE
        self.last = -1

    @property
    def current_player(self) -> int:
        return self.to_move

    def legal_actions(self) -> list[Take]:
        if self.to_move < 0:
            return []
        return [Take(heap, count) for heap, size in enumerate(self.heaps) for count in range(1, size + 1)]

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.to_move != CHANCE:
            return []
        every = list(itertools.product(range(1, MOST + 1), repeat=self.game.heaps))
        return [(Heaps(sizes), 1 / len(every)) for sizes in every]

    def apply(self, action: Any) -> None:
        if self.to_move == CHANCE and isinstance(action, Heaps) and len(action.sizes) == self.game.heaps:
            self.heaps, self.to_move = action.sizes, 0
            return
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal here")
        heaps = list(self.heaps)
        heaps[action.heap] -= action.count
        self.heaps = tuple(heaps)
        self.last = self.to_move
        self.to_move = TERMINAL if not any(heaps) else 1 - self.to_move

    def outcome(self) -> Outcome:
        if self.to_move != TERMINAL:
            raise ValueError("the game is not over")
        return Outcome(NimTermination.LAST_TAKEN, tuple(int(seat == self.last) for seat in range(2)))

    def view(self, seat: int) -> NimView:
        return NimView(seat, self.heaps, self.to_move if self.to_move >= 0 else -1)

    def spectator_view(self) -> NimView:
        return self.view(-1)

    def clone(self) -> NimState:
        return copy.copy(self)  # every field is immutable


def render_nim(view: NimView, names: tuple[str, ...] | None = None) -> str:
    """The heaps as rows of objects.

    >>> print(render_nim(NimView(0, (1, 3), 1)))
    heap 1: o
    heap 2: o o o
    to move: seat 1
    """
    lines = [f"heap {number}: {' '.join('o' * size) or '-'}" for number, size in enumerate(view.heaps, 1)]
    lines.append(f"to move: seat {view.to_move}" if view.to_move >= 0 else "over")
    return "\n".join(lines)


class NimEncoding:
    """The training encoding: each heap's size over 7 and whether the seat is to move; an action is spelled as its
    heap, then how many it takes."""

    def __init__(self, game: Game) -> None:
        self.heaps = int(game.options["heaps"])
        self.observation_size = self.heaps + 1
        self.vocabulary = tuple(f"heap {h + 1}" for h in range(self.heaps)) + tuple(
            f"take {n}" for n in range(1, MOST + 1))

    def observe(self, view: NimView) -> np.ndarray:
        return np.array([size / MOST for size in view.heaps] + [view.to_move == view.seat], dtype=np.float32)

    def tokens(self, action: Take) -> tuple[int, ...]:
        return action.heap, self.heaps + action.count - 1


REGISTRATION = Registration(
    games={"nim": Nim},
    views=(NimView,),
    render=render_nim,
    aliases={"nym": "nim"},
    action_json=lambda action: {"heap": action.heap, "count": action.count},
    encoding=NimEncoding,
)
"""Nim, registered: drawn as text, sent as JSON."""
