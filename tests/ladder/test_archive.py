"""Upload archives: packed with a bot copy's files; every dangerous or oversized archive refused with its reason,
leaving nothing on disk."""

from __future__ import annotations

import gzip
import io
import tarfile

import pytest

from ladder.archive import ArchiveError, ArchiveLimits, pack_folder, unpack_checked

from ._fakes import random_bot_folder


def tar(members: list[tuple[tarfile.TarInfo, bytes | None]]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for info, data in members:
            archive.addfile(info, io.BytesIO(data) if data is not None else None)
    return buffer.getvalue()


def member(name: str, data: bytes = b"x", kind: bytes = tarfile.REGTYPE, link: str = "") -> tuple:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    info.linkname = link
    return info, data if kind == tarfile.REGTYPE else None


MANIFEST = member("bot.toml", b'name = "b"\ncommand = ["python3", "bot.py"]\n')


def test_a_packed_folder_unpacks_as_the_same_bot(tmp_path):
    bot = random_bot_folder(tmp_path, "roundtrip")
    (bot / "node_modules").mkdir()
    (bot / "node_modules" / "big.js").write_text("left out")
    (bot / ".secret").write_text("left out")
    into = tmp_path / "into"
    into.mkdir()
    folder = unpack_checked(pack_folder(bot), into)
    assert sorted(p.name for p in folder.iterdir()) == ["bot.py", "bot.toml"]
    assert (folder / "bot.py").read_text() == (bot / "bot.py").read_text()


@pytest.mark.parametrize(
    ("members", "words"),
    [
        ([MANIFEST, member("../escape.py")], "climbs out of the bot's folder"),
        ([MANIFEST, member("/etc/cron.d/x")], "is an absolute path"),
        ([MANIFEST, member("data/../../x")], "climbs out"),
        ([MANIFEST, member("out", kind=tarfile.SYMTYPE, link="/etc/passwd")], "is a link (to '/etc/passwd')"),
        ([MANIFEST, member("hard", kind=tarfile.LNKTYPE, link="bot.toml")], "is a link"),
        ([MANIFEST, member("dev", kind=tarfile.CHRTYPE)], "not a plain file or folder"),
        ([MANIFEST, member("fifo", kind=tarfile.FIFOTYPE)], "not a plain file or folder"),
        ([MANIFEST, member("new\nline")], "not a plain file name"),
        ([member("bot.py")], "has no bot.toml at its top"),
    ],
)
def test_dangerous_archives_are_refused_and_leave_nothing(tmp_path, members, words):
    with pytest.raises(ArchiveError, match=words.replace("(", r"\(").replace(")", r"\)")):
        unpack_checked(tar(members), tmp_path)
    assert list(tmp_path.iterdir()) == [] and not (tmp_path.parent / "escape.py").exists()


def test_a_huge_file_too_many_files_and_a_bomb_are_refused(tmp_path):
    limits = ArchiveLimits(archive_bytes=1 << 20, unpacked_bytes=4 << 20, files=20)
    with pytest.raises(ArchiveError, match="more than 20 files"):
        unpack_checked(tar([MANIFEST, *[member(f"f{k}") for k in range(30)]]), tmp_path, limits)
    with pytest.raises(ArchiveError, match="unpacks to more than 4194304 bytes"):
        unpack_checked(tar([MANIFEST, member("zeros", b"\0" * (8 << 20))]), tmp_path, limits)  # 8 MiB in ~8 KB
    with pytest.raises(ArchiveError, match="is 2097152 bytes, more than the 1048576 allowed"):
        unpack_checked(b"x" * (2 << 20), tmp_path, limits)
    with pytest.raises(ArchiveError, match="cannot be read as a gzipped tar"):
        unpack_checked(gzip.compress(b"not a tar at all" * 100), tmp_path, limits)
    assert list(tmp_path.iterdir()) == []
