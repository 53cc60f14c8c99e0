"""The JSON API of ``ladder serve``: arenas, standings, cross-tables, matches with filters, bots, replay frames,
and clean 404/400 answers for bad requests."""

from __future__ import annotations

import json

import httpx
import pytest
from click.testing import CliRunner
from sqlite_utils import Database

from ladder.store import replay_folder, resolved_path
from referee.chance import commitment
from referee.cli import main as referee_main
from referee.frames import HIDDEN_STEP
from referee.replay import replay_bytes


def get(server, path, status=200):
    response = httpx.get(server + path, timeout=30)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    return response.json()


def test_arenas_standings_and_crosstable(server):
    arenas = {a["id"]: a for a in get(server, "/api/arenas")}
    assert set(arenas) == {"tapa", "tabla-match", "durak-4", "gapa", "gaps", "tabla"} and arenas["tapa"]["done"] == 12
    gaps = get(server, "/api/arenas/gaps/standings")  # each bot alone on the same deal, compared in pairs
    assert len(gaps) == 4 and all(line["games"] == line["units"] == 1 and line["wins"] + line["losses"] == 1
                                  for line in gaps)  # a deal won, or not
    assert all(line["low"] is None and line["superiority"] is None for line in gaps)  # one unit tells nothing yet
    assert set(get(server, "/api/columns")) >= {"rating", "95% interval", "units", "W D L", "LOS next"}
    standings = get(server, "/api/arenas/tapa/standings")
    assert len(standings) == 4 and sum(line["games"] for line in standings) == 24
    assert all(len(line["trend"]) == 6 and set(line["trend"]) <= set("WDL") for line in standings)
    cross = get(server, "/api/arenas/tapa/crosstable")
    assert len(cross["labels"]) == 4 and all(cell["games"] == 2 for cell in cross["cells"])


def test_matches_filters_and_bot_page(server, league):
    assert len(get(server, "/api/matches?arena=durak-4")) == 4
    assert all("alpha v1" in m["seats"] for m in get(server, "/api/matches?bot=alpha&limit=200"))
    assert get(server, "/api/matches?fault=crash") == []
    match = get(server, f"/api/matches/{league[1]['tabla-match']}")
    assert match["status"] == "done" and len(match["games"]) >= 2
    bot = get(server, "/api/bots/beta")
    assert bot["versions"][0]["number"] == 1 and bot["matches"] and bot["faults"] == []


def test_a_crash_s_last_words_are_left_to_its_author(server, league):
    """A crash's fault quotes the bot's stderr, which is its author's: the public match and bot pages say where it
    is instead."""
    db = Database(league[0])
    match_id = league[1]["tapa"]
    row = db["matches"].get(match_id)
    seat = 0
    fault = {"seat": seat, "kind": "crash", "message": "its code failed (KeyError); its last words: my secret plan"}
    db["matches"].update(match_id, {"faults": json.dumps([fault])})
    try:
        shown = get(server, f"/api/matches/{match_id}")["faults"]
        assert shown == [{**fault, "message": "its code failed (KeyError) (its last words are in its author's logs)"}]
        name = get(server, f"/api/matches/{match_id}")["seats"][seat].rsplit(" v", 1)[0]
        assert "my secret plan" not in json.dumps(get(server, f"/api/bots/{name}"))
    finally:
        db["matches"].update(match_id, {"faults": row["faults"]})


def test_replay_frames_for_spectator_and_seat(server, league):
    durak = league[1]["durak-4"]
    spectator = get(server, f"/api/matches/{durak}/replay")
    assert spectator["problems"] == [] and len(spectator["frames"]) > 40
    last = spectator["frames"][-1]["view"]
    assert last["kind"] == "durak" and len(last["hands"]) == 4
    seat = get(server, f"/api/matches/{durak}/replay?seat=1")
    assert all(frame["view"]["hands"] == [] for frame in seat["frames"])
    deal = seat["frames"][1]
    assert deal["type"] == "deal" and deal["notation"] == "the deal: 36 cards"  # one frame, and no card named
    assert deal["first_step"] == 1 and deal["last_step"] == 36 and spectator["frames"][2]["first_step"] == 37
    gapa = get(server, f"/api/matches/{league[1]['gapa']}/replay?seat=0")["frames"]
    assert gapa[1]["type"] == "chance" and gapa[1]["notation"] == HIDDEN_STEP  # the coin: not a seat's to see
    assert "output" not in spectator and "output" not in spectator["result"]  # the bots' logs are not public
    assert all("path" not in s for s in spectator["header"]["seats"])  # nor the host's paths
    logs = get(server, f"/api/matches/{durak}/logs")  # a local league: its operator reads every seat's
    assert [s["seat"] for s in logs["seats"]] == [0, 1, 2, 3]


