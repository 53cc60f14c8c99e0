"""People play a club's bots: on a real ``ladder serve --play``, a signed-in author opens a bot's page in headless
Chromium, chooses the arena, plays the game on the seat's page (the club's web passes it on to the game's referee),
and finds it on the bot's page, played by people, with a replay that verifies; it counts in no rating. A visitor
who is not signed in is refused one line, a challenge of a bot in no such arena too."""

from __future__ import annotations

import re

import httpx
from sqlite_utils import Database

from ladder.store import resolved_path
from referee.replay import read_replay, verify
from tests.ladder._fakes import random_bot_folder
from tests.ladder.test_service import Service, author, free_port, ladder
from tests.runtime.hostile import wait_for

from .test_human_seat import check, play_through


def test_an_author_plays_a_bot_from_its_page(browser, tmp_path):
    db_path = tmp_path / "club.db"
    token = author(db_path, "ana")
    folder = random_bot_folder(tmp_path, "rando", '["tapa"]')
    folder.chmod(0o755)
    submitted = ladder("submit", folder, "--db", db_path, "--sandbox", "auto", cwd=tmp_path)
    assert submitted.returncode == 0, submitted.stdout + submitted.stderr
    service = Service(db_path, free_port())
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        refused = httpx.post(f"{service.url}/api/challenges", json={"bot": "rando", "arena": "tapa"}, timeout=10)
        assert refused.status_code == 401 and "needs a sign-in" in refused.json()["error"]
        bearer = {"authorization": f"Bearer {token}"}
        nowhere = httpx.post(f"{service.url}/api/challenges", json={"bot": "rando", "arena": "chess"},
                             headers=bearer, timeout=30)
        assert nowhere.status_code == 409 and nowhere.json()["error"] == "no arena 'chess'"
        malformed = httpx.post(f"{service.url}/api/challenges", content=b"[]", headers=bearer, timeout=30)
        assert malformed.status_code == 400 and malformed.json()["error"].startswith("a challenge is JSON")
        page.goto(f"{service.url}/signin")
        page.fill("input[name=token]", token)
        page.click("form.signin button")
        page.wait_for_url(re.compile(r".*/me$"))
        page.goto(f"{service.url}/bots/rando")
        page.select_option(".challenge select", "tapa")
        page.click("button.play-bot")
        page.wait_for_url(re.compile(r".*/play/[\w-]+$"), timeout=30_000)
        received, made = play_through(page, None, seed=5)
        assert made["board"] > 0
        db = Database(db_path)
        assert wait_for(lambda: db.execute("select status from people_games").fetchone()[0] != "playing", 30)
        [game] = list(db.query("select * from people_games"))
        assert game["status"] == "done" and game["person"] == "ana" and game["seat"] == 0, game
        replay = resolved_path(db, game["replay_path"])
        check(replay, received, seat=0)
        assert verify(read_replay(replay)) == []
        assert httpx.get(f"{service.url}/api/arenas/tapa/standings", timeout=10).json() == []  # rated: nobody
        assert db.execute("select count(*) from matches").fetchone()[0] == 0
        page.goto(f"{service.url}/bots/rando")
        page.click(f'table.people a[href="/people/{game["id"]}"]')
        page.wait_for_selector("#viewer .moves div")
        frames = httpx.get(f"{service.url}/api/people/{game['id']}/replay", timeout=10).json()["frames"]
        assert page.locator("#viewer .moves div").count() == len(frames) - 1
    finally:
        page.close()
        assert service.stop() == 130  # SIGTERM: stopped cleanly, as Ctrl-C
