"""Prepared bots: one copy per content hash, holding the bot's files and nothing else, built once."""

from __future__ import annotations

import os
import shutil
import stat

import pytest

from referee.runtime import BuildError, KnownBots, ManifestError, is_prepared, manifest, prepare_bot, resolve_bot
from referee.runtime.prepare import PREPARED


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
    assert copy.parent == tmp_path / "store" and copy.name == resolve_bot(folder).content_hash[:16]
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
