"""The starter bots in other languages (bots/javascript, bots/cpp, bots/go, bots/rust, bots/java) build from the
manifest, play every game id through the referee against each other and the Python random bot with verified
replays, claim every game the referee knows, and pass check-bot and ladder submit exactly as a user runs them (from
the repository, sandbox on)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

import pytest

from referee.games import GAMES, make_game
from referee.replay import read_replay, verify
from referee.runtime import Clock, resolve_bot, run_game
from referee.runtime.build import needs_build
from referee.runtime.sandbox import sandbox_problem

from .conftest import ROOT, STARTERS

FOLDERS = ["javascript", "c++", "go", "rust", "java", "python-kit"]
"""The starters that are folders with a manifest, as an author's bot is (the shipped Python bot is a file of this
repository)."""
NAMES = {"javascript": "random-js", "c++": "random-cpp", "go": "random-go", "rust": "random-rust",
         "java": "random-java", "python-kit": "random-kit", "python": "random"}
PAIRINGS = [("javascript", "python"), ("c++", "javascript"), ("go", "c++"), ("rust", "go"), ("java", "rust"),
            ("python-kit", "java"), ("python", "python-kit")]
"""A cycle: every language plays first and second seat, and every compiled starter meets another language."""


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("first,second", PAIRINGS, ids=lambda language: language)
async def test_starters_play_every_game(tmp_path, starters, game_id, first, second):
    replay = tmp_path / "game.jsonl"
    game = make_game(game_id)
    record = await run_game(
        game,
        [starters[first], starters[second]][: game.num_seats],
        match_id=f"{first}-{second}-{game_id}",
        seed=2,
        clock=Clock(),
        replay_path=replay,
    )
    assert record.faults == (), record.faults
    assert record.bots == (NAMES[first], NAMES[second])[: game.num_seats]
    assert verify(read_replay(replay)) == []


@pytest.mark.parametrize("language", FOLDERS)
def test_starter_manifest_lists_every_game_of_the_referee(language):
    manifest = tomllib.loads((STARTERS[language] / "bot.toml").read_text())
    assert manifest["games"] == sorted(GAMES)


@pytest.fixture(scope="module")
def ladder_of_starters(tmp_path_factory, starters) -> tuple[str, dict[str, subprocess.CompletedProcess]]:
    """One ladder (its database) with every starter submitted by ``ladder submit``, run from the repository as the
    docs say, and what each submission answered."""
    db = str(tmp_path_factory.mktemp("starters-ladder") / "l.db")
    answers = {language: subprocess.run([sys.executable, "-m", "ladder.cli", "submit", str(path.relative_to(ROOT)),
                                         "--db", db], cwd=ROOT, capture_output=True, text=True, timeout=600)
               for language, path in STARTERS.items()}
    return db, answers


@pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")
@pytest.mark.parametrize("language", FOLDERS)
def test_starter_passes_check_bot_and_submit_as_the_docs_say(ladder_of_starters, language):
    """``referee check-bot bots/<language>`` and ``ladder submit bots/<language>``, run from the repository with the
    sandbox on, as docs/bot-protocol.md says; the bot's Hello claims every game the referee knows, and its kit
    serves the Session stream (the notification goes over it)."""
    folder = str(STARTERS[language].relative_to(ROOT))
    checked = subprocess.run([sys.executable, "-m", "referee.cli", "check-bot", folder, "--sandbox", "on"],
                             cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    built = needs_build(resolve_bot(STARTERS[language]))
    assert "FAIL" not in checked.stdout and checked.stdout.startswith("PASS build" if built else "PASS handshake")
    assert f"PASS games: {', '.join(sorted(GAMES))}\n" in checked.stdout
    assert "PASS notify: acknowledged a MatchOver over the Session stream\n" in checked.stdout
    submitted = ladder_of_starters[1][language]
    assert submitted.returncode == 0, submitted.stdout + submitted.stderr
    assert f"accepted as {NAMES[language]} version 1" in submitted.stdout


@pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")
def test_the_rust_starter_is_built_once_for_every_command(tmp_path, starters):
    """Built once (by the fixture, in the sandbox), the Rust starter is not compiled again by ``check-bot``,
    ``referee play``, ``ladder submit`` or a club's upload of the same folder: each says it reused that build."""
    import trio

    from ladder.archive import pack_folder
    from ladder.authors import add_author, authenticate
    from ladder.store import open_store
    from ladder.uploads import UploadLimits, check_next, outcome, receive
    from tests.ladder._fakes import FakeExecutor

    reused = "reused the build of this content and toolchain (built in "

    def run(*command: str) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0 and "Compiling" not in done.stdout + done.stderr, done.stdout + done.stderr
        return done

    assert f"PASS build: {reused}" in run("referee.cli", "check-bot", "bots/rust", "--sandbox", "on").stdout
    played = run("referee.cli", "play", "tapa", "bots/rust", "bots/python/random_bot.py", "--out", str(tmp_path))
    assert f"build: {reused}" in played.stderr
    submitted = run("ladder.cli", "submit", "bots/rust", "--db", str(tmp_path / "l.db"))
    assert f"ok   build: {reused}" in submitted.stdout
    db_path = tmp_path / "club.db"
    db = open_store(db_path)
    upload = receive(db, db_path, authenticate(db, add_author(db, "ana")), pack_folder(STARTERS["rust"]),
                     UploadLimits())
    assert trio.run(check_next, db, db_path, FakeExecutor(), UploadLimits())
    report = outcome(db, upload)["report"]
    assert f"ok   build: {reused}" in report and "Compiling" not in report, report


