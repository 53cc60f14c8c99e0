"""Test configuration: the misbehaving bots and the league script are programs, not test modules; bots run in the
sandbox where it works here, and without it where it does not (bubblewrap missing, not root); bots are prepared in
a folder of the run's own."""

import os
import tempfile

from referee.runtime.prepare import STORE_ENV
from referee.runtime.sandbox import SANDBOX_ENV

os.environ[SANDBOX_ENV] = "auto"
os.environ[STORE_ENV] = tempfile.mkdtemp(prefix="kafana-test-bots-")  # prepared bots: not the user's own cache

collect_ignore = ["runtime/bots", "ladder/_league_script.py"]

_started = []
"""The background checks this run started."""


def pytest_collection_finish(session):
    """Start the background checks (tests/background.py) of the tests this run selected and will not skip."""
    for item in session.items:
        check = getattr(getattr(item, "function", None), "background", None)
        skipped = any(marker.args and marker.args[0] is True for marker in item.iter_markers("skipif"))
        if check is not None and not skipped:
            _started.append(check)
            check.start()


def pytest_sessionfinish(session, exitstatus):
    """Stop the checks whose tests did not wait for them (the run was cut short, or stopped at a failure)."""
    for check in _started:
        check.stop()
