"""``ladder replay``: a match's replay in the terminal (whole, from a game, as a seat, stepped interactively) and
``--export``."""

from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from sqlite_utils import Database

from ladder.cli import main


def run(*args):
    return CliRunner().invoke(main, ["replay", *map(str, args)])


def test_whole_replay_from_a_game_and_as_a_seat(league):
    db, ids = league
    whole = run(ids["tapa"], "--db", db)
    assert whole.exit_code == 0 and whole.output.count("seat 0 plays") > 10 and "result:" in whole.output
    assert "\npins: o2+x = an x checker pinned under 2 o's" in whole.output  # a Tapa game pins: the legend says so
    assert "\n  x:  (12) (11) (10)" in whole.output  # the opponent's numbering beside ours
    second = run(ids["tabla-match"], "--db", db, "--game", "2")
    assert second.exit_code == 0 and "game 1 (tabla)" not in second.output.split("result:")[0].splitlines()[0]
    assert run(ids["tabla-match"], "--db", db, "--game", "99").exit_code == 2
    seat = run(ids["durak-4"], "--db", db, "--as-seat", "1")
    assert seat.exit_code == 0 and "seen by seat 1" in seat.output and "the deal" not in seat.output
    spectator = run(ids["durak-4"], "--db", db)
    assert "seen by the spectator" in spectator.output and "\nthe deal: 36 cards\n" in spectator.output
    gapa = run(ids["gapa"], "--db", db)  # two 52-card decks: one summary line, not a line of 104 cards
    assert "\nthe deal: 104 cards\n" in gapa.output and max(map(len, gapa.output.splitlines())) < 200
    assert run(ids["durak-4"], "--db", db, "--as-seat", "9").exit_code == 2


def test_export_and_unknown_matches(league, tmp_path):
    db, ids = league
    target = tmp_path / "shared.jsonl"
    assert run(ids["tapa"], "--db", db, "--export", target).exit_code == 0
    row = next(Database(db)["matches"].rows_where("id = ?", [ids["tapa"]]))
    stored = (Path(db).parent / row["replay_path"]).read_bytes()
    assert row["replay_path"].endswith(".jsonl.gz") and target.read_bytes() == gzip.decompress(stored)
    assert hashlib.sha256(target.read_bytes()).hexdigest() == row["replay_hash"]
    assert run("no-such-match", "--db", db).exit_code == 2
    assert run(ids["tapa"], "--db", tmp_path / "missing.db").exit_code == 2
    nowhere = run(ids["tapa"], "--db", db, "--export", tmp_path / "no" / "such" / "dir" / "x.jsonl")
    assert nowhere.exit_code == 1 and nowhere.output.startswith("Error: cannot write") and "Traceback" not in nowhere.output


def test_interactive_stepping_in_a_terminal(league):
    """On a terminal: Enter steps, a number jumps, b goes back, q quits."""
    db, ids = league
    controller, terminal = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "ladder.cli", "replay", ids["tapa"], "--db", str(db)],
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    os.close(terminal)
    os.write(controller, b"\n5\nb\nq\n")
    output = process.communicate(timeout=60)[0].decode()
    os.close(controller)
    assert process.returncode == 0
    shown = [int(line[1:].split("/")[0]) for line in output.splitlines() if line.startswith("[")]
    assert shown == [0, 1, 5, 4]
