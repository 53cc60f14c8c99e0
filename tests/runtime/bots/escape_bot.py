"""A hostile bot. It tries a misdeed (its first argument, else $KAFANA_TEST_MISDEED; several joined by ``+``)
when the first request of a real game arrives (not one of check-bot's, whose match ids start with ``check-``: a
ladder admits it first), says on stderr how it went, and plays the first legal action.

Misdeeds that act on the answers: ``huge-answer`` (100 MB), ``trickle`` (the answer dribbles out a byte at a time,
without end), ``busy-off-turn`` (a thread spins for ever; each answer's comment says the CPU time used so far), ``dawdle``
(0.08 s a move, the busy bot's opponent; it combines with the others).
In the sandbox every escape must fail.
"""

import os
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))

from bots.python.kit import serve  # noqa: E402
from referee.wire import ActResponse  # noqa: E402

MISDEED = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("KAFANA_TEST_MISDEED", "")
TARGET = os.environ.get("KAFANA_TEST_TARGET", "")
MARKER = "kafana-escape-marker"
ADDRESS = "KAFANA_BOT_ADDRESS"


def attempt(misdeed: str) -> str:
    """Try ``misdeed`` (its target in $KAFANA_TEST_<MISDEED>, else $KAFANA_TEST_TARGET; ``read`` and ``connect``
    take several, separated by commas) and say how it went."""
    target = os.environ.get(f"KAFANA_TEST_{misdeed.upper().replace('-', '_')}", TARGET)
    try:
        if misdeed == "write":
            with open(target, "w") as handle:
                handle.write("escaped")
            return "WROTE"
        if misdeed == "write-own-folder":
            with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "escape.txt"), "w") as handle:
                handle.write("escaped")
            return "WROTE"
        if misdeed == "read":
            return " ".join(read(path) for path in target.split(","))
        if misdeed == "connect":
            return " ".join(connect(address) for address in target.split(","))
        if misdeed == "daemon":
            code = "import time; time.sleep(120)"
            subprocess.Popen([sys.executable, "-c", code, MARKER], start_new_session=True, stderr=subprocess.DEVNULL)
            return "SPAWNED"
        if misdeed == "double-fork":  # the classic daemon: a shell starts it in a new session and exits at once
            sleeper = f"{sys.executable} -c 'import time; time.sleep(120)' {MARKER}"
            subprocess.run(["sh", "-c", f"setsid sh -c \"trap '' TERM; exec {sleeper}\" >/dev/null 2>&1 &"], check=True)
            return "SPAWNED"
        if misdeed == "fill-tmp":  # many files, each below the file-size limit
            written = 0
            for number in range(1024):
                with open(f"/tmp/fill-{number}", "wb") as handle:
                    handle.write(b"x" * (1 << 20))
                written += 1
            return f"WROTE {written} MiB"
        if misdeed == "read-env":
            return "ENV " + " ".join(sorted(os.environ))
        if misdeed == "ignore-sigterm":
            return "IGNORING"  # set up at the start: only the main thread may handle signals
        if misdeed == "burn-cpu":
            end = time.process_time() + 30
            while time.process_time() < end:
                pass
            return "BURNED"
        if misdeed == "busy-off-turn":
            threading.Thread(target=spin, daemon=True).start()
            return "SPINNING"
        if misdeed == "memory-hog":
            hoard = [bytearray(1 << 20) for _ in range(8192)]
            return f"HOARDED {len(hoard)} MiB"
        if misdeed == "fork-bomb":
            for _ in range(200):
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
            return "FORKED"
        if misdeed == "big-file":
            with open("/tmp/big", "wb") as handle:
                for _ in range(1024):
                    handle.write(b"x" * (1 << 20))
            return "WROTE BIG"
        if misdeed == "trickle":
            TRICKLING.set()
            return "TRICKLING"
    except OSError as exc:
        return f"DENIED {type(exc).__name__}"
    return "NOTHING"


def read(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return f"READ {handle.read(40)!r}"
    except OSError as exc:
        return f"DENIED {type(exc).__name__}"


def connect(address: str) -> str:
    host, port = address.rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=2).close()
    except OSError as exc:
        return f"DENIED {type(exc).__name__}"
    return "CONNECTED"


def spin() -> None:
    while True:
        pass


TRICKLING = threading.Event()


def pump(source: socket.socket, sink: socket.socket, slow: bool) -> None:
    """Copy bytes from ``source`` to ``sink``; once TRICKLING is set (and ``slow``), one byte every 0.2 s."""
    try:
        while data := source.recv(65536):
            if slow and TRICKLING.is_set():
                for index in range(len(data)):
                    sink.sendall(data[index : index + 1])
                    time.sleep(0.2)
            else:
                sink.sendall(data)
    except OSError:
        pass


def relay(client: socket.socket, inner: str) -> None:
    """Connect ``client`` to the real server (which may still be starting) and pump both ways."""
    server = socket.socket(socket.AF_UNIX)
    for _ in range(200):
        try:
            server.connect(inner)
            break
        except OSError:
            time.sleep(0.05)
    else:
        client.close()
        return
    threading.Thread(target=pump, args=(client, server, False), daemon=True).start()
    pump(server, client, True)


def trickle_proxy(outer: str, inner: str) -> None:
    """Listen on the referee's address and relay to the real server at ``inner``, slowly once trickling."""
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(outer)
    listener.listen()
    while True:
        client, _ = listener.accept()
        threading.Thread(target=relay, args=(client, inner), daemon=True).start()


done = False


def choose(request):
    """The first legal action, after the misdeed at the first request of a real game."""
    global done
    if request.match_id.startswith("check-"):
        return 0
    if not done:
        done = True
        for misdeed in MISDEED.split("+"):
            print(f"misdeed {misdeed}: {attempt(misdeed)}", file=sys.stderr, flush=True)
    if MISDEED == "huge-answer":
        return ActResponse(0, "z" * (100 << 20))
    if MISDEED == "trickle":
        return ActResponse(0, "t" * (64 << 10))
    if MISDEED == "busy-off-turn":
        return ActResponse(0, f"cpu {time.process_time():.3f}")
    if "dawdle" in MISDEED.split("+"):
        time.sleep(0.08)
    return 0


if "ignore-sigterm" in MISDEED:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
if "big-file" in MISDEED:
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # as a C or Go program has it (Python ignores it)
if MISDEED == "trickle":
    outer = os.environ[ADDRESS].removeprefix("unix:")
    os.environ[ADDRESS] = f"unix:{outer}.inner"
    threading.Thread(target=trickle_proxy, args=(outer, f"{outer}.inner"), daemon=True).start()
serve(choose, name=f"hostile-{MISDEED.replace('+', '-')}" if MISDEED else "escaper", games=["tapa"])
