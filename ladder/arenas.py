"""Arenas: rating pools, one per kind of contest. An arena is a game with fixed options and a number of seats;
bots join the arenas of the games they play. Pairing and rating work for any number of seats."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlite_utils import Database

from referee.games import make_game


@dataclass(frozen=True)
class ArenaSpec:
    """What defines an arena."""

    id: str
    game: str
    options: dict[str, str]
    seats: int
    match_length: int
    """n of the match-length-aware rating model (points to win a match; 1 for single games)."""


def arena_for_game(game_id: str) -> ArenaSpec:
    """The default arena of a game id: its default options, its seats, and its match length."""
    game = make_game(game_id)
    length = int(game.options.get("match.target", 1))
    return ArenaSpec(game_id, game_id, {}, game.num_seats, length)


VARIANT_ARENAS: dict[str, tuple[tuple[str, dict[str, str]], ...]] = {
    "durak": (
        ("durak-2", {"seats": "2"}),
        ("durak-4", {"seats": "4"}),
        ("durak-2v2", {"seats": "4", "teams": "2v2"}),
    ),
}
"""Games played in several arenas (id, options): Durak heads-up, four players, and 2v2 teams."""


def arenas_for_game(game_id: str) -> list[ArenaSpec]:
    """Every arena a bot that plays ``game_id`` joins: the game's default arena, or its variant arenas.

    >>> [(a.id, a.seats) for a in arenas_for_game("durak")]
    [('durak-2', 2), ('durak-4', 4), ('durak-2v2', 4)]
    """
    variants = VARIANT_ARENAS.get(game_id)
    if variants is None:
        return [arena_for_game(game_id)]
    return [ArenaSpec(name, game_id, options, make_game(game_id, options).num_seats, 1) for name, options in variants]


def ensure_arena(db: Database, spec: ArenaSpec) -> str:
    """Create the arena row if missing; return its id (call inside a transaction)."""
    db.table("arenas").insert(
        {
            "id": spec.id,
            "game": spec.game,
            "options": json.dumps(spec.options),
            "seats": spec.seats,
            "match_length": spec.match_length,
        },
        pk="id",
        ignore=True,
    )
    return spec.id


def load_arena(db: Database, arena_id: str) -> ArenaSpec:
    """The arena ``arena_id``; KeyError if there is none."""
    try:
        row = db.table("arenas").get(arena_id)
    except Exception as exc:  # sqlite_utils.db.NotFoundError
        raise KeyError(arena_id) from exc
    return ArenaSpec(row["id"], row["game"], json.loads(row["options"]), row["seats"], row["match_length"])


DEALS = 300
"""Deals a one-seat arena (a patience) plays per bot by default: a club's service deals new ones until every
active bot has played this many (a bot that joins later gets new deals, which every active bot plays too)."""


def deals_of(db: Database, arena_id: str) -> int:
    """The deals per bot of a one-seat arena (its operator's setting, ``ladder arena deals``, or :data:`DEALS`)."""
    row = db.execute("select deals from arenas where id = ?", [arena_id]).fetchone()
    return DEALS if row is None or row[0] is None else row[0]
