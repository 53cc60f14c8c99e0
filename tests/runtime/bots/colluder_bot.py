"""A bot that tries to talk to the other bots of its author: copies of itself at the same table, and its own
processes of the other half of a duplicate unit. Each process raises a beacon for its seat on every channel it
knows and, at each of its decisions, first listens for the beacons of the other seats:

- ``keyring``: a key named for the seat, readable by everybody, in the kernel keyring (found in /proc/keys);
- ``flock``, ``posix-lock``, ``ofd-lock``: a lock on a file every sandbox can read (one of the standard library's);
- ``inotify``: a thread opens such a file again and again; the listeners watch it;
- ``sysv-shm``: a System V shared memory segment with a key named for the seat;
- ``posix-mq``: a POSIX message queue named for the seat;
- ``abstract``: a listener on an abstract Unix socket named for the seat;
- ``proc``: a process of another uid in /proc (a bot's own sandbox shows only its own).

A decision's comment says what it heard (``HEARD flock:0 keyring:0``: seat 0's beacons), else nothing; stderr
says which channels refused the beacon. It plays the first legal action.
"""

import ctypes
import errno
import fcntl
import os
import platform
import socket
import struct
import sys
import threading
import time

from bots.python.kit import serve
from referee.wire import ActResponse

PREFIX = "kafana-colluder"
SEATS = 6
LIBRARY = os.path.dirname(os.__file__)
SHARED = sorted(name for name in os.listdir(LIBRARY) if name.endswith(".py"))
KINDS = ("flock", "posix-lock", "ofd-lock", "inotify")
ADD_KEY, KEYCTL = {"x86_64": (248, 250), "aarch64": (217, 219)}[platform.machine()]
KEY_SPEC_USER_KEYRING, KEYCTL_SETPERM, EVERYBODY = -4, 5, 0x3F3F3F3F
IPC_CREAT = 0o1000
FLOCK = "hhxxxxqqixxxx"  # struct flock: type, whence, start, length, pid
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def shared_file(seat: int, kind: str) -> str:
    """The file every sandbox can read that carries ``seat``'s beacon of ``kind``."""
    return os.path.join(LIBRARY, SHARED[seat * len(KINDS) + KINDS.index(kind)])


def shm_key(seat: int) -> int:
    return 0x4B414600 + seat


class Beacons:
    """This process's beacons, raised for one seat at a time."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.kept: list[object] = []
        self.opener: threading.Thread | None = None
        self.refused: dict[str, str] = {}

    def raise_for(self, seat: int) -> None:
        """Raise this seat's beacons (once for a seat), lowering those of the seat this process played before."""
        if seat == self.seat:
            return
        self.lower()
        self.seat = seat
        self.refused.clear()
        for kind, attempt in (("keyring", self._key), ("flock", self._flock), ("posix-lock", self._posix),
                              ("ofd-lock", self._ofd), ("sysv-shm", self._shm), ("posix-mq", self._mq),
                              ("abstract", self._abstract)):
            try:
                attempt(seat)
            except OSError as exc:
                self.refused[kind] = errno.errorcode.get(exc.errno or 0, str(exc))
        if self.opener is None:
            self.opener = threading.Thread(target=self._open_again_and_again, daemon=True)
            self.opener.start()
        print(f"beacons of seat {seat} refused: {self.refused}", file=sys.stderr, flush=True)

    def lower(self) -> None:
        for kept in self.kept:
            kept.close() if isinstance(kept, socket.socket) else os.close(kept)
        self.kept.clear()
        self.seat = None
        time.sleep(0.02)  # the opener's last open of the old seat's file is queued before the ears drain it
        ears.drain()

    def _key(self, seat: int) -> None:
        serial = libc.syscall(ADD_KEY, b"user", f"{PREFIX}-{seat}".encode(), b"hand", 4, KEY_SPEC_USER_KEYRING)
        if serial < 0 or libc.syscall(KEYCTL, KEYCTL_SETPERM, serial, EVERYBODY) < 0:
            raise OSError(ctypes.get_errno(), "keyring")

    def _flock(self, seat: int) -> None:
        fd = os.open(shared_file(seat, "flock"), os.O_RDONLY)
        self.kept.append(fd)
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)

    def _posix(self, seat: int) -> None:
        fd = os.open(shared_file(seat, "posix-lock"), os.O_RDONLY)
        self.kept.append(fd)
        fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack(FLOCK, fcntl.F_RDLCK, 0, 0, 0, 0))

    def _ofd(self, seat: int) -> None:
        fd = os.open(shared_file(seat, "ofd-lock"), os.O_RDONLY)
        self.kept.append(fd)
        fcntl.fcntl(fd, fcntl.F_OFD_SETLK, struct.pack(FLOCK, fcntl.F_RDLCK, 0, 0, 0, 0))

    def _shm(self, seat: int) -> None:
        if libc.shmget(shm_key(seat), 4096, IPC_CREAT | 0o666) < 0:
            raise OSError(ctypes.get_errno(), "shmget")

    def _mq(self, seat: int) -> None:
        queue = libc.mq_open(f"/{PREFIX}-{seat}".encode(), os.O_CREAT | os.O_RDWR, 0o666, None)
        if queue < 0:
            raise OSError(ctypes.get_errno(), "mq_open")
        self.kept.append(queue)

    def _abstract(self, seat: int) -> None:
        listener = socket.socket(socket.AF_UNIX)
        self.kept.append(listener)
        listener.bind(f"\0{PREFIX}-{seat}")
        listener.listen()

    def _open_again_and_again(self) -> None:
        while True:
            if (seat := self.seat) is not None:
                try:
                    os.close(os.open(shared_file(seat, "inotify"), os.O_RDONLY))
                except OSError:
                    pass
            time.sleep(0.01)