@pytest.mark.parametrize("language", FOLDERS[:-1])  # the Python kit's contract is its generated code (test_generated)
def test_starter_carries_the_contract(language):
    """Each kit holds a copy of bot.proto, the same as proto/ (``python proto/generate.py`` refreshes them): a bot
    folder must hold its files itself."""
    own = STARTERS[language] / "proto" / "kafana" / "v1" / "bot.proto"
    canonical = ROOT / "proto" / "kafana" / "v1" / "bot.proto"
    assert not own.is_symlink() and own.read_bytes() == canonical.read_bytes()


def test_the_javascript_starter_type_checks_against_types_generated_from_the_proto(tmp_path):
    """``npm run check`` generates TypeScript types from the proto (proto-loader-gen-types, with the loader options
    the bot uses) and type-checks the bot with them: a misspelt response field is an error."""
    import shutil

    folder = tmp_path / "js"
    shutil.copytree(STARTERS["javascript"], folder, ignore=shutil.ignore_patterns("node_modules", "types"))
    subprocess.run(["npm", "ci", "--silent"], cwd=folder, check=True, timeout=600)
    checked = subprocess.run(["npm", "run", "--silent", "check"], cwd=folder, capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert (folder / "types" / "kafana" / "v1" / "ActRequest.ts").exists()
    bot = folder / "random_bot.js"
    bot.write_text(bot.read_text().replace("{ action_id: choice.id", "{ action_idd: choice.id"))
    broken = subprocess.run(["npm", "run", "--silent", "check"], cwd=folder, capture_output=True, text=True, timeout=300)
    assert broken.returncode != 0 and "'action_idd' does not exist in type 'ActResponse'" in broken.stdout


@pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")
@pytest.mark.timeout(900)
def test_one_league_of_every_starter(ladder_of_starters):
    """The starters of six languages (Python both with the kit alone and with the referee's) submitted to one
    ladder, then a round robin of Tapa and of four-seat Durak tables with one bot of each language, every bot in its
    sandbox: every match played, no fault, each on the leaderboard."""
    db, answers = ladder_of_starters

    def ladder(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "ladder.cli", *args, "--db", db], cwd=ROOT, capture_output=True,
                              text=True, timeout=900)

    for language, submitted in answers.items():
        assert submitted.returncode == 0, f"{language}: {submitted.stdout}{submitted.stderr}"
    for arena in ("tapa", "durak-4"):
        played = ladder("league", "--arena", arena, "--rounds", "1", "--concurrency", "2")
        assert played.returncode == 0, played.stdout + played.stderr
        done, planned = re.findall(r"(\d+)/(\d+) matches done", played.stderr)[-1]
        assert done == planned and int(done) >= 6, played.stderr
        assert ", 0 faults, 0 errors" in played.stderr
        board = played.stdout.split(f"\n{arena}\n", 1)[1]
        assert all(f"{name} v1" in board for name in NAMES.values()), board
