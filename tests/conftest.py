"""Test configuration: the misbehaving bots and the league script are programs, not test modules; bots run in the
sandbox where it works here, and without it where it does not (bubblewrap missing, not root); bots are prepared in
a folder of the run's own, which pytest-xdist's workers share as a ladder's referees share a store; tests marked
``alone`` have the machine to themselves (tests/turns.py)."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from referee.runtime.prepare import STORE_ENV
from referee.runtime.sandbox import SANDBOX_ENV
from tests.background import RUN_ENV, stop_all
from tests.turns import ALONE, turn

os.environ[SANDBOX_ENV] = "auto"
OWNER = RUN_ENV not in os.environ
"""Whether this process began the run (xdist's workers inherit the folders it makes and leave them to it)."""
if OWNER:
    os.environ[RUN_ENV] = tempfile.mkdtemp(prefix="kafana-test-run-")
    os.environ[STORE_ENV] = tempfile.mkdtemp(prefix="kafana-test-bots-")  # prepared bots: not the user's own cache

collect_ignore = ["runtime/bots", "ladder/_league_script.py"]


def pytest_configure(config):
    """Name the marker of the tests that run alone."""
    config.addinivalue_line("markers", f"{ALONE}: the test runs with no other test beside it (tests/turns.py)")


def pytest_collection_finish(session):
    """Start the background checks (tests/background.py) of the tests this run selected and will not skip."""
    for item in session.items:
        check = getattr(getattr(item, "function", None), "background", None)
        skipped = any(marker.args and marker.args[0] is True for marker in item.iter_markers("skipif"))
        if check is not None and not skipped:
            check.start()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """Each test in its turn: beside the others, or alone (its setup, call and teardown, before its timeout's
    clock starts)."""
    with turn(Path(os.environ[RUN_ENV]), item.get_closest_marker(ALONE) is not None):
        yield


def pytest_sessionfinish(session, exitstatus):
    """Stop the checks no test waited for (the run was cut short, or stopped at a failure), then remove the run's
    folder, once every process of the run is done."""
    if OWNER:
        run = Path(os.environ[RUN_ENV])
        stop_all(run)
        shutil.rmtree(run, ignore_errors=True)
