"""Upload archives: packed with a bot copy's files; every dangerous or oversized archive refused with its reason,
leaving nothing on disk."""

from __future__ import annotations

import gzip
import io
import subprocess
import sys
import tarfile
import zlib
from pathlib import Path

import pytest

from ladder.archive import HEADER_BYTES, ArchiveError, ArchiveLimits, pack_file, pack_folder, unpack_checked

from ._fakes import random_bot_folder

ROOT = Path(__file__).resolve().parents[2]


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


def extended(kind: bytes, size: int) -> bytes:
    """The 512-byte header of an extended header (a GNU long name, a pax header) that says it holds ``size`` bytes."""
    info = tarfile.TarInfo("././@LongLink")
    info.type = kind
    info.size = size
    return info.tobuf(format=tarfile.USTAR_FORMAT) if kind != tarfile.GNUTYPE_LONGNAME else info.tobuf(
        format=tarfile.GNU_FORMAT)


def gzipped_stream(*parts: bytes | int) -> bytes:
    """A gzip of ``parts`` in turn: bytes as they are, a number as that many zero bytes (compressed a chunk at a
    time, never held whole)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunks = []
    for part in parts:
        if isinstance(part, bytes):
            chunks.append(packer.compress(part))
            continue
        zeros = bytes(1 << 20)
        for _ in range(part >> 20):
            chunks.append(packer.compress(zeros))
    chunks.append(packer.flush())
    return b"".join(chunks)


def test_a_long_name_of_a_quarter_gigabyte_is_refused_without_reading_it(tmp_path):
    """tarfile reads a GNU long name whole: 256 MiB of zeros sent in about 256 KB. The check refuses its header;
    the process that unpacks grows by less than 64 MB."""
    data = gzipped_stream(extended(tarfile.GNUTYPE_LONGNAME, 256 << 20), 256 << 20)
    assert len(data) < ArchiveLimits().archive_bytes
    archive = tmp_path / "bomb.tar.gz"
    archive.write_bytes(data)
    into = tmp_path / "into"
    into.mkdir()
    script = (
        "import resource, sys; from pathlib import Path; from ladder.archive import ArchiveError, unpack_checked\n"
        "data = Path(sys.argv[1]).read_bytes(); before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n    unpack_checked(data, Path(sys.argv[2]))\nexcept ArchiveError as exc:\n    print(exc)\n"
        "print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) >> 10)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(archive), str(into)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=True)
    said, grown_mb = done.stdout.strip().splitlines()
    assert said == f"an extended header of {256 << 20} bytes, more than the {HEADER_BYTES} allowed"
    assert int(grown_mb) < 64, grown_mb
    assert list(into.iterdir()) == []


@pytest.mark.parametrize(
    ("blocks", "words"),
    [
        ([extended(tarfile.XHDTYPE, 0)] * 50, "more than 4 extended headers before one file"),
        ([extended(tarfile.XGLTYPE, 0), extended(tarfile.GNUTYPE_LONGNAME, 0)] * 50, "more than 4 extended"),
        ([extended(tarfile.XGLTYPE, HEADER_BYTES) + bytes(HEADER_BYTES) + member(f"f{k}", b"")[0].tobuf()
          for k in range(20)], "extended headers of more than 1048576 bytes in all"),
    ],
)
def test_chains_of_extended_headers_are_refused(tmp_path, blocks, words):
    with pytest.raises(ArchiveError, match=words):
        unpack_checked(gzip.compress(b"".join(blocks) + bytes(1024)), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_sparse_file_is_refused(tmp_path):
    info, data = member("holes", b"")
    info.type = tarfile.GNUTYPE_SPARSE
    raw = MANIFEST[0].tobuf(format=tarfile.GNU_FORMAT) + MANIFEST[1].ljust(512, b"\0") + info.tobuf(
        format=tarfile.GNU_FORMAT) + bytes(1024)
    with pytest.raises(ArchiveError, match="'holes' is a sparse file"):
        unpack_checked(gzip.compress(raw), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_the_pax_headers_of_long_names_and_git_archive_still_unpack(tmp_path):
    long_name = "src/" + "deep/" * 40 + "module.py"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT,
                      pax_headers={"comment": "0" * 40}) as archive:  # as git archive writes its commit
        for info, data in (MANIFEST, member(long_name, b"print(1)"), member("naïve.txt", b"x")):
            archive.addfile(info, io.BytesIO(data))
    folder = unpack_checked(buffer.getvalue(), tmp_path)
    assert (folder / long_name).read_text() == "print(1)" and (folder / "naïve.txt").is_file()


def test_a_single_python_file_is_packed_with_a_manifest_that_runs_it(tmp_path):
    from referee.runtime import resolve_bot

    shipped = ROOT / "bots" / "python" / "random_bot.py"
    folder = unpack_checked(pack_file(shipped, "random"), tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == ["bot.toml", "random_bot.py"]
    assert (folder / "random_bot.py").read_bytes() == shipped.read_bytes()
    spec = resolve_bot(folder)
    assert spec.manifest == {"name": "random", "command": ["python3", "random_bot.py"]}
    assert spec.command[-1] == "random_bot.py"
