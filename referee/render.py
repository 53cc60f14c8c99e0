"""Text rendering of views (a function of a view, never of the engine's internals)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.frames import DEALING, their_numbers
from referee.games import (
    GAP,
    NO_CARD,
    PIN_MINE,
    PIN_THEIRS,
    BackgammonView,
    DurakView,
    GapaView,
    GapsView,
    State,
)
from referee.games.cards._cards import SUITS, card_text
from referee.replay import Replay, replay_states


def _cell(mine: int, theirs: int, pin: int) -> str:
    if pin == PIN_THEIRS:
        text = f"o{mine}+x"
    elif pin == PIN_MINE:
        text = f"x{theirs}+o"
    elif mine:
        text = f"o{mine}"
    elif theirs:
        text = f"x{theirs}"
    else:
        text = "."
    return f"{text:>5}"


def render_backgammon(view: BackgammonView, names: tuple[str, str] | None = None) -> str:
    """An ASCII board drawn from ``view.seat``'s side: ``o`` are that seat's checkers, ``x`` the opponent's.

    Points carry both numberings: ``o``'s above the top row and below the bottom one, ``x``'s in brackets beside
    them (a move's notation is in its mover's numbering). ``o2+x`` marks an opponent checker pinned under two of
    ours, ``x1+o`` one of ours pinned under theirs; a legend line says so when a pin is on the board.

    >>> from referee.games import make_game
    >>> print(render_backgammon(make_game("tapa").new_state().view(0)).splitlines()[1])
      o:    13   14   15   16   17   18 |   19   20   21   22   23   24
    """
    me = f"o = seat {view.seat}" + (f" {names[view.seat]}" if names else "")
    them = f"x = seat {1 - view.seat}" + (f" {names[1 - view.seat]}" if names else "")
    top = range(13, 25)
    bottom = range(12, 0, -1)
    theirs = their_numbers(view.variant)

    def row(points: range) -> str:
        cells = [_cell(view.mine[p - 1], view.theirs[p - 1], view.pins[p - 1]) for p in points]
        return "     " + "".join(cells[:6]) + " |" + "".join(cells[6:])

    def labels(side: str, points: range) -> str:
        cells = [f"{p:>5}" if side == "o" else f"{f'({theirs[p - 1]})':>5}" for p in points]
        return f"  {side}: " + "".join(cells[:6]) + " |" + "".join(cells[6:])

    lines = [
        f"{view.variant}  {me}  {them}",
        labels("o", top),
        labels("x", top),
        row(top),
        row(bottom),
        labels("x", bottom),
        labels("o", bottom),
        f"off: o {view.my_off}  x {view.their_off}"
        + (f"   bar: o {view.my_bar}  x {view.their_bar}" if view.my_bar or view.their_bar else "")
        + (f"   dice: {'-'.join(map(str, view.dice))}" if view.dice else "")
        + (f"   to move: seat {view.turn}" if view.turn >= 0 else ""),
    ]
    if any(view.pins):
        lines.append("pins: o2+x = an x checker pinned under 2 o's; x1+o = an o checker pinned under 1 x")
    if view.later_stages or view.remainder:
        ladder = "playing the opponent's remainder" if view.remainder else "ladder"
        later = ", then " + " ".join(f"{d}x4" for d in view.later_stages) if view.later_stages else ""
        lines.append(f"{ladder}: this stage {'-'.join(map(str, view.dice))}{later}")
    if view.match.target > 1:
        score = ":".join(map(str, view.match.points))
        lines.append(f"match {score} to {view.match.target}, game {view.match.game_number} ({view.match.current_game})")
    return "\n".join(lines)


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


def render_view(view: object, names: tuple[str, ...] | None = None) -> str:
    """Render any view the framework knows."""
    if isinstance(view, BackgammonView):
        return render_backgammon(view, names)  # type: ignore[arg-type]
    if isinstance(view, DurakView):
        return render_durak(view, names)
    if isinstance(view, GapsView):
        return render_gaps(view, names)
    if isinstance(view, GapaView):
        return render_gapa(view, names)
    raise TypeError(f"no renderer for {type(view).__name__}")


def _compact(notations: list[str]) -> list[str]:
    """Chance steps summarised: a deal (one step per card) as one line that counts its cards, and other runs of
    one kind on one line (``key 3 7`` rather than a line each).

    >>> _compact(["deal 9C", "deal 2H", "key 3", "key 7", "roll 6-1"])
    ['the deal: 2 cards', 'key 3 7', 'roll 6-1']
    """
    lines: list[str] = []
    kind = None
    dealt = 0
    for notation in notations:
        word, _, rest = notation.partition(" ")
        if notation.startswith(DEALING):
            dealt = dealt + 1 if kind == word else 1
            if dealt > 1:
                lines[-1] = f"the deal: {dealt} cards"
            else:
                lines.append("the deal: 1 card")
        elif word == kind and word not in ("roll", "opening", "==") and rest:
            lines[-1] += " " + rest
        else:
            lines.append(notation)
        kind = word
    return lines


def _result_line(result: dict, final: object, names: tuple[str, ...]) -> str:
    """The result as ``referee play`` says it: a Durak deal's places and its durak, else the points."""
    termination = result.get("termination")
    if isinstance(final, DurakView) and final.deals == 1 and final.seats and all(s.place for s in final.seats):
        durak = "".join(f", durak {names[n] if n < len(names) else '?'} (seat {n})"
                        for n, seat in enumerate(final.seats) if seat.hand_size)
        return f"result: places {':'.join(str(seat.place) for seat in final.seats)}{durak} by {termination}"
    return f"result: {termination} {result.get('points')}"


