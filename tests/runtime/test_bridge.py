"""The clients that speak to bots, on their own: grpcio's bridge to trio and the native core's, under one contract
(results, deadlines, errors, cancellation, no thread started per call; the Session stream likewise)."""

from __future__ import annotations

import threading
from concurrent import futures

import grpc
import pytest
import trio
from kafana_kit.v1 import bot_pb2, bot_pb2_grpc

from referee import wire
from referee.runtime import calls
from referee.runtime.bridge import Caller, StreamClosed, StreamTimeout

CLIENTS = [Caller] + ([calls.CALLER] if calls.WIRE == "native" else [])
"""The reference client and, when the native core is installed, its own."""


class Servicer(bot_pb2_grpc.BotServicer):
    def __init__(self) -> None:
        self.cancelled = threading.Event()
        self.release = threading.Event()
        self.session_ended = threading.Event()

    hello_name = "echo"

    def Hello(self, request, context):  # noqa: N802
        return wire.bot_info_to_proto(wire.BotInfo(name=self.hello_name, games=(request.protocol,)))

    def Act(self, request, context):  # noqa: N802
        context.add_callback(self.cancelled.set)
        self.release.wait(10)
        return wire.act_response_to_proto(wire.ActResponse(action_id=4))

    def Notify(self, request, context):  # noqa: N802
        context.abort(grpc.StatusCode.UNIMPLEMENTED, "no notifications here")

    def Session(self, requests, context):  # noqa: N802
        """Answers act request k with id k after (decision) tenths of a second; a request with match id "close"
        ends the stream, "abort" aborts it, "twice" is answered twice."""
        context.add_callback(self.session_ended.set)
        for number, request in enumerate(requests):
            if request.act.match_id in ("close", "abort"):
                if request.act.match_id == "abort":
                    context.abort(grpc.StatusCode.INTERNAL, "gave up")
                return
            self.release.wait(request.act.decision / 10)
            yield bot_pb2.SessionResponse(act=bot_pb2.ActResponse(action_id=number))
            if request.act.match_id == "twice":
                yield bot_pb2.SessionResponse(act=bot_pb2.ActResponse(action_id=number))


@pytest.fixture(params=CLIENTS, ids=lambda client: client.__name__)
def served(tmp_path, request):
    servicer = Servicer()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bot_pb2_grpc.add_BotServicer_to_server(servicer, server)
    address = f"unix:{tmp_path / 'b.sock'}"
    server.add_insecure_port(address)
    server.start()
    servicer.address = address
    caller = request.param(address, max_response=1 << 20, max_request=1 << 20)
    yield servicer, caller
    servicer.release.set()
    caller.close()
    server.stop(0)


def _fill_the_servers_pool(address: str) -> None:
    """Start every thread of the in-process server's pool (so that none starts during a test that counts them)."""
    with grpc.insecure_channel(address) as channel:
        hello = wire.bot_stub(channel).Hello
        warm = [hello.future(wire.hello_request("x"), timeout=5) for _ in range(8)]
        assert all(future.result().name == "echo" for future in warm)


def _hello() -> bytes:
    return wire.hello_request("x").SerializeToString()


async def test_call_returns_the_response(served):
    _, caller = served
    reply = await caller.call(wire.HELLO, _hello(), timeout=5)
    assert wire.bot_info_from_bytes(reply).games == ("kafana.v1",)


async def test_errors_surface_as_rpc_errors(served):
    _, caller = served
    notification = wire.notification_to_proto(wire.MatchOver("m", "tapa")).SerializeToString()
    with pytest.raises(grpc.RpcError) as caught:
        await caller.call(wire.NOTIFY, notification, timeout=5)
    assert caught.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert caught.value.details() == "no notifications here"


async def test_grpc_deadline(served):
    _, caller = served
    start = trio.current_time()
    with pytest.raises(grpc.RpcError) as caught:
        await caller.call(wire.ACT, _request(), timeout=0.2)
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert 0.15 < trio.current_time() - start < 2


