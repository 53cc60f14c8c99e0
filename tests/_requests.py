"""The request a referee sends at a decision, for tests that look at requests without a referee."""

from __future__ import annotations

from referee.games import Game, State
from referee.wire import ActRequest, ClockInfo, LegalAction


def request_for(game: Game, state: State, decision: int = 0, seat: int | None = None) -> ActRequest:
    """The ActRequest of ``state``'s decision for ``seat`` (default: the seat to act), every action with its
    notation and detail, as the referee's driver builds it."""
    seat = state.current_player if seat is None else seat
    legal = state.legal_actions()
    return ActRequest(
        match_id=f"m-{game.id}",
        game_number=state.game_number,
        game=game.id,
        seat=seat,
        options=dict(game.options),
        decision=decision,
        view=state.view(seat),
        clock=ClockInfo(120_000, 3_000, 30_000, 30_000 - decision),
        legal_actions=tuple(LegalAction(i, a.notation(), a) for i, a in enumerate(legal)),
    )
