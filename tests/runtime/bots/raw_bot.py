"""Answers with hand-made bytes, as a hostile bot written in any language could: its mode (``$KAFANA_TEST_RAW``)
says which Hello or which Act answer. Act modes: ``hello-bytes`` (a HelloResponse), ``echo`` (the request itself),
``wrong-type`` (the id sent as a string), ``wide-id`` (the id 2**32 + 1, which an int32 reader cuts to 1),
``unknown-field`` (a valid answer plus a field ActResponse does not have). Hello modes: ``many-games`` (tapa 20,000
times), ``long-name`` (400 KB with terminal escapes), ``slash-name``, ``escape-version``, ``no-name``; any other mode
says a plain Hello. With ``$KAFANA_TEST_SESSION`` set, the bot serves the Session stream (and says so): each Act
answer goes framed as a SessionResponse's ``act``; session modes: ``session-notified`` (an act answered with
``notified``), ``session-empty`` (an empty SessionResponse), ``session-both`` (``act`` and ``notified`` at once),
``session-close`` (the stream ended at the first request), ``session-ahead`` (an answer as soon as the stream
opens, before any request, then valid answers)."""

import os
import time
from concurrent import futures

import _common
import grpc
from kafana_kit.v1 import bot_pb2 as pb

MODE = os.environ.get("KAFANA_TEST_RAW", "")
SESSION = bool(os.environ.get("KAFANA_TEST_SESSION"))
VALID = pb.ActResponse(action_id=0).SerializeToString()
PLAIN = pb.HelloResponse(name="raw", version="1", games=["tapa"], session=SESSION)


def varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def hello(request: bytes, context) -> bytes:
    if MODE == "many-games":
        return pb.HelloResponse(name="raw", games=["tapa"] * 20000).SerializeToString()
    if MODE == "long-name":
        return pb.HelloResponse(name="\x1b]0;owned\x07" + "n" * 400_000, games=["tapa"]).SerializeToString()
    if MODE == "slash-name":
        return pb.HelloResponse(name="../a/b", games=["tapa"]).SerializeToString()
    if MODE == "escape-version":
        return pb.HelloResponse(name="raw", version="1\x1b[2J", games=["tapa"]).SerializeToString()
    if MODE == "no-name":
        return pb.HelloResponse(games=["tapa"]).SerializeToString()
    return PLAIN.SerializeToString()


def act(request: bytes, context) -> bytes:
    if MODE == "hello-bytes":
        return PLAIN.SerializeToString()
    if MODE == "echo":
        return request
    if MODE == "wrong-type":
        return b"\x0a\x01\x00"  # field 1 as a length-delimited string
    if MODE == "wide-id":
        return b"\x08" + varint((1 << 32) + 1)
    if MODE == "unknown-field":
        return VALID + b"\x48\x07"  # field 9, a varint
    return VALID


NOTIFIED = b"\x12\x00"
"""A SessionResponse with an empty ``notified``."""


def session(requests, context):
    if MODE == "session-ahead":
        yield b"\x0a\x00"
    for request in requests:
        message = pb.SessionRequest.FromString(request)
        if message.WhichOneof("message") == "notify":
            yield NOTIFIED
        elif MODE == "session-notified":
            yield NOTIFIED
        elif MODE == "session-empty":
            yield b""
        elif MODE == "session-both":
            yield b"\x0a\x00" + NOTIFIED
        elif MODE == "session-close":
            return
        else:
            answer = act(message.act.SerializeToString(), context)
            yield b"\x0a" + varint(len(answer)) + answer


_common.record_pid()
handlers = {
    "Hello": grpc.unary_unary_rpc_method_handler(hello),
    "Act": grpc.unary_unary_rpc_method_handler(act),
    "Notify": grpc.unary_unary_rpc_method_handler(lambda request, context: b""),
    "Session": grpc.stream_stream_rpc_method_handler(session),
}
server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("kafana.v1.Bot", handlers),))
server.add_insecure_port(os.environ["KAFANA_BOT_ADDRESS"])
server.start()
time.sleep(3600)
