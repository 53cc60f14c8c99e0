"""Gaps on the wire: a request (the whole grid, the round, every move and end_round) survives the round trip for
every variant, and a wire view holds exactly the engine's grid."""

from __future__ import annotations

import random

import pytest

from referee import wire
from referee.games import CHANCE, GapsMove, make_game
from referee.games.cards.gaps import VARIANTS


@pytest.mark.parametrize("variant", VARIANTS)
def test_gaps_request_round_trip(variant):
    game = make_game("gaps", {"variant": variant})
    state = game.new_state()
    rng = random.Random(5)
    while state.current_player == CHANCE:
        state.apply(state.sample_chance(rng))
    for decision in range(6):
        legal = state.legal_actions()
        request = wire.ActRequest(
            match_id="m-1",
            game_number=1,
            game="gaps",
            seat=0,
            options=dict(game.options),
            decision=decision,
            view=state.view(0),
            clock=wire.ClockInfo(1000, 10, 500, 500),
            legal_actions=tuple(wire.LegalAction(i, a.notation(), a) for i, a in enumerate(legal)),
        )
        message = wire.act_request_to_proto(request)
        assert len(message.gaps.grid) == game.rows * game.columns
        back = wire.act_request_from_proto(type(message).FromString(message.SerializeToString()))
        assert back == request
        assert all(isinstance(legal.action, GapsMove) for legal in back.legal_actions)
        assert back.legal_actions[-1].action.ends_round
        moves = [a for a in legal if not a.ends_round]
        if not moves:
            break
        state.apply(moves[rng.randrange(len(moves))])
