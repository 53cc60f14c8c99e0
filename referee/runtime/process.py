"""Bots as child processes spoken to over gRPC: start, Hello, Act, Notify, and a certain end.

The referee starts the bot's command in its own process group with ``KAFANA_BOT_ADDRESS`` set to a Unix socket
(default) or a TCP loopback port (inside its sandbox: a socket in its private /tmp), waits for Hello, and on the way
out always terminates the whole group (SIGTERM, a grace period, SIGKILL, wait), even when the referee itself is
being cancelled. Whatever kills the referee, the kernel ends its bots (:mod:`.spawn`).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
from pathlib import Path
from typing import Any

import grpc
import trio

import referee
from referee import wire
from referee.games import GAMES

from .affinity import usable_cores
from .bridge import StreamClosed, StreamTimeout
from .calls import CALLER, BotClient, BotStream, ClientKind
from .cgroups import BotCgroup, enter_command
from .clock import TRANSPORT_GRACE
from .faults import BotCrashed, BotError, BotNoHello, BotProtocolError, BotResourceLimit, BotTimeout
from .hello import Entrant, checked_hello
from .manifest import BotSpec
from .output import OutputCapture
from .pause import OffTurnPause
from .printable import printable
from .sandbox import (
    DEFAULT_LIMITS,
    SOCKET_FOLDER,
    SOCKET_NAME,
    SOCKET_PATH,
    Limits,
    PrivateTmp,
    Sandbox,
    UidClaim,
    bot_environment,
    unreadable,
)
from .sandbox_socket import SandboxSocket, SocketRefused
from .seccomp import program_fd
from .spawn import Child, die_with_referee, spawn

log = logging.getLogger(__name__)

STARTUP_TIMEOUT = 10.0
"""Seconds a bot has from its start to answering Hello."""
KILL_GRACE = 1.0
"""Seconds between SIGTERM and SIGKILL when a bot is stopped."""
NOTIFY_TIMEOUT = 2.0
"""Seconds a bot has to acknowledge a notification (late or failed acknowledgements are ignored)."""
EXIT_WAIT = 0.5
"""Seconds to wait for a bot's exit after a failed call, to tell a crash from a protocol error."""
LISTEN_POLL = 0.005
"""Seconds between looks for a starting sandboxed bot's socket."""
MAX_RESPONSE_BYTES = 1024 * 1024
"""Largest answer the referee accepts from a bot."""
MAX_REQUEST_BYTES = 64 * 1024 * 1024
"""Largest request the referee sends."""
_RUNNING = contextlib.nullcontext()
"""What a bot that is not paused off turn does for the length of its move: nothing."""


def bot_address(transport: str, folder: Path, seat: int) -> str:
    """A fresh address for a bot: ``unix:…/seatN.sock`` or ``127.0.0.1:PORT`` (a free port)."""
    if transport == "unix":  # a folder per seat: a sandboxed bot gets its own folder and nothing else
        own = folder / f"seat{seat}"
        own.mkdir(exist_ok=True)
        return f"unix:{own / 'bot.sock'}"
    if transport == "tcp":
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            return f"127.0.0.1:{sock.getsockname()[1]}"
    raise ValueError(f"unknown transport {transport!r} (unix or tcp)")


def describe_exit(code: int) -> str:
    """``exit code 3`` or ``signal SIGKILL``."""
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


def _kill_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


_LIMIT_SIGNALS = {
    signal.SIGXCPU: ("cpu", "used up its CPU time"),
    signal.SIGXFSZ: ("file_size", "wrote too large a file"),
}
"""Signals the kernel sends when a resource limit is exceeded."""


def _exit_fault(seat: int, code: int, stderr: str) -> BotError:
    """The fault of a bot process that ended with ``code``: a resource limit when a limit's signal killed it
    (directly, or inside the sandbox, which exits with 128 + the signal's number), else a crash with the bot's
    last words (:func:`last_words`)."""
    number = -code if code < 0 else code - 128
    if number in _LIMIT_SIGNALS:
        kind, what = _LIMIT_SIGNALS[signal.Signals(number)]
        return BotResourceLimit(seat, kind, f"{what} ({signal.Signals(number).name})")
    return BotCrashed(seat, f"exited with {describe_exit(code)}{last_words(stderr)}")


LAST_LINES = 4
"""Lines of a crashed bot's stderr its fault quotes."""
LAST_WORDS = "; its last words: "
"""What introduces them in the fault's message (a ladder's public pages leave them to the bot's author)."""


