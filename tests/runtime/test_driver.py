"""The game loop with in-process players (the fake transport), on trio's autojump clock."""

from __future__ import annotations

import json
import random

import pytest
import trio

from referee.games import make_game
from referee.replay import ReplayWriter, read_replay, verify
from referee.runtime import BotCrashed, Clock, LocalPlayer, play_game
from referee.runtime.clock import TRANSPORT_GRACE
from referee.wire import ActResponse

GAME = make_game("tapa")


def seeded_random(request) -> int:
    return random.Random(f"{request.match_id}/{request.seat}/{request.decision}").randrange(len(request.legal_actions))


async def record_random_game(path, match_id: str = "t", seed: int = 9) -> None:
    """A game of two seeded random players, logged to ``path``."""
    await play_game(
        GAME,
        [LocalPlayer(0, seeded_random), LocalPlayer(1, seeded_random)],
        match_id=match_id,
        seed=seed,
        clock=Clock(),
        replay=ReplayWriter(path),
    )


class SleepyPlayer(LocalPlayer):
    """Answers after ``delay`` seconds of (virtual) time."""

    def __init__(self, seat: int, delay: float) -> None:
        super().__init__(seat, seeded_random)
        self.delay = delay

    async def act(self, request, limit):
        await trio.sleep(self.delay)
        return ActResponse(0)


async def test_timeout_by_bank_and_cap(autojump_clock):
    clock = Clock(bank=5.0, increment=0.0, cap=2.0)
    record = await play_game(
        GAME, [SleepyPlayer(0, 1.5), LocalPlayer(1, seeded_random)], match_id="t", seed=1, clock=clock
    )
    # 1.5 s per move is under the 2 s cap, but the 5 s bank runs out on the fourth move.
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "timeout")]
    assert record.outcome.points == (0, 2)


class SilentPlayer(LocalPlayer):
    """Plays its first ``moves`` moves at once, then never answers (and keeps no deadline of its own)."""

    def __init__(self, seat: int, moves: int) -> None:
        super().__init__(seat, seeded_random)
        self.moves = moves

    async def act(self, request, limit):
        if self.moves == 0:
            await trio.sleep_forever()
        self.moves -= 1
        return await super().act(request, limit)


async def test_the_backstop_ends_a_move_the_player_never_ends(autojump_clock, tmp_path):
    clock = Clock(bank=5.0, increment=0.0, cap=2.0)
    players = [SilentPlayer(0, 3), LocalPlayer(1, seeded_random)]
    started = trio.current_time()
    record = await play_game(
        GAME, players, match_id="s", seed=1, clock=clock, replay=ReplayWriter(tmp_path / "s.jsonl")
    )
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "timeout")]
    assert record.faults[0].message == "no answer within the 2.000s limit"
    assert record.decisions >= 6 and trio.current_time() - started <= 2.0 + 2 * TRANSPORT_GRACE + 0.01
    assert read_replay(record.replay_path).result["faults"][0]["kind"] == "timeout"
    players[0].moves = 1_000  # the next game of the same players has no deadline left over from this one
    again = await play_game(GAME, players, match_id="s2", seed=1, clock=Clock(bank=5.0, increment=0.0, cap=2.0))
    assert again.faults == ()


async def test_increment_keeps_a_steady_bot_alive(autojump_clock):
    clock = Clock(bank=5.0, increment=1.5, cap=2.0)
    record = await play_game(
        GAME, [SleepyPlayer(0, 1.4), LocalPlayer(1, seeded_random)], match_id="t", seed=1, clock=clock
    )
    assert record.faults == ()


async def test_illegal_id_and_exceptions_are_faults():
    record = await play_game(
        GAME, [LocalPlayer(0, lambda r: -1), LocalPlayer(1, seeded_random)], match_id="t", seed=2, clock=Clock()
    )
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "illegal_action")]

    def broken(request):
        raise KeyError("oops")

    record = await play_game(
        GAME, [LocalPlayer(0, seeded_random), LocalPlayer(1, broken)], match_id="t", seed=2, clock=Clock()
    )
    assert [(f.seat, f.kind) for f in record.faults] == [(1, "protocol_error")]
    assert "KeyError" in record.faults[0].message

    def crashing(request):
        raise BotCrashed(1, "gone")

    record = await play_game(
        GAME, [LocalPlayer(0, seeded_random), LocalPlayer(1, crashing)], match_id="t", seed=2, clock=Clock()
    )
    assert record.faults[0].kind == "crash"


