"""The referee follows no link a sandboxed bot makes: a bot whose socket is a symbolic link (to its own socket, to a
socket of the host, to another socket through the referee's own descriptors) gets a protocol_error, and no
process outside its sandbox receives a byte; a socket that another uid listens on is refused too."""

from __future__ import annotations

import dataclasses
import os
import socket
import threading
from pathlib import Path

import pytest

from referee.games import make_game
from referee.runtime import Clock, resolve_bot, run_game
from referee.runtime.sandbox import sandbox_problem
from referee.runtime.sandbox_socket import SandboxSocket, SocketRefused

ROOT = Path(__file__).resolve().parents[2]
SYMLINKER = resolve_bot(Path(__file__).parent / "bots" / "symlink_bot.py")
RANDOM = resolve_bot(ROOT / "bots" / "python" / "random_bot.py")

needs_sandbox = pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")


class Listener:
    """A Unix socket of the host that counts who connects to it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.accepted = 0
        self._socket = socket.socket(socket.AF_UNIX)
        self._socket.bind(str(path))
        path.chmod(0o777)
        self._socket.listen()
        self._socket.settimeout(0.2)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                connection, _ = self._socket.accept()
            except TimeoutError:
                continue
            self.accepted += 1
            connection.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self._socket.close()


@pytest.fixture
def host_socket(tmp_path):
    tmp_path.chmod(0o755)
    listener = Listener(tmp_path / "host.sock")
    yield listener
    listener.close()


async def play_linked(target: str):
    bot = dataclasses.replace(SYMLINKER, env=(("KAFANA_TEST_LINK", target),))
    return await run_game(make_game("tapa"), [bot, RANDOM], match_id="symlink", seed=1, clock=Clock(),
                          replay_path=None, sandboxed=True)


@needs_sandbox
@pytest.mark.parametrize("where", ["own", "host", "descriptor"])
async def test_a_socket_that_is_a_link_is_a_protocol_error_and_nobody_outside_hears(host_socket, where):
    held = os.open(host_socket.path.parent, os.O_PATH | os.O_DIRECTORY)  # as a worker holds other sandboxes' /tmp
    try:
        target = {"own": "{own}", "host": str(host_socket.path), "descriptor": f"/proc/self/fd/{held}/host.sock"}
        record = await play_linked(target[where])
    finally:
        os.close(held)
    assert [(fault.seat, fault.kind) for fault in record.faults] == [(0, "protocol_error")]
    assert "is a symbolic link" in record.faults[0].message
    assert host_socket.accepted == 0


def test_a_socket_another_uid_listens_on_is_refused(host_socket):
    found = SandboxSocket(os.getpid(), uid=os.getuid() + 1)
    found._fd = os.open(host_socket.path, os.O_PATH)
    with pytest.raises(SocketRefused, match=f"runs as uid {os.getuid()}, not as the bot's"):
        found._listening()
    found.uid = os.getuid()
    assert found._listening()  # its own listener, in its own PID namespace
    found.close()
