"""The grpcio→trio bridge on its own: results, deadlines, errors, cancellation, and no thread started per call."""

from __future__ import annotations

import threading
from concurrent import futures

import grpc
import pytest
import trio
from kafana_kit.v1 import bot_pb2_grpc

from referee import wire
from referee.runtime.bridge import Caller


class Servicer:
    def __init__(self) -> None:
        self.cancelled = threading.Event()
        self.release = threading.Event()

    def Hello(self, request, context):  # noqa: N802
        return wire.bot_info_to_proto(wire.BotInfo(name="echo", games=(request.protocol,)))

    def Act(self, request, context):  # noqa: N802
        context.add_callback(self.cancelled.set)
        self.release.wait(10)
        return wire.act_response_to_proto(wire.ActResponse(action_id=4))

    def Notify(self, request, context):  # noqa: N802
        context.abort(grpc.StatusCode.UNIMPLEMENTED, "no notifications here")


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
