"""Reaching a sandboxed bot's Unix socket without following any path the bot controls, and checking who listens.

A sandboxed bot listens in its private /tmp, which the referee (root, outside the sandbox) reaches through the
sandbox's root as the kernel shows it, ``/proc/PID/root``. Everything in that /tmp is the bot's to make: a symbolic
link there would be followed by the referee as the referee, so that ``/proc/self/…`` would name the referee's own
descriptors (into other bots' sandboxes) and an absolute path any socket of the host. So the referee never resolves
the bot's path: it walks from the sandbox's root one name at a time, each opened ``O_PATH | O_NOFOLLOW`` (a link
is refused, never followed), checks that it found a socket owned by the bot's uid, and connects through its own
descriptor of that socket (``/proc/self/fd/N``, which names that inode and nothing else, whatever the bot renames
later). Before the first call it connects once and asks the kernel who listens (``SO_PEERCRED``): the bot's uid,
and a process in the sandbox's PID namespace. Anything else is a :class:`SocketRefused` naming it.
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import struct

from .printable import printable

_PEERCRED = struct.Struct("3i")  # struct ucred: pid, uid, gid


class SocketRefused(Exception):
    """The bot's socket is not one the referee will connect to; the message says why."""


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


class SandboxSocket:
    """The socket at ``folder/name`` below the root of the sandbox whose first process is ``sandbox_pid``, made by
    the bot that runs as ``uid``. :meth:`find` until it is there; then :attr:`address` reaches it and
    :attr:`tmp_fd` is a descriptor of its folder. :meth:`close` lets both go."""

    def __init__(self, sandbox_pid: int, uid: int, folder: str = "tmp", name: str = "kafana-bot.sock") -> None:
        self.sandbox_pid = sandbox_pid
        self.uid = uid
        self.folder = folder
        self.name = name
        self.tmp_fd: int | None = None
        self._fd: int | None = None

    @property
    def address(self) -> str:
        """The gRPC address of the socket found (through the referee's own descriptor)."""
        assert self._fd is not None, "find() the socket first"
        return f"unix:/proc/self/fd/{self._fd}"

    def find(self) -> bool:
        """Look for the socket (once): True when it is there and listens for the bot, False while the sandbox is
        being made or the bot has not started listening.

        Raises:
            SocketRefused: what is there is a link, not a socket, another uid's, or heard by another process.
        """
        if self._fd is None:
            if self.tmp_fd is None:
                self.tmp_fd = self._open_folder()
            if self.tmp_fd is None:
                return False
            self._fd = self._open_socket(self.tmp_fd)
            if self._fd is None:
                return False
        return self._listening()

    def _open_folder(self) -> int | None:
        """The sandbox's /tmp, once bubblewrap has made the sandbox's root (until then the root is the host's, or
        bubblewrap's scaffolding, which has no /tmp)."""
        try:
            root = os.open(f"/proc/{self.sandbox_pid}/root", os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            if _same_file(os.fstat(root), os.stat("/")):
                return None
            return os.open(self.folder, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=root)
        except OSError:
            return None
        finally:
            os.close(root)

    def _open_socket(self, tmp: int) -> int | None:
        try:
            fd = os.open(self.name, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=tmp)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise SocketRefused(f"its socket /{self.folder}/{self.name} cannot be opened: {exc.strerror}") from None
        found = os.fstat(fd)
        problem = None
        if stat.S_ISLNK(found.st_mode):
            target = "?"
            with contextlib.suppress(OSError):
                target = printable(os.readlink(self.name, dir_fd=tmp))[:200]
            problem = f"is a symbolic link (to {target!r}): the referee follows no link a bot makes"
        elif not stat.S_ISSOCK(found.st_mode):
            problem = "is not a socket"
        elif found.st_uid != self.uid:
            problem = f"belongs to uid {found.st_uid}, not to the bot's uid {self.uid}"
        if problem is not None:
            os.close(fd)
            raise SocketRefused(f"its socket /{self.folder}/{self.name} {problem}")
        return fd

    def _listening(self) -> bool:
        """Whether a process listens on the socket; the kernel's word on who it is must be the bot's."""
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
        try:
            probe.settimeout(1.0)
            try:
                probe.connect(f"/proc/self/fd/{self._fd}")
            except (ConnectionRefusedError, TimeoutError, BlockingIOError):  # bound, not (yet) listening
                return False
            pid, uid, _ = _PEERCRED.unpack(probe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEERCRED.size))
        except OSError as exc:
            raise SocketRefused(f"its socket /{self.folder}/{self.name} cannot be reached: {exc.strerror}") from None
        finally:
            probe.close()
        if uid != self.uid:
            raise SocketRefused(f"the process listening on /{self.folder}/{self.name} runs as uid {uid}, not as the "
                                f"bot's uid {self.uid}")
        if not self._in_sandbox(pid):
            raise SocketRefused(f"the process listening on /{self.folder}/{self.name} is not in the bot's sandbox")
        return True

    def _in_sandbox(self, pid: int) -> bool:
        """Whether ``pid`` is in the sandbox's PID namespace (a listener that has ended since it listened cannot be
        placed: its uid, unique to this bot while it runs, has to do)."""
        try:
            theirs = os.readlink(f"/proc/{pid}/ns/pid")
        except OSError:
            return True
        try:
            return theirs == os.readlink(f"/proc/{self.sandbox_pid}/ns/pid")
        except OSError:
            return False

    def close(self) -> None:
        """Let go of the descriptors (idempotent)."""
        for fd in (self._fd, self.tmp_fd):
            if fd is not None:
                os.close(fd)
        self._fd = self.tmp_fd = None
