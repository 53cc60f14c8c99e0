"""A tournament in the league database: its settings and entrants, its rounds, and the results of their groups
read back from the units they played (the units of the league ``tournament-NAME``).

Nothing here decides a pairing: the formats do, from what :func:`state` reads, so a tournament can be picked up
from the database at any moment.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from sqlite_utils import Database

from ..league import unit_id_of
from ..store import now
from .formats import TIE_BREAK_UNITS, Spec
from .model import Group, History, Result, Round


def league_of(name: str) -> str:
    """The league whose units a tournament plays."""
    return f"tournament-{name}"


def unit_index(number: int, attempt: int) -> int:
    """The unit index of a round's group: round ``number``, tie-break ``attempt`` (0 for the first unit)."""
    return number * 10 + attempt


class TournamentExists(ValueError):
    """A tournament of that name exists with other settings."""


def create(db: Database, spec: Spec, entrants: list[int]) -> bool:
    """Store a new tournament (entrants in seed order); False when the same one exists already (a resume: it
    keeps its entrants and its draw seed).

    Raises:
        TournamentExists: a tournament of that name exists with other settings.
    """
    row = next(db.table("tournaments").rows_where("name = ?", [spec.name]), None)
    settings = {k: v for k, v in asdict(spec).items() if k not in ("name", "format", "arena")}
    if row is not None:
        stored = json.loads(row["options"])
        same = {k: v for k, v in stored.items() if k != "draw_seed"} == {k: v for k, v in settings.items() if k != "draw_seed"}
        if (row["format"], row["arena_id"]) != (spec.format, spec.arena) or not same:
            raise TournamentExists(
                f"a tournament named {spec.name!r} exists with other settings ({row['format']} in {row['arena_id']}): "
                "give --name another name, or the same settings to resume it"
            )
        return False
    db.table("tournaments").insert({"name": spec.name, "format": spec.format, "arena_id": spec.arena,
                              "options": json.dumps(settings), "entrants": json.dumps(entrants), "status": "running",
                              "created_at": now()})
    return True


def load(db: Database, name: str) -> tuple[Spec, list[int], str]:
    """A tournament's settings, its entrants in seed order, and its status.

    Raises:
        KeyError: no such tournament.
    """
    row = next(db.table("tournaments").rows_where("name = ?", [name]), None)
    if row is None:
        raise KeyError(name)
    spec = Spec(name=name, format=row["format"], arena=row["arena_id"], **json.loads(row["options"]))
    return spec, json.loads(row["entrants"]), row["status"]


def names(db: Database) -> list[str]:
    """Every tournament, oldest first."""
    return [row["name"] for row in db.query("select name from tournaments order by created_at, name")]


def store_round(db: Database, name: str, rnd: Round) -> None:
    """Keep a round's pairings (once: a round is never paired twice)."""
    db.table("tournament_rounds").insert(
        {"id": f"{name}/{rnd.number}", "tournament": name, "number": rnd.number,
         "groups": json.dumps([{"seats": list(g.seats), "label": g.label} for g in rnd.groups]),
         "byes": json.dumps(list(rnd.byes))},
        ignore=True,
    )


def finish(db: Database, name: str) -> None:
    """Mark the tournament over."""
    db.table("tournaments").update(name, {"status": "done", "finished_at": now()})


def rounds(db: Database, name: str) -> list[Round]:
    """The rounds paired so far, in order."""
    return [
        Round(row["number"], tuple(Group(tuple(g["seats"]), g["label"]) for g in json.loads(row["groups"])),
              tuple(json.loads(row["byes"])))
        for row in db.query("select * from tournament_rounds where tournament = ? order by number", [name])
    ]


@dataclass(frozen=True)
class Played:
    """What a group has played so far: its units (id and status) and each seat's summed points."""

    units: tuple[tuple[str, str], ...]
    scores: tuple[float, ...]
    result: Result | None
    """None while the group still has a unit to play."""
    next_unit: int | None
    """The unit index to plan and play next, if any."""


