"""A league that survives its operators: one writer per database, paths that travel with the database, inputs
checked before any match, failures said where they happen, and one line (never a traceback) for every mistake."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.cli import main
from ladder.store import open_store
from ladder.writer import DatabaseBusy, hold_database
from tests.runtime.hostile import processes_in

from ._fakes import random_bot_folder
from .test_league import results

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = [sys.executable, "-m", "tests.ladder._league_script"]
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def ladder(*args: object, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ladder.cli", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)


def one_line_error(done: subprocess.CompletedProcess | object, code: int) -> str:
    """The error line of a command that failed with ``code``: exactly one line on stderr, no traceback."""
    process = isinstance(done, subprocess.CompletedProcess)
    code_seen, said = (done.returncode, done.stderr) if process else (done.exit_code, done.stderr)
    assert code_seen == code and "Traceback" not in said, (code_seen, said)
    lines = said.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), said
    return lines[0]


def test_a_second_writer_is_refused_at_once_naming_the_holder(tmp_path):
    db = tmp_path / "l.db"
    with hold_database(db, "ladder league --arena tapa"):
        with pytest.raises(DatabaseBusy, match=rf"l.db is in use by ladder league --arena tapa \(pid {os.getpid()} on "):
            with hold_database(db, "ladder demo"):
                pass
    with hold_database(db, "ladder demo"):  # released when its holder ends
        pass


def test_a_dead_holder_releases_the_database(tmp_path):
    db = tmp_path / "l.db"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from ladder.writer import hold_database\n"
         "with hold_database(sys.argv[1], 'a holder'):\n    print('held', flush=True); time.sleep(60)", str(db)],
        stdout=subprocess.PIPE, text=True, env=ENV,
    )
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(DatabaseBusy, match="in use by a holder"):
        with hold_database(db, "me"):
            pass
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    with hold_database(db, "me"):
        pass


def test_two_leagues_started_together_never_both_play(tmp_path):
    """Twenty times: two runs of one league on one database started together. One plays, the other refuses at
    once; the results equal a single run's, and every match is stored once."""
    reference = tmp_path / "reference.db"
    subprocess.run([*SCRIPT, str(reference), "1"], check=True, cwd=ROOT, env=ENV, timeout=120)
    expected = results(open_store(reference))
    for attempt in range(20):
        db = tmp_path / f"twice-{attempt}.db"
        runs = [subprocess.Popen([*SCRIPT, str(db), "1"], cwd=ROOT, env=ENV, stderr=subprocess.PIPE, text=True)
                for _ in range(2)]
        codes = sorted(run.wait(timeout=120) for run in runs)
        refusals = [run.stderr.read() for run in runs if run.returncode == 2]
        assert codes == [0, 2] and "is in use by the league script (pid" in refusals[0], (attempt, codes, refusals)
        assert results(open_store(db)) == expected


def test_the_ladder_refuses_a_busy_database(tmp_path):
    runner = CliRunner()
    assert runner.invoke(main, ["submit", str(random_bot_folder(tmp_path, "a")), "--db", str(tmp_path / "l.db"),
                                "--sandbox", "auto"]).exit_code == 0
    with hold_database(tmp_path / "l.db", "ladder league --arena tapa"):
        for command in (["league", "--arena", "tapa"], ["demo"], ["duel", "a", "a", "--arena", "tapa"]):
            line = one_line_error(runner.invoke(main, [*command, "--db", str(tmp_path / "l.db")]), 2)
            assert "is in use by ladder league --arena tapa (pid" in line, command


