"""Fixtures of the engine tests."""

from __future__ import annotations

import pytest

from referee.games.cards import durak_session
from referee.games.engine import NATIVE


@pytest.fixture(params=["native", "python"])
def durak_engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test once on the native core's Durak deals and once on the Python engine's (the registered game
    takes the engine when it is made: ``make_game("durak")`` inside the test gets the one of this run)."""
    if request.param == "native" and NATIVE is None:
        pytest.skip("the native core is not installed")
    if request.param == "python":
        monkeypatch.setattr(durak_session, "NATIVE", None)
    return request.param