async def test_same_seed_and_answers_give_identical_replays(tmp_path):
    lines = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.jsonl"
        await record_random_game(path, match_id="same", seed=77)
        records = [json.loads(line) for line in path.read_text().splitlines()]
        for record in records:
            record.pop("ms", None)
        lines.append(records)
        assert verify(read_replay(path)) == []
    assert lines[0] == lines[1]
    assert len(lines[0]) > 50


async def test_players_are_notified_of_the_result():
    players = [LocalPlayer(0, seeded_random), LocalPlayer(1, seeded_random)]
    record = await play_game(GAME, players, match_id="n", seed=3, clock=Clock())
    for player in players:
        game_over, match_over = player.events
        assert game_over.termination == record.outcome.termination
        assert [s.points for s in match_over.seats] == list(record.outcome.points)


async def test_comment_is_kept_and_capped(tmp_path):
    path = tmp_path / "c.jsonl"
    await play_game(
        GAME,
        [LocalPlayer(0, lambda r: ActResponse(0, "because")), LocalPlayer(1, seeded_random)],
        match_id="c",
        seed=3,
        clock=Clock(),
        replay=ReplayWriter(path),
    )
    assert any(r.get("comment") == "because" for r in read_replay(path).steps)


@pytest.mark.parametrize(
    ("tamper", "words"),
    [
        (lambda step: step.update(id=step["id"] + 1000), "not among"),
        (lambda step: step.update(seat=1 - step["seat"]), "was to act"),
        (lambda step: step.update(notation="24/1"), "not"),
    ],
)
async def test_verify_catches_tampering(tmp_path, tamper, words):
    path = tmp_path / "t.jsonl"
    await record_random_game(path)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    actions = [r for r in records if r["type"] == "action"]
    tamper(actions[len(actions) // 2])
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    problems = verify(read_replay(path))
    assert problems and words in " ".join(problems)


async def test_verify_catches_a_wrong_result_and_a_truncated_log(tmp_path):
    path = tmp_path / "t.jsonl"
    await record_random_game(path)
    lines = path.read_text().splitlines()
    result = json.loads(lines[-1])
    result["points"] = [7, 7]
    path.write_text("\n".join(lines[:-1] + [json.dumps(result)]) + "\n")
    assert any("replay says" in p for p in verify(read_replay(path)))
    path.write_text("\n".join(lines[:10]) + "\n{broken\n")
    problems = verify(read_replay(path))
    assert any("not JSON" in p for p in problems) and any("no result line" in p for p in problems)


class Watcher(LocalPlayer):
    """A player that reads the replay being written each time it is asked (as a spectator would)."""

    def __init__(self, seat: int, folder) -> None:
        super().__init__(seat, seeded_random)
        self.folder = folder
        self.seen: list[list[dict]] = []

    async def act(self, request, limit):
        (part,) = self.folder.glob(".*.part")
        self.seen.append([json.loads(line) for line in part.read_text().splitlines()])
        return await super().act(request, limit)


async def test_while_a_bot_thinks_the_replay_holds_the_game_so_far(tmp_path):
    watchers = [Watcher(0, tmp_path), Watcher(1, tmp_path)]
    replay = ReplayWriter(tmp_path / "r.jsonl")
    record = await play_game(GAME, watchers, match_id="t", seed=4, clock=Clock(), replay=replay)
    lines = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    seen = sorted((seen for watcher in watchers for seen in watcher.seen), key=len)
    assert len(seen) == record.decisions > 10
    for decision, prefix in enumerate(seen):
        # the header, every decision before this one and the chance steps up to it (the roll the bot is asked on)
        assert prefix == lines[: len(prefix)]
        assert sum(line["type"] == "action" for line in prefix) == decision
        assert prefix[-1]["type"] == "chance"
