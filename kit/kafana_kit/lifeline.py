"""A bot that does not outlive the referee, even when the referee is killed with SIGKILL.

A child notices that its parent died when it is re-parented (``os.getppid()`` changes); Linux's PR_SET_PDEATHSIG is
not used, as it fires when the parent *thread* ends.
"""

from __future__ import annotations

import os
import threading
import time

POLL_SECONDS = 0.5


def watch_parent(poll: float = POLL_SECONDS) -> None:
    """Start a daemon thread that ends this process at once when its parent process is gone."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="kafana-parent-watch", daemon=True).start()
