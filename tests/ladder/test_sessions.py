"""Sign-in sessions of a club ladder's web: only from the site's own page, over when idle or old, ended by a
rotated or revoked token and by a ban; wrong tokens throttled with 429 and Retry-After; every answer with the
headers that keep the pages from being framed or fed scripts of another site."""

from __future__ import annotations

import datetime

import pytest
from starlette.testclient import TestClient

from ladder.authors import SESSION_IDLE, SESSION_LIFETIME, add_author, revoke_token, rotate_token, set_banned
from ladder.store import open_store
from ladder.uploads import UploadLimits
from ladder.web import make_app
from ladder.web.club import Club
from ladder.web.throttle import PER_ADDRESS, PER_AUTHOR, WINDOW, Throttle

SITE = "http://testserver"


@pytest.fixture
def club(tmp_path):
    """(a test client of a club ladder's web, the database, ana's token)."""
    path = tmp_path / "club.db"
    db = open_store(path)
    token = add_author(db, "ana")
    app = make_app(path, Club(path, UploadLimits()), cache_seconds=0)
    with TestClient(app, base_url=SITE) as client:
        yield client, db, token


def sign_in(client: TestClient, token: str, **headers: str):
    return client.post("/api/signin", json={"token": token}, headers=headers)


def test_a_sign_in_from_the_sites_own_page_opens_a_session(club):
    client, _, token = club
    answer = sign_in(client, token, origin=SITE)
    assert answer.status_code == 200 and answer.json()["author"] == "ana"
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Secure" not in cookie
    assert client.get("/api/me").json()["author"] == "ana"


@pytest.mark.parametrize(
    ("body", "headers", "status", "words"),
    [
        ("token=kf_1_x", {"content-type": "application/x-www-form-urlencoded"}, 415, "sign in with JSON"),
        ('{"token": "kf_1_x"}', {"content-type": "text/plain"}, 415, "sign in with JSON"),
        ('{"token": "TOKEN"}', {"content-type": "application/json", "origin": "https://evil.example"}, 403,
         "a sign-in from another site (https://evil.example) is refused"),
    ],
)
def test_a_cross_site_sign_in_is_refused(club, body, headers, status, words):
    """A form of another site can post form-encoded and text/plain bodies; a script of another site can post JSON
    only with its Origin: none of them signs the visitor in."""
    client, _, token = club
    answer = client.post("/api/signin", content=body.replace("TOKEN", token), headers=headers)
    assert answer.status_code == status and words in answer.json()["error"]
    assert "set-cookie" not in answer.headers


def test_behind_tls_the_cookie_is_secure_and_the_proxy_names_the_client(tmp_path):
    path = tmp_path / "club.db"
    token = add_author(open_store(path), "ana")
    app = make_app(path, Club(path, UploadLimits(), behind_tls=True), behind_tls=True)
    with TestClient(app, base_url="https://club.example") as client:
        for _ in range(PER_ADDRESS):
            sign_in(client, "kf_x_wrong", **{"x-forwarded-for": "203.0.113.7"})
        assert sign_in(client, "kf_x_wrong", **{"x-forwarded-for": "203.0.113.7"}).status_code == 429
        answer = sign_in(client, token, origin="https://club.example", **{"x-forwarded-for": "198.51.100.2"})
        assert answer.status_code == 200 and "Secure" in answer.headers["set-cookie"]


@pytest.mark.parametrize("end", ["rotate", "revoke", "ban and unban"])
def test_a_new_token_or_a_ban_signs_every_session_out(club, end):
    client, db, token = club
    assert sign_in(client, token).status_code == 200
    if end == "rotate":
        rotate_token(db, "ana")
    elif end == "revoke":
        revoke_token(db, "ana")
    else:
        set_banned(db, "ana", True)
        set_banned(db, "ana", False)
    assert client.get("/api/me").status_code == 401
    assert db["sessions"].count == 0


@pytest.mark.parametrize(("column", "age"), [("created_at", SESSION_LIFETIME), ("seen_at", SESSION_IDLE)])
def test_a_session_ends_when_old_or_idle(club, column, age):
    client, db, token = club
    assert sign_in(client, token).status_code == 200
    then = datetime.datetime.now(datetime.timezone.utc) - age - datetime.timedelta(minutes=1)
    db.execute(f"update sessions set {column} = ?", [then.isoformat(timespec="seconds")])
    db.conn.commit()
    assert client.get("/api/me").status_code == 401
    assert db["sessions"].count == 0


def test_a_session_in_use_stays_and_says_when_it_was_used(club):
    client, db, token = club
    assert sign_in(client, token).status_code == 200
    then = datetime.datetime.now(datetime.timezone.utc) - SESSION_IDLE + datetime.timedelta(minutes=10)
    db.execute("update sessions set seen_at = ?", [then.isoformat(timespec="seconds")])
    db.conn.commit()
    assert client.get("/api/me").status_code == 200
    seen = datetime.datetime.fromisoformat(next(db["sessions"].rows)["seen_at"])
    assert datetime.datetime.now(datetime.timezone.utc) - seen < datetime.timedelta(minutes=1)


def test_wrong_tokens_of_one_author_are_throttled(club):
    client, _, token = club
    author = token.split("_")[1]
    for _ in range(PER_AUTHOR):
        assert sign_in(client, f"kf_{author}_wrong").status_code == 401
    throttled = sign_in(client, token)  # the right token waits too: its author's tokens are being guessed
    assert throttled.status_code == 429 and 0 < int(throttled.headers["retry-after"]) <= WINDOW
    assert "too many wrong tokens" in throttled.json()["error"]
    bearer = client.post("/api/uploads", content=b"x", headers={"authorization": f"Bearer kf_{author}_wrong"})
    assert bearer.status_code == 429 and bearer.headers["retry-after"]
    assert sign_in(client, "kf_999_other").status_code == 401  # another author's: the address is not yet at its limit


def test_wrong_tokens_from_one_address_are_throttled(club):
    client, _, token = club
    for author in range(PER_ADDRESS):
        assert sign_in(client, f"kf_{100 + author}_wrong").status_code == 401
    assert sign_in(client, token).status_code == 429


def test_the_throttle_forgets_after_its_window():
    now = [0.0]
    throttle = Throttle(clock=lambda: now[0])
    keys = Throttle.keys("192.0.2.1", "kf_7_guess")
    assert keys == [("address", "192.0.2.1"), ("author", "7")]
    for _ in range(PER_AUTHOR):
        throttle.failed(keys)
        now[0] += 1
    assert throttle.wait(keys) == WINDOW - PER_AUTHOR
    assert throttle.wait(Throttle.keys("192.0.2.1", "kf_8_x")) == 0
    now[0] = WINDOW + 0.5
    assert throttle.wait(keys) == 0


@pytest.mark.parametrize("path", ["/", "/api/arenas", "/static/app.js", "/api/me", "/nowhere"])
def test_every_answer_forbids_framing_and_foreign_scripts(club, path):
    client, _, _ = club
    headers = client.get(path).headers
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert headers["x-frame-options"] == "DENY" and headers["x-content-type-options"] == "nosniff"
