"""Gapa: a two-player competitive patience in the family of Russian Bank (rules/cards.md §2).

Each player sheds the cards of his own deck (a face-down small pile of 13 and big pile of 35, each with a
face-up stack beside it, and at most one drawn card pending) onto eight foundations built up in suit from the
ace, onto eight common side piles built down in alternating colour, and onto the opponent's face-up stacks (same
suit, one rank up or down). The priorities of §2.4 decide what must be played first. Each action is one
decision; a turn is a sequence of them and ends when a drawn big card is discarded (or nothing can be drawn).

Choices where the rules are silent: docs/rules/gapa.md.

>>> game = Gapa()
>>> state = game.position(0, mine={"small_up": ["2D"], "big": ["9C"]}, theirs={"small_up": ["3H"], "big": ["KC"]},
...                       foundations=["AD"], side=[["3D"], ["4H"]])
>>> [a.notation() for a in state.legal_actions()]  # priority 2: own card to a foundation (no side card fits)
['2D small_up>f0']
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
from ._gapa_view import NO_CARD, GapaHolding, GapaView

SIDE_PILES = 8
FOUNDATIONS = 8
FOUNDATION = 8
"""Places 0-7 are the side piles, 8-15 the foundations."""
SMALL_UP, BIG_UP, PENDING, THEIR_SMALL_UP, THEIR_BIG_UP = 16, 17, 18, 19, 20
PLACE_NAMES = (
    *(f"s{i}" for i in range(SIDE_PILES)),
    *(f"f{i}" for i in range(FOUNDATIONS)),
    "small_up",
    "big_up",
    "pending",
    "their_small_up",
    "their_big_up",
)

MOVE, PILE, PARK, DRAW_SMALL, DRAW_BIG, DISCARD, END_TURN = range(7)
_WORDS = ("move", "pile", "park", "draw small", "draw big", "discard", "end_turn")

ACE = 12
"""The rank index (card % 13) of an ace."""
MAX_TURNS = 2000
"""Turns in all after which a game is drawn, whatever the options (rules §2.5)."""


def value(card: int) -> int:
    """The rank as a number, ace low: A = 1, 2..10, J = 11, Q = 12, K = 13.

    >>> value(parse_card("AS")), value(parse_card("2S")), value(parse_card("KS"))
    (1, 2, 13)
    """
    index = card % 13
    return 1 if index == ACE else index + 2


def red(card: int) -> bool:
    """Diamonds and hearts are red."""
    return card // 13 in (1, 2)


class GapaAction(NamedTuple):
    """A decision: a card move (``kind`` MOVE: ``card`` from place ``src`` to place ``dst``), a whole side pile
    moved (PILE: ``card`` is its bottom card), or PARK, DRAW_SMALL, DRAW_BIG, DISCARD, END_TURN."""

    kind: int
    card: int = NO_CARD
    src: int = -1
    dst: int = -1

    def notation(self) -> str:
        """``2D small_up>f0``, ``pile s2>s5``, ``park``, ``draw small``, ``draw big``, ``discard``, ``end_turn``."""
        if self.kind == MOVE:
            return f"{card_text(self.card)} {PLACE_NAMES[self.src]}>{PLACE_NAMES[self.dst]}"
        if self.kind == PILE:
            return f"pile {PLACE_NAMES[self.src]}>{PLACE_NAMES[self.dst]}"
        return _WORDS[self.kind]


_KIND_WORDS = ("move", "pile", "park", "draw_small", "draw_big", "discard", "end_turn")


def action_words(action: GapaAction) -> tuple[str, int, str, str]:
    """The action's structured wire form: (kind, card, from place name, to place name).

    >>> action_words(GapaAction(MOVE, 0, SMALL_UP, FOUNDATION))
    ('move', 0, 'small_up', 'f0')
    """
    src = PLACE_NAMES[action.src] if action.src >= 0 else ""
    dst = PLACE_NAMES[action.dst] if action.dst >= 0 else ""
    return _KIND_WORDS[action.kind], action.card, src, dst


def action_from_words(kind: str, card: int, src: str, dst: str) -> GapaAction:
    """The inverse of :func:`action_words`.

    Raises:
        ValueError: an unknown kind or place.
    """
    if kind not in _KIND_WORDS:
        raise ValueError(f"unknown Gapa action kind {kind!r} (known: {', '.join(_KIND_WORDS)})")
    code = _KIND_WORDS.index(kind)
    if code not in (MOVE, PILE):
        return _SIMPLE[code]
    for name in (src, dst):
        if name not in PLACE_NAMES:
            raise ValueError(f"unknown Gapa place {name!r}")
    return GapaAction(code, card, PLACE_NAMES.index(src), PLACE_NAMES.index(dst))


class GapaChance(NamedTuple):
    """A chance step: who starts (``coin 1``) or the next card of a player's shuffled deck (``deck 0 9C``)."""

    kind: str
    seat: int
    card: int = NO_CARD

    def notation(self) -> str:
        """``coin 1`` or ``deck 0 9C``."""
        return f"coin {self.seat}" if self.kind == "coin" else f"deck {self.seat} {card_text(self.card)}"


