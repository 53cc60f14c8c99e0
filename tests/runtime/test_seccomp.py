"""The sandbox's seccomp filter: each refused class of system call fails inside the sandbox with its documented
error (where, unfiltered, the same call would have done something else), a lock is granted but holds nothing (a
second lock on the same file does not conflict), and what a bot needs still works."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.runtime.sandbox import DEFAULT_LIMITS, FIRST_UID, PATH, Sandbox, UidClaim, sandbox_problem
from referee.runtime.seccomp import GRANTED, LOCK_QUERY_ERRNO, REFUSED_ERRNO, program_fd

needs_sandbox = pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")

PROBE = r'''
import ctypes, errno, json, os, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
numbers = json.loads(sys.argv[1])
scratch = os.open("/tmp/probe", os.O_RDWR | os.O_CREAT, 0o600)
folder = os.open("/tmp", os.O_RDONLY)
lock = (ctypes.c_short * 16)(1)  # struct flock: F_WRLCK, the whole file
iov = (ctypes.c_void_p * 2)()
key_type, description, payload = b"user", b"kafana-probe", b"x"


def call(name, *args):
    ctypes.set_errno(0)
    result = libc.syscall(numbers[name], *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])
    return 0 if result >= 0 else ctypes.get_errno()


results = {
    "add_key": call("add_key", key_type, description, payload, 1, -2),
    "keyctl": call("keyctl", 0, -4, 1),
    "request_key": call("request_key", key_type, description, None, 0),
    "flock": call("flock", scratch, 2 | 4),
    "flock again": call("flock", os.open("/tmp/probe", os.O_RDONLY), 2 | 4),  # a lock held conflicts
    "fcntl F_SETLK": call("fcntl", scratch, 6, lock),
    "fcntl F_OFD_SETLK": call("fcntl", scratch, 37, lock),
    "fcntl F_OFD_SETLK again": call("fcntl", os.open("/tmp/probe", os.O_RDWR), 37, lock),
    "fcntl F_GETLK": call("fcntl", scratch, 5, lock),
    "fcntl F_SETLEASE": call("fcntl", scratch, 1024, 0),
    "fcntl F_NOTIFY": call("fcntl", folder, 1026, 1),
    "inotify_init1": call("inotify_init1", 0),
    "ptrace": call("ptrace", 2, os.getpid(), 0, 0),
    "process_vm_readv": call("process_vm_readv", os.getpid(), iov, 0, iov, 0, 0),
    "perf_event_open": call("perf_event_open", None, 0, -1, -1, 0),
    "unshare": call("unshare", 0),
    "setns": call("setns", -1, 0),
    "clone3": call("clone3", None, 0),
    "io_uring_setup": call("io_uring_setup", 1, None),
    "personality": call("personality", 8),
    "vsock": call("socket", 40, 1, 0),
    "getpid": call("getpid"),
    "getuid": call("getuid"),
    "fcntl F_GETFL": call("fcntl", scratch, 3),
    "personality query": call("personality", 0xFFFFFFFF),
}
if sys.argv[2] == "clone":  # unfiltered, the child would go on running this script
    results["clone new namespace"] = call("clone", 0x20000000 | 17, 0, 0, 0, 0)
pid = os.fork()
if pid == 0:
    os._exit(7)
results["fork"] = os.waitpid(pid, 0)[1] >> 8 == 7 and 0
unix = socket.socketpair()
results["socketpair"] = unix[0].send(b"x") == 1 and 0
print(json.dumps(results))
'''
REFUSED = {
    "add_key": REFUSED_ERRNO, "keyctl": REFUSED_ERRNO, "request_key": REFUSED_ERRNO, "flock": GRANTED,
    "flock again": GRANTED, "fcntl F_SETLK": GRANTED, "fcntl F_OFD_SETLK": GRANTED,
    "fcntl F_OFD_SETLK again": GRANTED, "fcntl F_GETLK": LOCK_QUERY_ERRNO, "fcntl F_SETLEASE": LOCK_QUERY_ERRNO,
    "fcntl F_NOTIFY": REFUSED_ERRNO, "inotify_init1": REFUSED_ERRNO,
    "ptrace": REFUSED_ERRNO, "process_vm_readv": REFUSED_ERRNO, "perf_event_open": REFUSED_ERRNO,
    "unshare": REFUSED_ERRNO, "setns": REFUSED_ERRNO, "clone new namespace": REFUSED_ERRNO,
    "clone3": errno.ENOSYS, "io_uring_setup": REFUSED_ERRNO, "personality": REFUSED_ERRNO, "vsock": REFUSED_ERRNO,
}
ALLOWED = ("getpid", "getuid", "fcntl F_GETFL", "personality query", "fork", "socketpair")
UNFILTERED_DIFFERS = ("add_key", "keyctl", "flock again", "fcntl F_OFD_SETLK again", "fcntl F_GETLK",
                      "fcntl F_NOTIFY", "inotify_init1", "ptrace", "process_vm_readv", "perf_event_open", "unshare",
                      "setns", "clone3", "io_uring_setup")
"""Refused calls that, unfiltered, succeed or fail otherwise: the probe's calls mean what the test says."""


def numbers() -> str:
    """The system call numbers of this machine, by name (from libseccomp's tables)."""
    import pyseccomp

    arch = pyseccomp.system_arch()
    names = {name.split()[0] for name in [*REFUSED, *ALLOWED]} | {"clone3", "socket", "fcntl", "personality"}
    return json.dumps({name: pyseccomp.resolve_syscall(arch, name) for name in names})


def probe(command_of, clone: bool = True) -> dict[str, int]:
    command = [sys.executable, "-I", "-S", "-c", PROBE, numbers(), "clone" if clone else "-"]
    done = subprocess.run(command_of(command), capture_output=True,
                          text=True, timeout=60, env={"PATH": PATH}, pass_fds=command_of.pass_fds, cwd="/tmp")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


class _Sandboxed:
    def __init__(self, uid: int, rules: int) -> None:
        self.uid, self.pass_fds = uid, (rules,)

    def __call__(self, command: list[str]) -> list[str]:
        return Sandbox(DEFAULT_LIMITS, self.uid).command(command, Path(sys.prefix), self.pass_fds[0])


@needs_sandbox
def test_each_refused_call_fails_with_its_error_and_the_rest_works():
    claim, rules = UidClaim(FIRST_UID), program_fd()
    try:
        inside = probe(_Sandboxed(claim.uid, rules))
    finally:
        os.close(rules)
        claim.release()
    assert {name: inside[name] for name in REFUSED} == REFUSED
    assert {name: inside[name] for name in ALLOWED} == dict.fromkeys(ALLOWED, 0)


def _unfiltered(command: list[str]) -> list[str]:
    return command


_unfiltered.pass_fds = ()  # type: ignore[attr-defined]


@pytest.mark.skipif(sys.platform != "linux" or os.geteuid() != 0, reason="the control runs the probe as root")
def test_unfiltered_the_same_calls_do_something_else():
    outside = probe(_unfiltered, clone=False)
    assert all(outside[name] != REFUSED[name] for name in UNFILTERED_DIFFERS), outside
