"""The grpcio→trio bridge on its own: results, deadlines, errors, cancellation, and no thread started per call;
the Session stream likewise."""

from __future__ import annotations

import threading
from concurrent import futures

import grpc
import pytest
import trio
from kafana_kit.v1 import bot_pb2, bot_pb2_grpc

from referee import wire
from referee.runtime.bridge import Caller, Stream, StreamClosed, StreamTimeout


class Servicer(bot_pb2_grpc.BotServicer):
    def __init__(self) -> None:
        self.cancelled = threading.Event()
        self.release = threading.Event()
        self.session_ended = threading.Event()

    def Hello(self, request, context):  # noqa: N802
        return wire.bot_info_to_proto(wire.BotInfo(name="echo", games=(request.protocol,)))

    def Act(self, request, context):  # noqa: N802
        context.add_callback(self.cancelled.set)
        self.release.wait(10)
        return wire.act_response_to_proto(wire.ActResponse(action_id=4))

    def Notify(self, request, context):  # noqa: N802
        context.abort(grpc.StatusCode.UNIMPLEMENTED, "no notifications here")

    def Session(self, requests, context):  # noqa: N802
        """Answers act request k with id k after (decision) tenths of a second; a request with match id "close"
        ends the stream, "abort" aborts it."""
        context.add_callback(self.session_ended.set)
        for number, request in enumerate(requests):
            if request.act.match_id in ("close", "abort"):
                if request.act.match_id == "abort":
                    context.abort(grpc.StatusCode.INTERNAL, "gave up")
                return
            self.release.wait(request.act.decision / 10)
            yield bot_pb2.SessionResponse(act=bot_pb2.ActResponse(action_id=number))


@pytest.fixture
def served(tmp_path):
    servicer = Servicer()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    bot_pb2_grpc.add_BotServicer_to_server(servicer, server)
    address = f"unix:{tmp_path / 'b.sock'}"
    server.add_insecure_port(address)
    server.start()
    caller = Caller(grpc.insecure_channel(address))
    yield servicer, wire.bot_stub(caller.channel), caller
    servicer.release.set()
    caller.close()
    server.stop(0)


async def test_call_returns_the_response(served):
    _, stub, caller = served
    reply = await caller.call(stub.Hello, wire.hello_request("x"), timeout=5)
    assert wire.bot_info_from_proto(reply).games == ("kafana.v1",)


async def test_errors_surface_as_rpc_errors(served):
    _, stub, caller = served
    with pytest.raises(grpc.RpcError) as caught:
        await caller.call(stub.Notify, wire.notification_to_proto(wire.MatchOver("m", "tapa")), timeout=5)
    assert caught.value.code() == grpc.StatusCode.UNIMPLEMENTED


async def test_grpc_deadline(served):
    _, stub, caller = served
    with pytest.raises(grpc.RpcError) as caught:
        await caller.call(stub.Act, _request(), timeout=0.2)
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED


async def test_a_cancelled_wait_returns_at_once_and_closing_cancels_the_call_on_the_wire(served):
    servicer, stub, caller = served
    with trio.move_on_after(0.3) as scope:
        await caller.call(stub.Act, _request(), timeout=30)
    assert scope.cancelled_caught and not servicer.cancelled.is_set()
    caller.close()
    assert await trio.to_thread.run_sync(servicer.cancelled.wait, 5)


async def test_no_thread_is_started_per_call(served, monkeypatch):
    _, stub, caller = served
    warm = [stub.Hello.future(wire.hello_request("x"), timeout=5) for _ in range(8)]  # the server's pool fills up
    assert all(future.result().name == "echo" for future in warm)
    started = []
    original = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: (started.append(thread.name), original(thread)))
    for _ in range(20):
        await caller.call(stub.Hello, wire.hello_request("x"), timeout=5)
    assert started == []


async def test_the_trio_loop_keeps_running_during_a_call(served):
    servicer, stub, caller = served
    ticks = 0

    async def tick():
        nonlocal ticks
        while True:
            await trio.sleep(0.01)
            ticks += 1

    async with trio.open_nursery() as nursery:
        nursery.start_soon(tick)
        trio.lowlevel.current_trio_token().run_sync_soon(lambda: None)
        threading.Timer(0.3, servicer.release.set).start()
        reply = await caller.call(stub.Act, _request(), timeout=5)
        nursery.cancel_scope.cancel()
    assert reply.action_id == 4 and ticks >= 10


def _request():
    from referee.games import make_game
    from referee.wire import ActRequest, ClockInfo, LegalAction

    state = make_game("tapa").new_state()
    return wire.act_request_to_proto(
        ActRequest("m", 1, "tapa", 0, {}, 0, state.view(0), ClockInfo(1, 0, 1, 1), (LegalAction(0, "x"),))
    )


@pytest.fixture
async def stream(served):
    _, _, caller = served
    opened = Stream(wire.strict_bot_stub(caller.channel).Session)
    yield opened
    opened.close()


def _act(match_id: str = "m", decision: int = 0) -> bytes:
    return wire.session_act(bot_pb2.ActRequest(match_id=match_id, decision=decision))


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
    _, _, caller = served
    for how, error in (("close", None), ("abort", grpc.StatusCode.INTERNAL)):
        opened = Stream(wire.strict_bot_stub(caller.channel).Session)
        with pytest.raises(StreamClosed) as caught:
            await opened.call(_act(how), timeout=5)
        assert (caught.value.error.code() if caught.value.error else None) == error
        with pytest.raises(StreamClosed):  # and stays closed
            await opened.call(_act(), timeout=5)
        opened.close()


async def test_closing_a_stream_ends_it_on_the_bot_side(served, stream):
    servicer, _, _ = served
    await stream.call(_act(), timeout=5)
    stream.close()
    assert await trio.to_thread.run_sync(servicer.session_ended.wait, 5)


async def test_no_thread_is_started_per_message(stream, monkeypatch):
    await stream.call(_act(), timeout=5)
    started = []
    original = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: (started.append(thread.name), original(thread)))
    for _ in range(20):
        await stream.call(_act(), timeout=5)
    assert started == []
