"""The engine contract shared by every game (the OpenSpiel State shape).

A :class:`Game` is immutable: it holds the options and makes states. A :class:`State` is a pure state machine:
whoever must act is ``current_player`` (a seat, :data:`CHANCE` or :data:`TERMINAL`), the legal actions are a
sorted sequence with one entry per distinct result (a list, or a view that makes its entries when they are
read), and ``apply`` moves the state on. Chance steps are ordinary actions whose probabilities come from
:meth:`State.chance_outcomes`; engines hold no random generator.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Protocol, Self

CHANCE = -1
"""``current_player`` while a chance step (dice, shuffle) is due."""

TERMINAL = -2
"""``current_player`` once the game is over."""


class InvalidActionError(ValueError):
    """A text could not be read as an action of this game."""


class IllegalActionError(ValueError):
    """An action is well formed but not legal in the state it was applied to."""


class InvalidOptionError(ValueError):
    """A game option is unknown or has a value the game does not accept."""


class Action(Protocol):
    """What every action (chance or decision) offers: a notation that ``Game.parse_action`` reads back."""

    def notation(self) -> str:
        """Return the action in the game's readable notation."""
        ...


@dataclass(frozen=True)
class Outcome:
    """How a game ended.

    Attributes:
        termination: a short word naming the way it ended: one of its game's :attr:`Game.terminations` (e.g.
            ``"normal"``, ``"mars"``, ``"mother"``), or :data:`LIMIT` or :data:`FAULT`.
        points: points scored per seat (a draw scores nothing for anybody in the Tabla family).
    """

    termination: str
    points: tuple[int, ...]
    games: tuple[tuple[str, Outcome], ...] = ()
    """For a match: each game's id and outcome, in order."""
    places: tuple[int, ...] = ()
    """For games with finishing places (Durak): each seat's place, 1 = best, ties share a place."""

    @property
    def winner(self) -> int | None:
        """The seat with the most points, or None when no seat scored more than all others."""
        best = max(self.points)
        leaders = [seat for seat, p in enumerate(self.points) if p == best]
        return leaders[0] if len(leaders) == 1 else None


@dataclass(frozen=True)
class GameOption:
    """One option a game accepts: its name, default and the values allowed (all as strings).

    Empty ``choices`` means any positive integer.
    """

    name: str
    default: str
    choices: tuple[str, ...]
    help: str = ""


LIMIT = "limit"
"""The termination of a game the referee ended at its decision limit (a draw)."""
FAULT = "fault"
"""The termination of a game a seat lost by a fault (:meth:`Game.forfeit`)."""


def decision_limit_option(default: int) -> GameOption:
    """The option every game has: decisions in one game (one game of a match or session) after which the referee
    ends it as a draw, ``limit``, whatever its rules. ``default`` is several times the longest game measured
    (``bench/game_lengths.py``)."""
    return GameOption("decision_limit", str(default), (), "decisions in a game before the referee ends it as a draw")


def resolve_options(
    game_id: str, declared: Sequence[GameOption], given: Mapping[str, str] | None
) -> dict[str, str]:
    """Return the full option mapping of a game: defaults overlaid with ``given``, each value checked.

    >>> opts = (GameOption("x", "1", ("1", "2")),)
    >>> resolve_options("demo", opts, {"x": "2"})
    {'x': '2'}
    >>> resolve_options("demo", opts, {"y": "2"})
    Traceback (most recent call last):
    ...
    referee.games._core.InvalidOptionError: demo has no option 'y' (known: x)
    """
    known = {option.name: option for option in declared}
    resolved = {option.name: option.default for option in declared}
    for name, value in (given or {}).items():
        option = known.get(name)
        if option is None:
            raise InvalidOptionError(f"{game_id} has no option {name!r} (known: {', '.join(known) or 'none'})")
        value = str(value).lower() if str(value).lower() in ("true", "false") else str(value)
        if not option.choices:
            if not (value.isdigit() and int(value) >= 1):
                raise InvalidOptionError(f"{game_id} option {name} must be a positive integer, not {value!r}")
        elif value not in option.choices:
            raise InvalidOptionError(
                f"{game_id} option {name} must be one of {', '.join(option.choices)}, not {value!r}"
            )
        resolved[name] = value
    return resolved


def draw_chance(outcomes: Sequence[tuple[Any, float]], rng: random.Random) -> Any:
    """Pick one chance outcome with the given probabilities, from ``rng``.

    >>> draw_chance([("a", 0.5), ("b", 0.5)], random.Random(1))
    'a'
    """
    r = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if r < total:
            return action
    return outcomes[-1][0]


