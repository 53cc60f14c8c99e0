"""``referee new-bot``: a bot folder from the starter of each of the six languages, named and claiming the games
asked for, passes ``check-bot`` as written; every mistake is a one-line answer and writes nothing."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from referee.newbot import LANGUAGES, STARTERS
from referee.runtime import default_store, prepare_bot
from referee.runtime.sandbox import sandbox_problem

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"python": ["gaps"], "javascript": ["durak"], "c++": ["gapa"], "go": ["gjul-bara"], "rust": ["tapa"],
         "java": ["tabla", "tapa"]}
"""The games each new bot claims: between them every game, so that each starter's view of each is played."""


def referee(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=900)


@pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_new_bot_passes_check_bot_as_written(tmp_path, starters, language):
    name = f"my-{language.replace('+', 'p')}-bot"
    games = GAMES[language]
    made = referee("new-bot", name, "--language", language, *(f"--game={game}" for game in games),
                   "--author", "Ana Đurić", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert made.stdout.splitlines()[1:] == [f"  referee check-bot {name}", f"  referee play {games[0]} {name} {name}",
                                            f"  ladder submit {name}"]
    folder = tmp_path / name
    manifest = tomllib.loads((folder / "bot.toml").read_text())
    assert (manifest["name"], manifest["author"], manifest["games"]) == (name, "Ana Đurić", games)
    readme = (folder / "README.md").read_text()
    assert readme.startswith(f"# {name}: a Kafana bot in ") and f"referee check-bot {name} " in readme
    assert STARTERS[language].decision in readme and "../../.venv" not in readme
    # built as check-bot would build it, but starting from the starter's build (the run's builds are shared)
    prepare_bot(folder, default_store(), sandboxed=True, seed=starters["python-kit" if language == "python"
                                                                        else language].path)
    checked = referee("check-bot", name, "--sandbox", "on", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"PASS handshake: {name} 1.0 answered Hello" in checked.stdout and "FAIL" not in checked.stdout
    assert f"PASS games: {', '.join(games)}\n" in checked.stdout
    for game in games:
        assert f"PASS {game}: a full game against the random bot" in checked.stdout


@pytest.mark.parametrize("args,error", [
    (["My-Bot", "--language", "rust"], "'My-Bot' cannot name a bot: lower-case letters"),
    (["b", "--language", "cobol"], "Invalid value for '--language': 'cobol' is not one of"),
    (["b", "--language", "go", "--game", "chess"], "unknown game 'chess' (known: durak, gapa,"),
    (["b", "--language", "go", "--author", 'Ana "the bot" Đurić'], "cannot be an author: 1 to 60 characters"),
    (["exists", "--language", "go"], "exists already exists: name a new folder"),
])
def test_a_mistake_is_one_line_and_writes_nothing(tmp_path, args, error):
    (tmp_path / "exists").mkdir()
    done = referee("new-bot", *args, cwd=tmp_path)
    assert done.returncode == 2 and error in done.stderr and "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exists"] and not any((tmp_path / "exists").iterdir())