_SIMPLE = {kind: GapaAction(kind) for kind in (PARK, DRAW_SMALL, DRAW_BIG, DISCARD, END_TURN)}


class GapaTermination(StrEnum):
    """How a Gapa game ends (rules §2.5)."""

    OUT = "out"
    """A player shed every card and wins: 1 point, or the margin."""
    STALEMATE = "stalemate"
    """Both players turned their piles over twice without progress: a draw."""
    IDLE = "idle"
    """The idle-turns option's turns in a row without progress: a draw."""
    TURNS = "turns"
    """The cap on turns was reached: a draw."""


class Gapa(Game):
    """The Gapa game definition (immutable): two seats, the options of rules §2."""

    id = "gapa"
    terminations = GapaTermination
    hidden_information = True
    OPTIONS = (
        GameOption("gapa", "strict", ("strict", "penalty"), "priorities enforced, or a penalty for ignoring them"),
        GameOption("side_deal", "symmetric", ("symmetric", "first_player_both"), "who lays the 8 side cards"),
        GameOption("own_big_up_playable", "false", ("false", "true"), "the top of one's own big_up is a source"),
        GameOption("margin", "false", ("false", "true"), "the winner scores 2 per small card, 1 per big card left"),
        GameOption("turn_cap", "300", (), "actions a turn may have before only forced moves and draws are left"),
        GameOption("idle_turns", "200", (), "turns in a row without progress before the game is drawn"),
        decision_limit_option(20000),  # random play's longest game measured about 900 decisions
    )

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = resolve_options(self.id, self.OPTIONS, options)
        o = self.options
        self.penalty = o["gapa"] == "penalty"
        self.both_sides = o["side_deal"] == "first_player_both"
        self.own_big_up = o["own_big_up_playable"] == "true"
        self.margin = o["margin"] == "true"
        self.turn_cap = int(o["turn_cap"])
        self.idle_turns = int(o["idle_turns"])
        self.max_points = 2 * 52 if self.margin else 1

    @property
    def num_seats(self) -> int:
        """Two players."""
        return 2

    def new_state(self) -> GapaState:
        """A new game: the coin flip and the two shuffles come first."""
        return GapaState(self)

    def position(
        self,
        mover: int,
        mine: Mapping[str, Sequence[str]],
        theirs: Mapping[str, Sequence[str]],
        foundations: Sequence[str] = (),
        side: Sequence[Sequence[str]] = (),
        pending: tuple[str, str] | None = None,
    ) -> GapaState:
        """A position for tests: each player's places (``small``, ``small_up``, ``big``, ``big_up``; lists bottom
        to top), the foundations' top cards, the side piles (bottom to top), and the mover's pending card as
        (card, ``"small"`` or ``"big"``). The mover is to act at the start of a turn."""
        state = GapaState(self)
        for seat, places in ((mover, mine), (1 - mover, theirs)):
            holding = state._players[seat]
            for name in ("small", "small_up", "big", "big_up"):
                holding[name] = [parse_card(text) for text in places.get(name, ())]
        state._foundations = [parse_card(text) for text in foundations] + [NO_CARD] * (FOUNDATIONS - len(foundations))
        state._side = [[parse_card(text) for text in pile] for pile in side]
        state._side += [[] for _ in range(SIDE_PILES - len(side))]
        if pending is not None:
            state._players[mover]["pending"] = parse_card(pending[0])
            state._players[mover]["pending_from"] = pending[1]
        state._turn = mover
        state._phase = "play"
        state._lowest = [_to_shed(holding) for holding in state._players]
        return state

    def parse_action(self, text: str, state: State) -> GapaAction | GapaChance:
        """Read an action as ``notation()`` writes it, legal in ``state``."""
        words = " ".join(text.split())
        try:
            if words.startswith("coin "):
                action: GapaAction | GapaChance = GapaChance("coin", int(words.split()[1]))
            elif words.startswith("deck "):
                _, seat, card = words.split()
                action = GapaChance("deck", int(seat), parse_card(card))
            elif words in _WORDS[PARK:]:
                action = _SIMPLE[_WORDS.index(words)]
            elif words.startswith("pile ") and ">" in words:
                src, dst = _places(words[5:])
                if src >= SIDE_PILES:
                    raise ValueError(f"a whole pile moves from a side place (s0-s{SIDE_PILES - 1})")
                pile = state._side[src] if isinstance(state, GapaState) else []
                action = GapaAction(PILE, pile[0] if pile else NO_CARD, src, dst)
            elif " " in words and ">" in words:
                card, places = words.split(" ", 1)
                src, dst = _places(places)
                action = GapaAction(MOVE, parse_card(card), src, dst)
            else:
                raise ValueError("expected e.g. '2D small_up>f0', 'pile s2>s5', 'draw small', 'discard'")
        except ValueError as exc:
            raise InvalidActionError(f"{text!r}: {exc}") from None
        legal = state.legal_actions() if isinstance(action, GapaAction) else [a for a, _ in state.chance_outcomes()]
        if action not in legal:
            raise IllegalActionError(f"{text!r} is not legal here")
        return action


