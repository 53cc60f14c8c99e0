"""People's games against a club's bots, as the web records them and the service takes them: every refusal in one
line, one game at a time for each person, the person's seat by turns, a stopped service's games failed, and a
bot's page's list (people's games count in no rating: they are not matches)."""

from __future__ import annotations

import pytest

from ladder import people
from ladder.arenas import arena_for_game, arenas_for_game, ensure_arena
from ladder.authors import add_author, authenticate
from ladder.registry import copies_folder
from ladder.store import database_folder, now, open_store


@pytest.fixture
def club(tmp_path):
    db = open_store(tmp_path / "club.db")
    with db.atomic():
        for spec in (arena_for_game("tapa"), arenas_for_game("durak")[1], arena_for_game("gaps")):
            ensure_arena(db, spec)
        for index, name in enumerate(("rando", "other")):
            bot = db["bots"].insert({"name": name, "created_at": now(), "retired": 0}).last_pk
            (copies_folder(db) / name).mkdir(parents=True)
            version = db["versions"].insert(
                {"bot_id": bot, "number": 1, "version": "1", "hash": f"h{index}", "path": f"{copies_folder(db).name}/{name}",
                 "language": "python", "author": "", "games": '["tapa", "durak", "gaps"]', "created_at": now()}
            ).last_pk
            for arena in ("tapa", "durak-4", "gaps"):
                db["entries"].insert({"arena_id": arena, "version_id": version, "joined_at": now()})
    return db


def test_refusals_say_why(club):
    ana = authenticate(club, add_author(club, "ana"))
    for arena, bot, why in (("chess", "rando", "no arena 'chess'"),
                            ("gaps", "rando", "gaps is played alone: there is no bot to play against"),
                            ("tapa", "nobody", "'nobody' is no active bot of the tapa arena")):
        with pytest.raises(people.ChallengeRefused) as refused:
            people.challenge(club, arena, bot, ana)
        assert str(refused.value) == why
    club["bots"].update(2, {"retired": 1})
    with pytest.raises(people.ChallengeRefused, match="'other' is no active bot"):
        people.challenge(club, "tapa", "other", ana)
    assert club["people_games"].count == 0


def test_one_game_at_a_time_a_person_and_seats_by_turns(club):
    ana = authenticate(club, add_author(club, "ana"))
    first, token = people.challenge(club, "tapa", "rando", ana)
    assert people.by_token(club, token)["id"] == first
    with pytest.raises(people.ChallengeRefused, match="you have a game waiting or being played"):
        people.challenge(club, "tapa", "rando", ana)
    visitor, _ = people.challenge(club, "tapa", "rando", None, "10.0.0.1")  # a visitor is someone else
    with pytest.raises(people.ChallengeRefused, match="you have a game waiting"):
        people.challenge(club, "durak-4", "rando", None, "10.0.0.1")
    taken = people.take_waiting(club, 1)
    assert [row["id"] for row in taken] == [first] and people.by_token(club, token)["status"] == "playing"
    people.finish(club, first, [2, 0], "mother", [], str(database_folder(club) / "r.jsonl"))
    assert people.by_token(club, token) is None  # its page is closed once the game is over
    second, _ = people.challenge(club, "tapa", "rando", ana)
    seats = {row["id"]: row["seat"] for row in club["people_games"].rows}
    assert (seats[first], seats[second], seats[visitor]) == (0, 1, 0)
    listed = people.of_bot(club, [1])
    assert [game["id"] for game in listed] == [second, visitor, first]
    assert listed[-1]["points"] == [2, 0] and listed[-1]["termination"] == "mother" and "token" not in listed[-1]
    assert people.one(club, first)["replay_path"] == "r.jsonl"


def test_the_club_takes_so_many_waiting_games_and_a_stopped_service_fails_its_own(club):
    for number in range(people.WAITING):
        people.challenge(club, "tapa", "rando", None, f"10.0.0.{number}")
    with pytest.raises(people.ChallengeRefused, match="the club is busy"):
        people.challenge(club, "tapa", "rando", None, "10.0.0.99")
    people.take_waiting(club, 2)
    assert people.sweep(club) == people.WAITING
    assert {row["status"] for row in club["people_games"].rows} == {"failed"}
    assert people.challenge(club, "tapa", "rando", None, "10.0.0.99")[0] > 0


def test_the_web_seats_visitors_only_when_the_club_says_so(club, tmp_path, monkeypatch):
    from starlette.testclient import TestClient

    from ladder.uploads import UploadLimits
    from ladder.web import challenges
    from ladder.web.app import make_app
    from ladder.web.club import Club

    path = tmp_path / "club.db"
    for visitors in (False, True):
        with TestClient(make_app(path, Club(path, UploadLimits(), visitors_play=visitors), cache_seconds=0)) as web:
            offer = web.get("/api/bots/rando/challenge").json()
            assert offer == {"arenas": ["durak-4", "tapa"], "signed_in": False, "visitors": visitors}
            asked = web.post("/api/challenges", json={"bot": "rando", "arena": "tapa"})
            if not visitors:
                assert asked.status_code == 401 and "does not seat visitors" in asked.json()["error"]
                continue
            assert asked.status_code == 200 and asked.json()["url"].startswith("/play/")
            page = web.get(asked.json()["url"])
            assert page.status_code == 200 and "play.js" in page.text
            assert web.get("/play/not-a-token").status_code == 404
            monkeypatch.setattr(challenges, "START_WAIT", 0.3)  # no service plays it here: its referee never serves
            for waited in (web.get(f"{asked.json()['url']}/events"),
                           web.post(f"{asked.json()['url']}/move", json={"decision": 0, "action": 0})):
                assert waited.status_code == 503 and "the game is starting" in waited.json()["error"]
    [game] = list(club["people_games"].rows)
    assert game["person"] == people.VISITOR and game["address"] == "testclient" and game["author_id"] is None


async def test_a_game_that_cannot_be_played_is_recorded_failed_saying_why(club, tmp_path):
    from ladder.challenges import play_one

    path = tmp_path / "club.db"
    first, _ = people.challenge(club, "tapa", "rando", None, "10.0.0.1")
    club["versions"].update(2, {"path": str(tmp_path / "elsewhere")})
    second, _ = people.challenge(club, "tapa", "other", None, "10.0.0.2")
    for row in people.take_waiting(club, 2):
        await play_one(club, path, row, "off")
    failed = {row["id"]: row for row in club["people_games"].rows}
    assert failed[first]["status"] == "failed"  # its copy holds no bot: the referee says so, in its own words
    assert failed[first]["message"].startswith("the referee stopped: Error: ") and "bot.toml" in failed[first]["message"]
    assert failed[second]["status"] == "failed" and failed[second]["message"].startswith("bots missing: other v1")
