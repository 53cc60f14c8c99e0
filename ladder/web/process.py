"""The club service's web in a process of its own, holding no right it does not need.

``ladder serve --play`` runs as root when it sandboxes bots (each bot gets a uid of its own), but the code that
reads what strangers send (HTTP, sign-ins, upload archives) needs none of that. So the service binds its port,
then starts the web as a separate process that serves on the bound socket it inherits:

- as its own unprivileged uid (``--user NAME``, else :data:`WEB_UID`), with no capability (``setpriv``: no
  groups, empty inheritable and bounding sets, no new privileges);
- in bubblewrap namespaces: no network (it accepts on the inherited socket and reaches nothing else), no view of
  the service's processes, a private ``/tmp``; it sees the system read-only, the Python installation and the
  ladder's code read-only, the replays read-only, and can write only the database (its file and WAL) and the
  uploads' staging folder, which are given to its uid;
- ended with the service: its standard input is a pipe from the service, and it stops when that closes, which
  the kernel does when the service ends however it ends (bubblewrap's ``--die-with-parent`` would not do: it
  fires when the *thread* that started the process ends, and trio starts processes from worker threads that
  retire); a thread of its own ends it outright :data:`GRACE_SECONDS` later if its event loop is stuck and has
  not stopped it (:func:`end_with_the_service`); and the service ends, saying why, when the web ends.

Uploads cross over through the database: the web unpacks and records them, the service's own process builds and
checks them in the sandbox (:mod:`ladder.uploads`). Without root (a developer's machine), there is nothing to
drop: the web runs as a plain child process of the same user.
"""

from __future__ import annotations

import os
import pwd
import select
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import trio

from referee.runtime.sandbox import mounted, readable_roots, system_mounts

WEB_UID = 60999
"""The web's uid when the operator names no user: below the sandboxed bots' uids, in no group."""
SOURCE = Path(__file__).resolve().parents[2]
"""The ladder's source tree (an editable install runs from it)."""


class WebStopped(RuntimeError):
    """The web process ended while the service ran; the message says how."""


@dataclass(frozen=True)
class WebUser:
    """Who the web runs as."""

    uid: int
    gid: int


def web_user(name: str | None) -> WebUser | None:
    """The user the web runs as: ``name``'s, else :data:`WEB_UID`, when this process is root; None (no change)
    otherwise.

    Raises:
        ValueError: ``name`` is no user of this machine, is root, or is given without root.
    """
    if os.geteuid() != 0:
        if name is not None:
            raise ValueError(f"--user {name}: only a service started as root can run its web as another user")
        return None
    if name is None:
        return WebUser(WEB_UID, WEB_UID)
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise ValueError(f"--user {name}: no such user on this machine") from None
    if entry.pw_uid == 0:
        raise ValueError(f"--user {name}: the web must not run as root")
    return WebUser(entry.pw_uid, entry.pw_gid)


def writable(db_path: Path, staging: Path) -> list[Path]:
    """What the web writes: the database, its WAL and shared-memory files, and the uploads' staging folder."""
    return [db_path, db_path.with_name(db_path.name + "-wal"), db_path.with_name(db_path.name + "-shm"), staging]


def give(db_path: Path, staging: Path, user: WebUser) -> None:
    """Make what the web writes (:func:`writable`) the web user's (created when missing)."""
    staging.mkdir(parents=True, exist_ok=True)
    for path in writable(db_path, staging):
        path.touch(exist_ok=True)
        os.chown(path, user.uid, user.gid)


