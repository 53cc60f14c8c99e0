"""Write a Kafana bot in Python with nothing but grpcio and protobuf.

>>> # A complete bot:
>>> # from kafana_kit import serve
>>> # serve(lambda request: request.legal_actions[0].id, name="first", games=["tapa"])

The decision function gets the ``kafana.v1.ActRequest`` message itself (:mod:`kafana_kit.v1.bot_pb2`; the fields
are described in ``proto/kafana/v1/bot.proto``) and returns the id of one legal action, or an ``ActResponse`` to
add a comment. protobuf reads a message's fields only when they are used: a bot that reads the ids pays for the ids.
"""

from .lifeline import watch_parent
from .server import Decide, OnEvent, make_server, serve

__all__ = ["Decide", "OnEvent", "make_server", "serve", "watch_parent"]
