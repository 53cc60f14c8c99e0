"""The Tabla match (``tabla-match``): Tabla, Gjul Bara and Tapa in rotation, to 5 points.

Rules: ../shared/rules/tabla.md §5 and §6; our own choices are in docs/rules/tabla-match.md. Game k is Tabla if
k mod 3 = 1, Gjul Bara if 2, Tapa if 0, whatever the results. Game 1, and any game after a draw, starts with the
one-die opening throw (ties thrown again; the higher die rolls both dice afresh); after a decided game its winner
rolls first. The match ends right after the game in which a seat reaches the target. Seats keep their numbers for
the whole match; each game is its own state machine inside the match.

Options (strings): ``match.target`` (``5``; ``3``, ``7``), ``match.opening`` (``reroll``; ``use_opening_dice``:
an opening throw before every game whose dice are the first roll), and every option of the three games
(``gjul.*``, ``tapa.*``, ``stuck_limit``), passed on to them.

>>> match = TablaMatch()
>>> state = match.new_state()
>>> state.view(0).match.current_game, state.game_number
('tabla', 1)
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from .._core import TERMINAL, Game, GameOption, Outcome, State, resolve_options
from ._family import FamilyGame, FamilyState
from ._views import BackgammonView, MatchScore
from .gjul_bara import GjulBara
from .tabla import Tabla
from .tapa import Tapa

ROTATION = ("tapa", "tabla", "gjul-bara")
"""``ROTATION[k % 3]`` is the id of game k (1-based)."""


def game_of(number: int) -> str:
    """The game id of the match's game ``number``.

    >>> [game_of(k) for k in range(1, 8)]
    ['tabla', 'gjul-bara', 'tapa', 'tabla', 'gjul-bara', 'tapa', 'tabla']
    """
    return ROTATION[number % 3]


class MatchTermination(StrEnum):
    """How a match ends."""

    MATCH = "match"
    """A seat reached the target alone (each game's own termination is kept in the outcome's ``games``)."""


class TablaMatch(Game):
    """The match definition (immutable)."""

    id = "tabla-match"
    terminations = MatchTermination
    _OWN = (
        GameOption("match.target", "5", ("3", "5", "7"), "points to win the match"),
        GameOption("match.opening", "reroll", ("reroll", "use_opening_dice"), "how games open"),
    )
    OPTIONS = _OWN + tuple(
        {option.name: option for game in (Tabla, GjulBara, Tapa) for option in game.OPTIONS}.values()
    )

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = resolve_options(self.id, self.OPTIONS, options)
        self.target = int(self.options["match.target"])
        self.max_points = self.target
        self.every_game_opens = self.options["match.opening"] == "use_opening_dice"
        self.games: dict[str, FamilyGame] = {
            cls.id: cls({o.name: self.options[o.name] for o in cls.OPTIONS}) for cls in (Tabla, GjulBara, Tapa)
        }
        tapa = self.games["tapa"]
        assert isinstance(tapa, Tapa)
        self.both_mothers_score = tapa.both_mothers_points > 0

    @property
    def num_seats(self) -> int:
        """Two seats."""
        return 2

    def reference(self) -> TablaMatch:
        """This match with its games' states run by the Python engine (see :meth:`FamilyGame.reference`)."""
        other = copy.copy(self)
        other.games = {game_id: game.reference() for game_id, game in self.games.items()}
        return other

    def on(self, engine: str) -> TablaMatch:
        """This match with its games run by ``engine`` (:meth:`FamilyGame.on`)."""
        other = copy.copy(self)
        other.games = {game_id: game.on(engine) for game_id, game in self.games.items()}
        return other

    def new_state(self) -> TablaMatchState:
        """A new match at 0:0, game 1 (Tabla) about to open."""
        return TablaMatchState(self)

    def position(self, number: int, scores: tuple[int, int], game_state: FamilyState) -> TablaMatchState:
        """A match at game ``number`` with ``scores``, whose current game is ``game_state`` (tests, analysis)."""
        state = TablaMatchState(self)
        state._number = number
        state._scores = list(scores)
        state._sub = game_state
        return state

    def parse_action(self, text: str, state: State) -> Any:
        """Read an action of the game being played (see the family's ``parse_action``)."""
        if not isinstance(state, TablaMatchState):
            raise TypeError("a tabla-match action needs a tabla-match state")
        return self.games[state.current_game].parse_action(text, state._sub)


