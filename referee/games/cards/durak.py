"""Durak (podkidnoy and perevodnoy), 2–6 seats or 2v2 teams, 24/36/52 cards.

Rules: ../shared/rules/cards.md §1; our own choices are in docs/rules/durak.md. The game starts with chance
steps that shuffle the deck one card at a time (``deck 9C``: the next card of the shuffled deck), then the deal,
the trump and the first attacker (the lowest trump, else a lot ``lot 2`` or a redeal). Bouts follow the state
machine of §1.3: LEAD → DEFEND ↔ THROW_IN, or TAKE_THROW after ``take``; every decision is one action.

>>> game = Durak({"seats": "2"})
>>> state = game.new_state()
>>> while state.current_player == CHANCE:
...     state.apply(state.chance_outcomes()[0][0])
>>> view = state.view(0)
>>> card_text(view.trump_card), len(view.hand), view.stock  # the deck in canonical order: 9D is turned
('9D', 6, 24)
>>> [a.notation() for a in state.legal_actions()][:2]  # seat 1 holds 6D, the lowest trump, and leads
['lead 7C', 'lead 9C']
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import NamedTuple

from .._core import (
    CHANCE,
    FAULT,
    LIMIT,
    TERMINAL,
    Game,
    GameOption,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    Outcome,
    State,
    decision_limit_option,
    resolve_options,
)
from ._cards import card_text, cards_of, deck, mask_of, parse_card, rank_of, suit_of
from ._durak_view import NO_CARD, DurakSeat, DurakView

LEAD, BEAT, TRANSFER, SHOW, TAKE, THROW, PASS, DONE = range(8)
_KIND_NAMES = ("lead", "beat", "transfer", "show", "take", "throw", "pass", "done")

HAND = 6
"""Cards dealt to each seat, and drawn up to after each bout."""

_LOWEST_RANK = {"36": 6, "24": 9, "52": 2}


class DurakAction(NamedTuple):
    """A decision: ``kind`` (LEAD, BEAT, …) and its cards (BEAT: the attack card, then the card beating it)."""

    kind: int
    cards: tuple[int, ...] = ()

    def notation(self) -> str:
        """``lead 9C 9D``, ``beat 9C with TC``, ``transfer 7H``, ``show 9S``, ``take``, ``throw 8D``, ``pass``,
        ``done``."""
        if self.kind == BEAT:
            return f"beat {card_text(self.cards[0])} with {card_text(self.cards[1])}"
        return " ".join([_KIND_NAMES[self.kind], *map(card_text, self.cards)])


def action_words(action: DurakAction) -> tuple[str, tuple[int, ...]]:
    """The action as (kind word, cards), its structured wire form.

    >>> action_words(DurakAction(BEAT, (7, 9)))
    ('beat', (7, 9))
    """
    return _KIND_NAMES[action.kind], action.cards


def action_from_words(kind: str, cards: tuple[int, ...]) -> DurakAction:
    """The action of a kind word and its cards (the inverse of :func:`action_words`).

    Raises:
        ValueError: an unknown kind, or the wrong number of cards for it.
    """
    if kind not in _KIND_NAMES:
        raise ValueError(f"unknown Durak action kind {kind!r} (known: {', '.join(_KIND_NAMES)})")
    code = _KIND_NAMES.index(kind)
    wanted = {LEAD: None, BEAT: 2, TAKE: 0, PASS: 0, DONE: 0}.get(code, 1)
    if (wanted is None and not cards) or (wanted is not None and len(cards) != wanted):
        raise ValueError(f"a Durak {kind!r} action takes {wanted if wanted is not None else 'one or more'} cards")
    return DurakAction(code, tuple(cards))


class DurakChance(NamedTuple):
    """A chance step: the next card of the shuffle (``deck 9C``) or the first attacker drawn by lot (``lot 2``)."""

    kind: str
    value: int

    def notation(self) -> str:
        """``deck 9C`` or ``lot 2``."""
        return f"deck {card_text(self.value)}" if self.kind == "deck" else f"lot {self.value}"


DEALS = tuple(DurakChance("deck", c) for c in range(52))
"""``DEALS[c]``: card ``c`` comes next in the shuffle."""
_SINGLES = {kind: tuple(DurakAction(kind, (c,)) for c in range(52)) for kind in (THROW, TRANSFER, SHOW)}
_BEATS = tuple(tuple(DurakAction(BEAT, (a, d)) for d in range(52)) for a in range(52))
"""``_BEATS[a][d]``: beat attack card ``a`` with ``d``."""
_NO_CARDS = {kind: DurakAction(kind) for kind in (TAKE, PASS, DONE)}


_RANK_MASKS = tuple(sum(1 << (suit * 13 + rank) for suit in range(4)) for rank in range(13))
"""The four cards of each rank (indexed by ``card % 13``)."""

_SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * suit) for suit in range(4))

_HIGHER = tuple(_SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))
"""The cards of the same suit above each card."""


def _lead_subsets(group: int) -> tuple[tuple[DurakAction, ...], ...]:
    """The leads made of the cards of the bitmask ``group`` (one rank in a hand), by how many cards they have
    (index 0 empty)."""
    cards = cards_of(group)
    by_size: list[list[DurakAction]] = [[] for _ in range(len(cards) + 1)]
    for bits in range(1, 1 << len(cards)):
        lead = tuple(c for i, c in enumerate(cards) if bits >> i & 1)
        by_size[len(lead)].append(DurakAction(LEAD, lead))
    return tuple(tuple(leads) for leads in by_size)


_LEADS: dict[int, tuple[tuple[DurakAction, ...], ...]] = {}
"""Leads by size, per bitmask of the cards of one rank in a hand, filled on first use."""


def _flag(value: str) -> bool:
    return value == "true"


class DurakTermination(StrEnum):
    """How a Durak deal (or a session of deals) ends."""

    DURAK = "durak"
    """One seat (or team) is left holding cards: the durak."""
    NO_DURAK = "no_durak"
    """The last cards went out together: nobody is the durak."""
    SESSION = "session"
    """A session's last deal was played (each deal's own termination is kept in the outcome's ``games``)."""


