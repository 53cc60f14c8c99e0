"""The code passes ruff's checks as configured in pyproject.toml (``[tool.ruff]``): no unused or undefined name, no
syntax error, imports sorted. ``ruff check --fix .`` mends most of what this finds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
