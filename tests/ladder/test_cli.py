"""The ``ladder`` command line against a real league of real bot processes."""

from __future__ import annotations

import json
from pathlib import Path

import click
from click.testing import CliRunner

from ladder.cli import main

from ._fakes import random_bot_folder

ROOT = Path(__file__).resolve().parents[2]
RANDOM = str(ROOT / "bots" / "python" / "random_bot.py")


def test_every_command_has_help_with_an_example():
    runner = CliRunner()
    assert "Example:" in runner.invoke(main, ["-h"]).output
    for name, command in main.commands.items():
        assert isinstance(command, click.Command)
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
    result = runner.invoke(main, ["league", "--arena", "tapa", "--rounds", "1", "--db", "l.db"])
    assert result.exit_code == 0, result.output
    standings = json.loads(runner.invoke(main, ["standings", "--json", "--db", "l.db"]).output)
    assert sum(s["games"] for s in standings["tapa"]) == 4
    cross = runner.invoke(main, ["crosstable", "--arena", "tapa", "--db", "l.db"]).output
    assert cross.count("/2") == 2 and "tapa-random v1" in cross
    replays = list((tmp_path / "l-replays").rglob("*.jsonl"))
    assert len(replays) == 2
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


def test_demo_runs_a_whole_league(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["demo"])
    assert result.exit_code == 0, result.output
    for arena in ("tabla-match", "tabla", "gjul-bara", "tapa", "durak-2", "gapa", "gaps"):
        assert f"\n{arena}\n" in result.output
    # three bots in four arenas, two in durak-2 and gapa, three in gaps (the Gaps search bot plays only there)
    assert result.output.count("v1 ") >= 14 + 2 + 3
    assert "Watch one:  referee show" in result.output and (tmp_path / "kafana-demo.db").exists()
