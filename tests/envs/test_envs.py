"""The training environments: PettingZoo's own API and seed tests on every game; every legal action spelled once
and reachable token by token; the observation a bot computes from the bytes it is sent equals the environment's;
a trained policy played as a bot passes check-bot and enters a ladder."""

from __future__ import annotations

import dataclasses
import functools
import random
import warnings
from pathlib import Path

import numpy as np
import pytest
from kafana_kit.v1 import bot_pb2 as pb
from pettingzoo.test import api_test, seed_test

from bots.python.policy_train import LinearPolicy, evaluate, train
from referee import wire
from referee.chance import ChanceStream
from referee.checkbot import check_bot, decision_request
from referee.envs import Choices, decide_with, encoding_for, env
from referee.games import CHANCE, make_game
from referee.runtime import resolve_bot

FORMS = [
    ("tabla", {}),
    ("gjul-bara", {}),
    ("tapa", {}),
    ("tabla-match", {}),
    ("durak", {}),
    ("durak", {"variant": "perevodnoy", "seats": "4", "deck": "52"}),
    ("durak", {"teams": "2v2", "seats": "4"}),
    ("gapa", {}),
    ("gapa", {"gapa": "penalty"}),
    ("gaps", {}),
    ("gaps", {"variant": "paganini", "deals": "1"}),
]
IDS = [f"{game}-{'-'.join(options.values())}".rstrip("-") for game, options in FORMS]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # dict observations: PettingZoo's classic games have them too
        yield


@pytest.mark.parametrize(("game_id", "options"), FORMS, ids=IDS)
def test_pettingzoos_api_and_seed_tests_pass(game_id, options):
    api_test(env(game_id, options), num_cycles=400)
    seed_test(functools.partial(env, game_id, options), num_cycles=100)


def _decisions(game_id: str, options: dict, seed: int, limit: int = 150):
    """(game, state) at each decision of a seeded random game."""
    game = make_game(game_id, options)
    state, stream, choose = game.new_state(), ChanceStream(str(seed)), random.Random(seed)
    for _ in range(10_000):
        if state.is_terminal() or limit == 0:
            return
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(stream))
            continue
        yield game, state
        limit -= 1
        legal = state.legal_actions()
        state.apply(legal[choose.randrange(len(legal))])


@pytest.mark.parametrize(("game_id", "options"), FORMS, ids=IDS)
def test_every_legal_action_is_spelled_once_and_reachable(game_id, options):
    checked = 0
    for seed in range(4):
        for game, state in _decisions(game_id, options, seed):
            encoding = encoding_for(game)
            legal = list(state.legal_actions())
            size = len(encoding.vocabulary)
            for index, action in enumerate(legal):
                choices = Choices(legal, encoding.tokens, size)
                chosen = None
                for depth, token in enumerate((*encoding.tokens(action), choices.end)):
                    assert choices.mask()[token], (action, depth)
                    chosen = choices.pick(token)
                    if chosen is not None:
                        break
                assert chosen == index, action
            checked += 1
    assert checked > 10


@pytest.mark.parametrize(("game_id", "options"), FORMS, ids=IDS)
def test_a_bot_sees_from_its_bytes_what_the_environment_observed(game_id, options):
    """The observation is made from the seat's view alone, and the view a bot reads from its request's bytes is
    that view: a policy plays in the ladder on exactly what it was trained on, and on nothing hidden."""
    for game, state in _decisions(game_id, options, seed=5, limit=60):
        seat, legal = state.current_player, state.legal_actions()
        request = decision_request(game, state)
        received = wire.act_request_from_proto(pb.ActRequest.FromString(wire.act_request_bytes(request)))
        encoding = encoding_for(game)
        assert np.array_equal(encoding.observe(received.view), encoding.observe(state.view(seat)))
        assert [encoding.tokens(r.action) for r in received.legal_actions] == [encoding.tokens(a) for a in legal]


@pytest.mark.parametrize("game_id", ["durak", "tapa", "gapa"])
def test_the_environment_and_the_bot_pick_the_same_actions(game_id):
    """A policy played through decide_with chooses, at every decision, what it chose in the environment."""
    policy = LinearPolicy.zeros(game_id)
    policy.weights = np.random.default_rng(3).normal(size=policy.weights.shape)
    space = env(game_id)
    space.reset(seed=11)
    decide = decide_with(policy)
    encoding, game = space.encoding, space.game
    decisions = 0
    while not space.state_.is_terminal() and decisions < 60:
        state = space.state_
        legal = list(state.legal_actions())
        expected = decide(decision_request(game, state)).action_id
        picks = Choices(legal, encoding.tokens, len(encoding.vocabulary))
        chosen = None
        while chosen is None:
            observation = space.observe(space.agent_selection)
            token = policy(observation["observation"], observation["action_mask"])
            chosen = picks.pick(token)
            space.step(token)
        assert chosen == expected
        decisions += 1
    assert decisions >= 20


def test_a_token_not_offered_is_refused_by_the_environment_and_replaced_by_the_bot():
    space = env("tapa")
    space.reset(seed=1)
    mask = space.observe(space.agent_selection)["action_mask"]
    refused = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not offered"):
        space.step(refused)
    decide = decide_with(lambda observation, offered: refused)
    request = decision_request(space.game, space.state_)
    assert 0 <= decide(request).action_id < len(request.legal_actions)
    terse = dataclasses.replace(
        request, legal_actions=tuple(legal._replace(action=None) for legal in request.legal_actions)
    )
    with pytest.raises(ValueError, match="action_detail=True"):
        decide(terse)


def test_training_improves_on_random_play():
    before = evaluate(LinearPolicy.zeros("durak"), "durak", 60)
    after = evaluate(train("durak", 150, seed=2), "durak", 60)
    assert after > before + 0.3, (before, after)


def _policy_bot(folder: Path) -> Path:
    folder.mkdir()
    train("durak", 20, seed=1).save(folder / "policy-durak.npz")
    (folder / "bot.toml").write_text(
        'name = "policy-durak"\ncommand = ["python3", "-m", "bots.python.policy_bot"]\ngames = ["durak"]\n'
        'env = { KAFANA_POLICY = "policy-durak.npz" }\n'
    )
    return folder


async def test_a_trained_policy_passes_check_bot_and_enters_a_ladder(tmp_path):
    from ladder.executor import LocalExecutor
    from ladder.registry import submit
    from ladder.store import open_store

    bot = _policy_bot(tmp_path / "bot")
    report = await check_bot(resolve_bot(bot))
    assert [check.name for check in report.checks if not check.ok] == []
    db_path = tmp_path / "l.db"
    submitted = await submit(open_store(db_path, create=True), db_path, str(bot), LocalExecutor())
    assert submitted.accepted, submitted.text()
