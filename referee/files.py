"""Files written whole or not at all: made under a temporary name in the folder they belong in, then renamed.

A reader (``referee verify``, the web, a second run) sees either no file or the finished one, never a half-written
or interleaved one, whatever happens to the writer.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from pathlib import Path
from typing import TextIO

MODE = 0o644
"""The permissions of a file written here: its owner writes, everybody reads, as most files (a temporary file would
be its owner's alone; a ladder's web, which runs as another user, reads the replays its workers write)."""


def open_temporary(path: Path) -> tuple[Path, TextIO]:
    """A new hidden temporary file beside ``path`` (``.NAME.…part``, :data:`MODE`), open for writing text.

    Raises:
        OSError: the folder of ``path`` does not exist or cannot be written.
    """
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.fchmod(fd, MODE)
    return Path(temporary), os.fdopen(fd, "w", encoding="utf-8")


def publish(temporary: Path, path: Path, overwrite: bool = False) -> Path:
    """Give the finished ``temporary`` its name ``path`` in one step and return the name it got. Without
    ``overwrite`` an existing file is never replaced: the first free ``STEM~2.SUFFIX``, ``STEM~3.SUFFIX``, … is
    taken instead (claimed atomically, so two writers never get the same name).
    """
    if overwrite:
        os.replace(temporary, path)
        return path
    for number in itertools.count(1):
        candidate = path if number == 1 else path.with_name(f"{path.stem}~{number}{path.suffix}")
        try:
            os.link(temporary, candidate)
        except FileExistsError:
            continue
        os.unlink(temporary)
        return candidate
    raise AssertionError("unreachable")


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` (replacing it) so that no reader ever sees part of it."""
    temporary, handle = open_temporary(path)
    try:
        with handle:
            handle.buffer.write(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
