"""A club operator's day: while the real service plays, every operator command of docs/service.md runs 20 times
(author add, rotate, ban, unban; retire and re-enter; arena pause and resume; backup), 200 sign-ins and 300 wrong
tokens arrive. Every command succeeds, the service never stops, play goes on, public pages stay fast, and
wrong tokens are answered 429 past the stated number. The process that serves HTTP holds no privilege."""

from __future__ import annotations

import concurrent.futures
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from ladder.cli import main
from ladder.store import open_store
from ladder.web.throttle import PER_ADDRESS

from .test_service import ROOT, Service, author, bot, free_port, ladder, needs_sandbox

ROUNDS = 20


class PageTimer(threading.Thread):
    """Times a public page, again and again, until stopped."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.seconds: list[float] = []
        self.failures: list[str] = []
        self.stopped = threading.Event()

    def run(self) -> None:
        with httpx.Client(timeout=30) as client:
            while not self.stopped.wait(0.2):
                started = time.monotonic()
                answer = client.get(self.url)
                self.seconds.append(time.monotonic() - started)
                if answer.status_code != 200:
                    self.failures.append(f"{answer.status_code} {answer.text[:200]}")


@needs_sandbox
def test_every_operator_command_works_while_the_service_plays(tmp_path):
    db = tmp_path / "club.db"
    ana, signer = author(db, "ana"), author(db, "signer")
    service = Service(db, free_port(), "--concurrency", "1")  # a match at a time: the other core serves
    runner = CliRunner()
    timer = PageTimer(f"{service.url}/api/arenas/tapa/standings")
    try:
        folders = [bot(tmp_path, "k0", '["tapa"]'), ROOT / "bots" / "python" / "random_bot.py"]
        for folder in folders:  # a folder, and a single .py file (named as its Hello names it)
            up = ladder("submit", "--server", service.url, "--token", ana, folder, cwd=tmp_path)
            assert up.returncode == 0 and "accepted as" in up.stdout, up.stdout + up.stderr

        def units_done() -> int:
            with sqlite3.connect(db) as connection:
                return connection.execute("select count(*) from units where status = 'done'").fetchone()[0]

        assert_web_is_unprivileged(db)
        played_before = units_done()
        timer.start()
        commands = []
        for number in range(ROUNDS):
            name = f"author{number}"
            commands += [["author", "add", name], ["author", "rotate", name], ["author", "ban", name],
                         ["author", "unban", name], ["retire", "k0"], ["submit", str(folders[0])],
                         ["arena", "pause", "tapa"], ["arena", "resume", "tapa"],
                         ["backup", str(tmp_path / f"backup{number}.db")]]
        for command in commands:
            done = runner.invoke(main, [*command, "--db", str(db)])
            assert done.exit_code == 0, (command, done.output, done.exception)
            assert service.process.poll() is None, command

        def sign_in(token: str) -> int:
            return httpx.post(f"{service.url}/api/signin", json={"token": token}, timeout=60).status_code

        with concurrent.futures.ThreadPoolExecutor(20) as pool:
            assert set(pool.map(sign_in, [signer] * 200)) == {200}
            wrong = list(pool.map(sign_in, [f"kf_{900 + k}_wrong" for k in range(300)]))
        assert wrong.count(401) == PER_ADDRESS and wrong.count(429) == 300 - PER_ADDRESS
        assert wait_for_more(units_done, played_before + 3, 120), "play did not go on"
    finally:
        timer.stopped.set()
        code = service.stop()
        said = service.process.stdout.read()
    assert code == 130 and "Traceback" not in said, said[-3000:]
    assert timer.failures == [] and len(timer.seconds) >= 20
    p95 = statistics.quantiles(timer.seconds, n=20)[-1]
    assert p95 < 1.0, (p95, max(timer.seconds))
    for number in range(ROUNDS):
        backup = open_store(tmp_path / f"backup{number}.db", create=False)
        assert backup.execute("pragma integrity_check").fetchone()[0] == "ok" and backup["authors"].count >= 2


def wait_for_more(count, target: int, seconds: float) -> bool:
    """Whether ``count()`` reaches ``target`` within ``seconds``."""
    deadline = time.monotonic() + seconds
    while count() < target:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True


def assert_web_is_unprivileged(db: Path) -> None:
    """The process that serves HTTP for ``db`` runs as a uid of its own, with no capability, no way to gain one,
    and no network but the socket it serves on."""
    serving = [pid for pid in _pids() if _serves(pid, db)]
    assert len(serving) == 1, serving
    status = dict(line.split(":\t", 1) for line in Path(f"/proc/{serving[0]}/status").read_text().splitlines()
                  if ":\t" in line)
    assert all(int(uid) != 0 for uid in status["Uid"].split()), status["Uid"]
    assert {status[cap].strip() for cap in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")} == {"0" * 16}
    assert status["NoNewPrivs"].strip() == "1" and status["Groups"].strip() == ""
    assert os.readlink(f"/proc/{serving[0]}/ns/net") != os.readlink("/proc/self/ns/net")
    replays = db.with_name(db.stem + "-replays").stat()  # readable by the web's group only
    assert replays.st_mode & 0o777 == 0o750 and replays.st_gid == int(status["Gid"].split()[0])


def _pids() -> list[int]:
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def _serves(pid: int, db: Path) -> bool:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return False
    return b"web-process" in command and str(db).encode() in command and not command[0].endswith(b"bwrap")


@needs_sandbox
def test_a_web_whose_event_loop_hangs_still_ends_with_the_service():
    """The web's own thread ends it a grace period after its standard input (the service's pipe) closes, even when
    its event loop never looks again."""
    hung = subprocess.Popen(
        [sys.executable, "-c", "from ladder.web.process import end_with_the_service\n"
                               "end_with_the_service(grace=0.5)\nprint('hung', flush=True)\nwhile True: pass\n"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert hung.stdout.readline() == "hung\n"
        time.sleep(1)
        assert hung.poll() is None  # the service is alive: the web goes on
        hung.stdin.close()          # the service is gone
        assert hung.wait(timeout=10) == 0
    finally:
        hung.kill()


def test_the_service_stops_in_one_line_when_its_web_ends(tmp_path):
    db = tmp_path / "club.db"
    author(db, "ana")
    service = Service(db, free_port())
    try:
        web = [pid for pid in _pids() if _serves(pid, db)]
        assert len(web) == 1
        os.kill(web[0], signal.SIGKILL)
        code = service.process.wait(timeout=30)
    finally:
        if service.process.poll() is None:
            service.stop()
    said = service.process.stdout.read()
    assert code == 1 and "Traceback" not in said
    assert said.strip().splitlines()[-1] == ("Error: the web server stopped (exit status 137): the service stops "
                                             "too; start it again")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--play", "--user", "no-such-user-here"], "Error: --user no-such-user-here: no such user on this machine"),
        (["--play", "--user", "root"], "Error: --user root: the web must not run as root"),
        (["--user", "nobody"], "--user goes with --play"),
    ],
)
def test_a_wrong_web_user_is_one_line(tmp_path, args, words):
    done = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "club.db"), "--port", str(free_port()), *args])
    assert done.exit_code == 2 and words in done.output and "Traceback" not in done.output, done.output
    assert not (tmp_path / "club.db").exists()
