"""The pages around the viewer in headless Chromium: charts drawn from the API's numbers, the leaderboard's order,
titles, the match list's winners and selects, step links, keys that never scroll the page, the spectator view
held back until a unit is complete, live watching of a running match, and no request beyond the server."""

from __future__ import annotations

import json

import httpx
import pytest
from sqlite_utils import Database

from ladder.arenas import arena_for_game, ensure_arena
from ladder.store import replay_folder, resolved_path
from ladder.tallies import rebuild
from referee.replay import replay_bytes


def api(server, path):
    return httpx.get(server + path, timeout=60).json()


def chart_data(page, selector):
    """The traces plotly drew in the chart ``selector`` (plotly keeps them on the element)."""
    page.wait_for_selector(f"{selector} .main-svg")
    return page.evaluate(f"Array.from(document.querySelectorAll('{selector}')).map((n) => n.data)")


def ratings_drawn(traces):
    return {t["name"]: t["y"] for t in traces if t.get("meta") == "rating"}


def known(line):
    return [r for r in line["rating"] if r is not None]


def test_arena_charts_draw_the_api_numbers(page, server):
    page.goto(f"{server}/arenas/tapa")
    history = api(server, "/api/arenas/tapa/history")
    [traces] = chart_data(page, ".chart.rating-history")
    assert ratings_drawn(traces) == {bot: known(line) for bot, line in history["bots"].items()}
    bands = {t["name"]: t["y"] for t in traces if t.get("fill") == "toself"}
    line = history["bots"]["alpha v1"]
    assert bands["alpha v1 95%"] == [h for h in line["high"] if h is not None] + [
        lo for lo in reversed(line["low"]) if lo is not None]
    cross = api(server, "/api/arenas/tapa/crosstable")
    [[heat]] = chart_data(page, ".chart.cross-table")
    cells = {(c["row"], c["column"]): c for c in cross["cells"]}
    for i, row in enumerate(heat["y"]):
        for j, column in enumerate(heat["x"]):
            c = cells.get((row, column))
            assert heat["z"][i][j] == (round(1000 * c["wins"] / c["games"]) / 10 if c and c["games"] else None)
            assert heat["customdata"][i][j] == (c["games"] if c else 0)
    assert page.title() == "Arena tapa — Kafana"
    page.select_option("select.history-axis", "time")
    page.wait_for_function("document.querySelector('.chart.rating-history').data[1].x[0].includes('T')")
    [traces] = chart_data(page, ".chart.rating-history")
    [alpha] = [t for t in traces if t.get("meta") == "rating" and t["name"] == "alpha v1"]
    assert alpha["x"] == [t for t, r in zip(history["times"], line["rating"]) if r is not None]


def test_bot_page_charts(page, server):
    page.goto(f"{server}/bots/beta")
    charts = api(server, "/api/bots/beta/history")
    drawn = chart_data(page, ".chart.rating-history")
    assert [ratings_drawn(traces) for traces in drawn] == [
        {bot: known(line) for bot, line in history["bots"].items()} for history in charts["ratings"].values()]
    bars = {n.get_attribute("data-arena"): n for n in page.query_selector_all(".chart.opponents")}
    assert set(bars) == {arena for arena, rows in charts["opponents"].items() if rows}
    for arena, rows in charts["opponents"].items():
        if rows:
            [bar] = page.evaluate("(n) => n.data", bars[arena])
            assert bar["y"] == [round(1000 * r["wins"] / r["games"]) / 10 for r in rows]
            assert bar["customdata"] == [r["games"] for r in rows]
    assert page.title() == "Bot beta — Kafana"


def test_leaderboard_order_and_empty_arenas_folded(page, server, league):
    db = Database(league[0])
    with db.atomic():
        ensure_arena(db, arena_for_game("gjul-bara"))  # an arena nobody has played yet
    try:
        page.goto(server)
        page.wait_for_selector("details.empty-arenas")
        order = [node.get_attribute("data-arena") for node in page.query_selector_all("h2.arena")]
        done = {a["id"]: a["done"] for a in api(server, "/api/arenas")}
        assert order[0] == "tabla-match" and "gjul-bara" not in order
        assert [done[a] for a in order[1:]] == sorted((done[a] for a in order[1:]), reverse=True)
        assert "gjul-bara" in page.text_content("details.empty-arenas")  # folded: there, not shown
        assert page.title() == "Leaderboards — Kafana"
        assert page.text_content("p.rated").startswith("Ratings fitted ")  # when the stored fit was made
    finally:
        db["arenas"].delete("gjul-bara")


