"""Gaps (Montana) and its family: a one-player patience on a grid with four gaps (rules/cards.md §3).

A move fills a gap with the card one rank above (same suit) the card left of it; a gap in the first column takes a
row's first card (a 2, or an ace where the aces head the rows); a gap right of a King or of another gap is dead.
A round ends when the player says ``end_round`` (or, with ``redeal_only_when_stuck``, only when stuck), when no
move is left (automatically) or when it reaches its move cap (then ``end_round`` is the only action). Between
rounds the rows' prefixes stay and the other cards are dealt again.

Chance: the deal is one chance step per card (``deal 9C``); each shuffled redeal first draws a permutation of the
deck's places, one step per place (``key 17``), whatever the cards to shuffle are. Every game of a seed therefore
draws the same permutations for the same round, so bots playing one deal differently still meet the same shuffle
stream (rules §3.3, duplicate play). Choices where the rules are silent: docs/rules/gaps.md.

>>> game = Gaps()
>>> state = game.position([["2C", "3C", None, "4C"], ["5H", None, "KD"], ["2D"], ["6H", "KH"]])
>>> [a.notation() for a in state.legal_actions()]  # 4C after 3C, 6H after 5H; the rest is dead
['4C 0,3>0,2', '6H 3,0>1,1', 'end_round']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import NamedTuple

from .._core import (
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
from ._cards import card_text, parse_card
from ._gaps_view import GAP, GapsView

VARIANTS = ("montana", "gaps_unshuffled", "spaces", "addiction", "blue_moon", "red_moon", "paganini")
_DEALS = {"montana": 3, "gaps_unshuffled": 3, "spaces": 3, "addiction": 4, "blue_moon": 3, "red_moon": 3, "paganini": 1}
"""Deals of each variant (the first deal and the redeals) unless the ``deals`` option says otherwise."""

ACE = 12
"""The rank index (card % 13) of an ace."""
KING = 11
END_ROUND = 99
"""The ``card`` of the ``end_round`` action (above every card, so that it sorts last)."""


class GapsMove(NamedTuple):
    """Move ``card`` from place ``src`` into the gap at place ``dst`` (places are row * columns + column), or,
    with ``card`` = :data:`END_ROUND`, end the round."""

    card: int
    src: int
    dst: int
    columns: int

    @property
    def ends_round(self) -> bool:
        """True for ``end_round``."""
        return self.card == END_ROUND

    def notation(self) -> str:
        """``6H 2,5>1,4`` (card, from row,column, to row,column; 0-based) or ``end_round``."""
        if self.card == END_ROUND:
            return "end_round"
        return (
            f"{card_text(self.card)} {self.src // self.columns},{self.src % self.columns}"
            f">{self.dst // self.columns},{self.dst % self.columns}"
        )


class GapsChance(NamedTuple):
    """A chance step: the next card of the deal (``deal 9C``) or the next place of a redeal's permutation
    (``key 17``)."""

    kind: str
    value: int

    def notation(self) -> str:
        """``deal 9C`` or ``key 17``."""
        return f"deal {card_text(self.value)}" if self.kind == "deal" else f"key {self.value}"


class GapsTermination(StrEnum):
    """How a Gaps deal ends."""

    WIN = "win"
    """Every row complete: the deal is solved."""
    ROUNDS = "rounds"
    """The last round ended with no move left: the cards in place are the score."""


class Gaps(Game):
    """The Gaps game definition (immutable): one seat, every variant of rules §3.2."""

    id = "gaps"
    terminations = GapsTermination
    OPTIONS = (
        GameOption("variant", "montana", VARIANTS, "the layout and the redeal (rules §3.2)"),
        GameOption("deals", "default", ("default", *map(str, range(1, 10))), "deals in all (default: the variant's)"),
        GameOption("redeal_only_when_stuck", "false", ("false", "true"), "end_round only when no move is left"),
        GameOption("round_moves", "1000", (), "moves a round may have"),
        decision_limit_option(10000),  # what the rules allow: up to 9 deals of round_moves moves each
    )

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = resolve_options(self.id, self.OPTIONS, options)
        o = self.options
        self.variant = o["variant"]
        self.deals = _DEALS[self.variant] if o["deals"] == "default" else int(o["deals"])
        self.only_when_stuck = o["redeal_only_when_stuck"] == "true"
        self.move_cap = int(o["round_moves"])
        self.aces_lead = self.variant in ("blue_moon", "red_moon", "paganini")
        self.rows = 8 if self.variant == "paganini" else 4
        self.columns = 14 if self.aces_lead else 13
        self.row_length = 13 if self.aces_lead else 12
        self.deck = tuple(range(52)) * (2 if self.variant == "paganini" else 1)
        self.shuffled_redeal = self.variant != "gaps_unshuffled"
        self.aces_in_redeal = self.variant in ("spaces", "addiction")
        self.end_round = GapsMove(END_ROUND, -1, -1, self.columns)
        self.max_points = self.rows * self.row_length

    @property
    def num_seats(self) -> int:
        """One player."""
        return 1

    def new_state(self) -> GapsState:
        """A new game: the shuffle comes first."""
        return GapsState(self)

    def successor(self, card: int) -> int | None:
        """The card that may follow ``card`` in a row (same suit, next rank), or None after a King.

        >>> Gaps().successor(parse_card("5H")) == parse_card("6H"), Gaps().successor(parse_card("KH"))
        (True, None)
        >>> Gaps({"variant": "blue_moon"}).successor(parse_card("AC")) == parse_card("2C")
        True
        """
        rank = card % 13
        if rank == ACE:
            return card - ACE if self.aces_lead else None
        return card + 1 if rank < KING else None

    def heads_row(self, card: int) -> bool:
        """Whether ``card`` may fill a gap in the first column (a 2, or an ace where aces head the rows)."""
        return card % 13 == (ACE if self.aces_lead else 0)

    def position(self, rows: Sequence[Sequence[str | None]], round_number: int = 1, moves: int = 0) -> GapsState:
        """A position for tests and analysis: the grid written row by row (``None`` for a gap); missing places
        are gaps. The cards need not make a whole deck."""
        state = GapsState(self)
        grid = [GAP] * (self.rows * self.columns)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                grid[r * self.columns + c] = GAP if text is None else parse_card(text)
        state._grid = grid
        state._phase = "play"
        state._round = round_number
        state._moves = moves
        state._after_change()
        return state

    def parse_action(self, text: str, state: State) -> GapsMove | GapsChance:
        """Read ``6H 2,5>1,4``, ``end_round``, ``deal 9C`` or ``key 17`` as an action legal in ``state``."""
        words = text.split()
        try:
            if len(words) == 2 and words[0] in ("deal", "key"):
                value = parse_card(words[1]) if words[0] == "deal" else int(words[1])
                action: GapsMove | GapsChance = GapsChance(words[0], value)
            elif words == ["end_round"]:
                action = self.end_round
            elif len(words) == 2 and ">" in words[1]:
                src, dst = (self._place(part) for part in words[1].split(">"))
                action = GapsMove(parse_card(words[0]), src, dst, self.columns)
            else:
                raise ValueError("expected e.g. '6H 2,5>1,4', 'end_round', 'deal 9C' or 'key 17'")
        except ValueError as exc:
            raise InvalidActionError(f"{text!r}: {exc}") from None
        legal = state.legal_actions() if isinstance(action, GapsMove) else [a for a, _ in state.chance_outcomes()]
        if action not in legal:
            raise IllegalActionError(f"{text!r} is not legal here")
        return action

    def _place(self, text: str) -> int:
        row, column = (int(part) for part in text.split(","))
        if not (0 <= row < self.rows and 0 <= column < self.columns):
            raise ValueError(f"no place {row},{column} on a {self.rows}x{self.columns} grid")
        return row * self.columns + column


class GapsState(State):
    """A Gaps position: the grid, the round and its moves, and the chance steps still due."""

    def __init__(self, game: Gaps) -> None:
        self._game = game
        self._grid: list[int] = []
        self._phase = "deal"
        self._left: list[int] = list(game.deck)  # cards (deal) or places (redeal keys) not drawn yet
        self._drawn: list[int] = []
        self._round = 1
        self._moves = 0
        self._total_moves = 0
        self._prefixes: list[int] = []
        self._gap_moves: list[GapsMove] = []
        """The moves into gaps of the grid as it is (end_round aside)."""
        self._legal: list[GapsMove] | None = None
        self._outcome: Outcome | None = None

    def clone(self) -> GapsState:
        """An independent copy."""
        other = GapsState.__new__(GapsState)
        other.__dict__.update(self.__dict__)
        other._grid = list(self._grid)
        other._left = list(self._left)
        other._drawn = list(self._drawn)
        other._prefixes = list(self._prefixes)
        other._gap_moves = list(self._gap_moves)
        return other

    @property
    def current_player(self) -> int:
        """CHANCE while dealing or drawing a redeal's permutation, then seat 0, TERMINAL at the end."""
        if self._phase == "play":
            return 0
        return TERMINAL if self._phase == "over" else CHANCE

    def chance_outcomes(self) -> list[tuple[GapsChance, float]]:
        """The deal's next card (each card left, by its copies left) or the permutation's next place."""
        if self._phase not in ("deal", "redeal"):
            return []
        kind = "deal" if self._phase == "deal" else "key"
        counts: dict[int, int] = {}
        for value in self._left:
            counts[value] = counts.get(value, 0) + 1
        total = len(self._left)
        return [(GapsChance(kind, value), n / total) for value, n in sorted(counts.items())]

    def sample_chance(self, rng: random.Random) -> GapsChance:
        """The next card or place, uniform over those left (as chance_outcomes lists them)."""
        if self._phase not in ("deal", "redeal"):
            raise ValueError("no chance step is due")
        return GapsChance("deal" if self._phase == "deal" else "key", self._left[rng.randrange(len(self._left))])

    def legal_actions(self) -> list[GapsMove]:
        """Every move into a gap (sorted by card, source, gap), then ``end_round`` where it is allowed."""
        if self._phase != "play":
            return []
        if self._legal is None:
            game = self._game
            if self._moves >= game.move_cap:
                self._legal = [game.end_round]
            else:
                moves = self._gap_moves
                self._legal = moves if game.only_when_stuck and moves else [*moves, game.end_round]
        return list(self._legal)

    def _moves_into_gaps(self) -> list[GapsMove]:
        game, grid, columns = self._game, self._grid, self._game.columns
        where: dict[int, list[int]] = {}
        for place, card in enumerate(grid):
            if card != GAP:
                where.setdefault(card, []).append(place)
        moves: list[GapsMove] = []
        for dst, card in enumerate(grid):
            if card != GAP:
                continue
            if dst % columns == 0:
                wanted = [c for c in where if game.heads_row(c)]
            else:
                left = grid[dst - 1]
                follower = game.successor(left) if left != GAP else None
                wanted = [follower] if follower is not None and follower in where else []
            moves.extend(GapsMove(c, src, dst, columns) for c in wanted for src in where[c])
        moves.sort()
        return moves

    def apply(self, action: GapsMove | GapsChance) -> None:
        """Play a move, ``end_round`` or a chance step. Raises IllegalActionError if it is not legal here."""
        if isinstance(action, GapsChance):
            self._draw(action)
            return
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action.notation()} is not legal here")
        self._legal = None
        if action.card == END_ROUND:
            self._end_round()
            return
        self._grid[action.dst] = action.card
        self._grid[action.src] = GAP
        self._moves += 1
        self._total_moves += 1
        self._after_change()

    def _draw(self, chance: GapsChance) -> None:
        expected = "deal" if self._phase == "deal" else "key" if self._phase == "redeal" else None
        if chance.kind != expected or chance.value not in self._left:
            raise IllegalActionError(f"{chance.notation()} is not a chance outcome here")
        self._left.remove(chance.value)
        self._drawn.append(chance.value)
        if self._left:
            return
        if self._phase == "deal":
            self._grid = _first_layout(self._game, self._drawn)
        else:
            self._redeal(self._drawn)
        self._drawn = []
        self._phase = "play"
        self._after_change()

    def _after_change(self) -> None:
        """Update the prefixes; the game is won when every row is complete; a round with no move left ends."""
        self._legal = None
        self._prefixes = _prefixes(self._game, self._grid)
        self._gap_moves = self._moves_into_gaps()
        if all(k == self._game.row_length for k in self._prefixes):
            self._finish(GapsTermination.WIN)
        elif not self._gap_moves:
            self._end_round()

    def _end_round(self) -> None:
        if self._round >= self._game.deals:
            self._finish(GapsTermination.ROUNDS)
            return
        self._round += 1
        self._moves = 0
        if self._game.shuffled_redeal:
            self._phase = "redeal"
            self._left = list(range(len(self._game.deck)))
        else:
            self._redeal(None)
            self._after_change()

    def _redeal(self, keys: list[int] | None) -> None:
        """Keep every prefix, gather the other cards and deal them again (rules §3.1, §3.2)."""
        game, grid, columns = self._game, self._grid, self._game.columns
        kept = {r * columns + c for r, k in enumerate(self._prefixes) for c in range(k)}
        open_places = [place for place in range(len(grid)) if place not in kept]
        gathered = [grid[place] for place in open_places if grid[place] != GAP]
        if game.aces_in_redeal:
            gathered += [card for card in range(ACE, 52, 13)]
        if keys is not None:
            gathered.sort()
            order = [index for index in keys if index < len(gathered)]
            gathered = [gathered[index] for index in order]
        if game.aces_in_redeal:  # every open place gets a card, then the aces leave their gaps
            places = open_places
        else:  # a gap right after each row's prefix
            gaps = {r * columns + k for r, k in enumerate(self._prefixes)}
            places = [place for place in open_places if place not in gaps]
        self._grid = list(grid)
        for place in open_places:
            self._grid[place] = GAP
        for place, card in zip(places, gathered, strict=True):
            self._grid[place] = GAP if game.aces_in_redeal and card % 13 == ACE else card

    def _finish(self, termination: GapsTermination) -> None:
        self._phase = "over"
        self._legal = None
        self._outcome = Outcome(termination, (sum(self._prefixes),))

    def outcome(self) -> Outcome:
        """``win`` (every row complete) or ``rounds`` (the last round ended); the points are the cards in place."""
        if self._outcome is None:
            raise ValueError("the game is not over")
        return self._outcome

    def view(self, seat: int) -> GapsView:
        """The whole grid (there is nothing hidden but future redeals)."""
        if seat != 0:
            raise ValueError(f"gaps has one seat, 0, not {seat}")
        game = self._game
        return GapsView(
            variant=game.variant,
            rows=game.rows,
            columns=game.columns,
            grid=tuple(self._grid) if self._grid else (GAP,) * (game.rows * game.columns),
            round=self._round,
            rounds=game.deals,
            moves=self._moves,
            move_cap=game.move_cap,
            placed=sum(self._prefixes),
            row_length=game.row_length,
            runs=tuple(self._prefixes) if self._prefixes else (0,) * game.rows,
        )

    def __repr__(self) -> str:
        return f"<GapsState {self._phase} round={self._round} moves={self._moves} placed={sum(self._prefixes)}>"


