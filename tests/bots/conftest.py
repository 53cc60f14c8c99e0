"""What the bot tests share: the starters, prepared (copied and built) once for the whole run."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.runtime import BotSpec, default_store, prepare_bot
from referee.runtime.sandbox import sandbox_problem

ROOT = Path(__file__).resolve().parents[2]
STARTERS = {
    "javascript": ROOT / "bots" / "javascript",
    "c++": ROOT / "bots" / "cpp",
    "go": ROOT / "bots" / "go",
    "rust": ROOT / "bots" / "rust",
    "java": ROOT / "bots" / "java",
    "python-kit": ROOT / "kit" / "example",
    "python": ROOT / "bots" / "python" / "random_bot.py",
}
"""The starter of each language, as the tests name them."""
STARTERS_TIMEOUT = 900
"""Seconds a test that uses the starters may take: the first one builds all seven (about 190 s one after another
alone on a 2-core machine, more beside other work or with empty package caches), on top of its own work."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give every test that uses the starters :data:`STARTERS_TIMEOUT`: whichever runs first pays for their
    builds, so the run's timeout for one test does not fit it."""
    for item in items:
        if "starters" in getattr(item, "fixturenames", ()) and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(STARTERS_TIMEOUT))


@pytest.fixture(scope="session")
def starters() -> dict[str, BotSpec]:
    """The starters as they run: prepared once, in the sandbox where it works (a build made there serves every
    command after, sandboxed or not, and starts the builds of bots made from them). They are prepared side by side,
    as a ladder prepares the bots submitted to it: their fetches take turns, so one builds while another
    downloads."""
    sandboxed = sandbox_problem() is None
    with ThreadPoolExecutor(len(STARTERS)) as pool:
        specs = pool.map(lambda path: prepare_bot(path, default_store(), sandboxed), STARTERS.values())
        return dict(zip(STARTERS, specs))
