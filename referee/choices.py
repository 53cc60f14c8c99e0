"""The choices a command takes from its environment, settled before it works: the engine core (``KAFANA_ENGINE``,
:mod:`referee.games.engine`) and the client that speaks to bots (``KAFANA_WIRE``, :mod:`referee.runtime.calls`).
Each module reads its variable when imported, and says nothing there (a bot that imports the engines prints
nothing); :func:`settle`, called by ``referee`` and ``ladder`` first, refuses a mistyped value in one line and
says once that the Python engines play when the native core is missing.
"""

from __future__ import annotations

from .games import engine
from .runtime import calls


class ChoiceError(ValueError):
    """A variable of the environment names an engine or a client that is not there."""


def settle() -> None:
    """Check the environment's choices and say the engines' fallback (once for a command and its processes).

    Raises:
        ChoiceError: ``KAFANA_ENGINE`` or ``KAFANA_WIRE`` asks for what is not there.
    """
    problems = [problem for problem in (engine.PROBLEM, calls.PROBLEM) if problem]
    if problems:
        raise ChoiceError("; ".join(problems))
    engine.note_fallback()