def _first_layout(game: Gaps, order: list[int]) -> list[int]:
    """The grid of the first deal from the shuffled ``order`` (rules §3.1, §3.2)."""
    columns = game.columns
    if not game.aces_lead:  # row by row, then the aces leave gaps
        return [GAP if card % 13 == ACE else card for card in order]
    grid = [GAP] * (game.rows * columns)
    if game.variant == "red_moon":  # aces first (C, D, H, S), the rest into columns 2..13: gaps in column 1
        for row, ace in enumerate(sorted(card for card in order if card % 13 == ACE)):
            grid[row * columns] = ace
        rest = [card for card in order if card % 13 != ACE]
        for index, card in enumerate(rest):
            grid[(index // 12) * columns + 2 + index % 12] = card
        return grid
    for index, card in enumerate(order):  # into columns 1..13, then the aces (reading order) to column 0
        grid[(index // 13) * columns + 1 + index % 13] = card
    aces = [place for place, card in enumerate(grid) if card != GAP and card % 13 == ACE]
    for row, place in enumerate(aces):
        grid[row * columns] = grid[place]
        grid[place] = GAP
    return grid


def _prefixes(game: Gaps, grid: list[int]) -> list[int]:
    """k_r for every row: the run from column 0 of the row's first card and its followers in one suit."""
    columns = game.columns
    found = []
    for start in range(0, len(grid), columns):
        card = grid[start]
        length = 0
        if card != GAP and game.heads_row(card):
            length = 1
            while length < game.row_length and grid[start + length] == game.successor(card):
                card = grid[start + length]
                length += 1
        found.append(length)
    return found
