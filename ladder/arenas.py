"""Arenas: rating pools, one per kind of contest. An arena is a game with fixed options and a number of seats;
bots join the arenas of the games they play. Pairing and rating work for any number of seats."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlite_utils import Database

from referee.games import make_game
from referee.games.registry import registration_of


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


def arenas_for_game(game_id: str) -> list[ArenaSpec]:
    """Every arena a bot that plays ``game_id`` joins: the game's default arena, or the arenas its registration
    names (Durak for two, four and 2v2).

    >>> [(a.id, a.seats) for a in arenas_for_game("durak")]
    [('durak-2', 2), ('durak-4', 4), ('durak-2v2', 4)]
    """
    variants = registration_of(game_id).arenas.get(game_id)
    if variants is None:
        return [arena_for_game(game_id)]
    return [ArenaSpec(name, game_id, dict(options), make_game(game_id, options).num_seats, 1)
            for name, options in variants]


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


def arena_ids(db: Database) -> list[str]:
    """The ids of the database's arenas (those some bot entered), in the order they were made."""
    return [row["id"] for row in db.table("arenas").rows_where(select="id", order_by="rowid")]


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


def set_paused(db: Database, arena_id: str, paused: bool) -> None:
    """Pause the arena ``arena_id`` (a club's service plans no more of its units) or resume it."""
    with db.atomic():
        db.table("arenas").update(arena_id, {"paused": int(paused)})


def set_decision_limit(db: Database, arena_id: str, decisions: int) -> None:
    """End the arena's games as draws after ``decisions`` decisions, in the matches played from now on."""
    spec = load_arena(db, arena_id)
    with db.atomic():
        db.table("arenas").update(arena_id, {"options": json.dumps({**spec.options, "decision_limit": str(decisions)})})


def set_deals(db: Database, arena_id: str, deals: int) -> None:
    """Play ``deals`` deals per bot in the one-seat arena ``arena_id``.

    Raises:
        ValueError: the arena has more than one seat.
    """
    if load_arena(db, arena_id).seats != 1:
        raise ValueError(f"{arena_id} is not a one-seat arena: only a patience plays a set number of deals")
    with db.atomic():
        db.table("arenas").update(arena_id, {"deals": deals})


def deals_of(db: Database, arena_id: str) -> int:
    """The deals per bot of a one-seat arena (its operator's setting, ``ladder arena deals``, or :data:`DEALS`)."""
    row = db.execute("select deals from arenas where id = ?", [arena_id]).fetchone()
    return DEALS if row is None or row[0] is None else row[0]
