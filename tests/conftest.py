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