async def test_an_answer_over_the_limit_is_resource_exhausted(served):
    servicer, caller = served
    servicer.hello_name = "x" * (1 << 20)
    with pytest.raises(grpc.RpcError) as caught:
        await caller.call(wire.HELLO, _hello(), timeout=5)
    assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


@pytest.mark.parametrize("client", CLIENTS, ids=lambda client: client.__name__)
async def test_waiting_for_ready_waits_for_the_bot_to_listen(tmp_path, client):
    address = f"unix:{tmp_path / 'late.sock'}"
    caller = client(address, max_response=1 << 20, max_request=1 << 20)
    with pytest.raises(grpc.RpcError) as caught:  # nobody listens, and the call does not wait
        await caller.call(wire.HELLO, _hello(), timeout=5)
    assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    bot_pb2_grpc.add_BotServicer_to_server(Servicer(), server)
    threading.Timer(0.3, lambda: (server.add_insecure_port(address), server.start())).start()
    try:
        reply = await caller.call(wire.HELLO, _hello(), timeout=5, wait_for_ready=True)
        assert wire.bot_info_from_bytes(reply).name == "echo"
    finally:
        caller.close()
        server.stop(0)


@pytest.mark.parametrize("client", CLIENTS, ids=lambda client: client.__name__)
async def test_waiting_for_ready_ends_at_the_deadline(tmp_path, client):
    caller = client(f"unix:{tmp_path / 'never.sock'}", max_response=1 << 20, max_request=1 << 20)
    start = trio.current_time()
    with pytest.raises(grpc.RpcError) as caught:
        await caller.call(wire.HELLO, _hello(), timeout=0.3, wait_for_ready=True)
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert 0.25 < trio.current_time() - start < 2
    caller.close()


async def test_a_cancelled_wait_returns_at_once_and_closing_cancels_the_call_on_the_wire(served):
    servicer, caller = served
    with trio.move_on_after(0.3) as scope:
        await caller.call(wire.ACT, _request(), timeout=30)
    assert scope.cancelled_caught and not servicer.cancelled.is_set()
    caller.close()
    assert await trio.to_thread.run_sync(servicer.cancelled.wait, 5)


async def test_a_late_answer_is_not_taken_for_the_next_calls(served):
    servicer, caller = served
    with trio.move_on_after(0.2):
        await caller.call(wire.ACT, _request(), timeout=30)
    servicer.release.set()  # the first call's answer comes now, while nobody waits for it
    await trio.sleep(0.2)
    reply = await caller.call(wire.HELLO, _hello(), timeout=5)
    assert wire.bot_info_from_bytes(reply).name == "echo"


async def test_no_thread_is_started_per_call(served, monkeypatch):
    servicer, caller = served
    _fill_the_servers_pool(servicer.address)
    await caller.call(wire.HELLO, _hello(), timeout=5)
    started = []
    original = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: (started.append(thread.name), original(thread)))
    for _ in range(20):
        await caller.call(wire.HELLO, _hello(), timeout=5)
    assert started == []


async def test_the_trio_loop_keeps_running_during_a_call(served):
    servicer, caller = served
    ticks = 0

    async def tick():
        nonlocal ticks
        while True:
            await trio.sleep(0.01)
            ticks += 1

    async with trio.open_nursery() as nursery:
        nursery.start_soon(tick)
        threading.Timer(0.3, servicer.release.set).start()
        reply = await caller.call(wire.ACT, _request(), timeout=5)
        nursery.cancel_scope.cancel()
    assert wire.act_response_from_bytes(reply).action_id == 4 and ticks >= 10


def _request() -> bytes:
    from referee.games import make_game
    from referee.wire import ActRequest, ClockInfo, LegalAction

    state = make_game("tapa").new_state()
    return wire.act_request_to_proto(
        ActRequest("m", 1, "tapa", 0, {}, 0, state.view(0), ClockInfo(1, 0, 1, 1), (LegalAction(0, "x"),))
    ).SerializeToString()