def _withdrawn(db: Database, entrants: list[int]) -> frozenset[int]:
    """Entrants whose bot was retired: they play no further unit."""
    if not entrants:
        return frozenset()
    marks = ",".join("?" * len(entrants))
    return frozenset(row["id"] for row in db.query(
        f"select v.id from versions v join bots b on b.id = v.bot_id where b.retired = 1 and v.id in ({marks})",
        entrants))


def _unit_points(db: Database, unit_id: str, seats: tuple[int, ...]) -> tuple[float, ...]:
    totals = dict.fromkeys(seats, 0.0)
    for row in db.query("select seats, points from matches where unit_id = ?", [unit_id]):
        for version, points in zip(json.loads(row["seats"]), json.loads(row["points"] or "[]"), strict=False):
            totals[version] += points
    return tuple(totals[v] for v in seats)


def group_state(db: Database, spec: Spec, history: History, number: int, group: Group) -> Played:
    """Where a group stands: its result once decided (a forfeit, the points, or the seed after the tie-break
    units), else the unit it plays next."""
    league = league_of(spec.name)
    units: list[tuple[str, str]] = []
    scores = [0.0] * len(group.seats)
    attempts = TIE_BREAK_UNITS + 1 if spec.needs_winner else 1
    out = set(group.seats) & history.withdrawn
    for attempt in range(attempts):
        unit_id = unit_id_of(league, spec.arena, unit_index(number, attempt), group.seats)
        row = next(db.table("units").rows_where("id = ?", [unit_id], select="status"), None)
        if row is None or row["status"] != "done":
            if out and len(group.seats) == 2:
                stays = [v for v in group.seats if v not in out]
                winner = stays[0] if stays else min(group.seats, key=history.seed)
                return Played(tuple(units), tuple(scores), Result(tuple(scores), winner, "forfeit"), None)
            if row is not None:
                units.append((unit_id, row["status"]))
            return Played(tuple(units), tuple(scores), None, unit_index(number, attempt))
        units.append((unit_id, "done"))
        scores = [a + b for a, b in zip(scores, _unit_points(db, unit_id, group.seats), strict=True)]
        if len(group.seats) != 2 or scores[0] != scores[1] or not spec.needs_winner:
            break
    if len(group.seats) != 2:
        return Played(tuple(units), tuple(scores), Result(tuple(scores), None), None)
    if scores[0] != scores[1]:
        winner = group.seats[0] if scores[0] > scores[1] else group.seats[1]
        return Played(tuple(units), tuple(scores), Result(tuple(scores), winner), None)
    if spec.needs_winner:
        best = min(group.seats, key=history.seed)
        return Played(tuple(units), tuple(scores), Result(tuple(scores), best, "seed"), None)
    return Played(tuple(units), tuple(scores), Result(tuple(scores), None), None)


@dataclass
class State:
    """A tournament as the database has it: its settings, status, history of complete rounds, every round's
    groups as played so far, and the units to play next (index, seats) for the round in progress."""

    spec: Spec
    status: str
    history: History
    played: list[list[Played]]
    to_play: list[tuple[int, tuple[int, ...]]]


def state(db: Database, name: str) -> State:
    """Read a tournament back.

    Raises:
        KeyError: no such tournament.
    """
    spec, entrants, status = load(db, name)
    history = History(entrants=entrants, withdrawn=_withdrawn(db, entrants))
    played: list[list[Played]] = []
    to_play: list[tuple[int, tuple[int, ...]]] = []
    for rnd in rounds(db, name):
        groups = [group_state(db, spec, history, rnd.number, group) for group in rnd.groups]
        played.append(groups)
        history.rounds.append(rnd)
        if any(g.result is None for g in groups):
            to_play = [(g.next_unit, group.seats) for g, group in zip(groups, rnd.groups, strict=True)
                       if g.result is None and g.next_unit is not None]
            break
        history.results.append([g.result for g in groups if g.result is not None])
    return State(spec, status, history, played, to_play)
