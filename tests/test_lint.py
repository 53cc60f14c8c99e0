"""The gates on the code: ruff (unused and undefined names, syntax errors, sorted imports) and mypy (the types of
referee/ and ladder/), both as configured in pyproject.toml (``[tool.ruff]``, ``[tool.mypy]``), and clippy on the
Rust code (the native engine core and the Rust starter bot) with every warning an error. ``ruff check --fix .``
mends most of what ruff finds; ``mypy`` and ``cargo clippy`` in each crate's folder show the rest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CRATES = {"native": ROOT / "native", "starter": ROOT / "bots" / "rust"}
"""The Rust crates clippy checks: the native core (checked in its own target folder, which its build made), and the
Rust starter (checked in a temporary one: a target folder inside a bot's folder would be copied with the bot)."""


def _passes(command: list[str], cwd: Path, **env: str) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900, env={**os.environ, **env})
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_finds_nothing():
    _passes([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."], ROOT)


def test_mypy_finds_nothing(tmp_path):
    _passes([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path)], ROOT)


@pytest.mark.parametrize("crate", sorted(CRATES))
def test_clippy_finds_nothing(crate, tmp_path):
    if shutil.which("cargo") is None:
        pytest.fail("cargo is not installed (the Rust toolchain, with its clippy component)")
    target = {} if crate == "native" else {"CARGO_TARGET_DIR": str(tmp_path)}
    _passes(["cargo", "clippy", "--release", "--all-targets", "--locked", "--quiet", "--", "-D", "warnings"],
            CRATES[crate], **target)