@dataclass(frozen=True)
class Page:
    """One page of a replay in text: the start, one decision (with the chance steps before it), or the result."""

    game_number: int
    text: str


def replay_pages(replay: Replay, as_seat: int | None = None) -> tuple[list[Page], list[str]]:
    """A replay as text pages, as the spectator saw it (every hand) or as ``as_seat`` did (a seat never sees a
    shuffle), and the problems found re-running it.

    Raises:
        ValueError: the replay cannot be re-run at all, or ``as_seat`` is not a seat of its game.
    """
    states, problems = replay_states(replay)
    if not states:
        raise ValueError("; ".join(problems) or "cannot read replay")
    game = replay.game()
    if as_seat is not None and not 0 <= as_seat < game.num_seats:
        raise ValueError(f"this game has seats 0..{game.num_seats - 1}")

    def seen(state: State) -> object:
        return state.spectator_view() if as_seat is None else state.view(as_seat)

    header = replay.header
    names = tuple(seat.get("name", "?") for seat in header.get("seats", []))
    seed = replay.seed or f"(secret, committed {str(header.get('commitment'))[:12]}…)"
    title = f"{header.get('match_id')}: {header.get('game')} seed {seed}  " + " vs ".join(names)
    pages = [Page(1, title + "\n" + render_view(seen(states[0]), names or None))]
    pending: list[str] = []
    for step, before, after in zip(replay.steps, states, states[1:], strict=False):
        if after.game_number != before.game_number:
            game_id, outcome = after.completed_games()[-1]
            ends = f"{outcome.termination} {list(outcome.points)}"
            pending.append(f"== game {before.game_number} ({game_id}) ends: {ends}")
            match = getattr(seen(after), "match", None)  # a Tabla match names the next game of its rotation
            pending.append(f"== game {after.game_number} ({match.current_game if match else game.id}) begins")
        if step["type"] == "chance":
            if as_seat is None or not game.hidden_information:
                pending.append(step["notation"])
            continue
        lines = _compact(pending) + [f"seat {step['seat']} plays {step['notation'] or '(nothing)'}  ({step.get('ms', 0):.0f} ms)"]
        if step.get("comment"):
            lines.append(f"  comment: {step['comment']}")
        lines.append(render_view(seen(after), names or None))
        pages.append(Page(after.game_number, "\n".join(lines)))
        pending = []
    result = replay.result or {}
    games = enumerate(result.get("games", []), 1)
    lines = _compact(pending) + [f"game {n} ({g['game']}): {g['termination']} {g['points']}" for n, g in games]
    lines.append(_result_line(result, states[-1].spectator_view(), names))
    lines += [f"fault: seat {f['seat']} {f['kind']}: {f['message']}" for f in result.get("faults", [])]
    pages.append(Page(states[-1].game_number, "\n".join(lines)))
    return pages, problems
