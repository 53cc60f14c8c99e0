"""The read side keeps what it shows: totals counted as units are stored equal a recount of the stored matches,
the stored fit equals a fit of every result, and the pages read them without blocking the server's event loop."""

from __future__ import annotations

import hashlib
import json
import threading
import time

import pytest
import trio

from ladder import fits, tallies
from ladder.arenas import arena_for_game, arenas_for_game, ensure_arena
from ladder.executor import MatchJob, MatchResult
from ladder.league import plan, run_units
from ladder.ratings import fit, pairwise
from ladder.registry import copies_folder
from ladder.standings import crosstable, history, standings
from ladder.store import now, open_store
from ladder.tallies import faults_by_day
from ladder.web import api
from ladder.web.app import make_app
from ladder.web.cache import AnswerCache
from tests.ladder._fakes import counting_seeds

ARENAS = {"tapa": arena_for_game("tapa"), "durak-4": arenas_for_game("durak")[1], "gaps": arena_for_game("gaps")}


class PointsExecutor:
    """Instant results for any number of seats, from the seed and the seats: points 0–2 a seat (draws and shared
    places happen), a one-seat deal won or not."""

    async def run(self, job: MatchJob) -> MatchResult:
        digest = hashlib.sha256(f"{job.seed}/{job.match_id}/{job.bots}".encode()).digest()
        points = tuple(digest[k] % 3 for k in range(len(job.bots)))
        faults = ({"seat": 0, "kind": "timeout", "message": "slow"},) if digest[9] < 20 and len(job.bots) > 1 else ()
        won = len(job.bots) == 1 and points[0] == 2
        return MatchResult(termination="win" if won else "normal", points=points, decisions=3, bots=job.bots,
                           faults=faults)


def _league(tmp_path, bots: int = 5, rounds: int = 3):
    db = open_store(tmp_path / "l.db")
    with db.atomic():
        for spec in ARENAS.values():
            ensure_arena(db, spec)
        for index in range(bots):
            bot = db["bots"].insert({"name": f"b{index}", "created_at": now(), "retired": 0}).last_pk
            (copies_folder(db) / f"b{index}").mkdir(parents=True)
            version = db["versions"].insert(
                {"bot_id": bot, "number": 1, "version": "1", "hash": f"h{index}", "path": f"{copies_folder(db).name}/b{index}",
                 "language": "python", "author": "", "games": '["tapa", "durak", "gaps"]', "created_at": now()}
            ).last_pk
            for arena in ARENAS:
                db["entries"].insert({"arena_id": arena, "version_id": version, "joined_at": now()})
    return db


async def _play(db, rounds: int, league: str = "l") -> None:
    for arena in ARENAS:
        plan(db, league, arena, "round-robin", rounds, new_seed=counting_seeds(arena))
    await run_units(db, league, PointsExecutor(), concurrency=2)


def _rows(db, arena: str) -> tuple[list, list, list, list]:
    bots = sorted(tuple(row.values())[:-1] for row in db.query(  # the trend's order depends on ties of done_at
        "select * from arena_bots where arena_id = ?", [arena]))
    pairs = sorted((row["a"], row["b"], round(row["weight"], 9), round(row["score"], 9), row["results"],
                    row["a_wins"], row["b_wins"])
                   for row in db.query("select * from arena_pairs where arena_id = ? and results != 0", [arena]))
    minutes = sorted(tuple(row.values()) for row in db.query("select * from arena_minutes where arena_id = ?", [arena]))
    faults = sorted(tuple(row.values()) for row in db.query("select * from arena_faults where arena_id = ?", [arena]))
    return bots, pairs, minutes, faults


def _every_result(db, arena: str) -> tuple[list, set]:
    """The pairwise results of every stored complete unit, recomputed from the matches as a fit from nothing
    reads them (a one-seat arena's by deal)."""
    rows = list(db.query("select m.seed, m.seats, m.points from matches m join units u on u.id = m.unit_id "
                         "where m.arena_id = ? and u.status = 'done'", [arena]))
    players = {v for row in rows for v in json.loads(row["seats"])}
    if ARENAS[arena].seats > 1:
        return [r for row in rows for r in pairwise(json.loads(row["seats"]), json.loads(row["points"]))], players
    deals: dict[str, list] = {}
    for row in rows:
        deals.setdefault(row["seed"], []).append((json.loads(row["seats"])[0], json.loads(row["points"])[0]))
    results = [r for deal in deals.values() if len(deal) > 1 for r in pairwise(*zip(*deal, strict=True))]
    return results, players