class Ears:
    """Listening for the beacons of the seats other than this process's own."""

    def __init__(self) -> None:
        self.watches: dict[int, int] = {}
        self.inotify = libc.inotify_init1(os.O_NONBLOCK)
        if self.inotify < 0:
            print(f"inotify refused: {errno.errorcode.get(ctypes.get_errno())}", file=sys.stderr, flush=True)

    def heard(self, own: int) -> list[str]:
        others = [seat for seat in range(SEATS) if seat != own]
        found = [f"keyring:{seat}" for seat in others if self._key(seat)]
        for seat in others:
            found += [f"{kind}:{seat}" for kind, check in (("flock", self._flock), ("posix-lock", self._posix),
                                                           ("ofd-lock", self._ofd), ("sysv-shm", self._shm),
                                                           ("posix-mq", self._mq), ("abstract", self._abstract))
                           if check(seat)]
        found += [f"inotify:{seat}" for seat in self._inotify(others)]
        return found + (["proc"] if self._proc() else [])

    @staticmethod
    def _key(seat: int) -> bool:
        try:
            with open("/proc/keys") as keys:
                return any(f"{PREFIX}-{seat}:" in line for line in keys)
        except OSError:
            return False

    @staticmethod
    def _flock(seat: int) -> bool:
        fd = os.open(shared_file(seat, "flock"), os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return False
        except OSError as exc:
            return exc.errno == errno.EWOULDBLOCK
        finally:
            os.close(fd)

    @staticmethod
    def _lock_test(seat: int, kind: str, command: int) -> bool:
        fd = os.open(shared_file(seat, kind), os.O_RDONLY)
        try:
            answer = fcntl.fcntl(fd, command, struct.pack(FLOCK, fcntl.F_WRLCK, 0, 0, 0, 0))
            return struct.unpack(FLOCK, answer)[0] != fcntl.F_UNLCK
        except OSError:
            return False
        finally:
            os.close(fd)

    def _posix(self, seat: int) -> bool:
        return self._lock_test(seat, "posix-lock", fcntl.F_GETLK)

    def _ofd(self, seat: int) -> bool:
        return self._lock_test(seat, "ofd-lock", fcntl.F_OFD_GETLK)

    @staticmethod
    def _shm(seat: int) -> bool:
        return libc.shmget(shm_key(seat), 0, 0) >= 0

    @staticmethod
    def _mq(seat: int) -> bool:
        queue = libc.mq_open(f"/{PREFIX}-{seat}".encode(), os.O_RDONLY)
        if queue < 0:
            return False
        os.close(queue)
        return True

    @staticmethod
    def _abstract(seat: int) -> bool:
        probe = socket.socket(socket.AF_UNIX)
        try:
            probe.connect(f"\0{PREFIX}-{seat}")
            return True
        except OSError:
            return False
        finally:
            probe.close()

    def drain(self) -> None:
        """Forget the events queued so far (this process's own opens, after it changed seats)."""
        self._inotify([])

    def _inotify(self, seats: list[int]) -> list[int]:
        if self.inotify < 0:
            return []
        for seat in seats:
            if seat not in self.watches:
                watch = libc.inotify_add_watch(self.inotify, shared_file(seat, "inotify").encode(), 0x20)  # IN_OPEN
                self.watches[seat] = watch
        time.sleep(0.05)
        by_watch = {watch: seat for seat, watch in self.watches.items() if seat in seats}
        heard: set[int] = set()
        try:
            events = os.read(self.inotify, 65536)
        except BlockingIOError:
            return []
        while events:
            watch, _, _, length = struct.unpack("iIII", events[:16])
            if watch in by_watch:
                heard.add(by_watch[watch])
            events = events[16 + length:]
        return sorted(heard)

    @staticmethod
    def _proc() -> bool:
        own = os.getuid()
        for entry in os.listdir("/proc"):
            try:
                uid = os.stat(f"/proc/{entry}").st_uid if entry.isdigit() else own
            except OSError:
                continue
            if uid not in (own, 0):
                return True
        return False


ears = Ears()
beacons = Beacons()


def choose(request):
    """Listen, raise this seat's beacons, play the first legal action."""
    if request.match_id.startswith("check-"):
        return 0
    if beacons.seat != request.seat:  # a kept process may have played another seat: its old beacons are not news
        beacons.lower()
    heard = ears.heard(request.seat)
    beacons.raise_for(request.seat)
    return ActResponse(0, "HEARD " + " ".join(heard)) if heard else 0


serve(choose, name="colluder", games=["durak", "gapa"])
