"""The ``referee`` command line: help everywhere, play, verify, show, and clean usage errors."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import click
from click.testing import CliRunner

from referee.cli import main

ROOT = Path(__file__).resolve().parents[1]
RANDOM = str(ROOT / "bots" / "python" / "random_bot.py")
HEURISTIC = str(ROOT / "bots" / "python" / "heuristic_bot.py")


def test_every_command_has_help_with_an_example():
    runner = CliRunner()
    result = runner.invoke(main, ["-h"])
    assert result.exit_code == 0 and "Example:" in result.output
    for name, command in main.commands.items():
        assert isinstance(command, click.Command)
        result = runner.invoke(main, [name, "--help"])
        assert result.exit_code == 0 and "Example:" in result.output, name


def test_play_verify_show(tmp_path):
    runner = CliRunner()
    out = tmp_path / "replays"
    result = runner.invoke(main, ["play", "tapa", RANDOM, HEURISTIC, "--games", "2", "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "summary of 2 games" in result.output
    replays = sorted(out.glob("*.jsonl"))
    assert len(replays) == 2
    result = runner.invoke(main, ["verify", *map(str, replays)])
    assert result.exit_code == 0 and result.output.count("ok") == 2
    result = runner.invoke(main, ["show", str(replays[0])])
    assert result.exit_code == 0 and "result:" in result.output and "13   14" in result.output


def test_play_a_match_and_show_it(tmp_path):
    runner = CliRunner()
    out = tmp_path / "m"
    result = runner.invoke(main, ["play", "tabla-match", RANDOM, RANDOM, "--seed", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "summary of 1 matches" in result.output
    replay = next(out.glob("*.jsonl"))
    assert runner.invoke(main, ["verify", str(replay)]).exit_code == 0
    shown = runner.invoke(main, ["show", str(replay), "--as-seat", "1"]).output
    assert "== game 2 (gjul-bara) begins" in shown and "game 1 (tabla):" in shown
    assert runner.invoke(main, ["show", str(replay), "--as-seat", "2"]).exit_code == 2


def test_durak_teams_play_and_seat_views(tmp_path):
    runner = CliRunner()
    out = tmp_path / "replays"
    bots = [RANDOM, HEURISTIC, RANDOM, HEURISTIC]
    result = runner.invoke(main, ["play", "durak", *bots, "--teams", "2v2", "--variant", "perevodnoy", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "places" in result.output and "durak" in result.output
    replay = next(out.glob("*.jsonl"))
    spectator = runner.invoke(main, ["show", str(replay)])
    assert spectator.exit_code == 0 and "seen by the spectator" in spectator.output
    assert "\nthe deal: 36 cards\n" in spectator.output  # the spectator sees the deal, summarised
    places = re.search(r"(places [\d:]+)", result.output).group(1)  # the result said as play says it, and who
    assert re.search(rf"\nresult: {places}, durak \w+ \(seat \d\) by durak\n$", spectator.output)  # held cards
    last = spectator.output.split("\nresult: ")[0].rsplit("seen by the spectator", 1)[1]
    for line in last.splitlines():  # the last view: a seat holding cards is the durak, not "out"
        if " (place " in line:
            assert line.split(") ", 1)[1].strip() in ("", "-") or " durak (place " in line, line
    seat = runner.invoke(main, ["show", str(replay), "--as-seat", "1"])
    assert seat.exit_code == 0 and "seen by seat 1" in seat.output and "the deal" not in seat.output
    assert runner.invoke(main, ["show", str(replay), "--as-seat", "4"]).exit_code == 2
    wrong = runner.invoke(main, ["play", "durak", RANDOM, RANDOM, RANDOM, "--teams", "2v2", "--out", str(out)])
    assert wrong.exit_code == 2 and "teams=2v2 needs seats=4" in wrong.output


def test_usage_errors_exit_2():
    runner = CliRunner()
    assert runner.invoke(main, ["play", "chess", RANDOM, RANDOM]).exit_code == 2
    assert runner.invoke(main, ["play", "tapa", RANDOM]).exit_code == 2
    assert runner.invoke(main, ["play", "tapa", RANDOM, RANDOM, "--clock", "fast"]).exit_code == 2
    assert runner.invoke(main, ["play", "tapa", RANDOM, RANDOM, "--option", "nope=1"]).exit_code == 2
    assert runner.invoke(main, ["play", "tapa", RANDOM, "/no/such/bot"]).exit_code == 2


def test_a_person_seat_on_a_busy_port_is_one_line(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["play", "gaps", "human", "--no-browser", "--port", str(port),
                                           "--out", str(tmp_path)])
    assert result.exit_code == 1
    last = result.output.strip().splitlines()[-1]
    assert last.startswith(f"Error: cannot serve the page on 127.0.0.1:{port}: Address already in use")
    assert "Traceback" not in result.output and not list(tmp_path.iterdir())


def test_verify_failure_exits_1(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header", "format": "kafana-replay/1", "game": "tapa"}\n')
    result = CliRunner().invoke(main, ["verify", str(bad)])
    assert result.exit_code == 1


def test_play_never_overwrites_a_replay(tmp_path):
    runner = CliRunner()
    play = ["play", "tapa", RANDOM, RANDOM, "--seed", "5", "--out", str(tmp_path)]
    for _ in range(2):
        assert runner.invoke(main, play).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tapa-s5-001.jsonl", "tapa-s5-001~2.jsonl"]
    again = runner.invoke(main, [*play, "--overwrite"])
    assert again.exit_code == 0 and f"[{tmp_path / 'tapa-s5-001.jsonl'}]" in again.output
    assert len(list(tmp_path.iterdir())) == 2  # no temporary file is left either


def test_play_stops_before_the_game_when_a_bot_cannot_play(tmp_path):
    tmp_path.chmod(0o755)  # the sandbox's bot user reads the bot's folder
    broken = tmp_path / "broken.py"
    broken.write_text("import sys\nprint('missing the weights file', file=sys.stderr)\nsys.exit(4)\n")
    result = CliRunner().invoke(main, ["play", "tapa", RANDOM, str(broken), "--out", str(tmp_path / "r")])
    assert result.exit_code == 1
    assert f"Error: bot {broken}: crash: exited with exit code 4 before answering Hello" in result.output
    assert "missing the weights file" in result.output and not (tmp_path / "r").exists()
    gapa_only = tmp_path / "gapa_only.py"
    gapa_only.write_text("from bots.python.kit import serve\nserve(lambda r: 0, name='g', games=['gapa'])\n")
    result = CliRunner().invoke(main, ["play", "tapa", RANDOM, str(gapa_only), "--out", str(tmp_path / "r")])
    assert result.exit_code == 1 and "it does not play tapa (it lists ['gapa'])" in result.output


def test_two_bots_that_keep_a_gapa_game_going_are_stopped_at_the_decision_limit(tmp_path):
    """With the rules' own ends put far away (idle_turns), the referee's limit ends the game: a draw by limit, in
    the replay, which verifies, and in what referee show prints."""
    looper = str(ROOT / "tests" / "runtime" / "bots" / "loop_bot.py")
    runner = CliRunner()
    played = runner.invoke(main, ["play", "gapa", looper, looper, "--option", "idle_turns=5000",
                                  "--option", "decision_limit=400", "--out", str(tmp_path)])
    assert played.exit_code == 0, played.output
    assert "draw 0:0 by limit" in played.output
    replay = str(next(tmp_path.glob("gapa-*.jsonl")))
    assert runner.invoke(main, ["verify", replay]).exit_code == 0
    assert "limit" in runner.invoke(main, ["show", replay]).output


def test_a_bot_whose_code_raises_is_a_crash_in_its_own_words_and_fails_play(tmp_path):
    raising = str(ROOT / "tests" / "runtime" / "bots" / "raising_bot.py")
    played = CliRunner().invoke(main, ["play", "tapa", raising, RANDOM, "--sandbox", "off", "--out", str(tmp_path)])
    assert played.exit_code == 1 and "1 of 1 games ended by a seat's fault" in played.output
    assert "crash (its code failed" in played.output and "raising_bot.py\", line 7, in fail" in played.output
    shown = CliRunner().invoke(main, ["show", str(next(tmp_path.glob("*.jsonl")))])
    assert "fault: seat 0 crash: its code failed" in shown.output and "KeyError: 'oops'" in shown.output
