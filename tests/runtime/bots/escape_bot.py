"""Tries one misdeed (named by $KAFANA_TEST_MISDEED, aimed at $KAFANA_TEST_TARGET) when it starts, says on stderr
how it went, then plays the first legal action (or, with ``huge-answer``, answers league requests with 2 MB).
In the sandbox every escape must fail."""

import os
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))

from bots.python.kit import serve  # noqa: E402
from referee.wire import ActResponse  # noqa: E402

MISDEED = os.environ.get("KAFANA_TEST_MISDEED", "")
TARGET = os.environ.get("KAFANA_TEST_TARGET", "")
MARKER = "kafana-escape-marker"


def attempt() -> str:
    try:
        if MISDEED == "write":
            with open(TARGET, "w") as handle:
                handle.write("escaped")
            return "WROTE"
        if MISDEED == "write-own-folder":
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "escape.txt"), "w") as handle:
                handle.write("escaped")
            return "WROTE"
        if MISDEED == "read":
            with open(TARGET, "rb") as handle:
                return f"READ {handle.read(40)!r}"
        if MISDEED == "connect":
            host, port = TARGET.rsplit(":", 1)
            socket.create_connection((host, int(port)), timeout=2).close()
            return "CONNECTED"
        if MISDEED == "daemon":
            code = "import time; time.sleep(120)"
            subprocess.Popen([sys.executable, "-c", code, MARKER], start_new_session=True, stderr=subprocess.DEVNULL)
            return "SPAWNED"
        if MISDEED == "ignore-sigterm":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            return "IGNORING"
        if MISDEED == "burn-cpu":
            end = time.process_time() + 30
            while time.process_time() < end:
                pass
            return "BURNED"
        if MISDEED == "memory-hog":
            hoard = [bytearray(1 << 20) for _ in range(1024)]
            return f"HOARDED {len(hoard)} MiB"
        if MISDEED == "fork-bomb":
            for _ in range(200):
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
            return "FORKED"
        if MISDEED == "big-file":
            signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # as a C or Go program has it (Python ignores it)
            with open("/tmp/big", "wb") as handle:
                for _ in range(1024):
                    handle.write(b"x" * (1 << 20))
            return "WROTE BIG"
    except OSError as exc:
        return f"DENIED {type(exc).__name__}"
    return "NOTHING"


def choose(request):
    """The first legal action; with ``huge-answer``, in a league (not in check-bot's requests), 2 MB of comment."""
    if MISDEED == "huge-answer" and not request.match_id.startswith("check-"):
        return ActResponse(0, "z" * (2 << 20))
    return 0


print(f"misdeed {MISDEED}: {attempt()}", file=sys.stderr, flush=True)
serve(choose, name="escaper", games=["tapa"])
