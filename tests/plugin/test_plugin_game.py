"""A game added from outside the project through one registration: Nim (``nim_game.py``, beside this file), made
known to Kafana the way an installed package would be, by an entry point of the group ``kafana.games``. Nothing of
Kafana names the game, yet ``referee play`` plays it between two bot processes, the replays verify and show in the
terminal, the replay frames draw in the web viewer, and it is a PettingZoo environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import reduce
from operator import xor
from pathlib import Path

import pytest

from referee.games import registry

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
REFEREE = [sys.executable, "-m", "referee.cli"]
VIEWER_JS = ROOT / "ladder" / "web" / "static" / "viewer.js"


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory) -> list[str]:
    """Where Python finds the game as an installed distribution: its metadata with the entry point, and its
    module (left in this folder)."""
    site = tmp_path_factory.mktemp("site")
    info = site / "nim_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: nim-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[kafana.games]\nnim = nim_game:REGISTRATION\n")
    return [str(site), str(HERE)]


@pytest.fixture(scope="module")
def registered(plugin_path):
    """This process with the game's distribution on its path, as if installed (the registry read again)."""
    sys.path[:0] = plugin_path
    registry._registry.cache_clear()
    registry.game_classes.cache_clear()
    yield
    del sys.path[: len(plugin_path)]
    registry._registry.cache_clear()
    registry.game_classes.cache_clear()


def referee(plugin_path: list[str], *args: str) -> subprocess.CompletedProcess:
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(plugin_path))
    return subprocess.run([*REFEREE, *args], capture_output=True, text=True, env=environment, cwd=ROOT, timeout=300)