def _holding() -> dict:
    return {"small": [], "small_up": [], "big": [], "big_up": [], "pending": NO_CARD, "pending_from": "",
            "big_public": False, "turnovers": 0}


class GapaState(State):
    """A Gapa position: both players' places, the foundations, the side piles and the turn."""

    def __init__(self, game: Gapa) -> None:
        self._game = game
        self._players = [_holding(), _holding()]
        self._foundations = [NO_CARD] * FOUNDATIONS
        self._side: list[list[int]] = [[] for _ in range(SIDE_PILES)]
        self._phase = "coin"
        self._first = 0
        self._decks: list[list[int]] = [[], []]
        self._turn = 0
        self._actions = 0
        self._shifted: list[int] = []
        self._idle = 0
        self._turns = 0
        self._progress = False
        self._lowest = [0, 0]
        """Each player's fewest cards still to shed so far in this game: shedding below it is progress."""
        self._legal: list[GapaAction] | None = None
        self._outcome: Outcome | None = None

    def clone(self) -> GapaState:
        """An independent copy."""
        other = GapaState.__new__(GapaState)
        other.__dict__.update(self.__dict__)
        other._players = [
            {key: list(value) if isinstance(value, list) else value for key, value in p.items()} for p in self._players
        ]
        other._foundations = list(self._foundations)
        other._side = [list(pile) for pile in self._side]
        other._decks = [list(deck) for deck in self._decks]
        other._shifted = list(self._shifted)
        other._lowest = list(self._lowest)
        return other

    @property
    def current_player(self) -> int:
        """CHANCE while the coin and the shuffles are due, the seat to act, TERMINAL at the end."""
        if self._phase == "play":
            return self._turn
        return TERMINAL if self._phase == "over" else CHANCE

    # --- chance -------------------------------------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[GapaChance, float]]:
        """The coin (either seat starts) or the next card of the deck being shuffled (every card left alike)."""
        if self._phase == "coin":
            return [(GapaChance("coin", 0), 0.5), (GapaChance("coin", 1), 0.5)]
        if self._phase == "deal":
            seat, left = self._dealing()
            return [(GapaChance("deck", seat, card), 1 / len(left)) for card in left]
        return []

    def sample_chance(self, rng: random.Random) -> GapaChance:
        """As :meth:`chance_outcomes` lists them, drawn without listing the cards."""
        if self._phase != "deal":
            return super().sample_chance(rng)
        seat, left = self._dealing()
        return GapaChance("deck", seat, left[rng.randrange(len(left))])

    def _dealing(self) -> tuple[int, list[int]]:
        seat = 0 if len(self._decks[0]) < 52 else 1
        drawn = set(self._decks[seat])
        return seat, [card for card in range(52) if card not in drawn]

    def _chance(self, chance: GapaChance) -> None:
        if self._phase == "coin" and chance.kind == "coin" and chance.seat in (0, 1):
            self._first = self._turn = chance.seat
            self._phase = "deal"
            return
        if self._phase != "deal" or chance.kind != "deck":
            raise IllegalActionError(f"{chance.notation()} is not a chance outcome here")
        seat, left = self._dealing()
        if chance.seat != seat or chance.card not in left:
            raise IllegalActionError(f"{chance.notation()} is not a chance outcome here")
        self._decks[seat].append(chance.card)
        if len(self._decks[1]) == 52:
            self._deal()

    def _deal(self) -> None:
        """Lay out both decks (rules §2.2): side cards, then 13 small and the rest big, each top turned up."""
        game = self._game
        for seat in (0, 1):
            deck = self._decks[seat]
            first = seat == self._first
            sides = (8 if first else 0) if game.both_sides else 4
            column = 0 if first or game.both_sides else 4
            for index in range(sides):
                self._side[column + index].append(deck[index])
            holding = self._players[seat]
            small = deck[sides : sides + 13]
            big = deck[sides + 13 :]
            holding["small"], holding["small_up"] = small[:-1], small[-1:]
            holding["big"], holding["big_up"] = big[:-1], big[-1:]
        self._decks = [[], []]
        self._lowest = [_to_shed(holding) for holding in self._players]
        self._phase = "play"

    # --- legal actions ------------------------------------------------------------------------------------------

    def legal_actions(self) -> list[GapaAction]:
        """Every legal decision of the seat to act, sorted, each once (rules §2.3, §2.4)."""
        if self._phase != "play":
            return []
        if self._legal is None:
            self._legal = self._list_legal()
        return list(self._legal)

    def _classes(self) -> tuple[list[GapaAction], list[GapaAction], list[GapaAction], list[GapaAction]]:
        """(P1, P2, P3, the other card moves) of the seat to act."""
        me = self._players[self._turn]
        them = self._players[1 - self._turn]
        own = self._own_sources(me)
        sides = [(place, pile[-1]) for place, pile in enumerate(self._side) if pile]
        p1 = self._to_foundations(sides)
        p2 = self._to_foundations(own)
        empty = [place for place, pile in enumerate(self._side) if not pile]
        small_cards = [(place, card) for place, card in own if place == SMALL_UP or
                       (place == PENDING and me["pending_from"] == "small")]
        p3 = [GapaAction(MOVE, card, src, dst) for src, card in small_cards for dst in empty]
        other: list[GapaAction] = []
        for src, card in own:  # build down in alternating colour, or fill an empty place
            for dst, pile in enumerate(self._side):
                if not pile or _builds(card, pile[-1]):
                    other.append(GapaAction(MOVE, card, src, dst))
        for src, pile in enumerate(self._side):  # whole piles onto piles
            if not pile:
                continue
            for dst, target in enumerate(self._side):
                if dst != src and target and _builds(pile[0], target[-1]):
                    other.append(GapaAction(PILE, pile[0], src, dst))
        for src, card in own + sides:  # load the opponent
            for dst, name in ((THEIR_SMALL_UP, "small_up"), (THEIR_BIG_UP, "big_up")):
                if them[name] and _loads(card, them[name][-1]):
                    other.append(GapaAction(MOVE, card, src, dst))
        for src, dst, name, onto in ((THEIR_SMALL_UP, THEIR_BIG_UP, "small_up", "big_up"),
                                     (THEIR_BIG_UP, THEIR_SMALL_UP, "big_up", "small_up")):
            top = them[name][-1] if them[name] else NO_CARD
            if top != NO_CARD and them[onto] and top not in self._shifted and _loads(top, them[onto][-1]):
                other.append(GapaAction(MOVE, them[name][-1], src, dst))
        return p1, p2, p3, other

    def _own_sources(self, me: dict) -> list[tuple[int, int]]:
        own = []
        if me["small_up"]:
            own.append((SMALL_UP, me["small_up"][-1]))
        if self._game.own_big_up and me["big_up"]:
            own.append((BIG_UP, me["big_up"][-1]))
        if me["pending"] != NO_CARD:
            own.append((PENDING, me["pending"]))
        return own

    def _to_foundations(self, sources: list[tuple[int, int]]) -> list[GapaAction]:
        """Foundation moves: an ace to the first empty foundation, another card onto the first foundation it
        follows (equal foundations give equal results: each move is listed once)."""
        moves = []
        for src, card in sources:
            if card % 13 == ACE:
                target = self._foundations.index(NO_CARD) if NO_CARD in self._foundations else -1
            else:
                below = card + ACE if card % 13 == 0 else card - 1  # a 2 goes on its ace
                target = self._foundations.index(below) if below in self._foundations else -1
            if target >= 0:
                moves.append(GapaAction(MOVE, card, src, FOUNDATION + target))
        return moves

    def _free(self) -> list[GapaAction]:
        """Draws, park, discard and end_turn as the seat's piles allow (rules §2.3, 7-10)."""
        me = self._players[self._turn]
        if me["pending"] != NO_CARD:
            return [_SIMPLE[PARK] if me["pending_from"] == "small" else _SIMPLE[DISCARD]]
        if not me["small_up"] and me["small"]:
            return [_SIMPLE[DRAW_SMALL]]
        if me["big"] or me["big_up"]:
            return [_SIMPLE[DRAW_BIG]]
        return [_SIMPLE[END_TURN]]

    def _list_legal(self) -> list[GapaAction]:
        p1, p2, p3, other = self._classes()
        forced = p1 or p2 or p3
        free = self._free()
        if self._actions >= self._game.turn_cap:  # only forced moves and draws are left
            other = []
        if self._game.penalty:
            moves = p1 + p2 + p3 + other + free
        else:
            moves = forced or other + free
        return sorted(set(moves))

    # --- applying -----------------------------------------------------------------------------------------------

    def apply(self, action: GapaAction | GapaChance) -> None:
        """Play a decision or a chance outcome. Raises IllegalActionError if it is not legal here."""
        if isinstance(action, GapaChance):
            self._chance(action)
            return
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action.notation()} is not legal here")
        self._legal = None
        if self._game.penalty:
            p1, p2, p3, _ = self._classes()
            forced = p1 or p2 or p3
            if forced and action not in forced:  # GAPA: the move is not made, the pending card goes up, turn over
                me = self._players[self._turn]
                if me["pending"] != NO_CARD:
                    me[f"{me['pending_from']}_up"].append(me["pending"])
                    me["pending"], me["pending_from"] = NO_CARD, ""
                self._end_turn()
                return
        self._actions += 1
        me = self._players[self._turn]
        if action.kind == MOVE:
            self._move(action)
        elif action.kind == PILE:
            self._side[action.dst].extend(self._side[action.src])
            self._side[action.src] = []
        elif action.kind == PARK:
            me["small_up"].append(me["pending"])
            me["pending"], me["pending_from"] = NO_CARD, ""
        elif action.kind == DRAW_SMALL:
            me["pending"], me["pending_from"] = me["small"].pop(), "small"
        elif action.kind == DRAW_BIG:
            if not me["big"]:  # turn big_up over: the card that went up first is drawn first
                me["big"], me["big_up"] = me["big_up"][::-1], []
                me["big_public"] = True
                me["turnovers"] += 1
            me["pending"], me["pending_from"] = me["big"].pop(), "big"
        elif action.kind == DISCARD:
            me["big_up"].append(me["pending"])
            me["pending"], me["pending_from"] = NO_CARD, ""
            self._end_turn()
            return
        else:
            self._end_turn()
            return
        self._check_end()

    def _move(self, action: GapaAction) -> None:
        me = self._players[self._turn]
        them = self._players[1 - self._turn]
        src, dst, card = action.src, action.dst, action.card
        if src == PENDING:
            me["pending"], me["pending_from"] = NO_CARD, ""
        elif src == SMALL_UP:
            me["small_up"].pop()
        elif src == BIG_UP:
            me["big_up"].pop()
        elif src == THEIR_SMALL_UP:
            them["small_up"].pop()
        elif src == THEIR_BIG_UP:
            them["big_up"].pop()
        else:
            self._side[src].pop()
        if dst >= FOUNDATION and dst < FOUNDATION + FOUNDATIONS:
            self._foundations[dst - FOUNDATION] = card
            self._progress = True
        elif dst < SIDE_PILES:
            self._side[dst].append(card)
        else:
            them["small_up" if dst == THEIR_SMALL_UP else "big_up"].append(card)
            if src in (THEIR_SMALL_UP, THEIR_BIG_UP):
                self._shifted.append(card)
        for seat, holding in enumerate(self._players):
            if (left := _to_shed(holding)) < self._lowest[seat]:  # fewer than ever: it cannot be undone
                self._lowest[seat] = left
                self._progress = True

    def _check_end(self) -> None:
        """A player whose five places are empty wins at once."""
        for seat in (self._turn, 1 - self._turn):
            if not _holds(self._players[seat]):
                self._finish(seat, GapaTermination.OUT)
                return

    def _end_turn(self) -> None:
        """The turn passes; the stalemate rules and the cap on turns are applied (rules §2.5)."""
        self._turns += 1
        if self._progress:
            self._idle = 0
            for holding in self._players:
                holding["turnovers"] = 0
        else:
            self._idle += 1
        self._progress = False
        self._turn = 1 - self._turn
        self._actions = 0
        self._shifted = []
        if all(holding["turnovers"] >= 2 for holding in self._players):
            self._finish(None, GapaTermination.STALEMATE)
        elif self._idle >= self._game.idle_turns:
            self._finish(None, GapaTermination.IDLE)
        elif self._turns >= MAX_TURNS:
            self._finish(None, GapaTermination.TURNS)

    def _finish(self, winner: int | None, termination: GapaTermination) -> None:
        self._phase = "over"
        self._legal = None
        points = [0, 0]
        if winner is not None:
            loser = self._players[1 - winner]
            small = len(loser["small"]) + len(loser["small_up"]) + (loser["pending_from"] == "small")
            big = len(loser["big"]) + len(loser["big_up"]) + (loser["pending_from"] == "big")
            points[winner] = 2 * small + big if self._game.margin else 1
        self._outcome = Outcome(termination, tuple(points))

    def outcome(self) -> Outcome:
        """``out`` (a player shed every card: 1 point, or the margin), ``stalemate``, ``idle`` or ``turns``
        (draws)."""
        if self._outcome is None:
            raise ValueError("the game is not over")
        return self._outcome

    # --- views --------------------------------------------------------------------------------------------------

    def view(self, seat: int) -> GapaView:
        """What ``seat`` may see: everything face up, pile sizes, its own pending card (rules §2.6)."""
        if seat not in (0, 1):
            raise ValueError(f"gapa has seats 0 and 1, not {seat}")
        return self._view(seat)

    def spectator_view(self) -> GapaView:
        """Both pending cards as well (for replays; never sent to a bot)."""
        return self._view(-1)

    def _view(self, seat: int) -> GapaView:
        holdings = tuple(
            GapaHolding(
                small=len(p["small"]),
                small_up=tuple(p["small_up"]),
                big=len(p["big"]),
                big_known=tuple(reversed(p["big"])) if p["big_public"] else (),
                big_up=tuple(p["big_up"]),
                pending=p["pending"] if seat in (-1, number) else NO_CARD,
                pending_from=p["pending_from"],
            )
            for number, p in enumerate(self._players)
        )
        priority = 0
        if self._phase == "play":
            p1, p2, p3, _ = self._classes()
            priority = 1 if p1 else 2 if p2 else 3 if p3 else 0
        return GapaView(
            seat=seat,
            players=holdings,  # type: ignore[arg-type]
            foundations=tuple(self._foundations),
            side=tuple(tuple(pile) for pile in self._side),
            turn=self._turn if self._phase == "play" else -1,
            actions=self._actions,
            turn_cap=self._game.turn_cap,
            shifted=tuple(self._shifted),
            priority=priority,
            mode="penalty" if self._game.penalty else "strict",
        )

    def __repr__(self) -> str:
        return f"<GapaState {self._phase} turn={self._turn} actions={self._actions} foundations={self._foundations}>"