class TablaMatchState(State):
    """A match in progress: the scores, the finished games and the state of the game being played."""

    def __init__(self, match: TablaMatch) -> None:
        self._match = match
        self._number = 1
        self._scores = [0, 0]
        self._results: list[tuple[str, Outcome]] = []
        self._over = False
        self._sub = self._start(None)

    def _start(self, starter: int | None) -> FamilyState:
        game_id = game_of(self._number)
        score = MatchScore(tuple(self._scores), self._match.target, self._number, game_id)
        every = self._match.every_game_opens
        return self._match.games[game_id].new_state(
            starter=None if every else starter, match=score, opening_dice_play=every
        )

    @property
    def current_game(self) -> str:
        """The id of the game being played."""
        return game_of(self._number)

    @property
    def game_number(self) -> int:
        """1-based number of the game being played."""
        return self._number

    @property
    def game_state(self) -> FamilyState:
        """The state of the game being played (the last game's, once the match is over)."""
        return self._sub

    def completed_games(self) -> list[tuple[str, Outcome]]:
        """The finished games, in order."""
        return list(self._results)

    def clone(self) -> TablaMatchState:
        """An independent copy."""
        other = TablaMatchState.__new__(TablaMatchState)
        other.__dict__.update(self.__dict__)
        other._scores = list(self._scores)
        other._results = list(self._results)
        other._sub = self._sub.clone()
        return other

    @property
    def current_player(self) -> int:
        """Whoever acts in the current game; TERMINAL once the match is decided."""
        return TERMINAL if self._over else self._sub.current_player

    def legal_actions(self) -> Sequence[Any]:
        """The current game's legal actions."""
        return [] if self._over else self._sub.legal_actions()

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """The current game's chance outcomes."""
        return [] if self._over else self._sub.chance_outcomes()

    def apply(self, action: Any) -> None:
        """Apply an action to the current game; when it ends, score it and start the next or end the match."""
        if self._over:
            raise ValueError("the match is over")
        self._sub.apply(action)
        if not self._sub.is_terminal():
            return
        outcome = self._sub.outcome()
        self._results.append((self.current_game, outcome))
        for seat, points in enumerate(outcome.points):
            self._scores[seat] += points
        best = max(self._scores)
        if best >= self._match.target and self._scores.count(best) == 1:
            self._over = True
            return
        self._number += 1
        self._sub = self._start(outcome.winner)

    def outcome(self) -> Outcome:
        """The final score, termination ``match``, and every game's outcome."""
        if not self._over:
            raise ValueError("the match is not over")
        return Outcome(MatchTermination.MATCH, tuple(self._scores), tuple(self._results))

    def view(self, seat: int) -> BackgammonView:
        """The current game from ``seat``'s side, with the match score (at the end: the last game's board)."""
        return self.view_and_record(seat)[0]

    def view_and_record(self, seat: int) -> tuple[BackgammonView, bytes | None]:
        """The current game's view and record; at the end the last game's board with the final score, without."""
        view, record = self._sub.view_and_record(seat)
        if self._over:
            score = MatchScore(tuple(self._scores), self._match.target, self._number, self.current_game)
            return dataclasses.replace(view, match=score), None
        return view, record

    def __repr__(self) -> str:
        return f"<TablaMatchState game {self._number} ({self.current_game}) score {self._scores} {self._sub!r}>"
