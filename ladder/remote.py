"""What travels to another machine to play a match: the bots' folders as archives, checked on arrival, and the
function a worker runs (:func:`play_packed_match`). It needs only the standard library and an installed Kafana.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from referee.runtime.manifest import ManifestError, resolve_bot


@dataclass(frozen=True)
class PackedBot:
    """A bot's folder as a gzipped tar, with what the worker checks: the archive's sha256 and the bot's content
    hash (as the ladder registered it), and the bot's path inside the folder (``.`` for a folder bot)."""

    archive: bytes
    sha256: str
    content_hash: str
    entry: str
    origin: str


def pack_bot(path: str) -> PackedBot:
    """Pack the bot at ``path`` (a .py file or a bot folder): its whole folder, build output included.

    Raises:
        ManifestError: ``path`` is not a bot.
    """
    spec = resolve_bot(path)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.add(spec.cwd, arcname="bot")
    data = buffer.getvalue()
    entry = "." if spec.path == spec.cwd else str(spec.path.relative_to(spec.cwd))
    return PackedBot(data, hashlib.sha256(data).hexdigest(), spec.content_hash, entry, str(spec.path))


def unpack_bot(bot: PackedBot, into: Path) -> Path:
    """Unpack ``bot`` below ``into`` and return its path there.

    Raises:
        ValueError: the archive is damaged, holds unsafe paths, or its content is not the registered bot's.
    """
    if hashlib.sha256(bot.archive).hexdigest() != bot.sha256:
        raise ValueError(f"the archive of {bot.origin} arrived damaged (sha256 mismatch)")
    with tarfile.open(fileobj=io.BytesIO(bot.archive), mode="r:gz") as archive:
        archive.extractall(into, filter="data")
    folder = into / "bot"
    folder.chmod(0o755)  # the sandbox runs the bot as another user, who must read its folder
    path = folder if bot.entry == "." else folder / bot.entry
    try:
        found = resolve_bot(path).content_hash
    except ManifestError as exc:
        raise ValueError(f"{bot.origin} did not unpack as a bot: {exc}") from None
    if found != bot.content_hash:
        raise ValueError(f"{bot.origin} unpacked with content hash {found[:12]}, registered {bot.content_hash[:12]}")
    return path


def missing_runtime(path: Path) -> str | None:
    """Why this machine cannot start the bot at ``path`` (its command's program is not installed), or None."""
    spec = resolve_bot(path)
    program = spec.command[0]
    if Path(program).is_absolute() or "/" in program:
        found = Path(program) if Path(program).is_absolute() else spec.cwd / program
        return None if found.exists() else f"{program} not found in the bot's folder"
    return None if shutil.which(program) else f"{program} is not installed on worker {socket.gethostname()}"


def play_packed_match(spec: dict, bots: list[PackedBot], timeout: float) -> dict:
    """Run on a worker: unpack the bots, run ``referee run-match`` on ``spec`` and return its exit code, output and
    replay bytes, or ``{"error": {"kind": …, "detail": …}}`` (an :class:`~ladder.executor.ExecutorError`) when the
    bots cannot be unpacked or started here, or the match runs past ``timeout`` seconds."""
    with tempfile.TemporaryDirectory(prefix="kafana-remote-") as work:
        folder = Path(work)
        folder.chmod(0o755)
        paths = []
        for index, bot in enumerate(bots):
            own = folder / f"seat{index}"
            own.mkdir()
            own.chmod(0o755)
            try:
                path = unpack_bot(bot, own)
            except ValueError as exc:
                return {"error": {"kind": "bots", "detail": str(exc)}}
            if (problem := missing_runtime(path)) is not None:
                return {"error": {"kind": "bots", "detail": f"cannot start {bot.origin}: {problem}"}}
            paths.append(str(path))
        replay = folder / "replay.jsonl"
        local = dict(spec, bots=paths, replay=str(replay), recorded_paths=[bot.origin for bot in bots])
        (folder / "spec.json").write_text(json.dumps(local))
        try:
            done = subprocess.run(
                [sys.executable, "-m", "referee.cli", "run-match", str(folder / "spec.json")],
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return {"error": {"kind": "timeout", "detail": f"the match took more than {timeout:g}s"}}
        return {
            "returncode": done.returncode,
            "stdout": done.stdout,
            "stderr": done.stderr[-4000:],
            "replay": replay.read_bytes() if replay.exists() else None,
            "worker": socket.gethostname(),
        }
