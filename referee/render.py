"""Text rendering of views (a function of a view, never of the engine's internals)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.frames import DEALING
from referee.games import State
from referee.games.registry import registration_for
from referee.replay import Replay, replay_states


def render_view(view: object, names: tuple[str, ...] | None = None) -> str:
    """Render any view of a registered game, as its registration draws it.

    Raises:
        referee.games.registry.UnknownViewError: no registered game gives views of this class.
    """
    return registration_for(view).render(view, names)


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
    """The result as ``referee play`` says it: as the game's registration says it (a Durak deal's places and its
    durak), else the termination and the points."""
    said = registration_for(final).result_line
    line = said(result, final, names) if said is not None else None
    return line if line is not None else f"result: {result.get('termination')} {result.get('points')}"


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
