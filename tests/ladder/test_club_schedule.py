"""The club service's choice of units: a patience arena deals a set number of deals per bot and stops, and the
scheduler reads the kept totals."""

from __future__ import annotations

import trio
from click.testing import CliRunner

from ladder.arenas import DEALS, arena_for_game, deals_of, ensure_arena
from ladder.cli import main
from ladder.league import run_units
from ladder.registry import copies_folder
from ladder.service import LEAGUE, Service
from ladder.store import now, open_store

from .test_kept_totals import PointsExecutor


def _enter(db, name: str, arena: str) -> int:
    with db.atomic():
        ensure_arena(db, arena_for_game(arena))
        bot = db["bots"].insert({"name": name, "created_at": now(), "retired": 0}).last_pk
        (copies_folder(db) / name).mkdir(parents=True)
        version = db["versions"].insert(
            {"bot_id": bot, "number": 1, "version": "1", "hash": name, "path": f"{copies_folder(db).name}/{name}", "language": "python",
             "author": "", "games": f'["{arena}"]', "created_at": now()}
        ).last_pk
        db["entries"].insert({"arena_id": arena, "version_id": version, "joined_at": now()})
    return version


def _schedule(db, service: Service, most: int = 100) -> int:
    """Play what the service chooses until it chooses nothing; return how many times it chose."""
    for turn in range(most):
        units = service.next_units()
        if not units:
            return turn
        trio.run(lambda: run_units(db, LEAGUE, PointsExecutor(), only=units))
    raise AssertionError("the service never stopped choosing")


def test_a_patience_arena_stops_when_every_bot_has_played_its_deals(tmp_path):
    db = open_store(tmp_path / "club.db")
    first = _enter(db, "solo", "gaps")
    assert deals_of(db, "gaps") == DEALS
    assert CliRunner().invoke(main, ["arena", "deals", "gaps", "3", "--db", str(tmp_path / "club.db")]).exit_code == 0
    assert deals_of(db, "gaps") == 3
    service = Service(db, PointsExecutor())
    assert _schedule(db, service) == 3
    second = _enter(db, "late", "gaps")  # a newcomer: new deals, which the first bot plays too
    assert _schedule(db, service) == 3
    played = {row["version_id"]: row["units"] for row in db.query("select version_id, units from arena_bots")}
    assert played == {first: 6, second: 3}
    assert service.next_units() == []


def test_a_deal_count_is_for_patience_arenas_only(tmp_path):
    db = open_store(tmp_path / "club.db")
    _enter(db, "duo", "tapa")
    result = CliRunner().invoke(main, ["arena", "deals", "tapa", "3", "--db", str(tmp_path / "club.db")])
    assert result.exit_code == 2 and "not a one-seat arena" in result.output


def test_the_scheduler_meets_every_pair_and_keeps_choosing(tmp_path):
    db = open_store(tmp_path / "club.db")
    versions = [_enter(db, f"b{k}", "tapa") for k in range(4)]
    service = Service(db, PointsExecutor())
    for _ in range(30):
        units = service.next_units()
        trio.run(lambda: run_units(db, LEAGUE, PointsExecutor(), only=units))
    met = {(row["a"], row["b"]) for row in db.query("select a, b from arena_pairs where results > 0")}
    assert len(met) >= 5 and {v for pair in met for v in pair} == set(versions)
    assert db.execute("select count(*) from units where status = 'done'").fetchone()[0] == 30
