"""The Gaps bots: the search bot solves seeded no-redeal deals and places far more cards than random play, the
same deals through bot processes give verified replays, and a duplicate league ranks the search bot first."""

from __future__ import annotations

import json

from bots.python import gaps_search_bot, heuristic_bot, random_bot
from ladder.executor import LocalExecutor
from ladder.league import plan, run_units
from ladder.registry import submit
from ladder.standings import crosstable, standings
from ladder.store import open_store
from referee.games import make_game
from referee.replay import read_replay, verify
from referee.runtime import Clock, LocalPlayer, play_game, resolve_bot, run_game
from tests.ladder._fakes import random_bot_folder

from .test_strength import UNLIMITED


async def results_of(bot, deals: str, count: int) -> list[tuple[str, int]]:
    """(termination, cards in place) of ``bot`` on the seeded deals 0..count-1."""
    game = make_game("gaps", {"deals": deals})
    results = []
    for seed in range(count):
        record = await play_game(game, [LocalPlayer(0, bot.choose)], match_id=f"gaps-{seed}", seed=seed, clock=UNLIMITED)
        assert record.faults == ()
        results.append((record.outcome.termination, record.outcome.points[0]))
    return results


async def placed_by(bot, deals: str, count: int) -> list[int]:
    return [placed for _, placed in await results_of(bot, deals, count)]


async def test_a_short_search_places_far_more_cards_than_random():
    """The heuristic bot plays Gaps with the search bot's search on a small budget."""
    search, rand = await placed_by(heuristic_bot, "3", 12), await placed_by(random_bot, "3", 12)
    assert sum(search) > 2 * sum(rand)
    assert sum(s > r for s, r in zip(search, rand, strict=True)) >= 10


async def test_the_search_bot_solves_puzzles_on_a_budget(monkeypatch):
    """The referee's no-redeal deals of seeds 0-11 with a budget of 2 million positions a plan instead of a clock
    (so the test is deterministic): 6 wins (the benchmark's clock of 20 s a plan wins about four deals in five)."""
    monkeypatch.setattr(gaps_search_bot, "PLAYER", gaps_search_bot.GapsPlayer(nodes=2_000_000))
    results = await results_of(gaps_search_bot, "1", 12)
    assert [termination for termination, _ in results].count("win") >= 6
    assert all(placed == 48 for termination, placed in results if termination == "win")


async def test_gaps_through_bot_processes(tmp_path):
    bot = resolve_bot(gaps_search_bot.__file__)
    for seed in (1, 2):
        replay = tmp_path / f"gaps-{seed}.jsonl"
        record = await run_game(
            make_game("gaps"), [bot], match_id=f"gaps-{seed}", seed=seed, clock=Clock(), replay_path=replay
        )
        assert record.faults == () and record.bots == ("gaps-search",)
        assert verify(read_replay(replay)) == []


async def test_a_duplicate_gaps_league(tmp_path):
    db_path = tmp_path / "league.db"
    db = open_store(db_path)
    executor = LocalExecutor()
    for folder in (random_bot_folder(tmp_path, "shuffler", games='["gaps"]'), gaps_search_bot.__file__):
        assert (await submit(db, db_path, str(folder), executor)).accepted
    assert plan(db, "dup", "gaps", "round-robin", 3) == 6  # each bot alone on deals 0, 1 and 2
    progress = await run_units(db, "dup", executor, concurrency=2)
    assert progress.done == 6 and progress.errors == 0
    seeds = {}
    for row in db.query("select seats, seed from matches where arena_id = 'gaps'"):
        seeds.setdefault(row["seed"], []).append(json.loads(row["seats"])[0])
    assert len(seeds) == 3 and all(len(versions) == 2 for versions in seeds.values())  # the same deals for both
    table = standings(db, "gaps")
    assert [line.bot for line in table] == ["gaps-search", "shuffler"]
    assert table[0].games == table[0].units == 3 and table[0].wins + table[0].losses == 3  # deals solved or not
    assert (table[1].wins, table[1].losses) == (0, 3)
    labels, cells = crosstable(db, "gaps")
    assert cells[("gaps-search v1", "shuffler v1")] == (3, 3)