def last_words(stderr: str) -> str:
    """What a crashed bot wrote last on stderr, as the end of its fault's message: its last :data:`LAST_LINES`
    lines but those that only underline (a Python bot's exception and the line it came from), or nothing.

    >>> last_words('Traceback (most recent call last):\\n  File "bot.py", line 9, in choose\\n    ^^^^\\nValueError: no\\n')
    '; its last words: Traceback (most recent call last): | File "bot.py", line 9, in choose | ValueError: no'
    """
    lines = [line.strip() for line in stderr.splitlines() if line.strip(" ^~\t")][-LAST_LINES:]  # not 3.11's marks
    return f"{LAST_WORDS}{printable(' | '.join(lines))[-600:]}" if lines else ""


class ProcessPlayer:
    """A bot process in a seat. Start it with ``await nursery.start(player.run)``; end it with ``close()``.

    With a ``game_id`` the bot must list it in its Hello, and with an ``entrant`` its Hello must say who it was
    entered as; with neither any answer to Hello is accepted. An unsandboxed bot listens at ``address``; a
    sandboxed one listens inside its sandbox (``address`` must be None) and the referee reaches it through the
    sandbox's root. A ``holdable`` bot can be stopped whole between its games (:meth:`hold`, :meth:`release`).
    ``client`` is the kind of client the referee speaks to it with (:mod:`.calls`).
    """

    def __init__(
        self,
        seat: int,
        spec: BotSpec,
        address: str | None,
        game_id: str | None,
        *,
        startup_timeout: float = STARTUP_TIMEOUT,
        sandboxed: bool = False,
        limits: Limits = DEFAULT_LIMITS,
        pause_off_turn: bool = False,
        holdable: bool = False,
        entrant: Entrant | None = None,
        client: ClientKind = CALLER,
    ) -> None:
        if sandboxed != (address is None):
            raise ValueError("a sandboxed bot listens inside its sandbox: give an address exactly when unsandboxed")
        self.seat = seat
        self.spec = spec
        self.address = address
        self.client = client
        self.sandboxed = sandboxed
        self.limits = limits
        self._tmp: PrivateTmp | None = None
        self._socket: SandboxSocket | None = None
        """A sandboxed bot's socket, reached without following its paths."""
        self._cgroup: BotCgroup | None = None
        self._cpuset: BotCgroup | None = None
        self.pause_off_turn = pause_off_turn
        self.holdable = holdable
        self._pause: OffTurnPause | None = None
        self.entrant = entrant
        self.game_id = game_id
        self.startup_timeout = startup_timeout
        self.info = wire.BotInfo(name=spec.label)
        self._closed = trio.Event()
        self._process: Child | None = None
        self._stdout = OutputCapture(on_limit=self._output_limit)
        self._stderr = OutputCapture(on_limit=self._output_limit)
        self._caller: BotClient | None = None
        """The bot's client (:mod:`.calls`), once its process runs."""
        self._session: BotStream | None = None
        """The Session stream, for a bot whose Hello said it serves it (else its calls are unary)."""
        self._lifeline: int | None = None
        """The write end of the sandbox's lifeline (see :meth:`Sandbox.command`), held while the bot runs."""

    def _output_limit(self) -> None:
        log.warning("seat %d (%s) exceeded the output limit; stopping it", self.seat, self.spec.label)
        if self._process is not None:
            _kill_group(self._process.pid, signal.SIGKILL)

    def close(self) -> None:
        """Ask ``run`` to stop the process and return."""
        self._closed.set()

    @property
    def alive(self) -> bool:
        """Whether the process answered Hello, runs, and was not asked to stop."""
        process = self._process
        running = process is not None and process.returncode is None
        return self._caller is not None and running and not self._closed.is_set()

    def new_game(self) -> None:
        """Start the captured output afresh for the next game of a kept process (:mod:`.seating`)."""
        self._stdout.reset()
        self._stderr.reset()

    def hold(self) -> None:
        """Stop every process of a holdable bot until :meth:`release` (between its games: it can do nothing)."""
        if self._pause is not None:
            self._pause.pause()

    def release(self) -> None:
        """Let a held bot run again (paused off turn, it stays stopped until its move)."""
        if self._pause is not None:
            self._pause.pause() if self.pause_off_turn else self._pause.resume()

    async def run(self, *, task_status: trio.TaskStatus[ProcessPlayer] = trio.TASK_STATUS_IGNORED) -> None:
        """Start the process, wait for Hello, report readiness, then hold the process until ``close()``.

        Raises:
            BotError: the bot crashed, did not answer Hello in time, or does not play the game.
        """
        uid: UidClaim | None = None
        try:
            if self.sandboxed:
                if unreadable(self.spec.cwd):
                    raise BotCrashed(
                        self.seat,
                        f"the sandbox runs bots as another user, who cannot read {self.spec.cwd} (chmod o+rx)",
                    )
                uid = UidClaim(os.getpid() * 8 + self.seat)
            await self._run(uid, task_status)
        finally:
            if uid is not None:
                uid.release()

    async def _run(self, uid: UidClaim | None, task_status: trio.TaskStatus[ProcessPlayer]) -> None:
        command = list(self.spec.command)
        name = f"{os.getpid()}-{self.seat}-{id(self):x}"  # unique among live players
        info_read = info_write = lifeline_read = rules = -1
        if uid is not None:
            info_read, info_write = os.pipe()
            lifeline_read, self._lifeline = os.pipe()
            rules = program_fd()
            command = Sandbox(self.limits, uid.uid).command(command, self.spec.cwd, rules, info_write, lifeline_read)
            self._cgroup = BotCgroup.caps(name, self.limits.resident_bytes, self.limits.processes)
            if len(cores := usable_cores()) < (os.cpu_count() or 1):  # a share of the cores: the bot keeps to it
                self._cpuset = BotCgroup.cores(name, cores)
        else:
            command = die_with_referee(command)
        groups = [group for group in (self._cgroup, self._cpuset) if group is not None]
        command = enter_command(groups) + command
        listen = f"unix:{SOCKET_PATH}" if uid is not None else self.address
        assert listen is not None
        try:
            self._process = spawn(
                command,
                cwd=self.spec.cwd,
                env=bot_environment(listen, dict(self.spec.env), sandboxed=uid is not None),
                pass_fds=(info_write, lifeline_read, rules) if uid is not None else (),
            )
        except OSError as exc:
            if uid is not None:
                os.close(info_read)
            raise BotCrashed(self.seat, f"could not start {' '.join(self.spec.command)}: {exc}") from None
        finally:
            if uid is not None:
                os.close(info_write)
                os.close(lifeline_read)
                os.close(rules)
        process = self._process
        error: BotError | None = None
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._stdout.drain, process.stdout)
            nursery.start_soon(self._stderr.drain, process.stderr)
            try:
                if uid is not None:
                    pid = await self._sandbox_started(trio.lowlevel.FdStream(info_read))
                    self._socket = await self._listening(SandboxSocket(pid, uid.uid, SOCKET_FOLDER, SOCKET_NAME))
                    assert self._socket.tmp_fd is not None
                    self._tmp = PrivateTmp(os.dup(self._socket.tmp_fd))
                    self.address = self._socket.address
                assert self.address is not None  # given when unsandboxed
                self._caller = self.client(
                    self.address,
                    max_response=MAX_RESPONSE_BYTES,
                    max_request=MAX_REQUEST_BYTES,
                    name=f"kafana-seat{self.seat}",
                )
                self.info = await self._hello()
                if self.info.session:
                    self._session = self._caller.stream(wire.SESSION)
                if self.pause_off_turn or self.holdable:
                    self._pause = pause = OffTurnPause(process.pid, self._cgroup)
                    if self.pause_off_turn:
                        pause.pause()
                task_status.started(self)
                await self._closed.wait()
            except BotError as exc:
                error = exc
            finally:
                with trio.CancelScope(shield=True):
                    await self._stop()
                nursery.cancel_scope.deadline = trio.current_time() + EXIT_WAIT
        for stream in (process.stdout, process.stderr):
            await stream.aclose()
        process.close()
        if self._lifeline is not None:
            os.close(self._lifeline)
            self._lifeline = None
        if self._tmp is not None:
            self._tmp.close()
        if self._socket is not None:
            self._socket.close()
        if error is not None:
            raise error

    async def _sandbox_started(self, info: trio.lowlevel.FdStream) -> int:
        """Read bubblewrap's report and return the sandbox's pid (of its first process)."""
        data = b""
        with trio.move_on_after(self.startup_timeout):
            async with info:
                while chunk := await info.receive_some(4096):
                    data += chunk
        try:
            pid = json.loads(data)["child-pid"]
        except (ValueError, KeyError, TypeError):
            process = self._process
            assert process is not None
            with trio.move_on_after(EXIT_WAIT):
                await process.wait()
            stderr = self._stderr.text().strip()[-300:]
            if process.returncode is not None:
                how = describe_exit(process.returncode)
                raise BotCrashed(self.seat, f"the sandbox did not start ({how}): {stderr}") from None
            raise BotNoHello(self.seat, f"the sandbox did not start within {self.startup_timeout:g}s") from None
        return int(pid)

    async def _listening(self, found: SandboxSocket) -> SandboxSocket:
        """Wait until the sandboxed bot listens on its socket (within the startup time) and return it.

        Raises:
            BotError: the socket is refused (a ``protocol_error`` naming why), or the bot ended or did not listen in
                time.
        """
        process = self._process
        assert process is not None
        listening = False
        try:
            with trio.move_on_after(self.startup_timeout):
                while process.returncode is None and not (listening := found.find()):
                    await trio.sleep(LISTEN_POLL)
        except SocketRefused as exc:
            raise BotProtocolError(self.seat, str(exc)) from None
        finally:
            if not listening:
                found.close()
        if listening:
            return found
        raise self._startup_fault(process.returncode, None,
                                  f"did not listen on {SOCKET_PATH} within {self.startup_timeout:g}s")

    async def _stop(self) -> None:
        process = self._process
        assert process is not None
        if self._session is not None:
            self._session.close()
        if self._caller is not None:
            self._caller.close()
        if self._pause is not None:
            self._pause.resume()  # a stopped process cannot act on SIGTERM
        if process.returncode is None:
            _kill_group(process.pid, signal.SIGTERM)
            with trio.move_on_after(KILL_GRACE):
                await process.wait()
        _kill_group(process.pid, signal.SIGKILL)  # also whatever the bot spawned in its group
        await process.wait()
        for group in (self._cgroup, self._cpuset):
            if group is not None:
                await trio.to_thread.run_sync(group.remove)

    async def _call(self, method: str, request: Any, *, timeout: float, wait_for_ready: bool = False) -> bytes:
        assert self._caller is not None
        return await self._caller.call(
            method, request.SerializeToString(), timeout=timeout, wait_for_ready=wait_for_ready
        )

    async def _hello(self) -> wire.BotInfo:
        process = self._process
        assert process is not None
        outcome: dict[str, object] = {}

        async def call() -> None:
            try:
                outcome["reply"] = await self._call(
                    wire.HELLO,
                    wire.hello_request(referee.__version__),
                    timeout=self.startup_timeout,
                    wait_for_ready=True,
                )
            except grpc.RpcError as exc:
                outcome["error"] = exc
            nursery.cancel_scope.cancel()

        async def watch() -> None:
            await process.wait()
            outcome.setdefault("exit", process.returncode)
            nursery.cancel_scope.cancel()

        async with trio.open_nursery() as nursery:
            nursery.cancel_scope.deadline = trio.current_time() + self.startup_timeout + TRANSPORT_GRACE
            nursery.start_soon(call)
            nursery.start_soon(watch)
        if isinstance(reply := outcome.get("reply"), bytes):
            try:
                info = checked_hello(wire.bot_info_from_bytes(reply), GAMES)
            except ValueError as exc:  # WireError included
                raise BotNoHello(self.seat, f"bad Hello: {exc}") from None
            if self.game_id is not None and self.game_id not in info.games:
                raise BotNoHello(self.seat, f"{info.name} does not play {self.game_id!r} (it lists {list(info.games)})")
            if self.entrant is not None and (problem := self.entrant.mismatch(info)) is not None:
                raise BotNoHello(self.seat, f"bad Hello: {problem}")
            log.debug("seat %d hello: %s", self.seat, info)
            return info
        exit_code = outcome.get("exit")
        raise self._startup_fault(exit_code if isinstance(exit_code, int) else None, outcome.get("error"),
                                  f"no answer to Hello within {self.startup_timeout:g}s at {self.address}")

    def _startup_fault(self, exit_code: int | None, error: object, waited: str) -> BotError:
        """The fault of a bot that ended (``exit_code``), failed Hello (``error``) or did not answer in time
        (``waited`` says what the referee waited for)."""
        if self._stdout.exceeded or self._stderr.exceeded:
            return BotResourceLimit(self.seat, "output", "wrote more than the output limit before Hello")
        if (capped := self._cap_hit()) is not None:
            return capped
        if exit_code is not None:
            fault = _exit_fault(self.seat, exit_code, "")
            if isinstance(fault, BotCrashed):
                return BotCrashed(self.seat, f"{fault.message} before answering Hello{last_words(self._stderr.text())}")
            return fault
        if isinstance(error, grpc.RpcError) and error.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
            return BotNoHello(self.seat, f"Hello failed: {error.code().name}: {printable(str(error.details()))}")
        return BotNoHello(self.seat, waited)

    def _cap_hit(self) -> BotError | None:
        """A resource_limit fault when the bot's cgroup says it hit its memory or process cap, or its /tmp is
        full."""
        if self._tmp is not None and self._tmp.full():
            return BotResourceLimit(self.seat, "disk", f"filled its /tmp of {self.limits.tmp_bytes >> 20} MiB")
        kind = self._cgroup.exceeded() if self._cgroup is not None else None
        if kind is None:
            return None
        return BotResourceLimit(self.seat, kind, f"its processes hit the {kind} cap")

    async def _failure(self, error: grpc.RpcError | StreamClosed | StreamTimeout, limit: float) -> BotError:
        """The fault of a failed call or session message."""
        process = self._process
        assert process is not None
        if (capped := self._cap_hit()) is not None:
            return capped
        late = isinstance(error, grpc.RpcError) and error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        if late or isinstance(error, StreamTimeout):
            return BotTimeout(self.seat, f"no answer within the {limit:.3f}s limit")
        with trio.move_on_after(EXIT_WAIT):
            await process.wait()
        if self._stdout.exceeded or self._stderr.exceeded:
            return BotResourceLimit(self.seat, "output", "wrote more than the output limit")
        if process.returncode is not None:
            return _exit_fault(self.seat, process.returncode, self._stderr.text())
        if isinstance(error, StreamClosed):
            if error.unasked:
                return BotProtocolError(self.seat, "answered on its Session stream before it was asked")
            if error.error is None:
                return BotProtocolError(self.seat, "closed its Session stream")
            error = error.error
        assert isinstance(error, grpc.RpcError)
        details = printable(str(error.details()))  # the bot's server may set them
        if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED:
            return BotProtocolError(self.seat, f"answer too large: {details}")
        if error.code() == grpc.StatusCode.UNKNOWN:  # what gRPC servers answer when the bot's own code raised
            return BotCrashed(self.seat, f"its code failed ({details}){last_words(self._stderr.text())}")
        what = "Session" if self._session is not None else "Act"
        return BotProtocolError(self.seat, f"{what} failed: {error.code().name}: {details}")

    async def act(self, request: wire.ActRequest, limit: float) -> wire.ActResponse:
        """Send one Act request (a call, or a message on the Session stream) with a deadline of ``limit`` plus
        grace; map every failure to its fault.

        The driver holds the trio cancel scope around this call.
        """
        message = wire.act_request_bytes(request, detail=not self.info.without_action_detail)
        session, caller = self._session, self._caller
        assert caller is not None, "act before the bot's start"
        with self._awake():
            try:
                if session is not None:
                    reply = await session.call(wire.session_act(message), timeout=limit + TRANSPORT_GRACE)
                else:
                    reply = await caller.call(wire.ACT, message, timeout=limit + TRANSPORT_GRACE)
            except (grpc.RpcError, StreamClosed, StreamTimeout) as exc:
                raise await self._failure(exc, limit) from None
        if (capped := self._cap_hit()) is not None:  # it answered, but its processes ran into a cap on the way
            raise capped
        try:
            if session is None:
                return wire.act_response_from_bytes(reply)
            answer = wire.session_reply_from_bytes(reply)
        except wire.WireError as exc:
            raise BotProtocolError(self.seat, str(exc)) from None
        if answer is None:
            raise BotProtocolError(self.seat, "answered an act request on the Session stream with notified")
        return answer

    def _awake(self) -> contextlib.AbstractContextManager[None]:
        """Let a paused bot run for the length of the block (its move or a notification)."""
        return self._pause if self._pause is not None and self.pause_off_turn else _RUNNING

    async def notify(self, event: wire.GameOver | wire.MatchOver, *, strict: bool = False) -> None:
        """Send a notification (a call, or a message on the Session stream). Failures are logged and ignored (a bot
        may not implement Notify), unless ``strict``, when they are raised (``referee check-bot`` reports them):
        grpc.RpcError for a call; StreamClosed, StreamTimeout or WireError on the stream."""
        message = wire.notification_to_proto(event)
        try:
            with self._awake(), trio.move_on_after(NOTIFY_TIMEOUT + TRANSPORT_GRACE):
                if self._session is None:
                    await self._call(wire.NOTIFY, message, timeout=NOTIFY_TIMEOUT)
                elif wire.session_reply_from_bytes(
                    await self._session.call(wire.session_notify(message), timeout=NOTIFY_TIMEOUT)
                ) is not None:
                    raise wire.WireError("answered a notification on the Session stream with act")
        except (grpc.RpcError, StreamClosed, StreamTimeout, wire.WireError) as exc:
            if strict:
                raise
            log.debug("seat %d ignored a notification: %s", self.seat, exc)

    def output(self) -> dict[str, str]:
        """The captured head of stdout and stderr."""
        return {"stdout": self._stdout.text(), "stderr": self._stderr.text()}
