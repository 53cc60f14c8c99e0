"""The ``ladder`` command line against a real league of real bot processes."""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from ladder.cli import main
from ladder.demo import ARENAS
from ladder.store import open_store
from referee.replay import read_replay, verify

from ._fakes import random_bot_folder

ROOT = Path(__file__).resolve().parents[2]
RANDOM = str(ROOT / "bots" / "python" / "random_bot.py")


def test_every_command_has_help_with_an_example():
    runner = CliRunner()
    assert "Example:" in runner.invoke(main, ["-h"]).output
    for name, command in main.commands.items():
        assert isinstance(command, click.Command)
        if command.hidden:  # started by another command, not by people
            continue
        result = runner.invoke(main, [name, "--help"])
        assert result.exit_code == 0 and "Example:" in result.output, name


def test_submit_league_standings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    folder = random_bot_folder(tmp_path, "tapa-random")
    other = random_bot_folder(tmp_path, "second", extra="# another bot\n")
    for path in (folder, other):
        result = runner.invoke(main, ["submit", str(path), "--db", "l.db"])
        assert result.exit_code == 0, result.output
    assert "second" in runner.invoke(main, ["bots", "--db", "l.db"]).output
    listed = json.loads(runner.invoke(main, ["bots", "--db", "l.db", "--json"]).output)
    copy = tmp_path / "l-bots"  # each version's copy holds its manifest and bot.py: the disk shown is theirs
    assert {row["disk_bytes"] for row in listed} == {
        sum(f.stat().st_size for f in folder.iterdir()) for folder in copy.iterdir() if folder.is_dir()}
    result = runner.invoke(main, ["league", "--arena", "tapa", "--rounds", "1", "--db", "l.db"])
    assert result.exit_code == 0, result.output
    standings = json.loads(runner.invoke(main, ["standings", "--json", "--db", "l.db"]).output)
    assert sum(s["games"] for s in standings["tapa"]) == 4
    cross = runner.invoke(main, ["crosstable", "--arena", "tapa", "--db", "l.db"]).output
    assert cross.count("/2") == 2 and "tapa-random v1" in cross
    replays = list((tmp_path / "l-replays").rglob("*.jsonl.gz"))  # stored compressed, verified as they are
    assert len(replays) == 2 and not list((tmp_path / "l-replays").rglob("*.jsonl"))
    assert all(verify(read_replay(replay)) == [] for replay in replays)
    duel = runner.invoke(main, ["duel", "tapa-random", "second", "--arena", "tapa", "--max-units", "2", "--db", "l.db"])
    assert duel.exit_code == 0 and "undecided after 4 matches" in duel.output, duel.output
    assert runner.invoke(main, ["retire", "second", "--db", "l.db"]).exit_code == 0
    assert runner.invoke(main, ["retire", "nobody", "--db", "l.db"]).exit_code == 1


def test_usage_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["league", "--arena", "durak-2", "--db", "x.db"]).exit_code == 2
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "bot.toml").write_text("name = ")
    result = runner.invoke(main, ["submit", str(broken), "--db", "x.db"])
    assert result.exit_code == 1 and "not valid TOML" in result.output


@pytest.mark.timeout(900)  # the whole demo league: about four minutes alone on two cores, more on a slower machine
def test_demo_plays_every_arena_and_its_hints_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["demo"])
    assert result.exit_code == 0, result.output
    db = open_store(tmp_path / "kafana-demo.db")
    for arena in ARENAS:
        assert f"\n{arena}\n" in result.output
        assert db["matches"].count_where("arena_id = ? and status = 'done'", [arena]) >= 1, arena
    starts = [line for line in result.output.splitlines() if ": 0/" in line]
    assert starts and not any("left" in line for line in starts)  # no time left is guessed before a match ends
    hints = result.output.split("The demo took", 1)[1].splitlines()[1:]
    commands = [line.split(":", 1)[-1].split("   (")[0].strip() for line in hints if line.strip()]
    # by full path, or bare when the environment's tools are on PATH (an activated environment)
    assert len(commands) == 4 and all(Path(c.split()[0]).name in ("referee", "ladder") for c in commands), hints
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for command in commands:  # pasted into a shell anywhere
        if " serve " in command:
            served = subprocess.Popen([*shlex.split(command), "--port", "0"], cwd=elsewhere, stdout=subprocess.PIPE,
                                      text=True)
            assert "Kafana league" in served.stdout.readline()
            served.terminate()
            served.wait(timeout=10)
            continue
        done = subprocess.run(shlex.split(command), cwd=elsewhere, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and done.stdout, (command, done.stderr)
    # a tournament on the demo's database: the bracket of its Tabla bots (single games: quicker than matches)
    cup = CliRunner().invoke(main, ["tournament", "--format", "knockout", "--arena", "tabla", "--db", "kafana-demo.db"])
    assert cup.exit_code == 0, cup.output
    bracket = cup.output.split("knockout-tabla: knockout (single elimination) in tabla", 1)[1]
    assert bracket.startswith(", 5 entrants, done\nround 1\n")  # five bots in tabla: three rounds, byes
    assert "  byes: " in bracket.split("\nround 2\n")[0]
    assert "\nround 3\n" in bracket and "\nchampion: " in bracket


def test_an_arena_decision_limit_ends_its_games_as_draws(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for name in ("first", "second"):
        folder = random_bot_folder(tmp_path, name, extra=f"# {name}\n")
        assert runner.invoke(main, ["submit", str(folder), "--db", "l.db"]).exit_code == 0
    assert runner.invoke(main, ["arena", "limit", "tapa", "--db", "l.db"]).exit_code == 2  # how many?
    assert runner.invoke(main, ["arena", "pause", "tapa", "7", "--db", "l.db"]).exit_code == 2
    limited = runner.invoke(main, ["arena", "limit", "tapa", "5", "--db", "l.db"])
    assert limited.exit_code == 0 and "after 5 decisions" in limited.output
    result = runner.invoke(main, ["league", "--arena", "tapa", "--rounds", "1", "--db", "l.db"])
    assert result.exit_code == 0, result.output
    rows = list(open_store(tmp_path / "l.db").query("select termination, points, decisions from matches"))
    assert rows == [{"termination": "limit", "points": "[0, 0]", "decisions": 5}] * 2
