"""Bot processes kept between games: reused by later games of the same bot, never in two games of one duplicate
unit, replaced after a fault; and the match worker (``referee serve-matches``) that uses them."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from referee.games import GAMES, make_game
from referee.runtime import BotPool, Clock, Entrant, SeatOptions, resolve_bot, run_game

from .hostile import wait_for

ROOT = Path(__file__).resolve().parents[2]
RANDOM = resolve_bot(ROOT / "bots" / "python" / "random_bot.py")


async def play(pool: BotPool, unit: str, bots=(RANDOM, RANDOM), seed: int = 1):
    return await run_game(make_game("tapa"), list(bots), match_id=f"{unit}-{seed}", seed=seed, clock=Clock(),
                          replay_path=None, pool=pool, unit=unit)


def pids(pool: BotPool) -> set[int]:
    return {kept.player._process.pid for idle in pool._idle.values() for kept in idle}


async def test_a_kept_bot_plays_other_units_but_never_both_halves_of_one():
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, SeatOptions())
        first = await play(pool, "unit-a")
        assert pool.starts == 2 and len(pids(pool)) == 2
        second = await play(pool, "unit-a", seed=2)  # the other half: fresh processes
        assert pool.starts == 4 and len(pids(pool)) == 4
        third = await play(pool, "unit-b", seed=3)  # another unit: kept processes, no start
        assert pool.starts == 4 and all(r.faults == () for r in (first, second, third))
        pool.close()


def stopped(pid: int) -> bool:
    """Whether the process is stopped (SIGSTOP: it stops the next time the kernel schedules it, so give it a
    moment)."""
    return wait_for(lambda: Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T", 5)


async def test_a_kept_bot_is_held_stopped_between_its_games():
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, SeatOptions())
        await play(pool, "unit-a")
        held = pids(pool)
        assert len(held) == 2 and all(stopped(pid) for pid in held)
        again = await play(pool, "unit-b", seed=2)  # released for its game, held again after it
        assert again.faults == () and pids(pool) == held and all(stopped(pid) for pid in held)
        pool.close()


async def test_a_kept_bot_is_paused_off_turn_in_the_games_that_say_so():
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, SeatOptions())
        for unit, pause in (("a", True), ("b", False), ("c", True)):
            record = await run_game(make_game("tapa"), [RANDOM, RANDOM], match_id=unit, seed=1, clock=Clock(),
                                    replay_path=None, pool=pool, unit=unit, pause_off_turn=pause)
            kept = [kept.player for idle in pool._idle.values() for kept in idle]
            assert record.faults == () and [player.pause_off_turn for player in kept] == [pause, pause]
        assert pool.starts == 2 and all(stopped(pid) for pid in pids(pool))
        pool.close()


async def test_a_bot_that_played_a_unit_still_being_played_elsewhere_sits_out():
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, SeatOptions())
        await play(pool, "unit-a")
        record = await run_game(make_game("tapa"), [RANDOM, RANDOM], match_id="b", seed=2, clock=Clock(),
                                replay_path=None, pool=pool, unit="unit-b", open_units=["unit-a"])
        assert record.faults == () and pool.starts == 4  # unit-a is open: fresh processes
        await play(pool, "unit-c", seed=3)  # unit-a is over: its processes play again
        assert pool.starts == 4
        pool.close()


async def test_a_bot_must_say_in_hello_who_it_was_entered_as():
    entered = [Entrant("random", "1.0", tuple(sorted(GAMES))), Entrant("heuristic", "1.0", ("tapa",))]
    record = await run_game(make_game("tapa"), [RANDOM, RANDOM], match_id="who", seed=1, clock=Clock(),
                            replay_path=None, entrants=entered)
    assert [(f.seat, f.kind) for f in record.faults] == [(1, "no_hello")]
    assert "it says it is 'random' 1.0" in record.faults[0].message
    assert "entered as 'heuristic' 1.0 playing tapa" in record.faults[0].message
    async with trio.open_nursery() as nursery:  # a kept process is asked again when it is seated again
        pool = BotPool(nursery, SeatOptions())
        await play(pool, "unit-a")
        record = await run_game(make_game("tapa"), [RANDOM, RANDOM], match_id="who", seed=1, clock=Clock(),
                                replay_path=None, pool=pool, unit="unit-b", entrants=entered)
        assert [(f.seat, f.kind) for f in record.faults] == [(1, "no_hello")]
        pool.close()


@pytest.mark.parametrize(
    ("bot", "kind"),
    [("crash_bot.py", "crash"), ("sleepy_bot.py", "timeout"), ("wrong_id_bot.py", "illegal_action"),
     ("garbage_bot.py", "protocol_error")],
)
async def test_a_fault_is_charged_to_its_game_and_the_next_game_gets_a_fresh_process(bot, kind):
    faulty = resolve_bot(Path(__file__).parent / "bots" / bot)
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, SeatOptions())
        fast = Clock(bank=20.0, increment=1.0, cap=1.0)
        records = [
            await run_game(make_game("tapa"), [faulty, RANDOM], match_id=f"fault-{unit}", seed=4, clock=fast,
                           replay_path=None, pool=pool, unit=unit)
            for unit in ("u1", "u2")
        ]
        assert [[(f.seat, f.kind) for f in r.faults] for r in records] == [[(0, kind)], [(0, kind)]]
        assert len(pids(pool)) == 1 and pool.starts == 3  # the random bot was kept, the faulty one started twice
        pool.close()


async def test_a_kept_bot_plays_at_most_max_games_and_its_successor_starts_at_once():
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, SeatOptions(), max_games=2)
        for unit in ("a", "b"):
            await play(pool, unit, bots=(RANDOM,) * 2)
        successors = [kept.player for idle in pool._idle.values() for kept in idle]
        assert pool.starts == 4 and len(successors) == 2  # started when the first two had played their games
        third = await play(pool, "c", bots=(RANDOM,) * 2)
        assert third.faults == () and pool.starts == 4
        assert pids(pool) == {player._process.pid for player in successors}  # they played the third game
        pool.close()


async def test_closing_the_pool_does_not_wait_for_successors_to_start():
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, SeatOptions(), max_games=1)
        await play(pool, "a")
        successors = [kept for idle in pool._idle.values() for kept in idle]
        pool.close()
    assert len(successors) == 2 and all(kept.starting.cancelled_caught for kept in successors)
    assert all(kept.player._process is None or kept.player._process.returncode is not None for kept in successors)


def test_the_match_worker_plays_spec_lines_and_reuses_its_bots(tmp_path):
    bot = str(RANDOM.path)
    specs = [
        {"game": "tapa", "bots": [bot, bot], "seed": seed, "seed_secret": True, "match_id": f"m{index}", "unit": unit,
         "replay": str(tmp_path / f"m{index}.jsonl")}
        for index, (seed, unit) in enumerate([("1", "u1"), ("1", "u1"), ("2", "u2"), ("3", "u3")])
    ]
    lines = "".join(json.dumps(spec) + "\n" for spec in specs) + "not a spec\n"
    done = subprocess.run([sys.executable, "-m", "referee.cli", "serve-matches", "--sandbox", "auto"], input=lines,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a.get("match_id") for a in answers[:4]] == ["m0", "m1", "m2", "m3"]
    assert [a["bot_starts"] for a in answers[:4]] == [2, 4, 4, 4]
    assert "error" in answers[4] and all((tmp_path / f"m{k}.jsonl").exists() for k in range(4))


async def test_a_kept_bot_learns_nothing_of_an_earlier_match_beyond_its_public_result(tmp_path):
    """A Durak bot kept from one unit to the next gets, in the later match, exactly the bytes a fresh process gets
    (clocks aside), and between the two only the earlier match's notifications, which carry nothing but its
    public result: the process knows nothing of the earlier opponent's hidden cards that it was not shown."""
    from kafana_kit.v1 import bot_pb2

    from referee.replay import read_replay

    def recorder(path):
        return dataclasses.replace(resolve_bot(Path(__file__).parent / "bots" / "recorder_bot.py"),
                                   env=(("KAFANA_TEST_RECORD", str(path)),))

    async def durak(pool, bot, unit, seed):
        return await run_game(make_game("durak"), [bot, RANDOM], match_id=f"{unit}-{seed}", seed=seed,
                              clock=Clock(), replay_path=tmp_path / f"{unit}-{seed}-{pool.starts}.jsonl", pool=pool,
                              unit=unit)

    def received(path):
        lines = [line.split() for line in path.read_text().splitlines()]
        return [(kind, match, bytes.fromhex(data)) for kind, match, data in lines]

    def without_clock(data):
        request = bot_pb2.ActRequest.FromString(data)
        request.ClearField("clock")
        return request.SerializeToString(deterministic=True)

    kept, fresh = tmp_path / "kept.txt", tmp_path / "fresh.txt"
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, SeatOptions())
        first = await durak(pool, recorder(kept), "unit-a", 1)
        second = await durak(pool, recorder(kept), "unit-b", 2)
        assert pool.starts == 2 and first.faults == second.faults == ()  # the recorder played both in one process
        pool.close()
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, SeatOptions())
        await durak(pool, recorder(fresh), "unit-b", 2)
        pool.close()
    by_kept = received(kept)
    later = [without_clock(data) for kind, match, data in by_kept if match == "unit-b-2" and kind == "act"]
    assert len(later) > 5 and later == [without_clock(data) for kind, _, data in received(fresh) if kind == "act"]
    between = [(kind, data) for kind, match, data in by_kept if match == "unit-a-1" and kind != "act"]
    assert [kind for kind, _ in between] == ["game_over", "match_over"]
    public = read_replay(first.replay_path).result
    for kind, data in between:
        event = getattr(bot_pb2.Notification.FromString(data), kind)
        assert [seat.points for seat in event.seats] == public["points"]
        assert all(seat.fault == seat.fault_message == "" for seat in event.seats)
        if kind == "game_over":
            assert event.termination == public["termination"]


async def test_a_successor_that_cannot_start_is_replaced_by_the_game_that_needs_it(tmp_path):
    """The third process of this bot crashes as it starts: that is the successor of the second, so the fifth game
    starts its own and is played without a fault."""
    count = tmp_path / "starts"
    bot = tmp_path / "third_crashes.py"
    bot.write_text(f"""import pathlib, runpy, sys
count = pathlib.Path({str(count)!r})
starts = int(count.read_text()) + 1 if count.exists() else 1
count.write_text(str(starts))
if starts == 3:
    sys.exit("the third start fails")
sys.argv[0] = {str(RANDOM.path)!r}
runpy.run_path({str(RANDOM.path)!r}, run_name="__main__")
""")
    crashing = resolve_bot(bot)
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, SeatOptions(), max_games=2)
        records = [await play(pool, unit, bots=(crashing, RANDOM)) for unit in "abcde"]
        assert [r.faults for r in records] == [()] * 5
        assert count.read_text() == "4" and pool.starts == 7  # 2, the successors after b and d, the fifth game's own
        pool.close()
