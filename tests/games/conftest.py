"""Fixtures of the engine tests: ``engine`` runs a test once on the native core and once on the Python engines."""

from __future__ import annotations

import pytest

from referee.games import Game
from referee.games.engine import NATIVE


@pytest.fixture(params=["native", "python"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The engine of this run of the test (``make_game(..., engine=engine)``, ``game.on(engine)``); the test
    module's own games (``GAME = Tabla()`` and the like) are put on it for the test."""
    if request.param == "native" and NATIVE is None:
        pytest.skip("the native core is not installed")
    for name, value in vars(request.module).items():
        if isinstance(value, Game):
            monkeypatch.setattr(request.module, name, value.on(request.param))
    return request.param
