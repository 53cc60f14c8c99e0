"""Prepared bots: one copy per content and toolchain, holding the bot's files and nothing else, built once, its
build's output shown as it comes, reused by the ladder's own copy."""

from __future__ import annotations

import fcntl
import os
import shutil
import stat
import time

import pytest

from referee.runtime import (
    BuildError,
    KnownBots,
    ManifestError,
    build,
    build_note,
    is_prepared,
    manifest,
    place_copy,
    prepare,
    prepare_bot,
    resolve_bot,
)
from referee.runtime.build import TooLarge
from referee.runtime.prepare import PREPARED, build_key
from referee.runtime.sandbox import sandbox_problem


def bot_folder(parent, build: str = '["sh", "-c", "echo built >> build-log.txt"]'):
    folder = parent / "bot"
    folder.mkdir()
    (folder / "bot.toml").write_text(f'name = "b"\ncommand = ["python3", "bot.py"]\nbuild = {build}\n')
    (folder / "bot.py").write_text("pass\n")
    (folder / "data").mkdir()
    (folder / "data" / "table.txt").write_text("weights")
    (folder / "link.txt").symlink_to("data/table.txt")
    for left_out in ("node_modules", "build", ".git", "__pycache__"):
        (folder / left_out).mkdir()
        (folder / left_out / "x").write_text("not the bot's")
    (folder / ".env").write_text("SECRET=1")
    return folder


def test_a_copy_holds_the_bot_and_nothing_else(tmp_path):
    folder = bot_folder(tmp_path)
    spec = prepare_bot(folder, tmp_path / "store")
    copy = spec.path
    assert copy.parent == tmp_path / "store" and copy.name == build_key(resolve_bot(folder))[:16]
    assert sorted(str(p.relative_to(copy)) for p in copy.rglob("*") if p.name != PREPARED) == [
        "bot.py", "bot.toml", "build-log.txt", "data", "data/table.txt", "link.txt"
    ]
    assert not (copy / "link.txt").is_symlink() and (copy / "link.txt").read_text() == "weights"
    assert stat.S_IMODE(copy.stat().st_mode) == 0o755 and is_prepared(spec)
    assert not (folder / "build-log.txt").exists()  # the build ran in the copy, not in the author's folder


def test_a_bot_is_built_once_per_content(tmp_path):
    folder = bot_folder(tmp_path)
    first = prepare_bot(folder, tmp_path / "store")
    again = prepare_bot(folder, tmp_path / "store")
    assert again.path == first.path and (first.path / "build-log.txt").read_text() == "built\n"
    assert prepare_bot(first.path, tmp_path / "other").path == first.path  # a prepared copy runs as it is
    (folder / "bot.py").write_text("pass  # new\n")
    changed = prepare_bot(folder, tmp_path / "store")
    assert changed.path != first.path and (changed.path / "build-log.txt").read_text() == "built\n"


def test_a_failed_build_is_tried_again(tmp_path):
    folder = bot_folder(tmp_path, build='["sh", "-c", "echo tried >> build-log.txt; exit 2"]')
    for attempt in (1, 2):
        with pytest.raises(BuildError, match="failed with exit code 2"):
            prepare_bot(folder, tmp_path / "store")
    (copy,) = [p for p in (tmp_path / "store").iterdir() if p.is_dir()]  # the lock beside it is a hidden file
    assert (copy / "build-log.txt").read_text() == "tried\ntried\n" and not (copy / PREPARED).exists()


def test_a_build_that_writes_past_its_bound_is_stopped_while_it_runs_and_removed(tmp_path):
    """A build that would write for ever is stopped within a measure or two of passing its bound (not at its
    time limit), and leaves no copy behind."""
    writes = "while true; do head -c 200000 /dev/zero >> blob; sleep 0.1; done"
    folder = bot_folder(tmp_path, build=f'["sh", "-c", "{writes}"]')
    start = time.monotonic()
    with pytest.raises(TooLarge, match=r"b: build .* wrote \d+\.\d MB, more than the 1 MB a bot may take"):
        prepare_bot(folder, tmp_path / "store", limit=1_000_000)
    assert time.monotonic() - start < 10
    assert [p for p in (tmp_path / "store").iterdir() if not p.name.startswith(".")] == []


def test_a_fetch_is_bounded_by_what_it_adds_to_the_shared_cache(tmp_path):
    """What a cache held before the fetch is not the bot's; what it adds while the fetch runs is."""
    (tmp_path / "copy").mkdir()
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "earlier").write_bytes(b"x" * 5_000_000)
    bound = build.DiskBound(3_000_000, tmp_path / "copy", tmp_path / "cache")
    (tmp_path / "copy" / "source").write_bytes(b"x" * 1_000_000)
    assert bound.over() is None
    (tmp_path / "cache" / "fetched").write_bytes(b"x" * 2_500_000)
    assert bound.over() == "wrote 3.5 MB, more than the 3 MB a bot may take"