def test_a_seed_is_shown_only_once_its_unit_is_played(server, league):
    """The commitment is public from the start; the seed (which deals the other half's cards too) only when the
    whole unit is done."""
    db = Database(league[0])
    match_id = league[1]["durak-4"]
    unit = db["matches"].get(match_id)["unit_id"]
    seed = db["units"].get(unit)["seed"]
    done = get(server, f"/api/matches/{match_id}")
    assert done["seed"] == seed and done["commitment"] == commitment(seed)
    assert get(server, f"/api/matches/{match_id}/replay")["result"]["seed"] == seed
    db["units"].update(unit, {"status": "pending"})  # as while its other rotations are still being played
    try:
        playing = get(server, f"/api/matches/{match_id}")
        assert playing["seed"] is None and playing["commitment"] == commitment(seed)
        assert not playing["spectator_open"]  # every hand would show the other rotations' deal
        assert "opens when its unit is complete" in get(server, f"/api/matches/{match_id}/replay", 403)["error"]
        replay = get(server, f"/api/matches/{match_id}/replay?seat=2")
        assert "seed" not in replay["result"] and "seed" not in replay["header"]
        assert replay["header"]["commitment"] == commitment(seed)
        assert all(frame["view"]["hands"] == [] for frame in replay["frames"])
        assert not playing["analysable"]  # a judged play names cards its seat held
        assert "opens when its unit is complete" in get(server, f"/api/matches/{match_id}/analysis?seat=2", 403)["error"]
        tapa = league[1]["tapa"]  # a game without hidden cards keeps its spectator view
        tapa_unit = db["matches"].get(tapa)["unit_id"]
        db["units"].update(tapa_unit, {"status": "pending"})
        try:
            assert get(server, f"/api/matches/{tapa}")["spectator_open"]
            assert get(server, f"/api/matches/{tapa}/replay")["frames"]
        finally:
            db["units"].update(tapa_unit, {"status": "done"})
    finally:
        db["units"].update(unit, {"status": "done"})


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/api/matches/no-such-match", 404),
        ("/api/matches/no-such-match/replay", 404),
        ("/api/bots/nobody", 404),
        ("/api/arenas/chess/standings", 404),
        ("/api/matches?limit=lots", 400),
        ("/api/matches?limit=0", 400),
        ("/api/no-such-endpoint", 404),
    ],
)
def test_bad_requests_get_clean_answers(server, path, status):
    answer = get(server, path, status)
    assert "error" in answer and "Traceback" not in str(answer)


def test_bad_seat_parameters(server, league):
    durak = league[1]["durak-4"]
    assert "seats 0..3" in get(server, f"/api/matches/{durak}/replay?seat=7", 400)["error"]
    assert "seat number" in get(server, f"/api/matches/{durak}/replay?seat=-1", 400)["error"]


@pytest.mark.parametrize(
    ("lines", "status"),
    [
        ('{"type": "header", "game": "chess"}\n', 404),  # cannot be re-run at all
        ('{"type": "header", "game": "tapa"}\n{"type": "action", "seat": 5, "id": 99}\nnot json\n', 200),
    ],
    ids=["unknown-game", "cut-short"],
)
def test_broken_replays(server, league, tmp_path, lines, status):
    """A replay that cannot be re-run is a clean 404; one cut short shows what it holds and lists its problems."""
    db = Database(league[0])
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines)
    unit = db.execute("select id from units where arena_id = 'tapa' limit 1").fetchone()[0]
    db["matches"].insert(
        {"id": "broken-replay", "unit_id": unit, "arena_id": "tapa", "rotation": 8, "seed": 1, "seats": "[1, 2]",
         "status": "done", "replay_path": str(broken)}
    )
    try:
        answer = get(server, "/api/matches/broken-replay/replay", status)
        if status == 404:
            assert "cannot be read" in answer["error"]
        else:
            assert len(answer["frames"]) == 1 and any("not JSON" in p for p in answer["problems"])
    finally:
        db["matches"].delete("broken-replay")