class State(ABC):
    """A position of a game, with whoever must act and what they may do."""

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat that must act, :data:`CHANCE` for a chance step, or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Any]:
        """The actions of the seat to act, sorted, one per distinct result (empty at chance and terminal): a list,
        or a read-only sequence that makes its entries when they are read (the Tabla family's ``Plays``)."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance step: every outcome with its probability (they sum to 1). Empty otherwise."""

    def sample_chance(self, rng: random.Random) -> Any:
        """At a chance step: one outcome drawn from ``rng`` with the probabilities of :meth:`chance_outcomes`.

        Engines whose chance steps are uniform over many outcomes may override it with a faster draw of the same
        distribution (the referee and the benchmarks draw through it).
        """
        return draw_chance(self.chance_outcomes(), rng)

    @abstractmethod
    def apply(self, action: Any) -> None:
        """Play ``action`` (a decision of the seat to act or a chance outcome). Raises IllegalActionError."""

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.current_player == TERMINAL

    @property
    def game_number(self) -> int:
        """1-based number of the game being played (a match has several)."""
        return 1

    def completed_games(self) -> list[tuple[str, Outcome]]:
        """The games of a match finished so far, as (game id, outcome); empty for a single game."""
        return []

    @abstractmethod
    def outcome(self) -> Outcome:
        """The result of a finished game. Raises ValueError before the end."""

    @abstractmethod
    def view(self, seat: int) -> Any:
        """Everything ``seat`` may know, as an immutable view object (an allow-list of fields)."""

    def spectator_view(self) -> Any:
        """Everything at once, for spectators and replays; never sent to a bot. Games without hidden information
        show seat 0's view."""
        return self.view(0)

    def view_and_record(self, seat: int) -> tuple[Any, bytes | None]:
        """``seat``'s :meth:`view` and its wire record when the engine made one with it (the native core does): the
        bytes of the view as its protocol message, which the referee sends instead of encoding the view's fields
        (what a record covers is its view kind's, :mod:`referee.wire`); None without one."""
        return self.view(seat), None

    @abstractmethod
    def clone(self) -> State:
        """An independent copy of this state."""


class Game(ABC):
    """An immutable game definition: id, seats and resolved options."""

    id: str
    options: Mapping[str, str]
    OPTIONS: ClassVar[tuple[GameOption, ...]] = ()
    """The options the game takes, each with its default (``options`` holds them resolved)."""
    terminations: ClassVar[type[StrEnum]]
    """The ways a game of this kind ends by its rules, as replays and the wire spell them (``Outcome.termination``);
    any game may also end at its decision limit (:data:`LIMIT`) or by a fault (:data:`FAULT`)."""

    @abstractmethod
    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        """The game with ``options`` (option names to values; the missing ones take their defaults) resolved.

        Raises:
            InvalidOptionError: an unknown option, or a value it does not take.
        """

    @property
    @abstractmethod
    def num_seats(self) -> int:
        """How many seats the game has."""

    @abstractmethod
    def new_state(self) -> State:
        """The initial state (usually a chance step: the opening throw or the shuffle)."""

    hidden_information: bool = False
    """True when seats may not see everything (cards): chance steps such as a shuffle are then secret too."""

    max_points: int = 1
    """The most points one game can score; a forfeit awards it to every seat that did not fault."""

    native: bool = False
    """Whether new states run in the native core (see :mod:`referee.games.engine`); games with native states set
    it when the core is installed."""

    def reference(self) -> Self:
        """This game with states run by the Python engine (the reference the native core is checked against)."""
        if not self.native:
            return self
        other = copy.copy(self)
        other.native = False
        return other

    def on(self, engine: str) -> Self:
        """This game run by ``engine``: ``native``, the core (as made, when the core is installed), or ``python``,
        the Python engines throughout (:meth:`reference`, and whatever else a game takes from the core).

        Raises:
            ValueError: another engine, or ``native`` for a game whose states the core does not run here.
        """
        if engine == "native":
            if not self.native:
                raise ValueError(f"{self.id} has no native states here (pip install ./native)")
            return self
        if engine != "python":
            raise ValueError(f"no engine {engine!r}: native or python")
        return self.reference()

    @property
    def decision_limit(self) -> int:
        """Decisions one game may have before the referee ends it as a draw (:data:`LIMIT`)."""
        return int(self.options["decision_limit"])

    def limit_outcome(self) -> Outcome:
        """The outcome of a game ended at its decision limit: a draw, nobody scoring.

        >>> from referee.games import make_game
        >>> make_game("tapa").limit_outcome()
        Outcome(termination='limit', points=(0, 0), games=(), places=())
        """
        return Outcome(LIMIT, (0,) * self.num_seats)

    def forfeit(self, faulty: Sequence[int]) -> Outcome:
        """The outcome when the seats in ``faulty`` lose by a fault (termination ``fault``).

        >>> from referee.games import make_game
        >>> make_game("tapa").forfeit([1])
        Outcome(termination='fault', points=(2, 0), games=(), places=())
        """
        bad = set(faulty)
        return Outcome(FAULT, tuple(0 if seat in bad else self.max_points for seat in range(self.num_seats)))

    @abstractmethod
    def parse_action(self, text: str, state: State) -> Any:
        """Read ``text`` (as written by ``notation()``) as an action legal in ``state``.

        Raises:
            InvalidActionError: the text is not an action of this game.
            IllegalActionError: it is one, but not legal in ``state``.
        """
