"""A replay as frames for viewers: the view after every step, as one seat saw it or as a spectator, in JSON.

The web viewer and the terminal replayer draw frames, never the engine's internals. A seat's frames hide what
the seat could not know: other hands, and the shuffle's chance steps (their notation is blanked). A deal (the
run of chance steps that places the cards one by one) is one frame, not one per card.
"""

from __future__ import annotations

from typing import Any

from referee.games import State
from referee.games.registry import registration_for
from referee.replay import Replay, replay_states

HIDDEN_STEP = "(a chance step this seat does not see)"
DEALING = ("deck ", "deal ")
"""Notations of the chance steps that place one card of a deal."""

TEXT_VIEWER = "text"
"""The web viewer's drawing of a game without one of its own: the view's text, as the terminal shows it."""


def view_json(view: Any) -> dict[str, Any]:
    """A view as JSON-ready data, as its game's registration writes it, with ``kind``: the web viewer's drawing of
    it (and ``text``, the terminal's text, for a game drawn as text).

    Raises:
        referee.games.registry.UnknownViewError: no registered game gives views of this class.
    """
    registration = registration_for(view)
    data = registration.view_json(view) | {"kind": registration.viewer}
    if registration.viewer == TEXT_VIEWER:
        data["text"] = registration.render(view)
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