async def test_totals_kept_as_units_are_stored_equal_a_recount_and_the_fit_one_of_every_result(tmp_path):
    db = _league(tmp_path)
    await _play(db, 2)
    await _play(db, 3)  # a second run adds to what the first counted (a one-seat arena's deals grow bot by bot)
    faults = 0
    for arena, spec in ARENAS.items():
        kept = _rows(db, arena)
        with db.atomic():
            tallies.rebuild(db, arena)
        assert _rows(db, arena) == kept, arena
        lines = standings(db, arena, fresh=True)
        results, players = _every_result(db, arena)
        whole = fit(results, players, spec.match_length)
        assert {line.version_id: line.rating for line in lines} == pytest.approx(whole, abs=1e-3), arena
        matches = list(db.query("select seats, points, faults, termination from matches where arena_id = ?",
                                [arena]))
        assert sum(line.games for line in lines) == sum(len(json.loads(m["seats"])) for m in matches)
        assert sum(line.faults for line in lines) == sum(len(json.loads(m["faults"])) for m in matches)
        faults += sum(line.faults for line in lines)
        assert all(line.wins + line.draws + line.losses == line.games and len(line.trend) == min(10, line.games)
                   for line in lines)
        assert [line.rating for line in lines] == sorted((line.rating for line in lines), reverse=True)
        assert all(line.low < line.rating < line.high for line in lines if line.units >= 5)
        if spec.seats == 1:  # a patience: W is a deal won, L one not won, never D
            won = sum(m["termination"] == "win" for m in matches)
            assert sum(line.wins for line in lines) == won and sum(line.draws for line in lines) == 0
            assert sum(line.trend.count("W") for line in lines) <= won
        labels, table = crosstable(db, arena)
        assert len(labels) == 5 and all(games > 0 for _, games in table.values())
        board = api.arena_standings(db, arena)  # every game was played in the last hour
        assert [line["games_last_hour"] for line in board] == [line["games"] for line in board]
        db.execute("update arena_minutes set minute = '2000-01-01T00:00' where arena_id = ?", [arena])
        assert {line["games_last_hour"] for line in api.arena_standings(db, arena)} == {0}
    versions = [row[0] for row in db.execute("select id from versions")]
    assert 0 < sum(n for _, n in faults_by_day(db, versions)) == faults


async def test_the_history_is_the_kept_fits_thinned_to_even_steps(tmp_path, monkeypatch):
    monkeypatch.setattr(fits, "HISTORY_POINTS", 8)
    db = _league(tmp_path, bots=4)
    for rounds in range(1, 13):
        await _play(db, rounds)
        fits.refresh(db, "tapa")
    kept = [units for units, _, _ in fits.history(db, "tapa")]
    assert len(kept) <= 8 and kept[-1] == db["units"].count_where("arena_id = 'tapa' and status = 'done'")
    chart = history(db, "tapa")
    assert chart["units"] == kept and set(chart["bots"]) == {f"b{k} v1" for k in range(4)}
    last = {line.bot + " v1": line.rating for line in standings(db, "tapa")}
    assert {bot: line["rating"][-1] for bot, line in chart["bots"].items()} == pytest.approx(last, abs=0.06)


async def test_a_stale_fit_is_refitted_by_a_reader_once_it_is_old(tmp_path, monkeypatch):
    db = _league(tmp_path, bots=3)
    await _play(db, 1)  # a league's run refits its arenas when it ends
    first = fits.stored(db, "tapa")
    assert first is not None and first.units == db["arenas"].get("tapa")["counted"]
    plan(db, "l", "tapa", "round-robin", 2, new_seed=counting_seeds("more"))
    for unit in [row[0] for row in db.execute("select id from units where status = 'pending' and arena_id = 'tapa'")]:
        await run_units(db, "l", PointsExecutor(), only=[unit])  # as the club plays: a refit every 2 s at most
    assert fits.current(db, "tapa") == first  # stale, but just made: readers show it
    monkeypatch.setattr(fits, "FRESH_SECONDS", 0.0)
    assert fits.current(db, "tapa").units == db["arenas"].get("tapa")["counted"] > first.units