@pytest.fixture(scope="module")
def played(plugin_path, tmp_path_factory) -> list[Path]:
    """Two games of Nim between two processes of ``nim_bot.py``, their replays."""
    out = tmp_path_factory.mktemp("replays")
    bot = str(HERE / "nim_bot.py")
    done = referee(plugin_path, "play", "nim", bot, bot, "--games", "2", "--seed", "5", "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(records) == 2 and not any(record["faults"] for record in records)
    return sorted(out.glob("*.jsonl"))


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_referee_plays_the_game_between_two_bot_processes(played):
    """The bots read the JSON view and the moves' JSON detail; both play the nim-sum strategy, so the heaps the
    chance step drew decide the winner: the seat to move first wins exactly when their nim-sum is not zero."""
    assert len(played) == 2
    for path in played:
        records = _lines(path)
        steps = [r for r in records if r.get("type") in ("chance", "action")]
        heaps = [int(word) for word in steps[0]["notation"].split()[1:]]
        result = next(r for r in records if r.get("type") == "result")
        first_wins = reduce(xor, heaps) != 0
        assert result["points"] == ([1, 0] if first_wins else [0, 1])
        assert result["termination"] == "last_taken"
        assert all(step["notation"].startswith("take ") for step in steps[1:])


def test_its_replays_verify_and_show_in_the_terminal(played, plugin_path):
    verified = referee(plugin_path, "verify", *map(str, played))
    assert verified.returncode == 0 and verified.stdout.count("ok ") == 2, verified.stdout + verified.stderr
    shown = referee(plugin_path, "show", str(played[0]))
    assert shown.returncode == 0, shown.stderr
    assert "heap 1: " in shown.stdout and "result: last_taken" in shown.stdout


def test_without_the_registration_the_game_is_unknown(played):
    """Without the package installed the game is unknown, in one line."""
    done = subprocess.run([*REFEREE, "verify", str(played[0])], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode != 0
    assert "unknown game 'nim'" in done.stderr and "Traceback" not in done.stderr


def test_the_wire_carries_its_view_and_moves_as_json(registered):
    from referee.games import make_game
    from referee.wire import ActRequest, ClockInfo, LegalAction
    from referee.wire._convert import act_request_bytes, act_request_from_proto, act_request_to_proto

    state = make_game("nym").new_state()
    state.apply(state.chance_outcomes()[200][0])
    legal = tuple(LegalAction(n, a.notation(), a) for n, a in enumerate(state.legal_actions()))
    request = ActRequest("m", 1, "nim", 0, {}, 0, state.view(0), ClockInfo(1000, 0, 1000, 1000), legal)
    message = act_request_to_proto(request)
    assert act_request_bytes(request) == message.SerializeToString()
    assert json.loads(message.json) == {"seat": 0, "heaps": list(state.heaps), "to_move": 0}
    read = act_request_from_proto(message)
    assert read.view["heaps"] == list(state.heaps)
    assert [legal.action for legal in read.legal_actions] == [{"heap": a.heap, "count": a.count}
                                                              for a in state.legal_actions()]


def test_its_frames_draw_in_the_web_viewer(played, registered):
    """The replay's frames carry the view's text (the game names no drawing of its own), and the web viewer's
    page draws each frame as that text."""
    from playwright.sync_api import sync_playwright

    from referee.frames import frames
    from referee.replay import read_replay

    from ..web._chromium import CHROMIUM, FLAGS

    replay = read_replay(played[0])
    shown, problems = frames(replay)
    assert not problems and shown[-1]["view"]["kind"] == "text"
    assert shown[1]["view"]["text"].startswith("heap 1: ")
    payload = {"header": replay.header, "frames": shown, "result": replay.result, "problems": [], "live": False}
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = chromium.new_page()
        page.set_content("<div id='viewer'></div>")
        page.add_script_tag(path=str(VIEWER_JS))
        page.evaluate("replay => Viewer.mount(document.getElementById('viewer'), replay, null)", payload)
        for step in (1, len(shown) - 1):
            page.click(f'.moves div[data-index="{step}"]')
            page.wait_for_selector(f'#viewer[data-step="{step}"]')
            assert page.inner_text(".stage pre") == shown[step]["view"]["text"]
        chromium.close()


def test_it_is_a_pettingzoo_environment(registered):
    from pettingzoo.test import api_test

    from referee.envs import env

    api_test(env("nim"), num_cycles=200)
    environment = env("nim", {"heaps": "4"}, render_mode="ansi")
    environment.reset(seed=7)
    observation, *_ = environment.last()
    assert observation["observation"].shape == (5 + 4 + 7,)
    assert "heap 4: " in environment.render()


CLASH = """from nim_game import Nim, NimView, render_nim
from referee.games.registry import Registration
REGISTRATION = Registration(games={"tapa": Nim}, views=(NimView,), render=render_nim)
"""
"""A package that claims a game id Kafana has already."""


@pytest.mark.parametrize(("entry_point", "said"), [
    ("broken = no_such_module:REGISTRATION", "entry point broken = no_such_module:REGISTRATION of kafana.games: "
                                             "No module named 'no_such_module'"),
    ("odd = nim_game:Nim", "entry point odd = nim_game:Nim is not a Registration"),
    ("clash = clash:REGISTRATION", "game 'tapa' is registered twice: by referee.games.tabla_family.registration "
                                   "and by entry point clash = clash:REGISTRATION"),
])
def test_a_broken_registration_is_named_in_one_line(tmp_path, entry_point, said):
    (tmp_path / "clash.py").write_text(CLASH)
    info = tmp_path / "broken-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[kafana.games]\n{entry_point}\n")
    for command in (["referee.cli", "new-bot", "--help"], ["ladder.cli", "bots"]):
        done = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True, cwd=tmp_path,
                              env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(HERE)])), timeout=120)
        assert done.returncode == 1 and done.stderr == f"Error: {said}\n", done.stderr


def test_a_view_of_no_registered_game_is_named():
    from referee.frames import view_json
    from referee.games.registry import UnknownViewError
    from referee.render import render_view
    from referee.wire import WireError
    from referee.wire._convert import _view_to_proto

    class Stray:
        pass

    for use in (render_view, view_json):
        with pytest.raises(UnknownViewError, match="^no registered game gives views of class Stray$"):
            use(Stray())
    with pytest.raises(WireError, match="^no registered game gives views of class Stray$"):
        _view_to_proto(Stray())
