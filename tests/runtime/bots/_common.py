"""Shared bits of the misbehaving test bots: make the repository importable and record the pid; with
``$KAFANA_TEST_CALLS`` set, the kit's bots ask for one call per request instead of the Session stream."""

import os
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

if os.environ.get("KAFANA_TEST_CALLS"):
    import functools

    from bots.python import kit

    kit.serve = functools.partial(kit.serve, session=False)
    kit.make_server = functools.partial(kit.make_server, session=False)


def record_pid() -> None:
    """Append this process's pid to $KAFANA_TEST_PIDS (if set) so tests can check it is gone."""
    target = os.environ.get("KAFANA_TEST_PIDS")
    if target:
        with open(target, "a") as handle:
            handle.write(f"{os.getpid()}\n")


def serve_then(misbehave: Callable[[], object], after: int, name: str, games: list[str]) -> None:
    """Record the pid, then serve a bot that answers its first ``after`` decisions with the first legal id and
    calls ``misbehave`` at every decision after them (in the middle of the game)."""
    from bots.python.kit import serve

    record_pid()
    calls = 0

    def choose(request) -> int:
        nonlocal calls
        calls += 1
        if calls > after:
            misbehave()
        return 0

    serve(choose, name=name, games=games)
