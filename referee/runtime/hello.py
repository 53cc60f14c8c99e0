"""What a bot may say in Hello: bounded, plain fields and known games.

A bot's name becomes part of page addresses and file names, and every field is printed in terminals and pages, so
the referee accepts a Hello only when:

- ``name`` is 1 to 64 characters of ``A-Z a-z 0-9 . _ -`` (not starting with a dot);
- ``version`` (at most 32), ``author`` and ``language`` (at most 64 each) are printable text;
- ``games`` lists known game ids; a game listed twice counts once.

Anything else is a ``no_hello`` fault naming what was wrong. In a ladder a bot must also say who it is as it was
entered (:class:`Entrant`): the same name, version and games, so that the replay's header and the database name
the same bot.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from referee.wire import BotInfo

NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}")
"""A bot name: what the ladder's pages, API and folders can carry as it is."""
LIMITS = {"version": 32, "author": 64, "language": 64}
"""Longest accepted text of the other fields."""


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a bot's name, or None.

    >>> name_problem("heuristic-2.1"), name_problem("a/b")
    (None, "name 'a/b' must be 1-64 characters of A-Z a-z 0-9 . _ - (not starting with a dot)")
    """
    if NAME.fullmatch(name):
        return None
    shown = repr(name) if len(name) <= 40 else f"{name[:40]!r}… ({len(name)} characters)"
    return f"name {shown} must be 1-64 characters of A-Z a-z 0-9 . _ - (not starting with a dot)"


def checked_hello(info: BotInfo, known_games: Collection[str]) -> BotInfo:
    """``info`` with its games listed once each, in the order first given.

    Raises:
        ValueError: a field breaks the rules above (the message names it).

    >>> checked_hello(BotInfo("b", games=("tapa", "tapa")), {"tapa"}).games
    ('tapa',)
    """
    if (problem := name_problem(info.name)) is not None:
        raise ValueError(problem)
    for field, limit in LIMITS.items():
        value = getattr(info, field)
        if len(value) > limit or not value.isprintable():
            raise ValueError(f"{field} must be printable text of at most {limit} characters ({len(value)} given)")
    games = tuple(dict.fromkeys(info.games))
    unknown = [game for game in games if game not in known_games]
    if unknown:
        listed = ", ".join(repr(g[:40]) for g in unknown[:3])
        if len(unknown) > 3:
            listed += f" and {len(unknown) - 3} more"
        raise ValueError(f"Hello lists unknown game ids {listed} (known: {', '.join(sorted(known_games))})")
    return dataclasses.replace(info, games=games)


@dataclass(frozen=True)
class Entrant:
    """Who a seat's bot was entered as (in a ladder: the registered version): what its Hello must say."""

    name: str
    version: str
    games: tuple[str, ...]

    @classmethod
    def from_json(cls, data: object) -> Entrant:
        """An entrant from ``{"name": …, "version": …, "games": […]}``, read strictly.

        Raises:
            ValueError: a field is missing, unknown or of the wrong type.

        >>> Entrant.from_json({"name": "random", "version": "1.0", "games": ["tapa"]})
        Entrant(name='random', version='1.0', games=('tapa',))
        """
        if not isinstance(data, Mapping) or set(data) != {"name", "version", "games"}:
            raise ValueError(f"an entrant is {{name, version, games}}, not {data!r:.200}")
        name, version, games = data["name"], data["version"], data["games"]
        if not isinstance(name, str) or not isinstance(version, str) or not isinstance(games, list) or not all(
            isinstance(game, str) for game in games
        ):
            raise ValueError(f"an entrant's name and version are text and its games a list of text: {data!r:.200}")
        return cls(name, version, tuple(games))

    def to_json(self) -> dict:
        """The JSON form :meth:`from_json` reads."""
        return {"name": self.name, "version": self.version, "games": list(self.games)}

    def mismatch(self, info: BotInfo) -> str | None:
        """How ``info`` (a checked Hello) differs from this entrant, or None when it is the bot entered.

        >>> Entrant("random", "1.0", ("tapa",)).mismatch(BotInfo("other", "1.0", games=("tapa",)))
        "it says it is 'other' 1.0 playing tapa, but was entered as 'random' 1.0 playing tapa"
        """
        if (info.name, info.version, set(info.games)) == (self.name, self.version, set(self.games)):
            return None
        said = f"{info.name!r} {info.version} playing {', '.join(info.games)}"
        return f"it says it is {said}, but was entered as {self.name!r} {self.version} playing {', '.join(self.games)}"