def test_a_slow_page_does_not_hold_up_the_others(tmp_path, monkeypatch):
    """Every database answer is made off the event loop: a leaderboard that takes its time does not delay
    /api/columns or the static files."""
    from starlette.testclient import TestClient

    db = _league(tmp_path, bots=2)
    db.close()
    release, entered = threading.Event(), threading.Event()

    def slow(db, arena_id):
        entered.set()
        release.wait(20)
        return []

    monkeypatch.setattr(api, "arena_standings", slow)
    with TestClient(make_app(tmp_path / "l.db")) as client:
        waiting = threading.Thread(target=client.get, args=("/api/arenas/tapa/standings",))
        waiting.start()
        assert entered.wait(10)
        started = time.monotonic()
        assert client.get("/api/columns").status_code == 200
        assert client.get("/static/app.js").status_code == 200
        assert time.monotonic() - started < 5
        release.set()
        waiting.join(10)


def test_analyses_past_those_waiting_are_answered_503(tmp_path, monkeypatch):
    """One analysis is made at a time; past ANALYSES_WAITING waiting for it, a request is told to come back (503)
    at once, and the waiting ones are answered when their turn comes."""
    from starlette.testclient import TestClient

    from ladder.web.app import ANALYSES_WAITING

    _league(tmp_path, bots=2).close()
    release, entered = threading.Event(), threading.Event()

    def slow(db, match, seat=None):
        entered.set()
        release.wait(20)
        return {"match": match}

    monkeypatch.setattr(api, "analysis", slow)
    answers: dict[int, int] = {}
    with TestClient(make_app(tmp_path / "l.db", cache_seconds=0)) as client:

        def ask(number: int) -> None:
            answers[number] = client.get(f"/api/matches/m{number}/analysis").status_code

        first = threading.Thread(target=ask, args=(0,))
        first.start()
        assert entered.wait(10)
        others = [threading.Thread(target=ask, args=(n,)) for n in range(1, 2 * ANALYSES_WAITING + 2)]
        for thread in others:
            thread.start()
        deadline = time.monotonic() + 10
        while sum(code == 503 for code in answers.values()) < ANALYSES_WAITING + 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        release.set()
        for thread in [first, *others]:
            thread.join(20)
    codes = sorted(answers.values())
    assert codes == [200] * (ANALYSES_WAITING + 1) + [503] * (ANALYSES_WAITING + 1)


async def test_the_match_list_reads_only_the_page_it_shows(tmp_path):
    db = _league(tmp_path, bots=4)
    await _play(db, 2)
    plans = []

    def explain(sql: str) -> None:
        if sql.lstrip().startswith("select m.*"):
            plans.append(" ".join(row[3] for row in db.conn.execute(f"explain query plan {sql}")))

    db.conn.set_trace_callback(explain)
    everything = api.matches(db, limit="5")
    by_arena = api.matches(db, arena="durak-4", limit="5")
    by_bot = api.matches(db, bot="b1", limit="200")
    db.conn.set_trace_callback(None)
    assert len(everything) == 5 and [m["arena"] for m in by_arena] == ["durak-4"] * 5
    assert all("b1 v1" in m["seats"] for m in by_bot)
    assert len(by_bot) == db.execute("select count(*) from match_seats s join matches m on m.id = s.match_id "
                                     "where s.version_id = 2 and m.status != 'pending'").fetchone()[0]
    finished = [m["finished_at"] for m in everything]
    assert finished == sorted(finished, reverse=True)
    assert len(plans) == 3 and not any("TEMP B-TREE" in plan for plan in plans), plans


def test_an_answer_is_made_once_for_many_readers_and_kept_a_moment():
    made = []

    async def make() -> bytes:
        made.append(1)
        await trio.sleep(0.05)
        return b"answer"

    async def broken() -> bytes:
        raise api.NotFound("no")

    async def main() -> None:
        answers = AnswerCache(seconds=0.2)
        got = []

        async def read() -> None:
            got.append(await answers.get("k", make))

        async with trio.open_nursery() as nursery:
            for _ in range(20):
                nursery.start_soon(read)
        assert len(made) == 1 and got == [b"answer"] * 20
        assert await answers.get("k", make) == b"answer" and len(made) == 1
        await trio.sleep(0.25)
        assert await answers.get("k", make) == b"answer" and len(made) == 2
        for _ in range(2):  # an error is not kept
            with pytest.raises(api.NotFound):
                await answers.get("e", broken)

    trio.run(main)
