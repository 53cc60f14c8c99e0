"""Tournaments: the pairing rules of every format on hand-made fields (odd fields, byes, ties, a withdrawn bot),
played through the league machinery with a deterministic executor, resumed after a kill to the same result, and
the command line."""

from __future__ import annotations

import hashlib
import itertools
import json

import pytest
import trio
from click.testing import CliRunner

from ladder.cli import main
from ladder.executor import MatchJob, MatchResult
from ladder.registry import retire
from ladder.store import open_store
from ladder.tournaments import knockout, record, runner, swiss, tables
from ladder.tournaments.formats import Spec
from ladder.tournaments.model import History, Result, Round
from ladder.tournaments.report import describe
from ladder.tournaments.text import render

from ._fakes import FakeExecutor, counting_seeds
from .test_league import seed_bots


def play_out(next_round, history: History, winner_of) -> History:
    """Run a format to its end on paper: ``winner_of(a, b)`` decides every group."""
    while (rnd := next_round(history)) is not None:
        history.rounds.append(rnd)
        history.results.append([Result((1, 0), winner_of(*g.seats)) for g in rnd.groups])
    return history


def better_seed(history: History):
    return lambda a, b: min((a, b), key=history.seed)


# --- knockout ------------------------------------------------------------------------------------------------


def test_a_bracket_of_eight_meets_the_seeds_as_clubs_expect():
    h = History(entrants=list(range(101, 109)))
    first = knockout.single_elimination(h)
    assert [tuple(h.seed(v) for v in g.seats) for g in first.groups] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    play_out(knockout.single_elimination, h, better_seed(h))
    assert [len(r.groups) for r in h.rounds] == [4, 2, 1]
    assert tuple(h.seed(v) for v in h.rounds[-1].groups[0].seats) == (1, 2)  # 1 and 2 meet only in the final
    assert knockout.champion(h) == 101


@pytest.mark.parametrize("field", [2, 3, 5, 6, 7, 9, 13])
def test_odd_fields_give_byes_to_the_best_seeds_and_end_with_one_champion(field):
    h = History(entrants=list(range(1, field + 1)))
    first = knockout.single_elimination(h)
    size = 1 << (field - 1).bit_length()
    assert sorted(first.byes) == list(range(1, size - field + 1))  # the top seeds skip round 1
    play_out(knockout.single_elimination, h, lambda a, b: max(a, b))  # the worse seed always wins: upsets
    played = [v for r in h.rounds for g in r.groups for v in g.seats] + [v for r in h.rounds for v in r.byes]
    assert set(played) == set(h.entrants)
    losers = [v for r, res in zip(h.rounds, h.results) for g, x in zip(r.groups, res) for v in g.seats if v != x.winner]
    assert len(losers) == len(set(losers)) == field - 1  # everyone but the champion loses exactly once
    assert knockout.champion(h) not in losers


def test_double_elimination_needs_two_losses_and_resets_a_lost_final():
    h = History(entrants=[1, 2, 3, 4])
    # seed 1 wins everything until the final, which seed 2 (from the losers' bracket) wins, then wins again
    def winner(a, b):
        if {a, b} == {1, 2} and any(g.label.startswith("final") for g in h.rounds[-1].groups):
            return 2
        return min(a, b)

    play_out(knockout.double_elimination, h, winner)
    labels = [g.label for r in h.rounds for g in r.groups]
    assert labels[-2:] == ["final", "final-reset"]
    assert knockout.double_champion(h) == 2
    losses = {v: 0 for v in h.entrants}
    for r, res in zip(h.rounds, h.results):
        for g, x in zip(r.groups, res):
            for v in g.seats:
                losses[v] += v != x.winner
    assert losses == {1: 2, 2: 1, 3: 2, 4: 2}


@pytest.mark.parametrize("field", [3, 5, 6])
def test_double_elimination_with_odd_fields(field):
    h = History(entrants=list(range(1, field + 1)))
    play_out(knockout.double_elimination, h, lambda a, b: max(a, b))
    assert knockout.double_champion(h) is not None
    for r in h.rounds:  # nobody plays twice in a round, nobody knocked out plays again
        seated = [v for g in r.groups for v in g.seats]
        assert len(seated) == len(set(seated)) and not set(seated) & set(r.byes)


# --- Swiss -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("field", [4, 5, 7, 8])
def test_swiss_never_repeats_a_pairing_and_rotates_the_bye(field):
    h = History(entrants=list(range(1, field + 1)))
    rounds = field - 1 if field % 2 == 0 else field
    play_out(lambda x: swiss.next_round(x, rounds), h, lambda a, b: min(a, b))
    pairs = [frozenset(g.seats) for r in h.rounds for g in r.groups]
    assert len(pairs) == len(set(pairs))  # every pairing at most once
    byes = [v for r in h.rounds for v in r.byes]
    assert len(byes) == len(set(byes)) == (rounds if field % 2 else 0)  # nobody gets two byes
    assert [line.version for line in swiss.standings(h)][0] == 1


