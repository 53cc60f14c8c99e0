"""The pages in headless Chromium (Debian's, driven by Playwright): step through a Tapa game, a Tabla match and a
4-seat Durak game and check what is drawn against the engine's views; a seat's view hides the others' cards.
Screenshots of the three viewers go to test-artifacts/ (not committed)."""

from __future__ import annotations

from pathlib import Path

import httpx
from sqlite_utils import Database

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


def frames_of(server, match_id, seat=None):
    query = "" if seat is None else f"?seat={seat}"
    return httpx.get(f"{server}/api/matches/{match_id}/replay{query}", timeout=60).json()["frames"]


def open_step(page, server, match_id, step, seat=None):
    page.goto(f"{server}/matches/{match_id}" + ("" if seat is None else f"?seat={seat}"))
    page.wait_for_selector(".moves div")
    page.click(f'.moves div[data-index="{step}"]')
    page.wait_for_selector(f'#viewer[data-step="{step}"]')


def drawn_points(page):
    return {
        int(point.get_attribute("data-point")): (
            int(point.get_attribute("data-mine")),
            int(point.get_attribute("data-theirs")),
            point.get_attribute("data-pin"),
        )
        for point in page.query_selector_all("g.point")
    }


def expected_points(view):
    pins = ["", "mine", "theirs"]
    return {p + 1: (view["mine"][p], view["theirs"][p], pins[view["pins"][p]]) for p in range(24)}


def test_tapa_board_with_pins(page, server, league):
    match_id = league[1]["tapa"]
    frames = frames_of(server, match_id)
    step = next(k for k, f in enumerate(frames) if any(f["view"]["pins"]) and k > 10)
    open_step(page, server, match_id, step)
    view = frames[step]["view"]
    assert drawn_points(page) == expected_points(view)
    assert len(page.query_selector_all("circle.pinned")) == sum(1 for pin in view["pins"] if pin)
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'#viewer[data-step="{step + 1}"]')
    assert drawn_points(page) == expected_points(frames[step + 1]["view"])
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "viewer-tapa.png"), full_page=True)


def test_tabla_match_score_and_games(page, server, league):
    match_id = league[1]["tabla-match"]
    frames = frames_of(server, match_id)
    step = len(frames) // 2
    open_step(page, server, match_id, step)
    view = frames[step]["view"]
    assert drawn_points(page) == expected_points(view)
    score = f"match {':'.join(map(str, view['match']['points']))} to {view['match']['target']}"
    assert score in page.text_content(".panel")
    assert len(page.query_selector_all("table.games tr")) >= 3  # header + at least two games of the match
    page.screenshot(path=str(ARTIFACTS / "viewer-tabla-match.png"), full_page=True)


def cards_in(element):
    return [node.get_attribute("data-card") for node in element.query_selector_all("[data-card]")]


def test_durak_table_spectator_and_seat(page, server, league):
    match_id = league[1]["durak-4"]
    frames = frames_of(server, match_id)
    step = next(k for k, f in enumerate(frames) if len(f["view"]["table"]) >= 2 and f["view"]["bout"] >= 3)
    open_step(page, server, match_id, step)
    view = frames[step]["view"]
    rows = page.query_selector_all("tr.seat")
    assert len(rows) == 4
    for number, row in enumerate(rows):
        assert cards_in(row) == view["hands"][number]
    on_table = [card for pair in view["table"] for card in pair if card]
    assert cards_in(page.query_selector(".table-cards")) == on_table
    page.screenshot(path=str(ARTIFACTS / "viewer-durak.png"), full_page=True)

    seat_frames = frames_of(server, match_id, seat=1)
    open_step(page, server, match_id, step, seat=1)
    seen = seat_frames[step]["view"]
    rows = page.query_selector_all("tr.seat")
    assert cards_in(rows[1]) == seen["hand"]
    for number in (0, 2, 3):
        seat = seen["seats"][number]
        assert cards_in(rows[number]) == seat["known"]
        hidden = rows[number].query_selector(".back")
        unknown = seat["hand_size"] - len(seat["known"])
        assert (int(hidden.get_attribute("data-hidden")) if hidden else 0) == unknown
    secret = set(view["hands"][0]) - set(seen["seats"][0]["known"])
    assert secret and not secret & set(cards_in(page.query_selector("#viewer")))
    assert page.query_selector("select.seat-select").input_value() == "1"


def test_gapa_table_spectator_and_seat(page, server, league):
    match_id = league[1]["gapa"]
    frames = frames_of(server, match_id)
    step = next(k for k, f in enumerate(frames) if f["type"] == "action" and f["view"]["players"][0]["pending"]
                and sum(len(pile) for pile in f["view"]["side"]) >= 10)
    open_step(page, server, match_id, step)
    view = frames[step]["view"]
    rows = page.query_selector_all("tr.seat")
    assert len(rows) == 2
    for number, row in enumerate(rows):
        p = view["players"][number]
        expected = p["small_up"] + (p["big_known"] or []) + p["big_up"] + ([p["pending"]] if p["pending"] else [])
        assert cards_in(row) == expected
    for number, pile in enumerate(view["side"]):
        assert cards_in(page.query_selector(f'.side-pile[data-pile="{number}"]')) == pile
    page.screenshot(path=str(ARTIFACTS / "viewer-gapa.png"), full_page=True)

    open_step(page, server, match_id, step, seat=1)
    secret = view["players"][0]["pending"]
    assert secret not in cards_in(page.query_selector_all("tr.seat")[0])
    assert page.query_selector_all("tr.seat")[0].query_selector(".back[data-hidden='1']")