def test_match_list_names_winners_and_filters_by_select(page, server, league):
    page.goto(f"{server}/matches")
    page.wait_for_selector("table.matches")
    page.select_option("select[name=arena]", "durak-4")
    page.wait_for_url("**/matches?arena=durak-4**")
    page.wait_for_selector("table.matches tr:nth-child(2)")
    listed = api(server, "/api/matches?arena=durak-4")
    rows = page.query_selector_all("table.matches tr")[1:]
    assert len(rows) == len(listed)
    for row, match in zip(rows, listed):
        cells = row.query_selector_all("td")
        assert cells[4].inner_text() == match["summary"] and match["summary"].startswith(("durak: ", "draw"))
        assert [a.inner_text() for a in cells[3].query_selector_all("strong.winner a")] == [
            match["seats"][s] for s in match["winners"]]
        assert cells[1].inner_text().endswith(" s") and cells[0].query_selector("time")
    assert page.title() == "Matches — Kafana"


def test_step_links_and_keys_that_never_scroll(page, server, league):
    match_id = league[1]["tabla-match"]
    page.goto(f"{server}/matches/{match_id}#step=40&seat=1")
    page.wait_for_selector('#viewer[data-step="40"]')
    assert page.input_value("select.seat-select") == "1"
    seen = api(server, f"/api/matches/{match_id}/replay?seat=1")["frames"][40]["view"]
    drawn = {int(g.get_attribute("data-point")): int(g.get_attribute("data-mine")) for g in page.query_selector_all("g.point")}
    assert drawn == {p + 1: n for p, n in enumerate(seen["mine"])} and seen["seat"] == 1  # seat 1's side of the board
    labels = page.query_selector_all("text.number.theirs")
    assert [int(t.text_content()) for t in labels] == seen["their_numbers"]  # the opponent's numbering beside ours
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#viewer[data-step="41"]')
    assert page.evaluate("location.hash") == "#step=41&seat=1"
    page.evaluate("window.scrollTo(0, 0)")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    last = len(api(server, f"/api/matches/{match_id}/replay?seat=1")["frames"]) - 1
    page.wait_for_selector(f'#viewer[data-step="{last}"]')
    assert page.evaluate("window.scrollY") == 0  # the page stays; the move list scrolled itself
    assert page.evaluate("document.querySelector('.moves').scrollTop") > 0
    assert page.evaluate("document.querySelector('.controls').getBoundingClientRect().top") >= 0
    page.set_viewport_size({"width": 1400, "height": 400})  # a small window: the page scrolls
    try:
        below = page.evaluate("document.querySelector('.controls').offsetTop") + 60  # the controls' place, passed
        page.evaluate(f"window.scrollTo(0, {below})")
        assert page.evaluate("window.scrollY") == below
        page.keyboard.press("Home")
        page.wait_for_selector('#viewer[data-step="0"]')
        for _ in range(30):
            page.keyboard.press("ArrowRight")
        page.wait_for_selector('#viewer[data-step="30"]')
        assert page.evaluate("window.scrollY") == below  # keys step the game, never the page
        top = page.evaluate("document.querySelector('.controls').getBoundingClientRect().top")
        assert 0 <= top < 5  # scrolled past: the controls stick to the top of the window
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})
    frames = api(server, f"/api/matches/{match_id}/replay?seat=1")
    names = [seat["name"] for seat in frames["header"]["seats"]]
    move = next(k for k, f in enumerate(frames["frames"]) if f["type"] == "action")
    mover = frames["frames"][move]["seat"]
    assert page.inner_text(f'.moves div[data-index="{move}"]').startswith(f"{move}. {names[mover]} (seat {mover}): ")


@pytest.fixture()
def unit_in_play(league):
    """The durak-4 match's unit shown as not yet complete (its other rotations still being played)."""
    db = Database(league[0])
    match = db["matches"].get(league[1]["durak-4"])
    db["units"].update(match["unit_id"], {"status": "running"})
    yield match
    db["units"].update(match["unit_id"], {"status": "done"})


