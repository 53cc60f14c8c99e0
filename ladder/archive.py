"""Bot folders as upload archives: packed with exactly the files a bot's copy holds, and checked before anything
of them touches the disk.

An upload is a gzipped tar of a bot folder (:func:`pack_folder`), or of a single-file Python bot and the manifest
that runs it (:func:`pack_file`). :func:`unpack_checked` refuses, with the reason,
an archive that is too large as sent or once unpacked (a decompression bomb stops at the limit, never unpacked in
whole), holds too many files, a path that is absolute, climbs out with ``..`` or is not plain text, or anything
but plain files and folders (links, hard links, devices, pipes); nothing is left on disk when it refuses.

Memory per upload is bounded before anything is read: the archive as sent (:attr:`ArchiveLimits.archive_bytes`),
and of what it unpacks to, one header's extension at most (:data:`HEADER_BYTES`: a GNU long name or a pax header,
which ``tarfile`` would otherwise read whole, however large it says it is) and the copy buffer of one file; sparse
members are refused before their maps are read.
"""

from __future__ import annotations

import io
import json
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from referee.runtime.manifest import MANIFEST, folder_files

HEADER_BYTES = 64 << 10
"""The largest extended header (a GNU long name or link, a pax header) an archive may hold: a path is at most a
few kilobytes."""


class ArchiveError(ValueError):
    """An archive that is refused; the message says which limit or rule it broke."""


class _BoundedHeader(tarfile.TarInfo):
    """A tar header whose extensions are checked before ``tarfile`` reads them (it reads a long name or a pax header
    whole, as one string in memory, and follows a chain of them by recursion)."""

    def _proc_member(self, tarfile_: tarfile.TarFile) -> tarfile.TarInfo:  # the private hook typeshed omits
        assert isinstance(tarfile_, _BoundedTar)
        if self.type == tarfile.GNUTYPE_SPARSE:
            raise ArchiveError(f"{self.name!r} is a sparse file: a bot folder holds plain files")
        if self.type not in _EXTENDED:
            tarfile_.extended_run = 0
            return super()._proc_member(tarfile_)  # type: ignore[misc]
        tarfile_.extended_run += 1
        tarfile_.extended_bytes += self.size
        if self.size > HEADER_BYTES:
            raise ArchiveError(f"an extended header of {self.size} bytes, more than the {HEADER_BYTES} allowed")
        if tarfile_.extended_run > EXTENDED_RUN:
            raise ArchiveError(f"more than {EXTENDED_RUN} extended headers before one file")
        if tarfile_.extended_bytes > EXTENDED_BYTES:
            raise ArchiveError(f"extended headers of more than {EXTENDED_BYTES} bytes in all")
        return super()._proc_member(tarfile_)  # type: ignore[misc]


class _BoundedTar(tarfile.TarFile):
    """A tar file read with :class:`_BoundedHeader` headers, counting their extensions."""

    tarinfo = _BoundedHeader
    extended_run = 0
    extended_bytes = 0


_EXTENDED = (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK, tarfile.XHDTYPE, tarfile.XGLTYPE,
             tarfile.SOLARIS_XHDTYPE)
EXTENDED_RUN = 4
"""Extended headers in a row before a member (a pax header, a long name and a long link name are three)."""
EXTENDED_BYTES = 1 << 20
"""Extended headers of one archive, all together."""


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


def pack_file(path: Path, name: str) -> bytes:
    """The upload archive of the single-file Python bot ``path``, named ``name`` (the name its Hello gives): the
    file and a manifest that runs it with ``python3``."""
    manifest = f"name = {json.dumps(name)}\ncommand = [\"python3\", {json.dumps(path.name)}]\n".encode()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in ((MANIFEST, manifest), (path.name, path.read_bytes())):
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(data), 0o644
            archive.addfile(info, io.BytesIO(data))
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
        with _BoundedTar.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
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