def test_swiss_pairs_by_score_and_breaks_ties():
    h = History(entrants=[1, 2, 3, 4])
    h.rounds.append(Round(1, (swiss.Group((1, 2)), swiss.Group((3, 4)))))
    h.results.append([Result((2, 0), 1), Result((1, 1), None)])  # 1 beats 2; 3 and 4 draw
    second = swiss.next_round(h, 3)
    assert [g.seats for g in second.groups] == [(1, 3), (4, 2)]  # the leader meets the best of the draw group
    h.rounds.append(second)
    h.results.append([Result((0, 2), 3), Result((2, 0), 4)])
    lines = swiss.standings(h)
    assert [(line.version, line.score) for line in lines] == [(3, 1.5), (4, 1.5), (1, 1.0), (2, 0.0)]
    assert lines[0].buchholz == 1.0 + 1.5 and lines[1].buchholz == 1.5 + 0.0  # 3 ahead of 4 on Buchholz


def test_a_withdrawn_entrant_is_not_paired_again():
    h = History(entrants=[1, 2, 3, 4], withdrawn=frozenset({2}))
    rnd = swiss.next_round(h, 2)
    assert 2 not in [v for g in rnd.groups for v in g.seats] + list(rnd.byes)


def test_a_gauntlet_plays_the_field_each_round_and_skips_the_withdrawn():
    from ladder.tournaments import gauntlet

    h = History(entrants=[9, 1, 2, 3], withdrawn=frozenset({2}))
    play_out(lambda x: gauntlet.next_round(x, 2), h, lambda a, b: a if b == 1 else b)
    assert [[g.seats for g in r.groups] for r in h.rounds] == [[(9, 1), (9, 3)]] * 2
    assert [(line.opponent, line.wins, line.losses) for line in gauntlet.standings(h)] == [(1, 2, 0), (2, 0, 0), (3, 0, 2)]


# --- tables ----------------------------------------------------------------------------------------------------


def test_tables_seat_everybody_and_rotate_the_sit_outs():
    h = History(entrants=list(range(1, 7)))
    sat_out = []
    for _ in range(3):
        rnd = tables.next_round(h, 3, 4, False, "draw")
        seated = [v for g in rnd.groups for v in g.seats]
        assert len(rnd.groups) == 1 and len(seated) == 4 and sorted(seated + list(rnd.byes)) == list(range(1, 7))
        sat_out += rnd.byes
        h.rounds.append(rnd)
        h.results.append([Result((3, 2, 1, 0), None)])
    assert len(sat_out) == len(set(sat_out)) == 6  # six sit-outs over three rounds: everybody once
    assert tables.next_round(h, 3, 4, False, "draw") is None
    lines = tables.standings(h, False)
    assert sum(line.points for line in lines) == pytest.approx(3 * 6 + 6 * 1.5)  # a bye scores the mean, 1.5


def test_teams_stay_together_across_redraws():
    h = History(entrants=list(range(1, 9)))
    teams = set(tables.teams_of(h.entrants))
    for _ in range(4):
        rnd = tables.next_round(h, 4, 4, True, "draw")
        for g in rnd.groups:
            assert (g.seats[0], g.seats[2]) in teams or (g.seats[2], g.seats[0]) in teams
            assert (g.seats[1], g.seats[3]) in teams or (g.seats[3], g.seats[1]) in teams
        h.rounds.append(rnd)
        h.results.append([Result((1, 0, 1, 0), None) for _ in rnd.groups])
    with pytest.raises(ValueError, match="even number"):
        tables.teams_of([1, 2, 3])


# --- played through the ladder ----------------------------------------------------------------------------------


def knockout_spec(name="cup", elimination="single") -> Spec:
    return Spec(name=name, format="knockout", arena="tapa", seats=2, elimination=elimination)


async def play(db, name, executor=None, **kwargs):
    return await runner.play(db, name, executor or FakeExecutor(strengths=STRONG), concurrency=2,
                             new_seed=kwargs.pop("new_seed", counting_seeds(name)), **kwargs)


STRONG = {f"bot{k}": 0.2 + 0.15 * k for k in range(6)}
"""bot5 is the strongest; the seed still decides many matches."""


