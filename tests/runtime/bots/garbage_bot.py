"""Answers Hello properly, then answers Act with bytes that are not an ActResponse."""

import os
import time
from concurrent import futures

import _common
import grpc

from referee import wire

_common.record_pid()
hello = wire.bot_info_to_proto(wire.BotInfo(name="garbage", games=("tapa",))).SerializeToString()
handler = grpc.method_handlers_generic_handler(
    "kafana.v1.Bot",
    {
        "Hello": grpc.unary_unary_rpc_method_handler(lambda request, context: hello),
        "Act": grpc.unary_unary_rpc_method_handler(lambda request, context: b"\xff\xff\xff\xffnot protobuf"),
    },
)
server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
server.add_generic_rpc_handlers((handler,))
server.add_insecure_port(os.environ["KAFANA_BOT_ADDRESS"])
server.start()
time.sleep(3600)
