"""Seeded random playouts: through the public State API (tests, benchmarks, ``referee check-bot``), and whole
Tabla-family games and Durak deals played inside the native core (search bots' rollouts, training).

:func:`playouts` runs in the core when it is installed and is exactly :func:`python_playouts` otherwise: the
same games from the same seed. Both draw from one :class:`SplitMix64` stream, a fast generator for simulation
that is not the referee's secret chance (:mod:`referee.chance`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from referee.games import CHANCE, Game, State
from referee.games.engine import NATIVE
from referee.games.registry import Playouts, registration_of, registrations


def random_decisions(game: Game, count: int, seed: int) -> Iterator[tuple[State, Sequence[Any] | None]]:
    """Play ``count`` games with uniformly random decisions and seeded chance; yield ``(state, legal actions)`` at
    every decision (before it is taken) and ``(final state, None)`` at the end of each game.

    >>> from referee.games import make_game
    >>> ends = [s for s, legal in random_decisions(make_game("tapa"), 2, seed=1) if legal is None]
    >>> len(ends), all(s.is_terminal() for s in ends)
    (2, True)
    """
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_state()
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            yield state, legal
            state.apply(legal[rng.randrange(len(legal))])
        yield state, None


_MASK = (1 << 64) - 1


class SplitMix64:
    """Vigna's SplitMix64, the playouts' random stream (the native core's ``SplitMix64`` bit for bit).

    >>> hex(SplitMix64(0).next())
    '0xe220a8397b1dcdaf'
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next(self) -> int:
        """The next 64-bit output."""
        self._state = z = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``0..n-1`` from the high 32 bits of one output (bias below n / 2**32)."""
        return ((self.next() >> 32) * n) >> 32

    def dice(self) -> tuple[int, int]:
        """Two dice, each 1..6, from one draw of 36."""
        first, second = divmod(self.below(36), 6)
        return first + 1, second + 1


class Playout(NamedTuple):
    """One finished random game (or match): how it ended, the points of each seat and the decisions made."""

    termination: str
    points: tuple[int, ...]
    decisions: int


def playout_games() -> tuple[str, ...]:
    """The games :func:`playouts` plays: those whose registration has :class:`~referee.games.registry.Playouts`
    (the Tabla family's, and Durak's single deals).

    >>> playout_games()
    ('tabla', 'gjul-bara', 'tapa', 'tabla-match', 'durak')
    """
    return tuple(game_id for r in registrations() if r.playouts is not None for game_id in r.games)


POLICIES = ("uniform", "steps")
"""How :func:`playouts` chooses a play: ``uniform`` among the distinct legal plays (every game), or ``steps``
(the Tabla family): random single steps, each die's step uniformly among that die's steps, in a random order of
two different dice (:meth:`Stage.random_play`), and uniformly among the legal plays when such a walk misses a die.
``steps`` is random play that never lists a stage's plays unless a walk misses, which makes whole games several
times faster in the core; its games differ from ``uniform``'s."""


def python_playouts(game: Game, count: int, seed: int, policy: str = "uniform") -> list[Playout]:
    """``count`` games of ``game`` (one of :func:`playout_games`) from the start, every decision chosen by
    ``policy`` (one of :data:`POLICIES`) and all draws from one :class:`SplitMix64` seeded with ``seed``, as the
    game's registration draws (two dice from one draw of 36; a card of the shuffle or a seat of Durak's lot
    uniformly among those listed): the Python engines through the public State API (the Python states, never the
    native core's), the reference the native core is checked against.

    >>> from referee.games import make_game
    >>> tapa = make_game("tapa")
    >>> python_playouts(tapa, 2, seed=3) == python_playouts(tapa, 2, seed=3)
    True
    """
    draws = _checked(game, policy)
    game = game.reference()
    rng = SplitMix64(seed)
    played = []
    for _ in range(count):
        state = game.new_state()
        decisions = 0
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(draws.chance(state, rng))
                continue
            legal = state.legal_actions()
            index = draws.walk(state, legal, policy, rng) if policy != "uniform" else None
            state.apply(legal[rng.below(len(legal)) if index is None else index])
            decisions += 1
        outcome = state.outcome()
        played.append(Playout(outcome.termination, tuple(outcome.points), decisions))
    return played


def native_playouts(game: Game, count: int, seed: int, policy: str = "uniform") -> list[Playout]:
    """:func:`python_playouts` played inside the native core (the same games, plays and outcomes)."""
    draws = _checked(game, policy)
    if NATIVE is None:
        raise RuntimeError("the native core is not installed (pip install ./native)")
    return [Playout(word, tuple(points), decisions) for word, points, decisions in
            draws.native(game, count, seed, policy)]


def _checked(game: Game, policy: str) -> Playouts:
    """The playouts of ``game``'s registration.

    Raises:
        ValueError: the game has none, or none with these options, or not with ``policy``.
    """
    draws = registration_of(game.id).playouts
    if draws is None:
        raise ValueError(f"playouts are for {', '.join(playout_games())}, not {game.id}")
    if policy not in POLICIES:
        raise ValueError(f"no playout policy {policy!r}: {' or '.join(POLICIES)}")
    if policy not in draws.policies:
        raise ValueError(f"the {policy} policy is not one of {game.id}'s: {', '.join(draws.policies)}")
    if (problem := draws.problem(game)) is not None:
        raise ValueError(problem)
    return draws


playouts = native_playouts if NATIVE is not None else python_playouts
"""Seeded random playouts of a Tabla-family game or a Durak deal: in the native core when it runs, else in Python
(the same games either way)."""