async def test_a_knockout_in_the_ladder(tmp_path):
    db = open_store(tmp_path / "l.db")
    ids = seed_bots(db, 5)
    assert runner.start(db, knockout_spec())
    final = await play(db, "cup")
    assert final.status == "done"
    report = describe(db, "cup")
    assert report["champion"] and [len(r["groups"]) for r in report["rounds"]] == [1, 2, 1]
    assert len(report["rounds"][0]["byes"]) == 3
    for rnd in report["rounds"]:
        for group in rnd["groups"]:
            assert group["winner"] in group["seats"] and group["matches"]
            if group["decided_by"] == "points":
                assert max(group["scores"]) != min(group["scores"])
    assert "champion: " in render(report)
    assert not runner.start(db, knockout_spec())  # the same settings again: a resume, nothing new
    with pytest.raises(record.TournamentExists):
        record.create(db, knockout_spec(elimination="double"), ids)


async def test_a_level_unit_is_followed_by_tie_break_units_then_the_seed(tmp_path):
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 2)

    class Level(FakeExecutor):
        async def run(self, job: MatchJob) -> MatchResult:  # the seat decides: every unit ends 1-1
            self.jobs.append(job)
            return MatchResult(termination="normal", points=(1, 0), decisions=1, bots=job.bots)

    runner.start(db, knockout_spec())
    await play(db, "cup", Level())
    [group] = describe(db, "cup")["rounds"][0]["groups"]
    assert group["units"] == 3 and group["decided_by"] == "seed" and group["winner"] == group["seats"][0]


async def test_a_withdrawn_bot_forfeits(tmp_path):
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 4)
    runner.start(db, knockout_spec())
    entrants = record.load(db, "cup")[1]

    def withdraw_after_round_one(number):
        if number == 2:  # the final is paired: the first semi-final's winner withdraws before playing it
            winner = record.state(db, "cup").played[0][0].result.winner
            name = db.execute("select b.name from versions v join bots b on b.id = v.bot_id where v.id = ?",
                              [winner]).fetchone()[0]
            retire(db, name)

    await play(db, "cup", on_round=withdraw_after_round_one)
    report = describe(db, "cup")
    [final] = report["rounds"][1]["groups"]
    assert final["decided_by"] == "forfeit" and final["units"] == 0 and final["matches"] == []
    assert report["champion"] == final["winner"]
    assert any(e["withdrawn"] for e in report["entrants"]) and len(entrants) == 4


def test_a_killed_tournament_resumes_to_the_same_result(tmp_path):
    """Cancel a Swiss in the middle of its second round; the rerun, with the same seeds, ends as an uninterrupted
    run does."""

    async def whole(path):
        db = open_store(path)
        seed_bots(db, 5)
        runner.start(db, Spec(name="sw", format="swiss", arena="tapa", seats=2, rounds=3))
        await play(db, "sw", new_seed=counting_seeds("sw"))
        return describe(db, "sw")

    async def killed(path):
        db = open_store(path)
        seed_bots(db, 5)
        runner.start(db, Spec(name="sw", format="swiss", arena="tapa", seats=2, rounds=3))
        seeds = counting_seeds("sw")
        second = []
        with trio.CancelScope() as scope:  # killed in round 2, after one of its matches

            def stop(progress):
                if second and progress.done >= 1:
                    scope.cancel()

            await runner.play(db, "sw", FakeExecutor(strengths=STRONG, delay=0.01), concurrency=1, new_seed=seeds,
                              on_round=lambda n: n == 2 and second.append(n), on_progress=stop)
        assert record.state(db, "sw").status == "running" and len(record.rounds(db, "sw")) == 2
        assert db.execute("select count(*) from units where status = 'done'").fetchone()[0] == 2  # round 1 only
        await runner.play(db, "sw", FakeExecutor(strengths=STRONG), concurrency=2, new_seed=seeds)
        return describe(db, "sw")

    expected = trio.run(whole, tmp_path / "a.db")
    resumed = trio.run(killed, tmp_path / "b.db")
    assert resumed == expected


class Places:
    """A Durak-like executor: seats finish in order of their bots' strength, and score the seats behind them."""

    def __init__(self):
        self.jobs = []

    async def run(self, job: MatchJob) -> MatchResult:
        self.jobs.append(job)
        key = lambda path: hashlib.sha256(f"{job.seed}{path}".encode()).digest()  # noqa: E731
        order = sorted(range(len(job.bots)), key=lambda s: key(job.bots[s]))
        points = [0] * len(job.bots)
        for place, seat in enumerate(order):
            points[seat] = len(job.bots) - 1 - place
        return MatchResult(termination="durak", points=tuple(points), decisions=1, bots=job.bots)