class Durak(Game):
    """The Durak game definition (immutable): every option of rules §1.1."""

    id = "durak"
    terminations = DurakTermination
    hidden_information = True
    OPTIONS = (
        GameOption("variant", "podkidnoy", ("podkidnoy", "perevodnoy"), "perevodnoy adds transfers"),
        GameOption("deck", "36", ("36", "24", "52"), "36 (6..A), 24 (9..A) or 52 (2..A) cards"),
        GameOption("seats", "2", ("2", "3", "4", "5", "6"), "players (24 cards: 2-4; teams: 4)"),
        GameOption("teams", "none", ("none", "2v2"), "2v2: seats 0+2 against 1+3"),
        GameOption("bout_limit", "6", ("1", "2", "3", "4", "5", "6"), "most attack cards in a bout"),
        GameOption("first_bout_limit", "6", ("5", "6"), "most attack cards in the first bout"),
        GameOption("multi_card_lead", "true", ("true", "false"), "a lead may be several cards of one rank"),
        GameOption("transfer_in_first_bout", "true", ("true", "false"), "perevodnoy: transfers in bout 1"),
        GameOption("show_trump_transfer", "false", ("false", "true"), "perevodnoy: transfer by showing a trump"),
        GameOption("no_trump_start", "random", ("random", "redeal"), "nobody holds a trump: lot or redeal"),
        GameOption("deals", "1", (), "deals in a session (a series of games)"),
        GameOption(
            "session_start",
            "lowest_trump",
            ("lowest_trump", "under_fool", "from_under_fool"),
            "who attacks first in a session's later deals",
        ),
        decision_limit_option(5000),  # random play's longest deal measured 967 decisions (6 seats, 52 cards)
    )

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = resolve_options(self.id, self.OPTIONS, options)
        o = self.options
        self.seats = int(o["seats"])
        self.teams = o["teams"] == "2v2"
        self.transfers = o["variant"] == "perevodnoy"
        self.deck = tuple(deck(_LOWEST_RANK[o["deck"]]))
        self.ranks = tuple(_RANK_MASKS[rank - 2] for rank in range(_LOWEST_RANK[o["deck"]], 15))
        """The bitmask of each rank in the deck, lowest first."""
        self.bout_limit = int(o["bout_limit"])
        self.first_bout_limit = min(int(o["first_bout_limit"]), self.bout_limit)
        self.multi_card_lead = _flag(o["multi_card_lead"])
        self.transfer_in_first_bout = _flag(o["transfer_in_first_bout"])
        self.show_trump = self.transfers and _flag(o["show_trump_transfer"])
        self.redeal = o["no_trump_start"] == "redeal"
        if self.teams and self.seats != 4:
            raise InvalidOptionError("durak: teams=2v2 needs seats=4")
        if HAND * self.seats > len(self.deck):
            raise InvalidOptionError(f"durak: {self.seats} seats need more than {len(self.deck)} cards")

    @property
    def num_seats(self) -> int:
        """2 to 6."""
        return self.seats

    def new_state(self) -> State:
        """A fresh deal (the shuffle comes first), in Python. The registered game,
        :class:`.durak_session.DurakGame`, plays a session of ``deals`` deals instead when there are more than one,
        and runs its deals in the native core when it is installed."""
        return DurakState(self)

    def core_rules(self) -> tuple[int | bool, ...]:
        """A deal's options as the native core takes them: (seats, teams, transfers, lowest rank, bout limit,
        first bout limit, multi-card lead, transfer in the first bout, show-trump transfer, redeal)."""
        return (self.seats, self.teams, self.transfers, _LOWEST_RANK[self.options["deck"]], self.bout_limit,
                self.first_bout_limit, self.multi_card_lead, self.transfer_in_first_bout, self.show_trump, self.redeal)

    def position(
        self,
        hands: Sequence[Iterable[int | str]],
        trump_card: int | str,
        attacker: int,
        stock: Iterable[int | str] = (),
        bout: int = 2,
        shown: Iterable[int | str] = (),
    ) -> DurakState:
        """A state at the start of a bout, for tests and analysis: ``hands`` per seat, the ``stock`` in draw order
        (the turned trump is its last card when it is still there), every other card of the deck discarded, seats
        without cards out (when the stock is empty), ``attacker`` to lead bout number ``bout``, the trumps
        ``shown`` by earlier show-trump transfers."""
        state = DurakState(self)
        read = [[parse_card(c) if isinstance(c, str) else c for c in hand] for hand in hands]
        state._hands = [mask_of(hand) for hand in read]
        state._stock = [parse_card(c) if isinstance(c, str) else c for c in stock]
        state._trump_card = parse_card(trump_card) if isinstance(trump_card, str) else trump_card
        state._trump = suit_of(state._trump_card)
        state._shown = mask_of(parse_card(c) if isinstance(c, str) else c for c in shown)
        placed = mask_of(state._stock) | mask_of(c for hand in read for c in hand)
        state._discard = mask_of(self.deck) & ~placed
        state._order, state._unplaced = list(self.deck), []
        if not state._stock:
            state._places = [0 if hand else 1 for hand in state._hands]
        state._bout = bout - 1
        state._start_game(attacker)
        return self._placed(state)

    def _placed(self, state: DurakState) -> DurakState:
        """The state :meth:`position` gives for the Python state it made (itself; the registered game's runs on
        the native core when it is installed)."""
        return state

    def from_view(self, view: DurakView, hands: Sequence[Iterable[int]], stock: Sequence[int]) -> DurakState:
        """A state consistent with a seat's ``view`` in which the seats hold ``hands`` and the stock is ``stock`` in
        draw order: a determinization, for search bots that guess the hidden cards. The view does not say who led
        a bout that was transferred, so the main attacker is taken as the leader (it only orders the drawing); in
        team games it does not say which virtual seat a partner plays either, so the attacker's own is assumed."""
        state = DurakState(self)
        state._order, state._unplaced = list(self.deck), []
        state._hands = [mask_of(hand) for hand in hands]
        state._known = [mask_of(seat.known) for seat in view.seats]
        state._places = [seat.place for seat in view.seats]
        state._stock = list(stock)
        state._trump_card, state._trump = view.trump_card, view.trump_suit
        state._table = [[a, d] for a, d in view.table]
        state._discard = mask_of(view.discard)
        state._shown = mask_of(view.shown)
        state._phase, state._bout = view.phase, view.bout
        state._attacker = state._leader = state._virtual = view.attacker
        state._defender = view.defender
        state._h0 = view.throw_room + len(view.table)
        if view.phase in ("throw_in", "take_throw"):
            state._poll = state._throwers()
            state._poll_at = state._poll.index(view.to_act)
        return state

    def forfeit(self, faulty: Sequence[int]) -> Outcome:
        """A faulty seat is the durak (last place); every other seat shares first place."""
        bad = set(faulty)
        places = tuple(self.seats if s in bad else 1 for s in range(self.seats))
        return Outcome(FAULT, _points(places), places=places)

    def limit_outcome(self) -> Outcome:
        """A deal (or session) ended at its decision limit: every seat shares first place, nobody is the durak."""
        places = (1,) * self.seats
        return Outcome(LIMIT, _points(places), places=places)

    def parse_action(self, text: str, state: State) -> DurakAction | DurakChance:
        """Read ``text`` (as written by ``notation()``) as an action legal in ``state``."""
        words = text.split()
        if not words:
            raise InvalidActionError("an empty action")
        try:
            if words[0] in ("deck", "lot") and len(words) == 2:
                value = parse_card(words[1]) if words[0] == "deck" else int(words[1])
                action: DurakAction | DurakChance = DurakChance(words[0], value)
                legal: Sequence[object] = [a for a, _ in state.chance_outcomes()]
            else:
                cards = [w for w in words[1:] if not (words[0] == "beat" and w == "with")]
                action = action_from_words(words[0], tuple(parse_card(c) for c in cards))
                legal = state.legal_actions()
        except ValueError as exc:
            raise InvalidActionError(f"{text!r}: {exc}") from None
        if action not in legal:
            raise IllegalActionError(f"{text!r} is not legal here")
        return action


