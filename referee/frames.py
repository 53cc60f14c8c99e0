"""A replay as frames for viewers: the view after every step, as one seat saw it or as a spectator, in JSON.

The web viewer and the terminal replayer draw frames, never the engine's internals. A seat's frames hide what
the seat could not know: other hands, and the shuffle's chance steps (their notation is blanked). A deal (the
run of chance steps that places the cards one by one) is one frame, not one per card.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from referee.games import GAP, NO_CARD, BackgammonView, DurakView, GapaView, GapsView, State, make_game
from referee.games.cards._cards import SUITS, card_text
from referee.games.tabla_family._family import FamilyGame
from referee.replay import Replay, replay_states

HIDDEN_STEP = "(a chance step this seat does not see)"
DEALING = ("deck ", "deal ")
"""Notations of the chance steps that place one card of a deal."""


@functools.cache
def their_numbers(variant: str) -> tuple[int, ...]:
    """For each point 1..24 in one seat's numbering, the opponent's number of it (notation is in the mover's).

    >>> their_numbers("tabla")[:3], their_numbers("gjul-bara")[:3]
    ((24, 23, 22), (13, 14, 15))
    """
    game = make_game(variant)
    assert isinstance(game, FamilyGame), f"{variant} is not a game of the Tabla family"
    return tuple(game.theirs_to_mine(point) for point in range(1, 25))


def _cards(cards: Any) -> Any:
    if isinstance(cards, int):
        return card_text(cards) if cards != NO_CARD else ""
    return [_cards(c) for c in cards]


def view_json(view: Any) -> dict[str, Any]:
    """A view as JSON-ready data: its fields, with cards written as text (``"9C"``, ``""`` for none) and its kind."""
    data = dataclasses.asdict(view)
    if isinstance(view, DurakView):
        for key in ("hand", "discard", "shown", "hands", "trump_card"):
            data[key] = _cards(data[key])
        data["table"] = [_cards(pair) for pair in view.table]
        data["trump_suit"] = SUITS[view.trump_suit] if view.trump_suit >= 0 else ""
        for seat in data["seats"]:
            seat["known"] = _cards(seat["known"])
        data["kind"] = "durak"
    elif isinstance(view, GapaView):
        for holding in data["players"]:
            for key in ("small_up", "big_known", "big_up", "pending"):
                holding[key] = _cards(holding[key])
        data["foundations"] = _cards(view.foundations)
        data["side"] = [_cards(pile) for pile in view.side]
        data["shifted"] = _cards(view.shifted)
        data["kind"] = "gapa"
    elif isinstance(view, GapsView):
        data["grid"] = [card_text(c) if c != GAP else "" for c in view.grid]
        data["kind"] = "gaps"
    elif isinstance(view, BackgammonView):
        data["their_numbers"] = list(their_numbers(view.variant))
        data["kind"] = "backgammon"
    else:
        raise TypeError(f"no JSON form for {type(view).__name__}")
    return data


def frames(replay: Replay, seat: int | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """Frame 0 is the start; frame k is the view after step k. Returns the frames and the replay's problems.

    Args:
        replay: a replay read with :func:`referee.replay.read_replay`.
        seat: show what this seat saw; None for the spectator's view (everything).

    Raises:
        ValueError: ``seat`` is not a seat of the replay's game.
    """
    game = replay.game()
    if seat is not None and not 0 <= seat < game.num_seats:
        raise ValueError(f"this game has seats 0..{game.num_seats - 1}")
    states, problems = replay_states(replay)

    def seen(state: State) -> dict[str, Any]:
        return view_json(state.spectator_view() if seat is None else state.view(seat))

    out = [{"index": 0, "type": "start", "notation": "", "game_number": 1, "view": seen(states[0])}] if states else []
    dealt = 0
    for number, (step, state) in enumerate(zip(replay.steps, states[1:], strict=False), 1):
        hidden = step["type"] == "chance" and seat is not None and game.hidden_information
        dealing = step["type"] == "chance" and step.get("notation", "").startswith(DEALING)
        if dealing and dealt and out[-1]["type"] == "deal":
            dealt += 1
            out[-1].update(notation=f"the deal: {dealt} cards", view=seen(state), last_step=number)
            continue
        dealt = 1 if dealing else 0
        frame = {
            "index": len(out),
            "type": "deal" if dealing else step["type"],
            "notation": HIDDEN_STEP if hidden and not dealing else "the deal: 1 card" if dealing
            else step.get("notation", ""),
            "game_number": state.game_number,
            "view": seen(state),
            "first_step": number,
            "last_step": number,
        }
        if step["type"] == "action":
            frame.update(seat=step.get("seat"), ms=step.get("ms", 0), comment=step.get("comment", ""))
        out.append(frame)
    return out, problems
