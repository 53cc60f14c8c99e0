"""Wants more than its share of the cores: tries to move itself onto every core of the machine, and says in its
name where it was started and where it runs after trying (``cores-1-then-0.1``); plays the first legal action."""

import os

import _common  # noqa: F401 - the repository on the path
from kafana_kit import serve


def cores() -> str:
    return ".".join(map(str, sorted(os.sched_getaffinity(0))))


started = cores()
try:
    os.sched_setaffinity(0, range(os.cpu_count() or 1))
except OSError:
    pass
serve(lambda request: request.legal_actions[0].id, name=f"cores-{started}-then-{cores()}", games=["tapa"])
