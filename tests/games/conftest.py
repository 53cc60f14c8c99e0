"""Fixtures of the engine tests: ``engine`` runs a test once on the native core and once on the Python engines."""

from __future__ import annotations

import pytest

from referee.games.cards import durak_session
from referee.games.engine import NATIVE
from referee.games.tabla_family import _ends, _family
from referee.games.tabla_family._family import FamilyGame
from referee.games.tabla_family.tabla_match import TablaMatch


@pytest.fixture(params=["native", "python"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The engine of this run of the test. With ``python``, Durak deals and Tabla-family states are the Python
    engines' (the family's with the Python stage generator): games made in the test take it when they are made,
    and the module's own game objects (``GAME = Tabla()`` and the like) are switched to it."""
    if request.param == "native" and NATIVE is None:
        pytest.skip("the native core is not installed")
    if request.param == "python":
        monkeypatch.setattr(durak_session, "NATIVE", None)
        monkeypatch.setattr(_family, "NATIVE", None)
        monkeypatch.setattr(_family, "stage_ends", _ends.python_stage_ends)
        monkeypatch.setattr(_ends, "stage_plays", _ends.python_stage_plays)
        for value in vars(request.module).values():
            games = value.games.values() if isinstance(value, TablaMatch) else [value]
            for game in games:
                if isinstance(game, FamilyGame):
                    monkeypatch.setattr(game, "native", False)
    return request.param