@pytest.fixture
async def stream(served):
    _, caller = served
    await caller.call(wire.HELLO, _hello(), timeout=5)  # as the referee does: Hello first, then the stream
    opened = caller.stream(wire.SESSION)
    yield opened
    opened.close()


def _act(match_id: str = "m", decision: int = 0) -> bytes:
    return wire.session_act(bot_pb2.ActRequest(match_id=match_id, decision=decision).SerializeToString())


async def test_a_stream_answers_each_request_in_turn(stream):
    answers = [wire.session_reply_from_bytes(await stream.call(_act(), timeout=5)) for _ in range(5)]
    assert [answer.action_id for answer in answers] == [0, 1, 2, 3, 4]


async def test_a_late_answer_is_dropped_and_the_next_call_gets_its_own(stream):
    with pytest.raises(StreamTimeout):
        await stream.call(_act(decision=3), timeout=0.1)  # answered after 0.3 s, with id 0
    assert wire.session_reply_from_bytes(await stream.call(_act(), timeout=5)).action_id == 1
    with trio.move_on_after(0.1):  # a cancelled wait is a late answer too
        await stream.call(_act(decision=3), timeout=5)
    assert wire.session_reply_from_bytes(await stream.call(_act(), timeout=5)).action_id == 3


async def test_a_stream_the_bot_ends_or_aborts_is_closed_for_good(served):
    _, caller = served
    await caller.call(wire.HELLO, _hello(), timeout=5)
    for how, error in (("close", None), ("abort", grpc.StatusCode.INTERNAL)):
        opened = caller.stream(wire.SESSION)
        with pytest.raises(StreamClosed) as caught:
            await opened.call(_act(how), timeout=5)
        assert (caught.value.error.code() if caught.value.error else None) == error
        assert not caught.value.unasked
        with pytest.raises(StreamClosed):  # and stays closed
            await opened.call(_act(), timeout=5)
        opened.close()


async def test_an_answer_ahead_of_its_request_closes_the_stream(served):
    _, caller = served
    await caller.call(wire.HELLO, _hello(), timeout=5)
    opened = caller.stream(wire.SESSION)
    with pytest.raises(StreamClosed) as caught:
        await opened.call(_act("twice"), timeout=5)  # two answers to one request
        await trio.sleep(0.2)  # the second is there before the next request
        await opened.call(_act(), timeout=5)
    assert caught.value.unasked
    opened.close()


async def test_closing_a_stream_ends_it_on_the_bot_side(served, stream):
    servicer, _ = served
    await stream.call(_act(), timeout=5)
    stream.close()
    assert await trio.to_thread.run_sync(servicer.session_ended.wait, 5)


async def test_no_thread_is_started_per_message(served, stream, monkeypatch):
    _fill_the_servers_pool(served[0].address)
    await stream.call(_act(), timeout=5)
    started = []
    original = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: (started.append(thread.name), original(thread)))
    for _ in range(20):
        await stream.call(_act(), timeout=5)
    assert started == []


def test_the_client_is_chosen_by_its_variable():
    assert calls.choose("grpcio") == ("grpcio", Caller)
    with pytest.raises(calls.WireChoiceError, match="use native or grpcio"):
        calls.choose("fast")
    name, _ = calls.choose(None)
    assert name == ("native" if len(CLIENTS) == 2 else "grpcio")


async def test_calls_asked_at_once_are_all_answered(served):
    _, caller = served
    names = []

    async def hello():
        names.append(wire.bot_info_from_bytes(await caller.call(wire.HELLO, _hello(), timeout=5)).name)

    async with trio.open_nursery() as nursery:
        for _ in range(3):
            nursery.start_soon(hello)
    assert names == ["echo"] * 3
