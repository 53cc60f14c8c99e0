"""td1_bot through a Gjul Bara ladder chain: the rebuilt chain is the game's, and the search ends where the turn
ends."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from bots.python import td1_bot
from bots.python.positions import state_of
from bots.python.td_bot import Values
from referee.games import CHANCE, State, make_game
from referee.games.tabla_family.features import after_features
from referee.playouts import random_decisions
from referee.wire import ActRequest, ClockInfo, LegalAction

RULES = [
    {},
    {"gjul.ladder_from_roll": "3"},
    {"gjul.ladder_count": "global"},
    {"gjul.remainder": "lost"},
]
"""The ladder's option sets: the default, an earlier ladder, rolls counted for both seats, a rest that is lost."""

LONG_LIMIT = ClockInfo(10**6, 0, 10**6, 10**6)


def request_of(state: State, options: dict[str, str], game_id: str = "gjul-bara") -> ActRequest:
    """The request the referee sends the seat to move in ``state``."""
    seat = state.current_player
    legal = state.legal_actions()
    return ActRequest(
        "ladder", 1, game_id, seat, dict(options), 0, state.view(seat), LONG_LIMIT,
        tuple(LegalAction(i, action.notation(), action) for i, action in enumerate(legal)),
    )


def stages(game_id: str, options: dict[str, str], games: int, seed: int = 0) -> Iterator[State]:
    """Every stage with a choice in seeded random games (a copy of the state)."""
    for state, legal in random_decisions(make_game(game_id, options), games, seed):
        if legal is not None and len(legal) > 1:
            yield state.clone()


def ladder_stages(options: dict[str, str], games: int, seed: int = 0) -> Iterator[tuple[State, ActRequest]]:
    """Every stage of a ladder chain with a choice (later stages queued, not a remainder) in seeded random games."""
    for state in stages("gjul-bara", options, games, seed):
        view = state.view(state.current_player)
        if view.later_stages and not view.remainder:
            yield state, request_of(state, options)


@pytest.mark.parametrize("options", RULES, ids=lambda rules: ",".join(f"{k}={v}" for k, v in rules.items()) or "-")
def test_a_rebuilt_chain_is_the_game_s(options):
    """Rebuilt with the rolls made and the request's options, a ladder stage lists the game's plays, queues its later
    stages, and after each play goes on as the game does: the same seat, dice, chain and hand-over."""
    stages = 0
    for state, request in ladder_stages(options, 12):
        _, rebuilt = state_of(request.view, request.options, exact=True)
        seat = request.seat
        assert rebuilt.view(seat).later_stages == request.view.later_stages
        plays = [legal.notation for legal in request.legal_actions]
        assert [play.notation() for play in rebuilt.legal_actions()] == plays
        for index in range(len(plays)):
            game_after, rebuilt_after = state.clone(), rebuilt.clone()
            game_after.apply(game_after.legal_actions()[index])
            rebuilt_after.apply(rebuilt_after.legal_actions()[index])
            assert rebuilt_after.current_player == game_after.current_player
            if game_after.current_player != CHANCE and not game_after.is_terminal():
                mover = game_after.current_player
                got, want = rebuilt_after.view(mover), game_after.view(mover)
                assert (got.dice, got.later_stages, got.remainder) == (want.dice, want.later_stages, want.remainder)
        stages += 1
    assert stages >= 20


def test_the_search_values_a_play_where_the_turn_ends():
    """Following each searched play by the best of its own searched plays (the opponent's, in a rest handed over,
    by its best for itself) reaches the end of the turn, and the position there is worth what the search said."""
    followed_lines = 0
    for state, request in ladder_stages({}, 6, seed=1):
        judge, seat = Values.of(request), request.seat
        _, rebuilt = state_of(request.view, request.options, exact=True)
        searched = td1_bot.through_the_turn(rebuilt, judge, seat)
        assert 1 <= len(searched) <= td1_bot.CHAIN_WIDTH
        for index, value in searched.items():
            node, sign, play = rebuilt, 1.0, index
            while True:
                player = node.current_player
                values = judge.plays(*after_features(node), mine=player == seat)
                after = node.clone()
                after.apply(after.legal_actions()[play])
                if after.is_terminal() or after.current_player == CHANCE:
                    assert sign * values[play] == pytest.approx(value, abs=1e-6)
                    break
                deeper = td1_bot.through_the_turn(after, judge, seat)
                play = max(deeper, key=deeper.__getitem__)
                sign = sign if after.current_player == player else -sign
                node = after
            followed_lines += 1
    assert followed_lines >= 30


def test_td1_plays_a_ladder_stage_by_its_chain_and_others_as_before():
    """At a ladder stage td1_bot answers from the chain's end, a play of the stage's three best by the network."""
    answered = 0
    for state, request in ladder_stages({}, 4, seed=2):
        answer = td1_bot.choose(request)
        assert answer.comment.endswith("at the chain's end")
        values = Values.of(request).plays(*after_features(state_of(request.view)[1]))
        assert answer.action_id in set(np.argsort(-values)[: td1_bot.CHAIN_WIDTH].tolist())
        answered += 1
    assert answered >= 10


def greedy_turn_end(state: State, judge: Values, seat: int) -> float:
    """The value for ``seat`` where the turn ends if every stage is played by its mover's best play by ``judge``."""
    sign = 1.0 if state.current_player == seat else -1.0
    while True:
        player = state.current_player
        values = judge.plays(*after_features(state), mine=player == seat)
        best = int(np.argmax(values))
        state = state.clone()
        state.apply(state.legal_actions()[best])
        if state.is_terminal() or state.current_player == CHANCE:
            return sign * float(values[best])
        sign = sign if state.current_player == player else -sign


def test_one_roll_ahead_an_opponent_s_chain_is_played_through():
    """Looking one roll ahead in Gjul Bara, an opponent's double from the ladder's roll on is valued where its chain
    ends, each stage played by the opponent's best play (and a rest handed back, by the seat's)."""
    game = make_game("gjul-bara")
    chains = 0
    for number in range(8):
        rng = random.Random(number)
        state = game.new_state()
        while not state.is_terminal() and chains < 40:
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player
            view = state.view(seat)
            legal = state.legal_actions()
            play = legal[rng.randrange(len(legal))]
            if not view.later_stages and not view.remainder and len(view.dice) == 2:
                request = request_of(state, {})
                _, rebuilt = state_of(request.view, {}, exact=True)
                rebuilt.apply(rebuilt.legal_actions()[legal.index(play)])
                if rebuilt.current_player == CHANCE and not rebuilt.is_terminal():
                    judge = Values.of(request)
                    replies = td1_bot._Replies(judge, seat)
                    replies.add(0, rebuilt)
                    for (roll, _), entry in zip(rebuilt.chance_outcomes(), replies.entries, strict=True):
                        after = rebuilt.clone()
                        after.apply(roll)
                        if after.current_player == 1 - seat and after.view(1 - seat).later_stages:
                            assert entry[5] == pytest.approx(greedy_turn_end(after, judge, seat), abs=1e-6)
                            chains += 1
            state.apply(play)
    assert chains >= 40
