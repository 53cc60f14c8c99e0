"""The ladder as a service, end to end: a real ``ladder serve --play`` process, authors with tokens uploading bots
over HTTP (a Python bot and a JavaScript starter), matches scheduled, rated and shown; every bad upload refused
with its reason and nothing left on disk; logs shown to their author only; SIGKILLs at random moments lose
nothing."""

from __future__ import annotations

import gzip
import io
import json
import random
import re
import signal
import socket
import subprocess
import sys
import tarfile
import time
import zlib
from pathlib import Path

import httpx
import pytest
import trio
from sqlite_utils import Database

from ladder import uploads
from ladder.archive import pack_folder
from ladder.authors import Author, add_author, authenticate
from ladder.registry import bot_folder
from ladder.store import open_store
from ladder.web.club import _own
from referee.replay import read_replay, verify
from referee.runtime import default_store
from referee.runtime.sandbox import sandbox_problem
from tests.runtime.hostile import wait_for

from ._fakes import FakeExecutor, random_bot_folder

ROOT = Path(__file__).resolve().parents[2]
LADDER = [sys.executable, "-m", "ladder.cli"]
needs_sandbox = pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def ladder(*args, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([*LADDER, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def author(db: Path, name: str) -> str:
    done = ladder("author", "add", name, "--db", db, cwd=db.parent)
    assert done.returncode == 0, done.stderr
    return re.search(r"(kf_\S+)", done.stdout).group(1)


class Service:
    """A running ``ladder serve --play``."""

    def __init__(self, db: Path, port: int, *options: str) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen([*LADDER, "serve", "--play", "--db", str(db), "--port", str(port),
                                         "--sandbox", "auto", *options], cwd=db.parent, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{self.url}/api/arenas", timeout=2)
                return
            except httpx.TransportError:
                assert time.monotonic() < deadline and self.process.poll() is None, self.process.stdout.read()
                time.sleep(0.2)

    def stop(self, sig: int = signal.SIGTERM) -> int:
        self.process.send_signal(sig)
        return self.process.wait(timeout=60)


def bot(parent: Path, name: str, games: str = '["tapa", "durak"]') -> Path:
    folder = random_bot_folder(parent, name, games)
    folder.chmod(0o755)
    return folder


def built_bot(parent: Path, name: str, build: str) -> Path:
    """:func:`bot` with a manifest that names ``build`` (a TOML list) as its build."""
    folder = bot(parent, name)
    with (folder / "bot.toml").open("a") as manifest:
        manifest.write(f"build = {build}\n")
    return folder


def club_with_ana(tmp_path: Path) -> tuple[Path, Database, Author]:
    """A club's database beside ``tmp_path`` with one author, ana."""
    db_path = tmp_path / "club.db"
    db = open_store(db_path)
    return db_path, db, authenticate(db, add_author(db, "ana"))


@needs_sandbox
def test_two_authors_upload_and_the_club_plays(tmp_path):
    db = tmp_path / "club.db"
    ana, bo = author(db, "ana"), author(db, "bo")
    service = Service(db, free_port())
    try:
        python = ladder("submit", "--server", service.url, "--token", ana, bot(tmp_path, "ana-py"), cwd=tmp_path)
        assert python.returncode == 0 and "accepted as ana-py version 1" in python.stdout, python.stdout + python.stderr
        node = ladder("submit", "--server", service.url, "--token", bo, ROOT / "bots" / "javascript", cwd=tmp_path)
        assert node.returncode == 0 and "accepted as random-js version 1" in node.stdout, node.stdout + node.stderr
        lost = ladder("submit", "--server", service.url, "--token", bo, ROOT / "README.md", cwd=tmp_path)
        assert lost.returncode == 2 and "an upload is a folder with a bot.toml, or a single .py file" in lost.stderr

        def rated() -> bool:
            lines = httpx.get(f"{service.url}/api/arenas/tapa/standings", timeout=10).json()
            return len(lines) == 2 and all(line["units"] >= 3 for line in lines)

        assert wait_for(rated, 120), "no rated matches"
        matches = httpx.get(f"{service.url}/api/matches?arena=tapa", timeout=10).json()
        assert matches and {"ana-py v1", "random-js v1"} <= {seat for m in matches for seat in m["seats"]}
        assert all(m["commitment"] for m in matches)
        complete = {row[0] for row in open_store(db).execute(  # a match whose whole unit is played: its replay is public
            "select m.id from matches m join units u on u.id = m.unit_id where u.status = 'done'")}
        done = next(m for m in matches if m["id"] in complete and "ana-py v1" in m["seats"])
        public = httpx.get(f"{service.url}/api/matches/{done['id']}/replay", timeout=10).json()
        assert "output" not in public and "output" not in public["result"]
        assert all("path" not in seat for seat in public["header"]["seats"])
        mine = httpx.get(f"{service.url}/api/matches/{done['id']}/logs", timeout=10,
                         headers={"Authorization": f"Bearer {ana}"}).json()["seats"]
        theirs = httpx.get(f"{service.url}/api/matches/{done['id']}/logs", timeout=10).json()["seats"]
        seat_of_ana = done["seats"].index("ana-py v1")
        assert [s["seat"] for s in mine] == [seat_of_ana] and theirs == []
        bots = httpx.get(f"{service.url}/api/me", headers={"Authorization": f"Bearer {bo}"}).json()["bots"]
        assert [b["name"] for b in bots] == ["random-js"]
    finally:
        assert service.stop() == 130
    left = open_store(db)
    assert left.execute("select count(*) from matches where status = 'running'").fetchone()[0] == 0


def tarball(members: list[tuple[str, bytes, bytes]]) -> bytes:
    """A gzipped tar of (name, data, tar type) members."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data, kind in members:
            info = tarfile.TarInfo(name)
            info.type = kind
            if kind == tarfile.REGTYPE:
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
            else:
                info.linkname = data.decode()
                archive.addfile(info)
    return buffer.getvalue()


MANIFEST = ("bot.toml", b'name = "evil"\ncommand = ["python3", "bot.py"]\n', tarfile.REGTYPE)


@needs_sandbox
def test_bad_uploads_are_refused_with_their_reasons_and_leave_nothing(tmp_path):
    db = tmp_path / "club.db"
    ana, bo = author(db, "ana"), author(db, "bo")
    leftover = tmp_path / "club-uploads" / "upload-killed"  # what a service killed while checking an upload left
    leftover.mkdir(parents=True)
    service = Service(db, free_port())
    uploads = f"{service.url}/api/uploads"
    assert list((tmp_path / "club-uploads").iterdir()) == []  # swept when the service started
    try:
        good = pack_folder(bot(tmp_path, "ana-bot"))
        accepted = httpx.post(uploads, content=good, headers={"Authorization": f"Bearer {ana}"}, timeout=300).json()
        assert accepted["accepted"] and str(tmp_path) not in accepted["report"]  # no host path shown to the author
        peak = _peak_kb(service.process.pid)
        failing = tmp_path / "crasher"
        failing.mkdir(mode=0o755)
        (failing / "bot.toml").write_text('name = "crasher"\ncommand = ["python3", "bot.py"]\n')
        (failing / "bot.py").write_text("import sys\nsys.exit(3)\n")
        cases = [
            ("no token", good, {}, 401, "needs your token"),
            ("wrong token", good, {"Authorization": "Bearer kf_1_wrong"}, 401, "unknown, revoked or banned token"),
            ("another author's bot", good, {"Authorization": f"Bearer {bo}"}, 422, "belongs to another author"),
            ("path traversal", tarball([MANIFEST, ("../escape.py", b"x", tarfile.REGTYPE)]), None, 422,
             "climbs out of the bot's folder"),
            ("a link out", tarball([MANIFEST, ("bot.py", b"/etc/passwd", tarfile.SYMTYPE)]), None, 422, "is a link"),
            ("a huge file", tarball([MANIFEST, ("weights", b"\0" * (65 << 20), tarfile.REGTYPE)]), None, 422,
             "unpacks to more than"),
            ("too many files", tarball([MANIFEST, *[(f"f{k}", b"x", tarfile.REGTYPE) for k in range(2100)]]), None,
             422, "more than 2000 files"),
            ("a compression bomb", tarball([MANIFEST, *[(f"z{k}", b"\0" * (16 << 20), tarfile.REGTYPE)
                                                      for k in range(12)]]), None, 422, "unpacks to more than"),
            ("not an archive", gzip.compress(b"garbage" * 1000), None, 422, "cannot be read as a gzipped tar"),
            ("a long name of 512 MiB", long_name_bomb(512 << 20), None, 422, "an extended header of 536870912 bytes"),
            ("a bot that fails the check", pack_folder(failing), None, 422, "FAIL handshake: crash"),
        ]
        for label, data, headers, status, words in cases:
            answer = httpx.post(uploads, content=data, timeout=300,
                                headers={"Authorization": f"Bearer {bo}"} if headers is None else headers)
            assert answer.status_code == status, (label, answer.text)
            assert words in (answer.json().get("report") or answer.json().get("error")), (label, answer.text)
        assert list((tmp_path / "club-uploads").iterdir()) == []  # nothing unpacked is left
        assert _peak_kb(service.process.pid) - peak < 200 << 10  # the service's peak memory grew by < 200 MB
        assert not (tmp_path.parent / "escape.py").exists()
        stored = [p.name for p in (tmp_path / "club-bots").iterdir() if p.is_dir()]
        assert len(stored) == 1  # only the good bot's copy
    finally:
        service.stop()


def _peak_kb(pid: int) -> int:
    """The peak resident memory of process ``pid`` so far (VmHWM), in kB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1))


def long_name_bomb(size: int) -> bytes:
    """A gzipped tar whose first header is a GNU long name of ``size`` zero bytes (compressed a MiB at a time)."""
    info = tarfile.TarInfo("././@LongLink")
    info.type, info.size = tarfile.GNUTYPE_LONGNAME, size
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunks = [packer.compress(info.tobuf(format=tarfile.GNU_FORMAT))]
    zeros = bytes(1 << 20)
    chunks += [packer.compress(zeros) for _ in range(size >> 20)]
    return b"".join([*chunks, packer.flush()])


def test_uploads_are_limited_per_hour(tmp_path):
    db_path, db, ana = club_with_ana(tmp_path)
    limits = uploads.UploadLimits(per_hour=2)
    data = pack_folder(bot(tmp_path, "a"))
    for _ in range(2):
        uploads.receive(db, db_path, ana, data, limits)
    with pytest.raises(uploads.LimitReached, match="limit of 2 uploads an hour"):
        uploads.receive(db, db_path, ana, data, limits)


def test_an_upload_waits_for_its_check_and_one_cut_short_is_refused_on_restart(tmp_path):
    """The web records an upload; the service's process checks it and records the report the web answers with.
    An upload the service never checked (it stopped) is refused when it starts again, and nothing is left."""
    from ladder.uploads import UploadLimits, check_next, outcome, receive, staging_folder, sweep

    db_path, db, ana = club_with_ana(tmp_path)
    first = receive(db, db_path, ana, pack_folder(bot(tmp_path, "first")), UploadLimits())
    assert outcome(db, first) is None  # waiting for its check
    assert trio.run(check_next, db, db_path, FakeExecutor(), UploadLimits())
    answer = outcome(db, first)
    assert answer["accepted"] and (answer["bot"], answer["version"]) == ("first", 1)
    assert str(tmp_path) not in answer["report"] and "found upload (content hash" in answer["report"]
    assert not trio.run(check_next, db, db_path, FakeExecutor(), UploadLimits())  # none waits
    second = receive(db, db_path, ana, pack_folder(bot(tmp_path, "second")), UploadLimits())
    assert len(list(staging_folder(db_path).iterdir())) == 1
    sweep(db, db_path)  # the service starts again
    answer = outcome(db, second)
    assert not answer["accepted"] and "the service stopped before this upload was checked" in answer["report"]
    assert list(staging_folder(db_path).iterdir()) == []


@needs_sandbox
def test_an_uploads_build_output_reaches_its_authors_page_as_it_comes(tmp_path, monkeypatch):
    """While an upload is checked, the last lines of its build are in its row (which ``/api/me`` gives its author)
    every few seconds, host folders named as the author knows them."""
    monkeypatch.setattr(uploads, "PROGRESS_EVERY", 0.2)
    db_path, db, ana = club_with_ana(tmp_path)
    folder = built_bot(tmp_path, "slow-build", '["sh", "-c", "echo step one in $(pwd); sleep 3; echo step two"]')
    upload = uploads.receive(db, db_path, ana, pack_folder(folder), uploads.UploadLimits())
    seen: list[str] = []

    async def check_and_watch() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(uploads.check_next, db, db_path, FakeExecutor(), uploads.UploadLimits())
            while uploads.outcome(db, upload) is None:
                seen.append(_own(db, ana)["uploads"][0]["progress"] or "")
                await trio.sleep(0.1)

    trio.run(check_and_watch)
    assert any("step one" in shown and "step two" not in shown for shown in seen)  # before the build ended
    (row,) = _own(db, ana)["uploads"]
    assert row["status"] == "done" and row["accepted"] and row["progress"].endswith("step two")
    assert "step one in build/" in row["progress"] and str(tmp_path) not in row["progress"] + row["report"]


@needs_sandbox
def test_a_new_version_of_an_upload_starts_from_its_previous_build(tmp_path):
    """The second version of an author's bot is built from the output of the first's build (the tools build only
    what changed), and says so on its author's page."""
    db_path, db, ana = club_with_ana(tmp_path)
    folder = built_bot(tmp_path, "growing", '["sh", "-c", "mkdir -p build && echo built >> build/log.txt"]')
    for version in (1, 2):
        (folder / "version.txt").write_text(f"{version}\n")
        upload = uploads.receive(db, db_path, ana, pack_folder(folder), uploads.UploadLimits())
        assert trio.run(uploads.check_next, db, db_path, FakeExecutor(), uploads.UploadLimits())
        assert uploads.outcome(db, upload)["version"] == version
    logs = sorted((path.read_text() for path in bot_folder(db_path).glob("*/build/log.txt")), key=len)
    assert logs == ["built\n", "built\nbuilt\n"]
    assert "starting from the output of an earlier build" in _own(db, ana)["uploads"][0]["progress"]


@needs_sandbox
@pytest.mark.parametrize("writes, said", [
    ("head -c 3000000 /dev/zero > build/blob", "the built copy takes 3.0 MB, more than the 1 MB"),
    ("while true; do head -c 300000 /dev/zero >> build/blob; sleep 0.1; done", "MB, more than the 1 MB a bot may "
                                                                                "take (stopped)"),
])
@pytest.mark.alone  # it looks for what is new in the build store the run's processes share
def test_a_built_copy_over_the_disk_limit_is_refused_and_removed(tmp_path, writes, said):
    """A bot whose build leaves more than the ladder allows, or would write for ever, is refused (the second
    stopped while it runs), and neither the league's copy nor the build store keeps it."""
    db_path, db, ana = club_with_ana(tmp_path)
    folder = built_bot(tmp_path, "big-build", f'["sh", "-c", "mkdir -p build && {writes}"]')
    limits = uploads.UploadLimits(copy_bytes=1_000_000)
    before = set(default_store().iterdir()) if default_store().exists() else set()
    upload = uploads.receive(db, db_path, ana, pack_folder(folder), limits)
    assert trio.run(uploads.check_next, db, db_path, FakeExecutor(), limits)
    answer = uploads.outcome(db, upload)
    assert not answer["accepted"] and "FAIL disk: " in answer["report"] and said in answer["report"]
    new = set(default_store().iterdir()) - before
    assert not any(bot_folder(db_path).glob("*/build/blob"))
    assert [path for path in new if path.is_dir() and not path.name.startswith(".")] == []  # no build kept


@pytest.mark.parametrize("staged", ["../../outside/upload-x", "upload-a/../../outside", "upload-link/upload-b", ""])
def test_the_service_checks_only_uploads_in_the_staging_folder(tmp_path, staged):
    """The web writes the staging folder and the database: whatever it names, the service's process takes nothing
    from elsewhere (a path out, a link), and removes nothing there."""
    from ladder.uploads import UploadLimits, check_next, outcome, staging_folder

    db_path, db, ana = club_with_ana(tmp_path)
    outside = bot(tmp_path / "outside", "upload-x")
    (staging_folder(db_path)).mkdir()
    (staging_folder(db_path) / "upload-link").symlink_to(outside.parent)
    upload_id = db["uploads"].insert({"author_id": ana.id, "received_at": "2026-01-01T00:00:00+00:00", "bytes": 1,
                                      "accepted": 0, "status": "queued", "staged": staged}).last_pk
    assert trio.run(check_next, db, db_path, FakeExecutor(), UploadLimits())
    answer = outcome(db, upload_id)
    assert not answer["accepted"] and "the unpacked upload is not where it was left" in answer["report"]
    assert (outside / "bot.toml").is_file() and db["versions"].count == 0


@needs_sandbox
def test_sigkill_of_the_service_loses_nothing(tmp_path):
    db = tmp_path / "club.db"
    ana = author(db, "ana")
    port = free_port()
    service = Service(db, port)
    for name in ("k1", "k2", "k3"):
        upload = ladder("submit", "--server", service.url, "--token", ana, bot(tmp_path, name, '["tapa"]'), cwd=tmp_path)
        assert upload.returncode == 0, upload.stdout + upload.stderr
    rng = random.Random(11)
    for _ in range(10):
        time.sleep(rng.uniform(0.5, 3.0))
        assert service.stop(signal.SIGKILL) == -signal.SIGKILL
        service = Service(db, port)
    assert wait_for(lambda: open_store(db)["units"].count_where("status = 'done'") >= 12, 120)
    service.stop()
    store = open_store(db)
    rows = list(store.query("select unit_id, rotation, status, replay_path from matches"))
    assert len({(r["unit_id"], r["rotation"]) for r in rows}) == len(rows)  # nothing doubled
    assert store.execute("select count(*) from matches where status = 'running'").fetchone()[0] == 0
    for unit in store.query("select id from units where status = 'done'"):
        for match in store.query("select replay_path from matches where unit_id = ?", [unit["id"]]):
            assert verify(read_replay(db.parent / match["replay_path"])) == []
    assert json.loads(store["units"].get(next(store.query("select id from units limit 1"))["id"])["versions"])


@needs_sandbox
def test_an_author_signs_in_and_uploads_through_the_page(tmp_path):
    from playwright.sync_api import sync_playwright

    from tests.web._chromium import CHROMIUM, FLAGS

    db = tmp_path / "club.db"
    token = author(db, "ana")
    archive = tmp_path / "bot.tar.gz"
    archive.write_bytes(pack_folder(bot(tmp_path, "ana-web")))
    service = Service(db, free_port())
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            page = browser.new_page()
            page.goto(f"{service.url}/me")  # not signed in: the sign-in form
            page.wait_for_selector("form.signin")
            page.fill("input[name=token]", "kf_1_not-it")
            page.click("form.signin button")
            page.wait_for_selector("text=unknown or revoked token")
            page.fill("input[name=token]", token)
            page.click("form.signin button")
            page.wait_for_selector("text=Author ana")
            page.set_input_files("input[name=archive]", str(archive))
            page.click("form.upload button")
            page.wait_for_selector("pre.report.accepted", timeout=300_000)
            assert "accepted as ana-web version 1" in page.inner_text("pre.report.accepted")
            page.reload()
            page.wait_for_selector("text=Your bots")
            assert "ana-web" in page.inner_text("main")
            cookie = next(c for c in page.context.cookies() if c["name"] == "kafana_session")
            assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
            browser.close()
        forged = httpx.post(f"{service.url}/api/uploads", content=archive.read_bytes(), timeout=60,
                            cookies={"kafana_session": cookie["value"]})  # a cross-site form: no CSRF token
        assert forged.status_code == 403 and "X-CSRF-Token" in forged.json()["error"]
    finally:
        service.stop()