def jailed(command: Sequence[str], user: WebUser, db_path: Path, staging: Path, replays: Path,
           seats: Path) -> list[str]:
    """``command`` run in the web's jail (see the module's docstring) as ``user``; ``seats`` is the folder of the
    people's games' sockets (:mod:`ladder.challenges`), which it reaches read-only."""
    wrapped = [
        "bwrap", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
        "--new-session", "--proc", "/proc", "--dev", "/dev", *system_mounts(), "--perms", "1777", "--tmpfs", "/tmp",
    ]
    readable = sorted({*readable_roots(), SOURCE, replays, seats})
    wrapped += mounted([*(("--ro-bind", folder) for folder in readable),
                        *(("--bind", path) for path in writable(db_path, staging))])
    return [
        *wrapped, "--chdir", str(db_path.parent), "--",
        "setpriv", f"--reuid={user.uid}", f"--regid={user.gid}", "--clear-groups", "--inh-caps=-all",
        "--bounding-set=-all", "--no-new-privs", "--", *command,
    ]


async def run_web(
    arguments: Sequence[str], listener: socket.socket, user: WebUser | None, db_path: Path, staging: Path,
    replays: Path, seats: Path,
) -> None:
    """Run the web process (``ladder web-process`` with ``arguments``, serving on ``listener``) until cancelled;
    stop it then.

    Raises:
        WebStopped: it ended on its own (the service must not go on half alive).
    """
    command = [sys.executable, "-m", "ladder.cli", "web-process", "--fd", str(listener.fileno()), *arguments]
    if user is not None:
        if shutil.which("bwrap") is None or shutil.which("setpriv") is None:
            raise WebStopped("the web cannot drop root's rights here: install bubblewrap (bwrap) and setpriv")
        give(db_path, staging, user)
        replays.mkdir(parents=True, exist_ok=True)
        os.chown(replays, -1, user.gid)  # the replays (readable files: the web reads them) reach the web's group
        replays.chmod(0o750)             # and nobody else: a finished half shows its unit's seed
        seats.mkdir(exist_ok=True)
        command = jailed(command, user, db_path.resolve(), staging.resolve(), replays.resolve(), seats.resolve())
    process = await trio.lowlevel.open_process(command, stdin=subprocess.PIPE, pass_fds=(listener.fileno(),))
    try:
        code = await process.wait()
    finally:
        with trio.CancelScope(shield=True):
            if process.stdin is not None:
                await process.stdin.aclose()
            with trio.move_on_after(5):
                await process.wait()
            if process.returncode is None:
                process.kill()
                await process.wait()
    raise WebStopped(f"the web server stopped (exit status {code}): the service stops too; start it again")


GRACE_SECONDS = 10.0
"""How long the web may take to stop cleanly once the service is gone."""


def end_with_the_service(grace: float = GRACE_SECONDS) -> None:
    """Start a thread that waits for standard input to close (the service ended) and then ends this process
    ``grace`` seconds later, whatever its event loop is doing (the loop's own watch stops it cleanly first)."""

    def watch(fd: int) -> None:
        ready = select.poll()  # the loop's own watch makes standard input non-blocking: wait, then read
        ready.register(fd, select.POLLIN | select.POLLHUP)
        while True:
            ready.poll()
            try:
                if not os.read(fd, 4096):
                    break
            except BlockingIOError:
                continue
        time.sleep(grace)
        os._exit(0)

    threading.Thread(target=watch, args=(os.dup(0),), name="end-with-the-service", daemon=True).start()


def serve_web(db_path: Path, fd: int, cache_seconds: float, behind_tls: bool, visitors_play: bool = False) -> None:
    """The web process's own work: serve the club's app on the inherited socket ``fd`` until its standard input
    closes (the service ended); ``visitors_play``: visitors may play the bots."""
    from hypercorn.config import Config
    from hypercorn.trio import serve

    from ..uploads import UploadLimits
    from .app import make_app
    from .club import Club

    config = Config()
    config.bind = [f"fd://{fd}"]
    config.accesslog = None
    app = make_app(db_path, Club(db_path, UploadLimits(), behind_tls, visitors_play), cache_seconds, behind_tls)

    end_with_the_service()

    async def until_the_service_ends() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(serve, app, config)
            service = trio.lowlevel.FdStream(os.dup(0))
            while await service.receive_some():
                pass
            nursery.cancel_scope.cancel()

    trio.run(until_the_service_ends)
