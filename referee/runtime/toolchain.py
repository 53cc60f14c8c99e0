"""The toolchain a bot's build depends on, as a fingerprint: a build is reused only by the same bot on the same tools.

A prepared copy is named by the bot's content hash and this fingerprint (:mod:`.prepare`): the commands its
ecosystems use (:mod:`.fetch`), CMake and the C/C++ compilers for a CMake project, the first word of its build
command, and the Python that runs the referee, each as the file it resolves to with its size and time of change.
A toolchain upgraded in place (a new ``rustc`` in rustup's folder, a Debian package) changes the fingerprint, so
its bots are built again; nothing is run to find it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from .fetch import ecosystems
from .sandbox import rust_toolchain

CMAKE_TOOLS = ("cmake", "c++", "cc")


@functools.cache
def _stamp(tool: str) -> str:
    """``tool`` as found on the search path: its file, size and time of change ("" when missing)."""
    if tool == "rustc" and (sysroot := rust_toolchain()) is not None:
        found: str | None = str(sysroot / "bin" / "rustc")  # rustup's proxy hides the toolchain it runs
    else:
        found = shutil.which(tool)
    if found is None:
        return ""
    real = os.path.realpath(found)
    try:
        stat = os.stat(real)
    except OSError:
        return ""
    return f"{real}:{stat.st_size}:{stat.st_mtime_ns}"


def fingerprint(folder: Path, build: Sequence[str]) -> str:
    """The fingerprint (hex) of the tools that build the bot in ``folder`` with the command ``build``."""
    tools = {tool for ecosystem in ecosystems(folder) for tool in ecosystem.tools}
    if (folder / "CMakeLists.txt").is_file():
        tools.update(CMAKE_TOOLS)
    if build and "/" not in build[0]:  # a script of the bot's own is part of its content
        tools.add(build[0])
    digest = hashlib.sha256(sys.version.encode())
    for tool in sorted(tools):
        digest.update(f"\0{tool}={_stamp(tool)}".encode())
    return digest.hexdigest()
