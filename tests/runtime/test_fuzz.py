"""Fuzzed answers: a bot process answers thousands of real requests with random and mutated protobuf bytes; every
answer is either read (then its id is checked like the driver does) or a typed bot fault, never anything else."""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

import pytest
import trio

from referee import wire
from referee.games import make_game
from referee.playouts import random_decisions
from referee.runtime import BotError, Clock, ProcessPlayer, resolve_bot, run_game
from referee.runtime import process as process_module
from referee.runtime.process import bot_address

FUZZER = resolve_bot(Path(__file__).parent / "bots" / "fuzz_bot.py")
CALLS = 2000


def requests(game_id: str, count: int):
    game = make_game(game_id)
    made = 0
    for state, legal in random_decisions(game, 1000, seed=11):
        if legal is None:
            continue
        seat = state.current_player
        yield wire.ActRequest(
            match_id="fuzz",
            game_number=state.game_number,
            game=game_id,
            seat=seat,
            options=dict(game.options),
            decision=made,
            view=state.view(seat),
            clock=wire.ClockInfo(5000, 0, 5000, 5000),
            legal_actions=tuple(wire.LegalAction(i, a.notation(), a) for i, a in enumerate(legal)),
        )
        made += 1
        if made == count:
            return


async def test_thousands_of_fuzzed_answers(monkeypatch):
    monkeypatch.setattr(process_module, "EXIT_WAIT", 0.01)  # the fuzzer never exits: do not wait for it
    seen: Counter[str] = Counter()
    with tempfile.TemporaryDirectory(prefix="kafana-fuzz-") as folder:
        player = ProcessPlayer(0, FUZZER, bot_address("unix", Path(folder), 0), "tapa")
        async with trio.open_nursery() as nursery:
            await nursery.start(player.run)
            try:
                for game_id, share in (("tapa", CALLS // 2), ("durak", CALLS // 2)):
                    for request in requests(game_id, share):
                        try:
                            answer = await player.act(request, 5.0)
                        except BotError as exc:
                            seen[exc.kind] += 1
                            continue
                        legal = 0 <= answer.action_id < len(request.legal_actions)
                        seen["legal" if legal else "illegal_action"] += 1
            finally:
                player.close()
    assert sum(seen.values()) == CALLS
    assert seen["protocol_error"] > CALLS // 10 and seen["legal"] > CALLS // 20 and seen["illegal_action"] > 0
    assert set(seen) <= {"legal", "illegal_action", "protocol_error"}


@pytest.mark.parametrize("seed", range(4))
async def test_fuzzed_games_end_in_a_recorded_fault(tmp_path, seed):
    record = await run_game(
        make_game("tapa"),
        [FUZZER, resolve_bot(Path(__file__).resolve().parents[2] / "bots" / "python" / "random_bot.py")],
        match_id=f"fuzz-{seed}",
        seed=seed,
        clock=Clock(),
        replay_path=tmp_path / "fuzz.jsonl",
    )
    assert record.faults and record.faults[0].seat == 0
    assert record.faults[0].kind in ("protocol_error", "illegal_action")
