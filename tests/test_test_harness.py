"""The suite's own machinery: a background check runs once in a run however many processes start it, and says
how it ended; a test alone waits for the tests running and holds back those that come after it."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.background import RUN_ENV, Background
from tests.turns import turn

SETTLE = 0.3
"""Seconds for a thread to reach the lock it will wait on."""


def test_a_check_started_by_two_processes_runs_once_and_says_how_it_ended(tmp_path, monkeypatch):
    monkeypatch.setenv(RUN_ENV, str(tmp_path))
    count = tmp_path / "count"
    command = ["sh", "-c", f'echo run >> {count}; echo "scratch $SCRATCH"; exit 3']
    Background(command, tmp_path, scratch="SCRATCH").start()
    again = Background(command, tmp_path, scratch="SCRATCH")  # as a second worker declares and starts it
    again.start()
    done = again.result(30)
    assert done.returncode == 3 and done.output.startswith("scratch ") and count.read_text() == "run\n"
    assert not os.path.exists(done.output.split()[1])  # its scratch folder is removed when it is done


def test_a_check_past_its_time_is_stopped_with_what_it_started(tmp_path, monkeypatch):
    monkeypatch.setenv(RUN_ENV, str(tmp_path))
    check = Background(["sh", "-c", "sleep 60 & echo $! > child; wait"], tmp_path)
    with pytest.raises(subprocess.TimeoutExpired):
        check.result(1)
    child = Path("/proc") / (tmp_path / "child").read_text().strip() / "stat"
    time.sleep(SETTLE)
    assert not child.exists() or child.read_text().split()[2] == "Z"  # gone, or dead and not yet reaped


def test_a_test_alone_waits_for_the_tests_running_and_holds_back_those_after_it(tmp_path):
    said: list[str] = []
    first_in, let_go = threading.Event(), threading.Event()

    def beside(name: str) -> None:
        with turn(tmp_path, alone=False):
            said.append(f"{name} in")
            if name == "first":
                first_in.set()
                let_go.wait(30)
            said.append(f"{name} out")

    def alone() -> None:
        with turn(tmp_path, alone=True):
            said.append("alone in")
            time.sleep(SETTLE)
            said.append("alone out")

    threads = [threading.Thread(target=beside, args=("first",)), threading.Thread(target=alone),
               threading.Thread(target=beside, args=("after",))]
    threads[0].start()
    first_in.wait(30)
    for thread in threads[1:]:
        thread.start()
        time.sleep(SETTLE)
    assert said == ["first in"]
    let_go.set()
    for thread in threads:
        thread.join(30)
    assert said == ["first in", "first out", "alone in", "alone out", "after in", "after out"]


def test_tests_beside_each_other_run_together(tmp_path):
    with turn(tmp_path, alone=False):
        entered = threading.Event()

        def beside() -> None:
            with turn(tmp_path, alone=False):
                entered.set()

        thread = threading.Thread(target=beside)
        thread.start()
        assert entered.wait(30)
        thread.join(30)