def test_gaps_grid(page, server, league):
    match_id = league[1]["gaps"]
    frames = frames_of(server, match_id)
    step = next(k for k, f in enumerate(frames) if f["type"] == "action" and f["view"]["placed"] >= 1)
    open_step(page, server, match_id, step)
    view = frames[step]["view"]
    cells = page.query_selector_all(".gaps-grid td")
    assert [cell.get_attribute("data-place") for cell in cells] == [str(i) for i in range(len(view["grid"]))]
    assert [cards_in(cell)[0] if cards_in(cell) else "" for cell in cells] == view["grid"]
    assert len(page.query_selector_all(".gaps-grid td.placed")) == view["placed"] == sum(view["runs"])
    page.screenshot(path=str(ARTIFACTS / "viewer-gaps.png"), full_page=True)


def test_running_matches_appear_without_a_reload(page, server, league):
    db = Database(league[0])
    page.goto(f"{server}/matches?arena=tapa")
    page.wait_for_selector("table.matches")
    assert not page.query_selector('a[href="/matches/live-test"]')
    unit = db.execute("select id from units where arena_id = 'tapa' limit 1").fetchone()[0]
    db["matches"].insert(
        {"id": "live-test", "unit_id": unit, "arena_id": "tapa", "rotation": 9, "seed": 1, "seats": "[1, 2]",
         "status": "running", "started_at": "2026-12-01T00:00:00"}
    )
    try:
        page.wait_for_selector('a[href="/matches/live-test"]', timeout=15_000)
        assert page.inner_text('a[href="/matches/live-test"]') == "watch" and "running" in page.inner_text(".match-list")
    finally:
        db["matches"].delete("live-test")


def test_bar_and_borne_off_checkers(page, server, league):
    """The bar and the trays hold as many checkers as the view says (a Tabla game late in the match)."""
    match_id = league[1]["tabla-match"]
    frames = frames_of(server, match_id)
    step = next(k for k, f in enumerate(frames) if f["view"]["my_off"])
    open_step(page, server, match_id, step)
    view = frames[step]["view"]
    off = page.query_selector("g.off")
    assert int(off.get_attribute("data-mine")) == view["my_off"]
    assert len(off.query_selector_all("rect.checker.mine")) == view["my_off"]
    assert len(off.query_selector_all("rect.checker.theirs")) == view["their_off"]
    hit = next(k for k, f in enumerate(frames) if f["view"].get("my_bar") or f["view"].get("their_bar"))
    open_step(page, server, match_id, hit)
    bar = page.query_selector("g.bar")
    seen = frames[hit]["view"]
    assert len(bar.query_selector_all("circle.mine")) == min(seen["my_bar"], 4)
    assert len(bar.query_selector_all("circle.theirs")) == min(seen["their_bar"], 4)


def test_the_viewer_shows_each_play_judged_as_the_analysis_says(page, server, league):
    """"judge every play" marks each judged play in the move list with its error as the analysis answer gives it
    (which is ``referee analyse --json``'s, tests/web/test_api.py), and on a play worse than the best draws the board
    after the best play on demand."""
    match_id = league[1]["tapa"]
    analysis = httpx.get(f"{server}/api/matches/{match_id}/analysis", timeout=120).json()
    open_step(page, server, match_id, 1)
    page.click("button.analyse")
    page.wait_for_selector(".moves .judgement", timeout=120_000)
    for decision in analysis["decisions"]:
        line = page.text_content(f'.moves div[data-index="{decision["step"]}"] .judgement').strip()
        error = f'error {100 * decision["error"]:.1f}' if decision["error"] > 0 else "the best play"
        assert line == f'{error} {decision["mark"]}'.strip() if decision["error"] > 0 else line == error
    summary = page.text_content(".analysis .summary")
    assert all(f'{seat["blunders"]} blunder' in summary for seat in analysis["seats"])
    worse = next(d for d in analysis["decisions"] if d["error"] > 0)
    page.click(f'.moves div[data-index="{worse["step"]}"]')
    page.wait_for_selector(f'#viewer[data-step="{worse["step"]}"]')
    assert f'best {worse["best"]}' in page.text_content(".stage .judgement")
    assert drawn_points(page) == expected_points(frames_of(server, match_id)[worse["step"]]["view"])
    page.click("button.best-toggle")
    page.wait_for_selector("text=show the play made")
    assert drawn_points(page) == expected_points(worse["best_view"])
    page.screenshot(path=str(ARTIFACTS / "viewer-analysis.png"), full_page=True)
