"""Shared bits of the misbehaving test bots: make the repository importable and record the pid; with
``$KAFANA_TEST_CALLS`` set, the kit's bots ask for one call per request instead of the Session stream."""

import os
import sys
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
