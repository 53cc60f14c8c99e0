"""Child processes forked by the thread that runs trio, so that the kernel ends them with the referee.

Linux's parent-death signal (``PR_SET_PDEATHSIG``, which bubblewrap's ``--die-with-parent`` and ``setpriv
--pdeathsig`` set) fires when the *thread* that forked the child ends, whatever ends it: SIGKILL of the referee
included. :func:`trio.lowlevel.open_process` forks from worker threads that retire after idling, which would end a
bot in mid-game; :func:`spawn` forks from the calling thread instead (the thread running trio, which lives as long
as the referee), and waits for the exit through a pidfd without a thread.

:class:`Child` offers what the runtime uses of :class:`trio.Process`: the pid, the output streams, ``wait`` and
``returncode``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import trio


class Child:
    """A running child process with its stdout and stderr as trio streams."""

    def __init__(self, popen: subprocess.Popen, stdout: trio.lowlevel.FdStream, stderr: trio.lowlevel.FdStream):
        self._popen = popen
        self.pid = popen.pid
        self.stdout = stdout
        self.stderr = stderr
        try:
            self._pidfd: int | None = os.pidfd_open(popen.pid)
        except (AttributeError, OSError):  # before Linux 5.3: wait in a thread instead
            self._pidfd = None

    @property
    def returncode(self) -> int | None:
        """The exit code (negative: killed by that signal), or None while it runs."""
        return self._popen.poll()

    async def wait(self) -> int:
        """Wait for the exit (cancellable) and return the exit code."""
        if self._pidfd is not None:
            while self._popen.poll() is None:
                await trio.lowlevel.wait_readable(self._pidfd)
        else:
            await trio.to_thread.run_sync(self._popen.wait, abandon_on_cancel=True)
        return self._popen.wait()

    def close(self) -> None:
        """Release the pidfd (after the exit)."""
        if self._pidfd is not None:
            trio.lowlevel.notify_closing(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None


def spawn(
    command: Sequence[str], *, cwd: Path, env: Mapping[str, str], pass_fds: Sequence[int] = ()
) -> Child:
    """Start ``command`` in a new session, with stdin from /dev/null and stdout and stderr piped, forked from the
    calling thread (see the module's docstring).

    Raises:
        OSError: the command could not be started.
    """
    out_read, out_write = os.pipe()
    err_read, err_write = os.pipe()
    try:
        popen = subprocess.Popen(
            list(command),
            cwd=str(cwd),
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=out_write,
            stderr=err_write,
            pass_fds=tuple(pass_fds),
            start_new_session=True,
        )
    except BaseException:
        for fd in (out_read, err_read):
            os.close(fd)
        raise
    finally:
        os.close(out_write)
        os.close(err_write)
    return Child(popen, trio.lowlevel.FdStream(out_read), trio.lowlevel.FdStream(err_read))


def die_with_referee(command: Sequence[str]) -> list[str]:
    """``command`` under ``setpriv --pdeathsig KILL`` where setpriv exists: an unsandboxed bot process gets
    SIGKILL when the thread that spawned it ends (what it starts itself is the sandbox's to end).

    >>> die_with_referee(["bot"])[-1]
    'bot'
    """
    if shutil.which("setpriv") is None:
        return list(command)
    return ["setpriv", "--pdeathsig", "KILL", "--", *command]