def _hold_write_lock(db: Path, seconds: float) -> subprocess.Popen:
    """Another process that holds ``db``'s write lock for ``seconds`` (it prints a line once it has it)."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sqlite3, sys, time\n"
         "c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN IMMEDIATE')\n"
         "print('held', flush=True); time.sleep(float(sys.argv[2])); c.execute('COMMIT')", str(db), str(seconds)],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_an_operator_command_waits_for_another_writer(tmp_path):
    db = tmp_path / "l.db"
    open_store(db).close()
    holder = _hold_write_lock(db, 3)
    started = time.monotonic()
    done = ladder("author", "add", "ana", "--db", db, cwd=tmp_path)
    assert done.returncode == 0 and "ana's token" in done.stdout, done.stderr
    assert time.monotonic() - started >= 2.5  # it waited for the lock, and then did its work
    holder.wait(timeout=10)


def test_a_lock_held_too_long_is_one_line_and_changes_nothing(tmp_path, monkeypatch):
    import ladder.store

    monkeypatch.setattr(ladder.store, "BUSY_SECONDS", 0.2)
    db = tmp_path / "l.db"
    open_store(db).close()
    holder = _hold_write_lock(db, 30)
    try:
        line = one_line_error(CliRunner().invoke(main, ["author", "add", "ana", "--db", str(db)]), 2)
        assert line == ("Error: the league database cannot be used: the database stayed locked by another writer "
                        "for 1.2 s (run the command again)")
    finally:
        holder.kill()
        holder.wait()
    assert open_store(db)["authors"].count == 0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["league", "--arena", "chess"], "no arena 'chess' (the arenas are "),
        (["league", "--arena", "durak-4"], "plays durak-4 yet: ladder submit one that does"),
        (["standings", "--arena", "nosuch"], "no arena 'nosuch'"),
        (["crosstable", "--arena", "nosuch"], "no arena 'nosuch'"),
    ],
)
def test_inputs_are_checked_before_any_match(tmp_path, args, words):
    runner = CliRunner()
    db = str(tmp_path / "l.db")
    assert runner.invoke(main, ["submit", str(random_bot_folder(tmp_path, "a")), "--db", db]).exit_code == 0
    assert words in one_line_error(runner.invoke(main, [*args, "--db", db]), 2)
    assert open_store(db)["matches"].count == 0


def test_a_bad_clock_is_a_usage_error_before_any_match(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "l.db")
    assert runner.invoke(main, ["submit", str(random_bot_folder(tmp_path, "a")), "--db", db]).exit_code == 0
    done = runner.invoke(main, ["league", "--arena", "tapa", "--clock", "banana", "--db", db])
    assert done.exit_code == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == ("Error: Invalid value for '--clock': bad clock 'banana': expected "
                                                    "BANK+INC or BANK+INC/CAP in seconds, e.g. 120+3/30")
    assert open_store(db)["matches"].count == 0


@pytest.mark.parametrize("command", [["standings"], ["bots"], ["crosstable", "--arena", "tapa"],
                                     ["league", "--arena", "tapa"], ["replay", "some-match"], ["serve"]])
def test_a_missing_database_is_not_made_up(tmp_path, command):
    line = one_line_error(CliRunner().invoke(main, [*command, "--db", str(tmp_path / "nope.db")]), 2)
    assert "no league database at" in line and not (tmp_path / "nope.db").exists()


@pytest.mark.parametrize("command", [["standings"], ["demo"], ["league", "--arena", "tapa"], ["serve"],
                                     ["submit", "BOT"]])
def test_a_file_that_is_not_a_database_is_refused_and_left_alone(tmp_path, command):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a league\n" * 200)
    command = [str(random_bot_folder(tmp_path, "a")) if word == "BOT" else word for word in command]
    files = sorted(tmp_path.iterdir())
    line = one_line_error(CliRunner().invoke(main, [*command, "--db", str(notes)]), 2)
    assert f"{notes} is not a league database" in line
    assert notes.read_text() == "not a league\n" * 200 and sorted(tmp_path.iterdir()) == files  # no -wal, no replays


def test_a_database_named_like_an_option_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = one_line_error(CliRunner().invoke(main, ["submit", str(random_bot_folder(tmp_path, "a")), "--db", "-q"]), 2)
    assert "'-q' looks like an option" in line and not (tmp_path / "-q").exists()


def test_a_league_moves_with_its_folder_and_runs_from_anywhere(tmp_path):
    """Made in one folder, moved whole, then used by absolute path from another working directory: every
    command works, and a league resumes with more rounds."""
    made = tmp_path / "made"
    made.mkdir()
    for name in ("a", "b"):
        assert ladder("submit", random_bot_folder(made, name), "--db", "club.db", cwd=made).returncode == 0
    assert ladder("league", "--arena", "tapa", "--db", "club.db", cwd=made).returncode == 0
    moved = tmp_path / "moved"
    made.rename(moved)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    db = moved / "club.db"
    standings = ladder("standings", "--json", "--db", db, cwd=elsewhere)
    assert standings.returncode == 0 and sum(s["games"] for s in json.loads(standings.stdout)["tapa"]) == 4
    match = open_store(db).execute("select id from matches limit 1").fetchone()[0]
    shown = ladder("replay", match, "--db", db, cwd=elsewhere)
    assert shown.returncode == 0 and "result:" in shown.stdout
    more = ladder("league", "--arena", "tapa", "--rounds", "2", "--db", db, cwd=elsewhere)
    assert more.returncode == 0, more.stderr
    assert "2/2 matches done, 0 running, 0 faults, 0 errors" in more.stderr
    assert sum(s["games"] for s in json.loads(ladder("standings", "--json", "--db", db, cwd=elsewhere).stdout)["tapa"]) == 8


def test_a_failed_match_is_said_where_it_happens_and_fails_the_command(tmp_path):
    for name in ("a", "b"):
        assert ladder("submit", random_bot_folder(tmp_path, name), "--db", "l.db", cwd=tmp_path).returncode == 0
    stored = next(p for p in (tmp_path / "l-bots").iterdir() if p.is_dir())
    (stored / "bot.toml").unlink()  # the ladder's copy of a bot broken behind its back
    done = ladder("league", "--arena", "tapa", "--db", "l.db", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "tapa: FAILED tapa-round-robin-tapa-r0-" in done.stderr and "has no bot.toml" in done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "Error: 2 match(es) could not be played (reasons above; -v shows each whole error)"
    )


def test_ctrl_c_stops_a_league_cleanly(tmp_path):
    for name in ("a", "b"):
        assert ladder("submit", random_bot_folder(tmp_path, name), "--db", "l.db", cwd=tmp_path).returncode == 0
    league = subprocess.Popen([sys.executable, "-m", "ladder.cli", "league", "--arena", "tapa", "--rounds", "20",
                               "--db", "l.db"], cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    db = open_store(tmp_path / "l.db")
    deadline = time.monotonic() + 60
    while not db.execute("select count(*) from matches where status = 'running'").fetchone()[0]:
        assert time.monotonic() < deadline and league.poll() is None
        time.sleep(0.1)
    league.send_signal(signal.SIGINT)
    assert league.wait(timeout=30) == 130
    said = league.stderr.read()
    assert "Traceback" not in said and said.strip().splitlines()[-1].startswith("interrupted: ")
    assert db.execute("select count(*) from matches where status = 'running'").fetchone()[0] == 0
    time.sleep(1)
    assert processes_in(tmp_path) == []


def test_serve_on_a_busy_port_says_so(tmp_path):
    CliRunner().invoke(main, ["submit", str(random_bot_folder(tmp_path, "a")), "--db", str(tmp_path / "l.db")])
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        line = one_line_error(ladder("serve", "--db", tmp_path / "l.db", "--port", port, cwd=tmp_path), 1)
    assert f"cannot serve on 127.0.0.1:{port}: Address already in use" in line


def test_the_copy_is_made_once_and_kept_beside_the_database(tmp_path):
    bot = random_bot_folder(tmp_path, "a")
    shutil.copytree(bot, tmp_path / "twin")
    for folder in (bot, tmp_path / "twin"):
        assert ladder("submit", folder, "--db", "l.db", cwd=tmp_path).returncode == 0
    assert len([p for p in (tmp_path / "l-bots").iterdir() if p.is_dir()]) == 1  # one content, one copy