def _points(places: Sequence[int]) -> tuple[int, ...]:
    """Points per seat: how many seats finished in a worse place."""
    return tuple(sum(other > mine for other in places) for mine in places)


class DurakState(State):
    """A Durak position. Hands and known cards are bitmasks per seat; the stock is drawn from the front."""

    def __init__(self, game: Durak, first_attacker: int | None = None) -> None:
        self._game = game
        self._first_attacker = first_attacker
        self._reset()

    def _reset(self) -> None:
        """Before the shuffle (also a redeal when nobody was dealt a trump)."""
        n = self._game.seats
        self._order: list[int] = []
        self._unplaced = list(self._game.deck)
        self._phase = "deal"
        self._hands = [0] * n
        self._known = [0] * n
        self._places = [0] * n
        self._stock: list[int] = []
        self._trump_card = NO_CARD
        self._trump = -1
        self._table: list[list[int]] = []
        self._discard = 0
        self._shown = 0
        self._attacker = self._defender = self._leader = -1
        self._virtual = 0
        self._h0 = 0
        self._bout = 0
        self._poll: list[int] = []
        self._poll_at = 0
        self._termination = ""
        self._legal: list[DurakAction] | None = None

    # -- the contract ------------------------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to act, CHANCE during the shuffle and lot, TERMINAL at the end."""
        phase = self._phase
        if phase in ("deal", "lot"):
            return CHANCE
        if phase == "lead":
            return self._attacker
        if phase == "defend":
            return self._defender
        if phase == "over":
            return TERMINAL
        return self._poll[self._poll_at]

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self._phase == "over"

    def chance_outcomes(self) -> list[tuple[DurakChance, float]]:
        """The shuffle's next card (every card not yet placed, equally likely) or the lot's seat."""
        if self._phase == "deal":
            p = 1 / len(self._unplaced)
            return [(DEALS[c], p) for c in self._unplaced]
        if self._phase == "lot":
            n = self._game.seats
            return [(DurakChance("lot", s), 1 / n) for s in range(n)]
        return []

    def sample_chance(self, rng: random.Random) -> DurakChance:
        """The shuffle's next card, uniform over the cards not yet placed (as listed by chance_outcomes)."""
        if self._phase != "deal":
            return super().sample_chance(rng)
        left = self._unplaced
        return DEALS[left[rng.randrange(len(left))]]

    def legal_actions(self) -> list[DurakAction]:
        """Every legal decision of the seat to act, sorted, each once."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal()
        return list(legal)

    def _list_legal(self) -> list[DurakAction]:
        phase = self._phase
        if phase == "lead":
            return self._leads()
        if phase == "defend":
            return self._defences()
        if phase == "throw_in":
            return self._throws() + [_NO_CARDS[PASS]]
        if phase == "take_throw":
            return self._throws() + [_NO_CARDS[DONE]]
        return []

    def apply(self, action: DurakAction | DurakChance) -> None:
        """Play a decision or a chance outcome. Raises IllegalActionError if it is not legal here."""
        if isinstance(action, DurakChance):
            self._apply_chance(action)
            return
        if action not in (self._legal if self._legal is not None else self._list_legal()):
            raise IllegalActionError(f"{action.notation()} is not legal here")
        self._legal = None
        kind, cards = action
        seat = self.current_player
        if kind == LEAD:
            played = mask_of(cards)
            self._table = [[c, NO_CARD] for c in cards]
            self._phase = "defend"
        elif kind == BEAT:
            attack, played = cards[0], 1 << cards[1]
            uncovered = False
            for pair in self._table:
                if pair[0] == attack:
                    pair[1] = cards[1]
                elif pair[1] == NO_CARD:
                    uncovered = True
            if not uncovered:
                self._hands[seat] &= ~played
                self._known[seat] &= ~played
                self._covered()
                return
        elif kind == TRANSFER or kind == SHOW:
            if kind == TRANSFER:
                played = 1 << cards[0]
                self._table.append([cards[0], NO_CARD])
            else:
                played = 0
                self._shown |= 1 << cards[0]
                self._known[seat] |= 1 << cards[0]
            target = self._next_defender()
            self._attacker, self._defender = seat, target
            self._virtual += 1
            self._h0 = self._hands[target].bit_count()
        elif kind == TAKE:
            self._phase = "take_throw"
            self._start_poll()
            return
        elif kind == THROW:
            played = 1 << cards[0]
            self._table.append([cards[0], NO_CARD])
            if self._phase == "throw_in":
                self._phase = "defend"
        else:  # PASS or DONE
            self._poll_at += 1
            self._skip_empty()
            return
        self._hands[seat] &= ~played
        self._known[seat] &= ~played

    def _apply_chance(self, action: DurakChance) -> None:
        if action.kind == "deck" and self._phase == "deal":
            try:
                self._unplaced.remove(action.value)
            except ValueError:
                raise IllegalActionError(f"{action.notation()} is not a chance outcome here") from None
            self._legal = None
            self._order.append(action.value)
            if not self._unplaced:
                self._deal()
        elif action.kind == "lot" and self._phase == "lot" and 0 <= action.value < self._game.seats:
            self._legal = None
            self._start_game(action.value)
        else:
            raise IllegalActionError(f"{action.notation()} is not a chance outcome here")

    def outcome(self) -> Outcome:
        """Places per seat (1 = first out, ties share) and points (seats finishing worse)."""
        if self._phase != "over":
            raise ValueError("the game is not over")
        places = tuple(self._places)
        return Outcome(self._termination, _points(places), places=places)

    def view(self, seat: int) -> DurakView:
        """What ``seat`` sees (rules §1.8).

        Raises:
            ValueError: there is no such seat.
        """
        if not 0 <= seat < self._game.seats:
            raise ValueError(f"durak has seats 0 to {self._game.seats - 1} here, not {seat}")
        roles = {self._attacker: "attacker", self._defender: "defender"} if self._phase not in ("deal", "over") else {}
        throwers = set(self._throwers()) if roles else set()
        n = self._game.seats
        seats = tuple(
            DurakSeat(
                hand_size=self._hands[s].bit_count(),
                place=self._places[s],
                role=roles.get(s, "thrower" if s in throwers else ""),
                known=tuple(cards_of(self._known[s])),
                team=s % 2 if self._game.teams else -1,
            )
            for s in range(n)
        )
        to_act = self.current_player
        in_bout = self._phase in ("lead", "defend", "throw_in", "take_throw")
        return DurakView(
            variant=self._game.options["variant"],
            seat=seat,
            hand=tuple(cards_of(self._hands[seat])),
            seats=seats,
            trump_suit=self._trump,
            trump_card=self._trump_card,
            trump_in_stock=bool(self._stock) and self._stock[-1] == self._trump_card,
            stock=len(self._stock),
            table=tuple((a, d) for a, d in self._table),
            discard=tuple(cards_of(self._discard)),
            phase=self._phase,
            to_act=to_act if to_act >= 0 else -1,
            attacker=self._attacker if in_bout else -1,
            defender=self._defender if in_bout else -1,
            throw_room=max(0, self._cap() - len(self._table)) if in_bout else 0,
            bout=self._bout,
            shown=tuple(cards_of(self._shown)),
        )

    def spectator_view(self) -> DurakView:
        """The whole table: every hand (``hands``), for replays and spectators; ``seat`` is -1."""
        hands = tuple(tuple(cards_of(hand)) for hand in self._hands)
        return dataclasses.replace(self.view(0), seat=-1, hand=(), hands=hands)

    def clone(self) -> DurakState:
        """An independent copy."""
        other = object.__new__(DurakState)
        other.__dict__.update(self.__dict__)
        for name in ("_order", "_unplaced", "_hands", "_known", "_places", "_stock", "_poll"):
            setattr(other, name, list(getattr(self, name)))
        other._table = [list(pair) for pair in self._table]
        other._legal = None
        return other

    # -- setup -------------------------------------------------------------------------------------------------

    def _deal(self) -> None:
        g = self._game
        n = g.seats
        dealt = HAND * n
        for i, c in enumerate(self._order[:dealt]):
            self._hands[i % n] |= 1 << c
        if dealt < len(self._order):
            self._trump_card = self._order[dealt]
            self._stock = self._order[dealt + 1 :] + [self._trump_card]
        else:  # nothing left: the last card dealt fixes trump and stays, shown, in its owner's hand
            self._trump_card = self._order[dealt - 1]
            self._known[(dealt - 1) % n] |= 1 << self._trump_card
        self._trump = suit_of(self._trump_card)
        if self._first_attacker is not None:  # a session's later deal (session_start)
            self._start_game(self._first_attacker)
            return
        for rank in range(2, 15):
            c = self._trump * 13 + rank - 2
            holder = next((s for s in range(n) if self._hands[s] >> c & 1), None)
            if holder is not None:
                self._known[holder] |= 1 << c
                self._start_game(holder)
                return
        if g.redeal:
            self._reset()
        else:
            self._phase = "lot"

    def _start_game(self, attacker: int) -> None:
        self._virtual = attacker
        self._start_bout(attacker)

    # -- roles -------------------------------------------------------------------------------------------------

    def _active(self, seat: int) -> bool:
        return self._places[seat] == 0

    def _next_active(self, seat: int) -> int:
        n = self._game.seats
        for step in range(1, n + 1):
            other = (seat + step) % n
            if self._active(other):
                return other
        return seat

    def _plays_for(self, virtual: int) -> int:
        """Team games: the player of virtual seat ``virtual`` (itself while active, else its partner)."""
        virtual %= 4
        return virtual if self._active(virtual) else (virtual + 2) % 4

    def _next_defender(self) -> int:
        """Where a transfer goes: the next active seat left of the defender (team: the next virtual seat)."""
        if self._game.teams:
            return self._plays_for(self._virtual + 2)
        return self._next_active(self._defender)

    def _throwers(self) -> list[int]:
        """The seats that may throw in, in poll order: the main attacker, then clockwise from the defender's left."""
        n = self._game.seats
        d = self._defender
        if n == 2:
            return [self._attacker] if not self._places[self._attacker] else []
        order = [self._attacker] + [(d + step) % n for step in range(1, n)]
        seen: list[int] = []
        for s in order:
            if s == d or s in seen or not self._active(s):
                continue
            if self._game.teams and s % 2 == d % 2:
                continue
            seen.append(s)
        return seen

    # -- the bout ----------------------------------------------------------------------------------------------

    def _start_bout(self, attacker: int) -> None:
        self._bout += 1
        self._attacker = self._leader = attacker
        self._defender = self._plays_for(self._virtual + 1) if self._game.teams else self._next_active(attacker)
        self._h0 = self._hands[self._defender].bit_count()
        self._table = []
        self._phase = "lead"

    def _limit(self) -> int:
        return self._game.first_bout_limit if self._bout == 1 else self._game.bout_limit

    def _cap(self) -> int:
        """The most attack cards this bout may hold: min(L, h0)."""
        g = self._game
        limit = g.first_bout_limit if self._bout == 1 else g.bout_limit
        return limit if limit < self._h0 else self._h0

    def _leads(self) -> list[DurakAction]:
        most = self._cap() if self._game.multi_card_lead else 1
        hand = self._hands[self._attacker]
        leads: list[DurakAction] = []
        for rank in self._game.ranks:
            group = hand & rank
            if group:
                by_size = _LEADS.get(group)
                if by_size is None:
                    by_size = _LEADS[group] = _lead_subsets(group)
                for leads_of_size in by_size[1 : most + 1]:
                    leads += leads_of_size
        leads.sort()
        return leads

    def _defences(self) -> list[DurakAction]:
        g = self._game
        trump = self._trump
        hand = self._hands[self._defender]
        trumps = hand & _SUIT_MASKS[trump]
        actions = []
        for a, d in self._table:
            if d != NO_CARD:
                continue
            beaters = hand & _HIGHER[a] | (trumps if a // 13 != trump else 0)
            beat = _BEATS[a]
            while beaters:
                low = beaters & -beaters
                beaters ^= low
                actions.append(beat[low.bit_length() - 1])
        actions.append(_NO_CARDS[TAKE])
        if g.transfers and (self._bout > 1 or g.transfer_in_first_bout) and all(d == NO_CARD for _, d in self._table):
            rank = rank_of(self._table[0][0])
            count = len(self._table)
            target = self._next_defender()
            room = self._hands[target].bit_count()
            if target != self._defender:
                for c in cards_of(hand & _RANK_MASKS[rank - 2]):
                    if count + 1 <= self._limit() and room >= count + 1:
                        actions.append(_SINGLES[TRANSFER][c])
                    if g.show_trump and suit_of(c) == trump and not self._shown >> c & 1 and room >= count:
                        actions.append(_SINGLES[SHOW][c])
        actions.sort()
        return actions

    def _throws(self) -> list[DurakAction]:
        if len(self._table) >= self._cap():
            return []
        ranks = 0
        for a, d in self._table:
            ranks |= _RANK_MASKS[a % 13] | (_RANK_MASKS[d % 13] if d != NO_CARD else 0)
        throw = _SINGLES[THROW]
        return [throw[c] for c in cards_of(self._hands[self._poll[self._poll_at]] & ranks)]

    def _covered(self) -> None:
        """Every attack card is covered: the bout is beaten off, or the throwers are polled."""
        if not self._hands[self._defender] or len(self._table) >= self._cap():
            self._end_bout(taken=False)
        else:
            self._phase = "throw_in"
            self._start_poll()

    def _start_poll(self) -> None:
        self._poll = self._throwers()
        self._poll_at = 0
        self._skip_empty()

    def _skip_empty(self) -> None:
        """Skip throwers with no cards (everybody sees they cannot throw); the poll's end ends the bout."""
        while self._poll_at < len(self._poll) and not self._hands[self._poll[self._poll_at]]:
            self._poll_at += 1
        if self._poll_at == len(self._poll):
            self._end_bout(taken=self._phase == "take_throw")

    def _end_bout(self, taken: bool) -> None:
        g = self._game
        n = g.seats
        d = self._defender
        table = 0
        for a, c in self._table:
            table |= 1 << a | (1 << c if c != NO_CARD else 0)
        self._table = []
        hands = self._hands
        if taken:  # the defender takes the table
            hands[d] |= table
            self._known[d] |= table
            self._virtual += 2
        else:
            self._discard |= table
            self._virtual += 1
        stock = self._stock
        if stock:  # draw up to six: the leader, the others clockwise, the defender last
            leader = self._leader
            if n == 2:
                order = [1 - d, d]
            else:
                order = [leader] if leader != d else []
                order += [(leader + step) % n for step in range(1, n) if (leader + step) % n != d] + [d]
            for seat in order:
                while stock and hands[seat].bit_count() < HAND:
                    c = stock.pop(0)
                    hands[seat] |= 1 << c
                    if c == self._trump_card:
                        self._known[seat] |= 1 << c
        if not stock:
            places = self._places
            gone = [s for s in range(n) if not places[s] and not hands[s]]
            if gone:
                place = 1 + sum(1 for p in places if p)
                for s in gone:
                    places[s] = place
            if self._finished():
                return
        if g.teams:
            self._start_bout(self._plays_for(self._virtual))
        else:
            candidate = d if not taken else self._next_active(d)
            self._start_bout(candidate if self._active(candidate) else self._next_active(candidate))

    def _finished(self) -> bool:
        """End the game when at most one seat (team games: one team) still holds cards."""
        n = self._game.seats
        active = [s for s in range(n) if self._active(s)]
        if self._game.teams:
            live_teams = {s % 2 for s in active}
            if len(live_teams) == 2:
                return False
            for s in range(n):
                self._places[s] = 2 if s % 2 in live_teams else 1
            self._termination = DurakTermination.DURAK if live_teams else DurakTermination.NO_DURAK
        else:
            if len(active) > 1:
                return False
            if active:
                self._places[active[0]] = n
                self._termination = DurakTermination.DURAK
            else:
                self._termination = DurakTermination.NO_DURAK
        self._phase = "over"
        self._attacker = self._defender = -1
        return True
