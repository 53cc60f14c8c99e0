"""The card games' views in text, for the terminal: Durak's table, the Gaps grid, the Gapa layout."""

from __future__ import annotations

from ._cards import SUITS, card_text
from ._durak_view import NO_CARD, DurakView
from ._gapa_view import GapaView
from ._gaps_view import GAP, GapsView


def _cards(cards: tuple[int, ...]) -> str:
    return " ".join(card_text(c) for c in cards) or "-"


def render_durak(view: DurakView, names: tuple[str, ...] | None = None) -> str:
    """The card table as ``view.seat`` sees it (every hand for the spectator's view, seat -1): one line per seat
    with its role, hand (or size and publicly known cards), then the table, the trump and the stock.

    >>> from referee.games import make_game
    >>> state = make_game("durak").position([["9C", "9D"], ["TC"]], "AS", attacker=0, stock=["6S"])
    >>> print(render_durak(state.view(1)))
    durak (podkidnoy) bout 2, trump S (AS), stock 1, discard 32, seen by seat 1
      seat 0  attacker  2 cards
      seat 1  defender  TC
    table: -
    to act: seat 0 (lead)
    """
    trump = SUITS[view.trump_suit] if view.trump_suit >= 0 else "?"
    where = " under the stock" if view.trump_in_stock else ""
    trump_card = card_text(view.trump_card) if view.trump_card != NO_CARD else "?"
    who = "the spectator" if view.seat < 0 else f"seat {view.seat}"
    lines = [
        f"durak ({view.variant}) bout {view.bout}, trump {trump} ({trump_card}{where}), stock {view.stock}, "
        f"discard {len(view.discard)}, seen by {who}"
    ]
    for number, seat in enumerate(view.seats):
        name = f" {names[number]}" if names and number < len(names) else ""
        if view.hands:
            cards = _cards(view.hands[number])
        elif number == view.seat:
            cards = _cards(view.hand)
        else:
            cards = f"{seat.hand_size} cards" + (f", known {_cards(seat.known)}" if seat.known else "")
        status = f"{'durak' if seat.hand_size else 'out'} (place {seat.place})" if seat.place else seat.role
        team = f" team {seat.team}" if seat.team >= 0 else ""
        lines.append(f"  seat {number}{name}{team}  {status}  {cards}".rstrip())
    table = "  ".join(card_text(a) + ("/" + card_text(d) if d != NO_CARD else "/--") for a, d in view.table)
    lines.append(f"table: {table or '-'}" + (f"   room for {view.throw_room} more" if view.table else ""))
    if view.shown:
        lines.append(f"shown trumps: {_cards(view.shown)}")
    if view.deals > 1:
        lines.append(f"session: deal {view.deal} of {view.deals}, deals lost {':'.join(map(str, view.duraks))}")
    if view.to_act >= 0:
        lines.append(f"to act: seat {view.to_act} ({view.phase.replace('_', ' ')})")
    return "\n".join(lines)


def render_gaps(view: GapsView, names: tuple[str, ...] | None = None) -> str:
    """The grid, one row a line (``--`` for a gap, ``*`` after the cards in place), then the round.

    >>> from referee.games import make_game
    >>> print(render_gaps(make_game("gaps").position([["2C", "3C", None, "KD"], ["5H", None]]).view(0)))
    gaps (montana) round 1 of 3, 0 moves, 2 cards in place
      0  2C* 3C* --  KD  --  --  --  --  --  --  --  --  --
      1  5H  --  --  --  --  --  --  --  --  --  --  --  --
      2  --  --  --  --  --  --  --  --  --  --  --  --  --
      3  --  --  --  --  --  --  --  --  --  --  --  --  --
    """
    lines = [
        f"gaps ({view.variant}) round {view.round} of {view.rounds}, {view.moves} moves, {view.placed} cards in place"
    ]
    for row in range(view.rows):
        cells = view.grid[row * view.columns : (row + 1) * view.columns]
        text = "".join(
            (card_text(c) if c != GAP else "--") + ("*" if column < view.runs[row] else " ") + " "
            for column, c in enumerate(cells)
        )
        lines.append(f"  {row}  {text.rstrip()}")
    return "\n".join(lines)


def render_gapa(view: GapaView, names: tuple[str, ...] | None = None) -> str:
    """The Gapa table as ``view.seat`` sees it (the spectator, seat -1, sees both drawn cards): each player's
    piles, the foundations and the side piles (bottom to top).

    >>> from referee.games import make_game
    >>> state = make_game("gapa").position(0, {"small_up": ["2D"], "big": ["9C"]}, {"small_up": ["3H"]},
    ...                                    foundations=["AD"], side=[["3D"], ["4H"]], pending=("KS", "big"))
    >>> print(render_gapa(state.view(1)))
    gapa (strict) seen by seat 1, to act: seat 0 (priority 2), 0 actions this turn
      seat 0  small 0  small_up 2D  big 1  big_up -  pending (from big)
      seat 1  small 0  small_up 3H  big 0  big_up -
    foundations: AD -- -- -- -- -- -- --
    side: s0 3D | s1 4H | s2 - | s3 - | s4 - | s5 - | s6 - | s7 -
    """
    who = "the spectator" if view.seat < 0 else f"seat {view.seat}"
    turn = f"to act: seat {view.turn} (priority {view.priority})" if view.turn >= 0 else "nobody to act"
    lines = [f"gapa ({view.mode}) seen by {who}, {turn}, {view.actions} actions this turn"]
    for number, p in enumerate(view.players):
        name = f" {names[number]}" if names and number < len(names) else ""
        pending = ""
        if p.pending_from:
            shown = card_text(p.pending) + " " if p.pending != NO_CARD else ""
            pending = f"  pending {shown}(from {p.pending_from})"
        known = f" ({_cards(p.big_known)} known)" if p.big_known else ""
        lines.append(
            f"  seat {number}{name}  small {p.small}  small_up {_cards(p.small_up)}  big {p.big}{known}"
            f"  big_up {_cards(p.big_up)}{pending}"
        )
    lines.append("foundations: " + " ".join(card_text(c) if c != NO_CARD else "--" for c in view.foundations))
    lines.append("side: " + " | ".join(f"s{i} {_cards(pile)}" for i, pile in enumerate(view.side)))
    return "\n".join(lines)
