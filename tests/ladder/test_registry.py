"""Submitting good and broken bots (each broken kind with its own message), versions and retiring."""

from __future__ import annotations

from pathlib import Path

import pytest

from ladder.executor import LocalExecutor
from ladder.registry import current_versions, list_bots, retire, submit
from ladder.store import open_store, resolved_path

from ._fakes import random_bot_folder

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "runtime" / "bots"

@pytest.fixture
def store(tmp_path):
    path = tmp_path / "league.db"
    return open_store(path), path


async def test_good_bot_is_entered_and_versioned(store, tmp_path):
    db, path = store
    bot = random_bot_folder(tmp_path, "tiny")
    report = await submit(db, path, str(bot), LocalExecutor())
    assert report.accepted and report.number == 1, report.text()
    assert "ok   tapa: a full game against the random bot" in report.text()
    assert "ok   handshake" in report.text() and "ok   tapa: the largest request" in report.text()
    again = await submit(db, path, str(bot), LocalExecutor())
    assert again.accepted and again.number == 1 and "unchanged" in again.text()
    (bot / "bot.py").write_text((bot / "bot.py").read_text() + "# a change\n")
    changed = await submit(db, path, str(bot), LocalExecutor())
    assert changed.accepted and changed.number == 2
    rows = list_bots(db)
    assert [(r["name"], r["number"]) for r in rows] == [("tiny", 1), ("tiny", 2)]
    assert [v["number"] for v in current_versions(db, "tapa")] == [2]
    # The old version's code was kept apart from the folder that changed.
    first = db.execute("select path from versions where number = 1").fetchone()[0]
    assert not Path(first).is_absolute()  # kept beside the database, wherever it moves
    assert "a change" not in (resolved_path(db, first) / "bot.py").read_text()
    assert retire(db, "tiny") and current_versions(db, "tapa") == []
    assert not retire(db, "nobody")


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda tmp: _write(tmp / "b", {"bot.toml": "name = "}), "not valid TOML"),
        (lambda tmp: _write(tmp / "b", {"bot.toml": 'name = "x"\n'}), "missing required key 'command'"),
        (
            lambda tmp: random_bot_folder(tmp, "chess", '["chess"]'),
            "FAIL handshake: no_hello: bad Hello: Hello lists unknown game ids 'chess'",
        ),
        (lambda tmp: random_bot_folder(tmp, "mute", "[]"), "FAIL games: no games listed in Hello"),
        (lambda tmp: hostile(tmp, "crash_bot.py"), "the random bot: crash: exited with exit code 3"),
        (lambda tmp: hostile(tmp, "wrong_id_bot.py"), "the random bot: illegal_action"),
        (lambda tmp: hostile(tmp, "garbage_bot.py"), "the random bot: protocol_error"),
    ],
)
async def test_broken_bots_get_a_clear_report(store, tmp_path, make, words):
    db, path = store
    report = await submit(db, path, str(make(tmp_path)), LocalExecutor())
    assert not report.accepted
    assert words in report.text(), report.text()
    assert "not entered" in report.text()
    assert db["versions"].count == 0


async def test_a_bot_without_hello_is_reported(store, tmp_path):
    db, path = store
    report = await submit(db, path, str(hostile(tmp_path, "silent_bot.py")), LocalExecutor(), startup_timeout=1.0)
    assert not report.accepted and "FAIL handshake: no_hello:" in report.text() and "within 1s" in report.text()


def hostile(tmp: Path, name: str) -> Path:
    """A bot folder holding one of the misbehaving test bots (a single file would lose its helper module)."""
    return _write(
        tmp / name.removesuffix(".py"),
        {
            "bot.toml": f'name = "{name}"\ncommand = ["python3", "{name}"]\n',
            name: (HOSTILE / name).read_text(),
            "_common.py": (HOSTILE / "_common.py").read_text(),
        },
    )


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


async def test_compiled_bot_is_built_in_the_ladders_copy(store):
    """The Go starter is submitted without its build output; the ladder builds its stored copy, once."""
    db, path = store
    report = await submit(db, path, str(ROOT / "bots" / "go"), LocalExecutor())
    assert report.accepted, report.text()
    assert "ok   copied as the ladder keeps it" in report.text()
    assert "ok   build: make --silent: built when this copy was prepared" in report.text()
    stored = resolved_path(db, db.execute("select path from versions where id = ?", [report.version_id]).fetchone()[0])
    assert (stored / "build" / "random_bot").is_file()
    assert not (stored / "proto" / "kafana" / "v1" / "bot.proto").is_symlink()
