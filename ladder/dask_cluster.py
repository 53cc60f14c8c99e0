"""A Dask cluster of separate processes on this machine (a scheduler and workers on loopback), for tests,
benchmarks and trying ``--executor dask`` without other machines."""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

DASK = str(Path(sys.executable).parent / "dask")
"""The ``dask`` command of this Python environment."""


@dataclass
class LoopbackCluster:
    """The scheduler's address and the processes (workers by name)."""

    address: str
    scheduler: subprocess.Popen
    workers: dict[str, subprocess.Popen]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def loopback_cluster(workers: int, logs: Path, timeout: float = 60.0) -> Iterator[LoopbackCluster]:
    """Start ``dask scheduler`` and ``workers`` × ``dask worker`` (one thread each, no nanny: killing a worker kills
    it), wait until all workers have joined, and stop everything on the way out. Their logs go to ``logs``."""
    from distributed import Client

    logs.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = ["--no-dashboard"]
    scheduler = subprocess.Popen(
        [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(port), *quiet],
        stdout=subprocess.DEVNULL,
        stderr=(logs / "scheduler.log").open("w"),
    )
    processes = {
        f"w{index}": subprocess.Popen(
            [DASK, "worker", address, "--nthreads", "1", "--no-nanny", "--name", f"w{index}", *quiet],
            stdout=subprocess.DEVNULL,
            stderr=(logs / f"w{index}.log").open("w"),
        )
        for index in range(workers)
    }
    try:
        with Client(address, timeout=f"{timeout:g}s") as client:
            client.wait_for_workers(workers, timeout=timeout)
        yield LoopbackCluster(address, scheduler, processes)
    finally:
        everything = [*processes.values(), scheduler]
        for process in everything:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in everything:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
