"""Authors and their tokens: shown once, kept hashed, checked in one hash, revoked, rotated, banned."""

from __future__ import annotations

import pytest

from ladder.authors import AuthorError, add_author, authenticate, revoke_token, rotate_token, set_banned
from ladder.store import now, open_store


@pytest.fixture
def db(tmp_path):
    return open_store(tmp_path / "l.db")


def test_a_token_is_shown_once_and_kept_hashed(db):
    token = add_author(db, "ana")
    author = authenticate(db, token)
    assert author is not None and author.name == "ana"
    row = next(db["authors"].rows)
    assert token.split("_", 2)[2] not in str(row) and len(row["token_hash"]) == 64 and row["token_salt"]


@pytest.mark.parametrize("wrong", ["", "kf_1_", "kf_x_abc", "kf_99_abc", "nope", "kf_1_wrong-secret"])
def test_a_wrong_token_is_nobody(db, wrong):
    add_author(db, "ana")
    assert authenticate(db, wrong) is None


def test_rotate_and_revoke(db):
    old = add_author(db, "ana")
    new = rotate_token(db, "ana")
    assert authenticate(db, old) is None and authenticate(db, new).name == "ana"
    revoke_token(db, "ana")
    assert authenticate(db, new) is None


def test_a_banned_author_is_nobody_and_its_bots_stop(db):
    token = add_author(db, "ana")
    author_id = authenticate(db, token).id
    db["bots"].insert({"name": "b", "created_at": now(), "retired": 0, "author_id": author_id})
    set_banned(db, "ana", True)
    assert authenticate(db, token) is None and next(db["bots"].rows)["retired"] == 1
    set_banned(db, "ana", False)
    assert authenticate(db, token).name == "ana"


@pytest.mark.parametrize("name", ["ana", "a/b", ""])
def test_names_are_checked(db, name):
    add_author(db, "ana")
    with pytest.raises(AuthorError):
        add_author(db, name)
    with pytest.raises(AuthorError, match="no author named"):
        rotate_token(db, "nobody")