def test_a_single_file_bot_runs_where_it_is(tmp_path):
    bot = tmp_path / "b.py"
    bot.write_text("pass\n")
    assert prepare_bot(bot, tmp_path / "store").path == bot and not (tmp_path / "store").exists()


def test_a_worker_hashes_a_prepared_copy_once_and_any_other_bot_every_time(tmp_path, monkeypatch):
    hashed = []
    real = manifest._hash_files
    monkeypatch.setattr(manifest, "_hash_files", lambda files, root: hashed.append(root) or real(files, root))
    folder = bot_folder(tmp_path)
    copy = prepare_bot(folder, tmp_path / "store")
    known, hashed[:] = KnownBots(), []
    first = known.resolve(copy.path)
    assert known.resolve(copy.path) is first and known.resolve(str(copy.path)) is first
    assert hashed == [copy.path] and first == resolve_bot(copy.path)
    marker = (copy.path / PREPARED).stat()
    os.utime(copy.path / PREPARED, ns=(marker.st_atime_ns, marker.st_mtime_ns + 10**9))  # the marker written anew
    again = known.resolve(copy.path)
    assert again is not first and again == first and hashed == [copy.path] * 3
    hashed[:] = []
    before = known.resolve(folder)
    (folder / "bot.py").write_text("pass  # changed\n")
    after = known.resolve(folder)
    assert hashed == [folder, folder] and before.content_hash != after.content_hash
    shutil.rmtree(copy.path)
    with pytest.raises(ManifestError, match="no bot at"):
        known.resolve(copy.path)


def test_a_new_toolchain_builds_again(tmp_path, monkeypatch):
    folder = bot_folder(tmp_path)
    first = prepare_bot(folder, tmp_path / "store")
    monkeypatch.setattr(prepare, "fingerprint", lambda folder, command: "another compiler")
    again = prepare_bot(folder, tmp_path / "store")
    assert again.path != first.path and (again.path / "build-log.txt").read_text() == "built\n"


def test_the_output_is_shown_as_it_comes_and_a_reused_build_says_so(tmp_path):
    folder = bot_folder(tmp_path, build='["sh", "-c", "echo compiling; echo linking >&2"]')
    shown: list[str] = []
    spec = prepare_bot(folder, tmp_path / "store", echo=shown.append)
    assert [line.split("] ", 1)[1] for line in shown] == ["compiling", "linking"]
    assert shown[0].startswith("[0s] ") and "in the bot's copy (built in" in build_note(spec, 0)
    shown[:] = []
    prepare_bot(folder, tmp_path / "store", echo=shown.append)
    assert len(shown) == 1 and shown[0].startswith("reused the build of this content and toolchain (built in")
    assert build_note(spec, spec.path.stat().st_mtime + 3600).startswith("reused the build")


def test_a_quiet_build_says_it_is_at_work_and_a_slow_one_names_the_option_and_resumes(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "QUIET_SECONDS", 0.2)
    folder = bot_folder(tmp_path, build='["sh", "-c", "echo step >> build-log.txt; sleep 30"]')
    shown: list[str] = []
    with pytest.raises(BuildError, match=r"took more than 1s \(raise the limit with --build-timeout SECONDS; .*running "
                                         r"it again resumes\)"):
        prepare_bot(folder, tmp_path / "store", timeout=1, echo=shown.append)
    assert any(line.endswith("still at work: sh -c echo step >> build-log.txt; sleep 30") for line in shown)
    (copy,) = [p for p in (tmp_path / "store").iterdir() if p.is_dir()]
    with pytest.raises(BuildError):
        prepare_bot(folder, tmp_path / "store", timeout=1)
    assert (copy / "build-log.txt").read_text() == "step\nstep\n"  # the same copy, as the build left it


def test_a_ladder_copy_is_the_store_build_linked_not_built_again(tmp_path):
    spec = prepare_bot(bot_folder(tmp_path), tmp_path / "store")
    placed = place_copy(spec, tmp_path / "ladder-bots")
    assert placed.path == tmp_path / "ladder-bots" / spec.path.name and is_prepared(placed)
    assert (placed.path / "build-log.txt").read_text() == "built\n"
    assert (placed.path / "bot.py").stat().st_ino == (spec.path / "bot.py").stat().st_ino  # a link: no second copy
    assert place_copy(spec, tmp_path / "ladder-bots").path == placed.path


@pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")
def test_a_build_made_outside_the_sandbox_is_not_reused_by_one_that_must_be_in_it(tmp_path):
    """Neither as it is nor as the start of the next build: a sandboxed build starts only from sandboxed ones."""
    folder = bot_folder(tmp_path, build='["sh", "-c", "mkdir -p build && id -u >> build/by.txt"]')
    trusted = prepare_bot(folder, tmp_path / "store")
    assert (trusted.path / "build" / "by.txt").read_text() == "0\n"
    sandboxed = prepare_bot(folder, tmp_path / "store", sandboxed=True)
    built_by = (sandboxed.path / "build" / "by.txt").read_text()
    assert sandboxed.path == trusted.path and built_by != "0\n"
    assert prepare_bot(folder, tmp_path / "store").path == sandboxed.path  # and a sandboxed build serves everybody
    (folder / "bot.py").write_text("pass  # new\n")
    trusted = prepare_bot(folder, tmp_path / "store")  # starts from the sandboxed build of its folder
    assert (trusted.path / "build" / "by.txt").read_text() == built_by + "0\n"
    (folder / "bot.py").write_text("pass  # newer\n")
    again = prepare_bot(folder, tmp_path / "store", sandboxed=True)  # from the sandboxed one, not the newest
    lines = (again.path / "build" / "by.txt").read_text().splitlines()
    assert len(lines) == 2 and "0" not in lines and lines[0] == built_by.strip()


SEEDED_BUILD = '["sh", "-c", "mkdir -p build && echo built >> build/log.txt"]'


def test_a_new_version_starts_from_the_last_build_of_its_folder(tmp_path):
    """A changed bot is copied anew, its build started from the output of the newest build of the same folder (the
    tools then build only what changed); a build of another folder, or a CMake project, starts from nothing."""
    folder = bot_folder(tmp_path, build=SEEDED_BUILD)
    first = prepare_bot(folder, tmp_path / "store")
    (folder / "bot.py").write_text("pass  # new\n")
    shown: list[str] = []
    second = prepare_bot(folder, tmp_path / "store", echo=shown.append)
    assert second.path != first.path and (second.path / "build" / "log.txt").read_text() == "built\nbuilt\n"
    assert shown[0].startswith("starting from the output of an earlier build (built in")
    assert (first.path / "build" / "log.txt").read_text() == "built\n"  # the earlier build is left as it was
    other = tmp_path / "other"
    shutil.copytree(folder, other)
    (other / "bot.py").write_text("pass  # other\n")
    assert (prepare_bot(other, tmp_path / "store").path / "build" / "log.txt").read_text() == "built\n"
    (folder / "CMakeLists.txt").write_text("project(b)\n")
    assert (prepare_bot(folder, tmp_path / "store").path / "build" / "log.txt").read_text() == "built\n"


def test_a_ladder_names_the_build_to_start_from(tmp_path):
    earlier = prepare_bot(bot_folder(tmp_path, build=SEEDED_BUILD), tmp_path / "store")
    upload = tmp_path / "upload"
    shutil.copytree(tmp_path / "bot", upload)
    (upload / "bot.py").write_text("pass  # version 2\n")
    again = prepare_bot(upload, tmp_path / "store", seed=earlier.path)
    assert (again.path / "build" / "log.txt").read_text() == "built\nbuilt\n"


def _aged(path, days):
    then = time.time() - days * 86400
    os.utime(path, (then, then))


def test_the_store_forgets_copies_unused_for_a_month_and_leftovers_of_a_day(tmp_path):
    """A copy nobody asked for in 30 days goes with its lock, a recent one stays, one being prepared stays
    however old, and so do staging folders younger than a day."""
    store = tmp_path / "store"
    for name in ("old", "recent", "busy", ".copy-old", ".copy-new"):
        (store / name).mkdir(parents=True)
        (store / name / "f").write_text("x")
    for name in ("old", "recent", "busy"):
        (store / f".{name}.lock").touch()
    for path in ("old", ".old.lock", "busy", ".busy.lock", ".copy-old"):
        _aged(store / path, 40 if "copy" not in path else 2)
    with (store / ".busy.lock").open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert prepare.prune_store(store) == 2
    assert sorted(p.name for p in store.iterdir()) == [".busy.lock", ".copy-new", ".recent.lock", "busy", "recent"]


def test_preparing_prunes_the_store_once_a_day(tmp_path):
    store = tmp_path / "store"
    for day in (1, 2):
        (store / f"unused{day}").mkdir(parents=True)
        _aged(store / f"unused{day}", 40)
        (tmp_path / str(day)).mkdir()
        prepare_bot(bot_folder(tmp_path / str(day)), store)
    assert not (store / "unused1").exists() and (store / "unused2").exists() and (store / ".pruned").is_file()
