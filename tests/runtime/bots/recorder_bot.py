"""Keeps everything the referee sends it: every Act request and notification, appended as one line of
``kind match_id hex-bytes`` to ``$KAFANA_TEST_RECORD``; plays the first legal action."""

import os

import _common
from kafana_kit import serve

RECORD = os.environ["KAFANA_TEST_RECORD"]


def keep(kind: str, match_id: str, data: bytes) -> None:
    with open(RECORD, "a") as handle:
        handle.write(f"{kind} {match_id} {data.hex()}\n")


def choose(request):
    keep("act", request.match_id, request.SerializeToString())
    return request.legal_actions[0].id


def told(event):
    which = event.WhichOneof("event")
    keep(which, getattr(event, which).match_id, event.SerializeToString())


_common.record_pid()
serve(choose, name="recorder", games=["durak", "tapa"], on_event=told)