async def test_durak_tables_in_the_ladder(tmp_path):
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 6, game="tapa")
    from ladder.arenas import ArenaSpec, ensure_arena

    with db.atomic():
        ensure_arena(db, ArenaSpec("durak-4", "durak", {"seats": "4"}, 4, 1))
        for row in list(db.query("select version_id from entries")):
            db["entries"].insert({"arena_id": "durak-4", "version_id": row["version_id"], "joined_at": "now"})
    spec = Spec(name="t", format="tables", arena="durak-4", seats=4, rounds=3, draw_seed="fixed")
    runner.start(db, spec)
    await play(db, "t", Places())
    report = describe(db, "t")
    assert [len(r["byes"]) for r in report["rounds"]] == [2, 2, 2]
    assert sum(len(r["byes"]) for r in report["rounds"]) == len({b for r in report["rounds"] for b in r["byes"]})
    for rnd in report["rounds"]:
        [table] = rnd["groups"]
        assert sorted(table["scores"]) == [0, 4, 8, 12]  # four rotations: 3+2+1+0 points a seat spread over them
    assert len(report["standings"]) == 6 and "tables topped" in render(report)


def test_the_formats_refuse_what_cannot_run(tmp_path):
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 1)
    with pytest.raises(ValueError, match="at least 2"):
        runner.start(db, knockout_spec())
    with pytest.raises(ValueError, match="3 or more seats"):
        runner.start(db, Spec(name="x", format="tables", arena="tapa", seats=2, rounds=1))


# --- the command line ----------------------------------------------------------------------------------------


def test_tournament_command_answers(tmp_path):
    db_path = tmp_path / "l.db"
    db = open_store(db_path)
    seed_bots(db, 3)
    run = lambda *args: CliRunner().invoke(main, [*args, "--db", str(db_path)])  # noqa: E731
    assert run("tournament").exit_code == 2 and "give --format and --arena" in run("tournament").output
    missing = run("tournament", "show", "nothing")
    assert missing.exit_code == 2 and "no tournament 'nothing'" in missing.output and "Traceback" not in missing.output
    assert "needs --challenger" in run("tournament", "--format", "gauntlet", "--arena", "tapa").output
    chess = run("tournament", "--format", "swiss", "--arena", "chess")
    assert chess.exit_code == 2 and "no arena 'chess'" in chess.output
    trio.run(lambda: play_after_start(db))
    shown = run("tournament", "show", "cup")
    assert shown.exit_code == 0 and "champion: " in shown.output and "round 1" in shown.output
    assert json.loads(run("tournament", "show", "cup", "--json").output)["format"] == "knockout"
    assert "cup: knockout in tapa, done, champion" in run("tournament", "list").output


async def play_after_start(db):
    runner.start(db, knockout_spec())
    await play(db, "cup")


def test_no_unit_id_collides_across_rounds_and_attempts():
    ids = {record.unit_index(n, a) for n, a in itertools.product(range(1, 50), range(3))}
    assert len(ids) == 49 * 3


async def test_the_club_service_plays_a_scheduled_tournament(tmp_path):
    """ladder serve --play --tournament knockout:tapa: due at once, played among the club's units, not again
    before --every hours have passed."""
    import contextlib

    from ladder.service import Service, parse_schedule

    class Sessions(FakeExecutor):
        @contextlib.asynccontextmanager
        async def session(self, concurrency=1):
            yield

    db = open_store(tmp_path / "l.db")
    seed_bots(db, 4)
    service = Service(db, Sessions(strengths=STRONG), concurrency=2, tournaments=(parse_schedule("knockout:tapa"),))
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(service.play_forever)
            while not db["tournaments"].count_where("status = 'done'"):
                await trio.sleep(0.05)
            nursery.cancel_scope.cancel()
    [row] = db["tournaments"].rows
    assert row["name"].startswith("knockout-tapa-") and describe(db, row["name"])["champion"]
    assert db["units"].count_where("league = 'club' and status = 'done'")  # the club's units went on meanwhile
    assert service._due("knockout", "tapa") is None  # not again within the day
    with pytest.raises(ValueError, match="FORMAT:ARENA"):
        parse_schedule("knockout")


async def test_a_swiss_report_has_the_standings_after_each_round(tmp_path):
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 4)
    runner.start(db, Spec(name="sw", format="swiss", arena="tapa", seats=2, rounds=3))
    await play(db, "sw")
    report = describe(db, "sw")
    assert [sum(line["score"] for line in r["standings"]) for r in report["rounds"]] == [2.0, 4.0, 6.0]
    assert [(line["bot"], line["score"]) for line in report["rounds"][-1]["standings"]] == [
        (line["version"], line["score"]) for line in report["standings"]]
    assert "standings: score, Buchholz" in render(report)
