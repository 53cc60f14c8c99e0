"""Test configuration: the misbehaving bots and the league script are programs, not test modules; bots run in the
sandbox where it works here, and without it where it does not (bubblewrap missing, not root)."""

import os

from referee.runtime.sandbox import SANDBOX_ENV

os.environ[SANDBOX_ENV] = "auto"

collect_ignore = ["runtime/bots", "ladder/_league_script.py"]
