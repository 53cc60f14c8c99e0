"""Uploading a bot to a club ladder (``ladder submit --server``): packed as the club's copy of it would hold it,
sent over HTTP with the author's token, answered by the club's check report."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import trio

from referee.runtime import ManifestError, probe_hello, resolve_bot

from .archive import pack_file, pack_folder

UPLOAD_TIMEOUT = 1200.0
"""Seconds an upload waits for the club's answer: the club builds and checks the bot before it answers."""


class NotUploadable(ValueError):
    """The bot cannot be uploaded as it is (not a bot, a broken manifest, a single file that does not answer
    Hello); the message says why."""


class UploadFailed(RuntimeError):
    """The club could not be reached, or answered without a report; the message says why."""


@dataclass(frozen=True)
class Answer:
    """The club's answer to an upload: its check report, and whether the bot was entered."""

    report: str
    accepted: bool


def _hello_name(path: Path) -> str:
    """The name the single-file bot ``path`` gives in its Hello (it is started here, as ``referee hello`` does)."""
    info, fault, _ = trio.run(partial(probe_hello, resolve_bot(path)))
    if info is None:
        assert fault is not None
        raise NotUploadable(f"{path} did not answer Hello ({fault.kind}: {fault.message}): referee hello {path} "
                            "shows more")
    return info.name


def upload(server: str, token: str, path: Path) -> Answer:
    """Pack the bot at ``path`` (a folder with a bot.toml, or a single .py file) and upload it to the club at
    ``server`` (``http://HOST:PORT``) as the author of ``token``.

    Raises:
        NotUploadable: ``path`` is no bot that can be uploaded.
        UploadFailed: the club could not be reached or gave no report.
    """
    if not path.is_dir() and path.suffix != ".py":
        raise NotUploadable(f"{path} is not a bot: an upload is a folder with a bot.toml, or a single .py file")
    try:
        data = pack_folder(path) if path.is_dir() else pack_file(path, _hello_name(path))
    except ManifestError as exc:
        raise NotUploadable(str(exc)) from None
    request = urllib.request.Request(f"{server.rstrip('/')}/api/uploads", data=data, method="POST",
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/gzip"})
    try:
        with urllib.request.urlopen(request, timeout=UPLOAD_TIMEOUT) as response:
            answer = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        try:
            answer = json.loads(exc.read())
        except ValueError:
            raise UploadFailed(f"{server} answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise UploadFailed(f"cannot reach {server}: {getattr(exc, 'reason', exc)}") from None
    if "report" not in answer:
        raise UploadFailed(answer.get("error", "the server refused the upload"))
    return Answer(answer["report"], bool(answer["accepted"]))
