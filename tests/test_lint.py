"""The gates on the code: ruff (unused and undefined names, syntax errors, sorted imports) and mypy (the types of
referee/ and ladder/), both as configured in pyproject.toml (``[tool.ruff]``, ``[tool.mypy]``), and clippy on the
Rust code (the native engine core and the Rust starter bot) with every warning an error. ``ruff check --fix .``
mends most of what ruff finds; ``mypy`` and ``cargo clippy`` in each crate's folder show the rest.

mypy and clippy run beside the tests from the run's start (tests/background.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.background import Background

ROOT = Path(__file__).resolve().parents[1]
CLIPPY = ["cargo", "clippy", "--release", "--all-targets", "--locked", "--quiet", "--", "-D", "warnings"]
MYPY = Background([sys.executable, "-m", "mypy"], ROOT, scratch="MYPY_CACHE_DIR")
CLIPPY_NATIVE = Background(CLIPPY, ROOT / "native")
"""The native core is checked in its own target folder, which its build made."""
CLIPPY_STARTER = Background(CLIPPY, ROOT / "bots" / "rust", scratch="CARGO_TARGET_DIR")
"""The Rust starter is checked in a temporary target folder: one inside a bot's folder would be copied with it."""
TIMEOUT = 280
"""Seconds a test waits for its check (within the tests' own limit, pytest-timeout's 300): they start with the run and
are done long before their tests come."""


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


@MYPY
def test_mypy_finds_nothing():
    done = MYPY.result(TIMEOUT)
    assert done.returncode == 0, done.output


@CLIPPY_NATIVE
def test_clippy_finds_nothing_in_the_native_core():
    done = CLIPPY_NATIVE.result(TIMEOUT)
    assert done.returncode == 0, done.output


@CLIPPY_STARTER
def test_clippy_finds_nothing_in_the_rust_starter():
    done = CLIPPY_STARTER.result(TIMEOUT)
    assert done.returncode == 0, done.output
