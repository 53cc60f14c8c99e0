"""The runtime's wire tests run on each client the referee can speak to bots with (:mod:`referee.runtime.calls`):
grpcio's, the reference, and the native core's when it is installed; each test passes the one it is given."""

from __future__ import annotations

import pytest

from referee.runtime import calls
from referee.runtime.bridge import Caller

CLIENTS = {"grpcio": Caller} | ({"native": calls.CALLER} if calls.WIRE == "native" else {})


@pytest.fixture(params=sorted(CLIENTS))
def wire_client(request) -> calls.ClientKind:
    """Each available client in turn, for the test to seat its bots with (``client=``)."""
    return CLIENTS[request.param]