def test_a_running_match_is_watched_live(server, league):
    """While a match runs, its replay is read from the referee's unfinished file: each answer holds the steps
    written so far, and a game that hides cards shows only seat views until its unit is complete."""
    db = Database(league[0])
    source = db["matches"].get(league[1]["durak-4"])
    text = replay_bytes(resolved_path(db, source["replay_path"])).decode()
    lines = text.splitlines(keepends=True)[:-1]  # no result yet
    league_name = db["units"].get(source["unit_id"])["league"]
    part = replay_folder(db) / league_name / ".live-one.jsonl.x1y2.part"
    part.write_text("".join(lines[:40]))
    db["matches"].insert({**source, "id": "live-one", "status": "running", "replay_path": None, "points": None,
                          "termination": None, "finished_at": None})
    try:
        listed = get(server, "/api/matches/live-one")
        assert listed["status"] == "running" and listed["has_replay"]
        assert get(server, "/api/matches/live-one/replay", 403)  # the unit's other matches deal these cards
        first = get(server, "/api/matches/live-one/replay?seat=0")
        assert first["live"] and first["problems"] == [] and first["frames"][-1]["last_step"] == 39
        part.write_text("".join(lines) + '{"type": "act')  # more moves, and a line still being written
        later = get(server, "/api/matches/live-one/replay?seat=0")
        assert later["frames"][-1]["last_step"] == len(lines) - 1 and later["problems"] == []
        assert all(frame["view"]["hands"] == [] for frame in later["frames"])
        part.unlink()  # not started writing, or just finished
        assert "yet" in get(server, "/api/matches/live-one/replay?seat=0", 404)["error"]
    finally:
        db["matches"].delete("live-one")
        part.unlink(missing_ok=True)


def test_results_in_words_and_filters(server, league):
    durak = get(server, f"/api/matches/{league[1]['durak-4']}")
    assert durak["summary"].startswith(("durak: ", "draw")) and "1. " in durak["summary"]
    loser = [seat for seat, p in enumerate(durak["points"]) if p == min(durak["points"])]
    if durak["termination"] == "durak":
        assert durak["summary"].split(" · ")[0] == "durak: " + " and ".join(durak["seats"][s] for s in loser)
    tapa = get(server, f"/api/matches/{league[1]['tapa']}")
    assert tapa["winners"] == [max(range(2), key=lambda s: tapa["points"][s])] and " wins " in tapa["summary"]
    filters = get(server, "/api/filters")
    assert "tapa" in filters["arenas"] and "timeout" in filters["faults"] and filters["bots"]


def test_tournaments(server):
    [cup] = get(server, "/api/tournaments")
    assert cup["name"] == "cup" and cup["status"] == "done" and cup["champion"] and cup["entrants"] == 4
    assert get(server, "/api/tournaments?arena=gaps") == []
    report = get(server, "/api/tournaments/cup")
    assert [len(r["groups"]) for r in report["rounds"]] == [2, 1] and report["champion"] == cup["champion"]
    final = report["rounds"][1]["groups"][0]
    assert final["winner"] == report["champion"] and all(m["status"] == "done" for m in final["matches"])
    assert get(server, f"/api/matches/{final['matches'][0]['id']}")["arena"] == "tabla"
    assert "no tournament" in get(server, "/api/tournaments/nope", 404)["error"]


def test_a_finished_tabla_family_match_is_judged_as_referee_analyse_judges_it(server, league):
    """The analysis answer is ``referee analyse --json`` of the match's replay, each decision with the board after
    the best play; a game without a judge, a bad seat and an unknown match are clean answers. A Durak match's
    analysis waits for its unit, as its spectator view does."""
    tapa = league[1]["tapa"]
    assert get(server, f"/api/matches/{tapa}")["analysable"] is True
    answer = get(server, f"/api/matches/{tapa}/analysis")
    db = Database(league[0])
    path = resolved_path(db, db["matches"].get(tapa)["replay_path"])
    done = CliRunner().invoke(referee_main, ["analyse", str(path), "--json"])
    assert done.exit_code == 0, done.output
    printed = json.loads(done.output)
    keys = ("step", "seat", "played", "best", "mark")
    assert [tuple(d[k] for k in keys) for d in answer["decisions"]] == [tuple(d[k] for k in keys)
                                                                          for d in printed["decisions"]]
    for mine, theirs in zip(answer["decisions"], printed["decisions"], strict=True):
        assert mine["error"] == pytest.approx(theirs["error"], abs=1e-6)
    for mine, theirs in zip(answer["seats"], printed["seats"], strict=True):
        assert mine["rate"] == pytest.approx(theirs["rate"], abs=1e-6) and mine["blunders"] == theirs["blunders"]
    frames = get(server, f"/api/matches/{tapa}/replay")["frames"]
    for decision in answer["decisions"]:
        if decision["best"] == decision["played"]:
            assert decision["best_view"] == frames[decision["step"]]["view"]
    gapa = league[1]["gapa"]
    assert get(server, f"/api/matches/{gapa}")["analysable"] is False
    assert "no analysis for gapa" in get(server, f"/api/matches/{gapa}/analysis", 404)["error"]
    assert "seats 0..1" in get(server, f"/api/matches/{tapa}/analysis?seat=5", 400)["error"]
    assert "no replay" in get(server, "/api/matches/nope/analysis", 404)["error"]