def _builds(card: int, onto: int) -> bool:
    """Whether ``card`` may go onto a side pile topped by ``onto``: one rank lower, the other colour."""
    return value(card) == value(onto) - 1 and red(card) != red(onto)


def _loads(card: int, onto: int) -> bool:
    """Whether ``card`` may go onto an opponent's up-stack topped by ``onto``: same suit, one rank apart."""
    return card // 13 == onto // 13 and abs(value(card) - value(onto)) == 1


def _places(text: str) -> tuple[int, int]:
    """``s0>f1`` as its two place numbers.

    Raises:
        ValueError: not two known places.
    """
    names = text.split(">")
    unknown = [name for name in names if name not in PLACE_NAMES]
    if len(names) != 2 or unknown:
        raise ValueError(f"expected two of {', '.join(PLACE_NAMES)} joined by '>'")
    return PLACE_NAMES.index(names[0]), PLACE_NAMES.index(names[1])


def _to_shed(holding: dict) -> int:
    """How many cards a player has still to shed (a pending card counted)."""
    return (len(holding["small"]) + len(holding["small_up"]) + len(holding["big"]) + len(holding["big_up"])
            + (holding["pending"] != NO_CARD))


def _holds(holding: dict) -> bool:
    return bool(holding["small"] or holding["small_up"] or holding["big"] or holding["big_up"]
                or holding["pending"] != NO_CARD)