def test_spectator_view_waits_for_the_unit(page, server, unit_in_play):
    page.goto(f"{server}/matches/{unit_in_play['id']}")
    page.wait_for_selector("tr.seat")
    assert page.input_value("select.seat-select") == "0"
    assert page.query_selector("select.seat-select option[value='']").is_disabled()
    frames = api(server, f"/api/matches/{unit_in_play['id']}/replay?seat=0")["frames"]
    step = len(frames) // 3
    page.click(f'.moves div[data-index="{step}"]')
    page.wait_for_selector(f'#viewer[data-step="{step}"]')
    view = frames[step]["view"]
    rows = page.query_selector_all("tr.seat")
    drawn = [[c.get_attribute("data-card") for c in row.query_selector_all("[data-card]")] for row in rows]
    assert drawn == [view["hand"]] + [view["seats"][k]["known"] for k in (1, 2, 3)]


def test_a_running_match_is_watched_as_it_is_played(page, server, league):
    db = Database(league[0])
    source = db["matches"].get(league[1]["tapa"])
    lines = replay_bytes(resolved_path(db, source["replay_path"])).decode().splitlines(keepends=True)[:-1]
    part = replay_folder(db) / db["units"].get(source["unit_id"])["league"] / ".live-two.jsonl.a1.part"
    part.write_text("".join(lines[:21]))
    db["matches"].insert({**source, "id": "live-two", "status": "running", "replay_path": None, "points": None,
                          "termination": None, "finished_at": None})
    try:
        page.goto(f"{server}/matches/live-two#step=20")
        page.wait_for_selector('#viewer[data-step="20"]')
        assert "live" in page.inner_text(".controls")
        part.write_text("".join(lines[:41]))  # twenty more steps played
        page.wait_for_selector('#viewer[data-step="40"]', timeout=10_000)  # followed without a reload
        assert len(page.query_selector_all(".moves div")) == 40
    finally:
        db["matches"].delete("live-two")
        part.unlink(missing_ok=True)


def test_no_request_leaves_the_server(page, server):
    assert page.requested and all(url.startswith(server) for url in page.requested), {
        url for url in page.requested if not url.startswith(server)}


def test_the_bracket_of_a_knockout(page, server):
    report = api(server, "/api/tournaments/cup")
    page.goto(f"{server}/tournaments/cup")
    page.wait_for_selector(".bracket .group")
    columns = page.query_selector_all(".bracket-round")
    assert len(columns) == len(report["rounds"])
    for column, rnd in zip(columns, report["rounds"]):
        boxes = column.query_selector_all(".group")
        assert [b.get_attribute("data-label") for b in boxes] == [g["label"] for g in rnd["groups"]]
        for box, group in zip(boxes, rnd["groups"]):
            seats = [s.inner_text() for s in box.query_selector_all(".seat a")]
            assert seats == group["seats"]
            assert [s.inner_text() for s in box.query_selector_all(".seat.winner a")] == [group["winner"]]
            assert [s.inner_text() for s in box.query_selector_all(".score")] == [f"{x:g}" for x in group["scores"]]
            assert box.query_selector("a[href^='/matches/']").get_attribute("href") == f"/matches/{group['matches'][0]['id']}"
    assert page.inner_text("strong.champion") == report["champion"]
    assert page.title() == "Tournament cup — Kafana"
    page.goto(f"{server}/arenas/tabla")
    page.wait_for_selector("ul.arena-tournaments")
    assert "cup" in page.inner_text("ul.arena-tournaments")


def test_a_bots_faults_chart(page, server, league):
    """A fault recorded against beta shows on its page as a bar of its day, with the API's count."""
    db = Database(league[0])
    beta = db.execute("select v.id from versions v join bots b on b.id = v.bot_id where b.name = 'beta'").fetchone()[0]
    match = next(m for m in db["matches"].rows_where("arena_id = 'tapa'") if beta in json.loads(m["seats"]))
    seat = json.loads(match["seats"]).index(beta)
    fault = [{"seat": seat, "kind": "timeout", "message": "no answer within the clock"}]
    db["matches"].update(match["id"], {"faults": json.dumps(fault)})
    with db.atomic():
        rebuild(db, "tapa")  # counted again, as the ladder counts a unit when it is stored
    try:
        charts = api(server, "/api/bots/beta/history")
        assert charts["faults"] == [[match["finished_at"][:10], 1]]
        page.goto(f"{server}/bots/beta")
        [[bar]] = chart_data(page, ".chart.faults")
        assert bar["x"] == [day for day, _ in charts["faults"]] and bar["y"] == [n for _, n in charts["faults"]]
    finally:
        db["matches"].update(match["id"], {"faults": match["faults"]})
        with db.atomic():
            rebuild(db, "tapa")
