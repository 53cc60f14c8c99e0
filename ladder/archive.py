"""Bot folders as upload archives: packed with exactly the files a bot's copy holds, and checked before anything
of them touches the disk.

An upload is a gzipped tar of a bot folder (:func:`pack_folder`). :func:`unpack_checked` refuses, with the reason,
an archive that is too large as sent or once unpacked (a decompression bomb stops at the limit, never unpacked in
whole), holds too many files, a path that is absolute, climbs out with ``..`` or is not plain text, or anything
but plain files and folders (links, hard links, devices, pipes); nothing is left on disk when it refuses.
"""

from __future__ import annotations

import io
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from referee.runtime.manifest import MANIFEST, folder_files


class ArchiveError(ValueError):
    """An archive that is refused; the message says which limit or rule it broke."""


@dataclass(frozen=True)
class ArchiveLimits:
    """What one upload may hold."""

    archive_bytes: int = 8 << 20
    """Size of the archive as sent."""
    unpacked_bytes: int = 64 << 20
    """All its files together, unpacked."""
    files: int = 2000
    """Files and folders in it."""


def pack_folder(folder: Path) -> bytes:
    """The upload archive of the bot folder ``folder``: the files its copy would hold (links inside become their
    files; a link out is refused by :func:`referee.runtime.manifest.folder_files`)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path in sorted(folder_files(folder)):
            info = archive.gettarinfo(str(path), arcname=str(path.relative_to(folder)))
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mode = 0o644 | (info.mode & 0o111)
            with path.open("rb") as handle:
                archive.addfile(info, handle)
    return buffer.getvalue()


def _member_problem(member: tarfile.TarInfo) -> str | None:
    name = member.name
    path = PurePosixPath(name)
    if not name or not name.isprintable() or "\\" in name:
        return f"the name {name!r} is not a plain file name"
    if path.is_absolute():
        return f"{name!r} is an absolute path"
    if ".." in path.parts:
        return f"{name!r} climbs out of the bot's folder"
    if member.issym() or member.islnk():
        return f"{name!r} is a link (to {member.linkname!r}): a bot folder holds its files itself"
    if not (member.isfile() or member.isdir()):
        return f"{name!r} is not a plain file or folder (a device, a pipe or another special file)"
    return None


def unpack_checked(data: bytes, into: Path, limits: ArchiveLimits = ArchiveLimits()) -> Path:
    """Unpack the upload ``data`` into a new folder below ``into`` and return it.

    Raises:
        ArchiveError: the archive breaks a rule or a limit (see the module's docstring); nothing is left behind.
    """
    if len(data) > limits.archive_bytes:
        raise ArchiveError(f"the archive is {len(data)} bytes, more than the {limits.archive_bytes} allowed")
    folder = Path(tempfile.mkdtemp(prefix="upload-", dir=into))
    try:
        _unpack(data, folder, limits)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    if not (folder / MANIFEST).is_file():
        shutil.rmtree(folder, ignore_errors=True)
        raise ArchiveError(f"the archive has no {MANIFEST} at its top")
    return folder


def _unpack(data: bytes, folder: Path, limits: ArchiveLimits) -> None:
    unpacked = 0
    count = 0
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for member in archive:  # headers one by one: a member's size is known before its bytes are read
                count += 1
                if count > limits.files:
                    raise ArchiveError(f"the archive holds more than {limits.files} files")
                if (problem := _member_problem(member)) is not None:
                    raise ArchiveError(problem)
                unpacked += member.size
                if unpacked > limits.unpacked_bytes:
                    raise ArchiveError(f"the archive unpacks to more than {limits.unpacked_bytes} bytes")
                target = folder / member.name
                if member.isdir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                source = archive.extractfile(member)
                assert source is not None
                with target.open("wb") as handle:
                    shutil.copyfileobj(source, handle)
                target.chmod(0o755 if member.mode & 0o111 else 0o644)
    except (tarfile.TarError, EOFError, OSError, UnicodeError) as exc:
        raise ArchiveError(f"the archive cannot be read as a gzipped tar: {exc}") from None
    for path in [folder, *(p for p in folder.rglob("*") if p.is_dir())]:
        path.chmod(0o755)
