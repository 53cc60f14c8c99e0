"""The engine core is chosen once at import: KAFANA_ENGINE=python|native, native by default when it is built; a
machine without it runs the Python engines, and a command says so once; a mistyped choice is one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.games import engine
from tests.background import Background


def test_the_native_core_is_built():
    """The test command builds it (pip install ./native): the native engines must be the ones the tests run."""
    if os.environ.get("KAFANA_ENGINE") == "python":
        pytest.skip("KAFANA_ENGINE=python asks for the Python engines")
    assert engine.ENGINE == "native" and engine.NATIVE is not None


def test_the_variable_chooses(monkeypatch):
    assert engine.choose("python") == ("python", None)
    with pytest.raises(engine.EngineError, match="use python or native"):
        engine.choose("rust")
    monkeypatch.setattr(engine, "_native", lambda: None)
    assert engine.choose(None) == ("python", None)
    with pytest.raises(engine.EngineError, match="not installed"):
        engine.choose("native")


def test_without_the_native_core_a_command_says_so_once_and_an_import_nothing():
    hide = "import sys; sys.modules['kafana_native'] = None; import referee.games.engine as e; print(e.ENGINE)"
    settle = hide.replace("print(e.ENGINE)", "import referee.choices as c; c.settle(); c.settle(); print(e.ENGINE)")
    env = {k: v for k, v in os.environ.items() if k not in ("KAFANA_ENGINE", engine.NOTED)}
    imported = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True, env=env, check=True)
    assert imported.stdout == "python\n" and imported.stderr == ""  # a bot that imports the engines: no word
    first = subprocess.run([sys.executable, "-c", settle], capture_output=True, text=True, env=env, check=True)
    assert first.stdout == "python\n" and first.stderr.count("native engine core is not installed") == 1
    child = subprocess.run([sys.executable, "-c", settle], capture_output=True, text=True, check=True,
                           env={**env, engine.NOTED: "1"})  # a child of a process that said so already
    assert child.stdout == "python\n" and child.stderr == ""


@pytest.mark.parametrize("command", [["referee", "show", "x.jsonl"], ["ladder", "standings"]], ids=lambda c: c[0])
@pytest.mark.parametrize("variable,said", [("KAFANA_ENGINE=rust", "KAFANA_ENGINE='rust': use python or native"),
                                           ("KAFANA_WIRE=morse", "KAFANA_WIRE='morse': use native or grpcio")])
def test_a_mistyped_choice_is_one_line(tmp_path, command, variable, said):
    name, value = variable.split("=")
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), command[0]), *command[1:]],
                          capture_output=True, text=True, env={**os.environ, name: value}, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.strip().splitlines()[-1] == f"Error: {said}"
    assert "Traceback" not in done.stderr


HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PYTHON_ENGINES_SUITE = Background(
    [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", str(HERE), str(ROOT / "referee" / "games"),
     *(f"--ignore={path}" for path in sorted(HERE.glob("test_gap[as]_*.py")))],
    ROOT, env={"KAFANA_ENGINE": "python"},
)


@pytest.mark.skipif(os.environ.get("KAFANA_ENGINE") == "python", reason="this run is on the Python engines already")
@pytest.mark.timeout(900)
@PYTHON_ENGINES_SUITE
def test_the_games_suite_passes_on_the_python_engines():
    """The Python engines are the reference the native core is measured against: every test of the games that
    have a native twin (the scenarios, properties, oracles and conformance, and the engines' doctests) runs on
    them too, in a process of their own (beside the run: tests/background.py). Gapa's and Gaps' tests are left
    out: those games have only the Python engine, which the main run tests already."""
    done = PYTHON_ENGINES_SUITE.result(timeout=880)
    assert done.returncode == 0, done.output[-5000:]
    assert " passed" in done.output.strip().splitlines()[-1]
