"""A bot that tries to carry what it saw into the other half of its duplicate unit (same deal, seats swapped).
At its first decision of each game it looks for what an earlier game of its own could have left, then leaves the
same for later ones: files in /tmp, /dev/shm, its own folder and its working folder's parent, an abstract Unix
socket, a TCP listener on loopback, a child process that stays. It also reports any environment variable beyond
the documented ones (the operator's would be a way in). Its first answer's comment says what it found (``FRESH``
when nothing); it then plays the first legal action."""

import os
import socket
import subprocess
import sys

from bots.python.kit import serve
from referee.wire import ActResponse

NAME = "kafana-memory"
PORT = 47913
FILES = [f"/tmp/{NAME}", f"/dev/shm/{NAME}", os.path.join(os.getcwd(), NAME),
         os.path.join(os.path.dirname(os.getcwd()), NAME)]
DOCUMENTED = {"KAFANA_BOT_ADDRESS", "PATH", "HOME", "LANG", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PWD"}
kept: list[object] = []


def found() -> list[str]:
    traces = [path for path in FILES if os.path.exists(path)]
    traces += [f"env {name}" for name in sorted(set(os.environ) - DOCUMENTED)]
    for family, address in ((socket.AF_UNIX, "\0" + NAME), (socket.AF_INET, ("127.0.0.1", PORT))):
        probe = socket.socket(family)
        probe.settimeout(0.5)
        try:
            probe.connect(address)
            traces.append(f"listener {address!r}")
        except OSError:
            pass
        finally:
            probe.close()
    return traces


def leave() -> None:
    for path in FILES:
        try:
            with open(path, "w") as handle:
                handle.write("seen")
        except OSError:
            pass
    for family, address in ((socket.AF_UNIX, "\0" + NAME), (socket.AF_INET, ("127.0.0.1", PORT))):
        listener = socket.socket(family)
        try:
            listener.bind(address)
            listener.listen()
            kept.append(listener)
        except OSError:
            listener.close()
    kept.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True))


games: set[tuple[str, int]] = set()


def choose(request):
    key = (request.match_id, request.game_number)
    if request.match_id.startswith("check-") or key in games:
        return 0
    games.add(key)
    traces = found()
    if not kept:
        leave()
    return ActResponse(0, "REMEMBERED " + ", ".join(traces) if traces else "FRESH")


serve(choose, name="memory", games=["durak", "gapa"])
