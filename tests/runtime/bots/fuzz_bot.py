"""Answers Hello properly, then every Act with fuzzed bytes: random bytes, a valid answer with flipped bits, cut
short, with unknown fields, an out-of-range id, or an answer over the referee's size limit (seeded by the
request's decision, so a run is reproducible)."""

import random

import _common
import grpc
from kafana_kit import watch_parent
from kafana_kit.v1 import bot_pb2 as pb

_common.record_pid()


def fuzzed(decision: int, count: int) -> bytes:
    rng = random.Random(decision)
    answer = pb.ActResponse(action_id=rng.randrange(-3, count + 3), comment="x" * rng.randrange(0, 50))
    valid = answer.SerializeToString()
    kind = decision % 6
    if kind == 0:
        return valid
    if kind == 1:
        return rng.randbytes(rng.randrange(0, 200))
    if kind == 2:
        data = bytearray(valid or b"\x08\x01")
        for _ in range(rng.randrange(1, 4)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    if kind == 3:
        return valid[: rng.randrange(0, max(1, len(valid)))]
    if kind == 4:
        return valid + bytes([rng.randrange(1, 16) << 3 | rng.choice([0, 2, 5])]) + rng.randbytes(rng.randrange(1, 9))
    return pb.ActResponse(action_id=0, comment="y" * (2 * 1024 * 1024)).SerializeToString()


def hello(request, context):
    return pb.HelloResponse(name="fuzzer", games=["tapa", "tabla", "durak"]).SerializeToString()


def act(request, context):
    return fuzzed(request.decision, len(request.legal_actions))


def notify(request, context):
    return b""


handlers = {
    "Hello": grpc.unary_unary_rpc_method_handler(hello, request_deserializer=pb.HelloRequest.FromString),
    "Act": grpc.unary_unary_rpc_method_handler(act, request_deserializer=pb.ActRequest.FromString),
    "Notify": grpc.unary_unary_rpc_method_handler(notify, request_deserializer=pb.Notification.FromString),
}
if __name__ == "__main__":
    import os
    from concurrent import futures

    watch_parent()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2), options=[("grpc.max_send_message_length", -1)])
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("kafana.v1.Bot", handlers)])
    server.add_insecure_port(os.environ["KAFANA_BOT_ADDRESS"])
    server.start()
    server.wait_for_termination()
