"""The JSON API the pages read (scripts may use it too): arenas, standings, cross-tables, bots, matches, replays.

Every function takes an open league database and returns JSON-ready data, or raises :class:`NotFound` /
:class:`BadRequest`, which the app turns into clean 404 and 400 answers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from sqlite_utils import Database

from referee.analysis import AnalysisError, analyse
from referee.chance import commitment
from referee.frames import frames, view_json
from referee.games import make_game
from referee.games.registry import registration_of
from referee.replay import UNFINISHED, Replay, read_replay, replay_states
from referee.runtime import FAULT_KINDS
from referee.runtime.process import LAST_WORDS

from .. import people
from ..outcomes import summary, winners
from ..standings import COLUMNS, crosstable, history, standings, version_labels
from ..store import replay_folder, resolved_path
from ..tallies import faults_by_day, recent_games
from ..tournaments import record as tournament_record
from ..tournaments.report import describe

MATCH_PAGE = 200
"""Most matches one list answer holds."""


class NotFound(LookupError):
    """No such arena, bot, match or replay."""


class BadRequest(ValueError):
    """A malformed parameter."""


class Forbidden(PermissionError):
    """Not to be shown yet."""


def arenas(db: Database) -> list[dict[str, Any]]:
    """Every arena with its game, seats, its matches done (in complete units, as counted) and those running."""
    done = {row[0]: row[1] for row in db.execute(
        "select a.id, coalesce(sum(b.games), 0) / a.seats from arenas a join arena_bots b on b.arena_id = a.id "
        "group by a.id")}
    running = {row[0]: row[1] for row in db.execute(
        "select arena_id, count(*) from matches where status = 'running' group by arena_id")}
    return [
        {
            "id": row["id"],
            "game": row["game"],
            "options": json.loads(row["options"]),
            "seats": row["seats"],
            "done": done.get(row["id"], 0),
            "running": running.get(row["id"], 0),
        }
        for row in db.query("select * from arenas order by id")
    ]


def _arena_exists(db: Database, arena_id: str) -> None:
    if not db.table("arenas").count_where("id = ?", [arena_id]):
        raise NotFound(f"no arena {arena_id!r}")


def arena_standings(db: Database, arena_id: str) -> list[dict[str, Any]]:
    """The leaderboard of an arena: rating with its 95% interval, games, W/D/L, faults, LOS over the next, the
    trend (the latest results), the matches of the last hour, and when the ratings were fitted."""
    _arena_exists(db, arena_id)
    hourly = recent_games(db, arena_id)
    return [
        {
            "bot": line.bot,
            "version": line.number,
            "rating": round(line.rating, 1),
            "low": None if line.low is None else round(line.low, 1),
            "high": None if line.high is None else round(line.high, 1),
            "units": line.units,
            "games": line.games,
            "wins": line.wins,
            "draws": line.draws,
            "losses": line.losses,
            "faults": line.faults,
            "superiority": line.superiority,
            "trend": line.trend,
            "games_last_hour": hourly.get(line.version_id, 0),
            "rated_at": line.rated_at,
        }
        for line in standings(db, arena_id)
    ]


def filters(db: Database) -> dict[str, list[str]]:
    """What the match list can be filtered by: the arenas, the bots and the fault kinds."""
    return {
        "arenas": [row["id"] for row in db.query("select id from arenas order by id")],
        "bots": [row["name"] for row in db.query("select name from bots order by name")],
        "faults": list(FAULT_KINDS),
    }


def columns(db: Database) -> dict[str, str]:
    """What each leaderboard column means (the same words as ``ladder standings --help``)."""
    return dict(COLUMNS)


def arena_crosstable(db: Database, arena_id: str) -> dict[str, Any]:
    """Head to head: labels and, per (row, column), the row bot's wins and the games played."""
    _arena_exists(db, arena_id)
    labels, table = crosstable(db, arena_id)
    return {
        "labels": labels,
        "cells": [{"row": a, "column": b, "wins": wins, "games": games} for (a, b), (wins, games) in table.items()],
    }


def arena_history(db: Database, arena_id: str) -> dict[str, Any]:
    """Every bot's rating with its 95% band as the arena's units were completed (the rating chart's numbers)."""
    _arena_exists(db, arena_id)
    return history(db, arena_id)


def bot_history(db: Database, name: str) -> dict[str, Any]:
    """A bot's charts: its rating history in each arena it plays, its results by opponent, its faults by day."""
    if not db.table("bots").count_where("name = ?", [name]):
        raise NotFound(f"no bot {name!r}")
    arenas = [row["arena_id"] for row in db.query(
        "select distinct e.arena_id from entries e join versions v on v.id = e.version_id "
        "join bots b on b.id = v.bot_id where b.name = ? order by e.arena_id", [name],
    )]
    mine = {r[0] for r in db.execute("select v.id from versions v join bots b on b.id = v.bot_id where b.name = ?",
                                     [name])}
    ratings, opponents = {}, {}
    for arena in arenas:
        whole = history(db, arena, mine)
        if whole["bots"]:
            ratings[arena] = whole
        labels, table = crosstable(db, arena, mine)
        opponents[arena] = [
            {"bot": bot, "opponent": other, "wins": wins, "games": games}
            for (bot, other), (wins, games) in sorted(table.items())
            if bot.rsplit(" v", 1)[0] == name and other.rsplit(" v", 1)[0] != name
        ]
    return {"ratings": ratings, "opponents": opponents, "faults": faults_by_day(db, sorted(mine))}


def _hides_cards(game: str) -> bool:
    try:
        return make_game(game).hidden_information
    except (KeyError, ValueError):
        return True


def _spectator_open(row: dict[str, Any]) -> bool:
    """Whether a spectator, who sees every hand, may watch: once the match's whole unit is played, or in a game
    that hides no cards."""
    return (row["unit_status"] == "done" and row["status"] != "running") or not _hides_cards(row["game"] or "")


def _public_fault(fault: dict[str, Any]) -> dict[str, Any]:
    """A fault as every visitor sees it: a crash's last words (its stderr, which only the bot's author reads, in
    the match's logs) left out."""
    message = str(fault.get("message", ""))
    if LAST_WORDS not in message:
        return fault
    return {**fault, "message": message.split(LAST_WORDS)[0] + " (its last words are in its author's logs)"}


def _match_json(row: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    faults = [_public_fault(fault) for fault in json.loads(row["faults"] or "[]")]
    seats = [names.get(v, f"#{v}") for v in json.loads(row["seats"])]
    points = json.loads(row["points"]) if row["points"] else None
    games = json.loads(row["games"]) if row["games"] else []
    unit_done = row["unit_status"] == "done"
    return {
        "id": row["id"],
        "arena": row["arena_id"],
        "game": row["game"],
        "status": row["status"],
        "seats": seats,
        "termination": row["termination"],
        "points": points,
        "winners": winners(points) if points else [],
        "summary": summary(row["game"] or "", row["termination"], points, seats, games),
        "games": games,
        "faults": faults,
        "decisions": row["decisions"],
        "seconds": row["seconds"],
        "started_at": row["started_at"],
        "finished_at": row["finished_at"],
        "error": row["error"],
        "has_replay": bool(row["replay_path"]) or row["status"] == "running",
        "analysable": (bool(row["replay_path"]) and row["status"] != "running" and _spectator_open(row)
                       and _judged_game(row["game"])),
        "spectator_open": _spectator_open(row),
        "commitment": commitment(str(row["seed"])),
        "seed": str(row["seed"]) if unit_done else None,
    }


def _judged_game(game_id: str | None) -> bool:
    """Whether ``referee analyse`` judges a game's decisions (its registration names a judge)."""
    try:
        return game_id is not None and registration_of(game_id).judge is not None
    except (KeyError, ValueError):  # a game no longer registered
        return False


_MATCH_ROWS = (
    "select m.*, u.status as unit_status, u.league as league, a.game as game from matches m "
    "left join units u on u.id = m.unit_id left join arenas a on a.id = m.arena_id"
)
"""Matches with their game and their unit's status and league: a seed is shown, and a spectator sees the hidden
cards, only once the whole unit is played (its other matches deal the same cards)."""


def matches(
    db: Database, arena: str | None = None, bot: str | None = None, fault: str | None = None, limit: str = "50"
) -> list[dict[str, Any]]:
    """Matches, newest first, filtered by arena, bot name and fault kind."""
    if not limit.isdigit() or not 1 <= int(limit) <= MATCH_PAGE:
        raise BadRequest(f"limit must be a number from 1 to {MATCH_PAGE}")
    shown = "coalesce(m.finished_at, m.started_at)"
    where, params = [f"{shown} is not null"], []
    if arena:
        where.append("m.arena_id = ?")
        params.append(arena)
    if fault:
        where.append("m.faults like ?")
        params.append(f'%"kind": "{fault}"%')
    names = version_labels(db)
    order = f"order by {shown} desc"
    if bot:  # through the bot's own list, newest first, not every match
        versions = [row[0] for row in db.execute(
            "select v.id from versions v join bots b on b.id = v.bot_id where b.name = ?", [bot])]
        where += [f"s.version_id in ({','.join('?' * len(versions))})", "s.shown_at is not null"]
        params += versions
        order = "order by s.shown_at desc"
    rows = f"{_MATCH_ROWS} join match_seats s on s.match_id = m.id" if bot else _MATCH_ROWS
    query = f"{rows} where {' and '.join(where)} and m.status != 'pending' {order} limit ?"
    return [_match_json(row, names) for row in db.query(query, [*params, int(limit)])]


def _match_row(db: Database, match_id: str) -> dict[str, Any] | None:
    return next(db.query(f"{_MATCH_ROWS} where m.id = ?", [match_id]), None)


def match(db: Database, match_id: str) -> dict[str, Any]:
    """One match."""
    row = _match_row(db, match_id)
    if row is None:
        raise NotFound(f"no match {match_id!r}")
    return _match_json(row, version_labels(db))


def _live_replay(db: Database, row: dict[str, Any]) -> Any:
    """The replay a running match's referee is writing (its hidden ``.part`` file), or None."""
    folder = replay_folder(db) / str(row["league"])
    return next(iter(sorted(folder.glob(f".{row['id']}.jsonl.*.part"))), None)


def replay(db: Database, match_id: str, seat: str | None = None) -> dict[str, Any]:
    """A match's replay as frames (the spectator's, or ``seat``'s), with the header, result and the problems found
    re-running it; a running match's as far as it is played (``live``). Until the match's whole unit is played
    the chance seed is left out and, in a game that hides cards, only a seat's view is shown (the unit's other
    matches deal the same cards)."""
    row = _match_row(db, match_id)
    if row is None:
        raise NotFound(f"no replay for match {match_id!r}")
    live = row["status"] == "running"
    path = _live_replay(db, row) if live else resolved_path(db, row["replay_path"]) if row["replay_path"] else None
    if path is None or not path.exists():
        raise NotFound(f"no replay for match {match_id!r}" + (" yet" if live else ""))
    if seat is not None and not (seat.isdigit() and len(seat) < 3):
        raise BadRequest("seat must be a seat number")
    if seat is None and not _spectator_open(row):
        raise Forbidden("the spectator view of this match opens when its unit is complete (the unit's other "
                        "matches deal the same cards); choose a seat's view")
    try:
        log = read_replay(path)
    except FileNotFoundError:
        raise NotFound(f"match {match_id!r} has just finished: load it again") from None
    try:
        seats = log.game().num_seats
    except (KeyError, ValueError) as exc:
        raise NotFound(f"the replay of match {match_id!r} cannot be read: {exc}") from None
    if seat is not None and int(seat) >= seats:
        raise BadRequest(f"this game has seats 0..{seats - 1}")
    return _frames_answer(log, None if seat is None else int(seat), live, seed_shown=row["unit_status"] == "done")


def _frames_answer(log: Replay, seat: int | None, live: bool, seed_shown: bool) -> dict[str, Any]:
    """A replay as the viewer reads it: its header (no bot's path), frames (the spectator's or ``seat``'s), result
    (the seed only when ``seed_shown``, no bot's output) and the problems found re-running it."""
    # A replay cut short (a killed referee) still shows the steps it holds; ``problems`` says what is wrong.
    shown, problems = frames(log, seat)
    result = dict(log.result or {})
    if not seed_shown:
        result.pop("seed", None)
    result.pop("output", None)  # the bots' logs are their authors' (see logs())
    header = dict(log.header, seats=[{k: v for k, v in s.items() if k != "path"} for s in log.header.get("seats", [])])
    if live:  # no result line yet, and perhaps a last line half written: that is what live means
        problems = [p for p in problems if p != UNFINISHED and "not JSON" not in p]
    return {"header": header, "frames": shown, "result": result, "problems": problems, "live": live}


def analysis(db: Database, match_id: str, seat: str | None = None) -> dict[str, Any]:
    """A finished match's decisions judged (:func:`referee.analysis.analyse`: the shipped bots' searches), each with
    ``best_view``, the table after the best play as the viewer draws it (the spectator's view, or ``seat``'s), once
    the spectator may see every hand (a judged play names cards its seat held). Kept once made: a finished match's
    replay does not change."""
    row = _match_row(db, match_id)
    if row is None or not row["replay_path"]:
        raise NotFound(f"no replay for match {match_id!r}")
    if row["status"] == "running":
        raise Forbidden("a match is analysed once it is finished")
    if seat is not None and not (seat.isdigit() and len(seat) < 3):
        raise BadRequest("seat must be a seat number")
    if not _spectator_open(row):  # the best plays name cards their seats held, which the unit's other matches deal
        raise Forbidden("the analysis of this match opens when its unit is complete")
    path = resolved_path(db, row["replay_path"])
    if not path.exists():
        raise NotFound(f"no replay for match {match_id!r}")
    try:
        return _judged(str(path), None if seat is None else int(seat))
    except AnalysisError as exc:
        raise NotFound(f"match {match_id!r}: {exc}") from None


@lru_cache(maxsize=64)
def _judged(path: str, seat: int | None) -> dict[str, Any]:
    """The analysis of the replay at ``path`` as :func:`analysis` answers it."""
    log = read_replay(path)
    if seat is not None and seat >= log.game().num_seats:
        raise BadRequest(f"this game has seats 0..{log.game().num_seats - 1}")
    judged = analyse(log).to_json()
    states, _ = replay_states(log)
    for decision in judged["decisions"]:
        state = states[decision["step"] - 1].clone()
        state.apply(next(play for play in state.legal_actions() if play.notation() == decision["best"]))
        decision["best_view"] = view_json(state.spectator_view() if seat is None else state.view(seat))
    return judged


def logs(db: Database, match_id: str, may_read: Callable[[int | None], bool]) -> dict[str, Any]:
    """The captured output of a match's seats whose bot's author (None: the ladder's own bots) ``may_read``."""
    row = _match_row(db, match_id)
    path = resolved_path(db, row["replay_path"]) if row is not None and row["replay_path"] else None
    if row is None or path is None or not path.exists():
        raise NotFound(f"no replay for match {match_id!r}")
    output = (read_replay(path).result or {}).get("output", [])
    owners = {
        r["id"]: r["author_id"]
        for r in db.query("select v.id, b.author_id from versions v join bots b on b.id = v.bot_id")
    }
    seats = json.loads(row["seats"])
    return {
        "seats": [
            {"seat": seat, **captured}
            for seat, (version, captured) in enumerate(zip(seats, output, strict=False))
            if may_read(owners.get(version))
        ]
    }


def bot(db: Database, name: str) -> dict[str, Any]:
    """A bot: its versions, arenas, recent matches and fault history."""
    row = next(db.table("bots").rows_where("name = ?", [name]), None)
    if row is None:
        raise NotFound(f"no bot {name!r}")
    versions = [
        {"number": v["number"], "version": v["version"], "language": v["language"], "hash": v["hash"][:12],
         "created_at": v["created_at"], "games": json.loads(v["games"])}
        for v in db.table("versions").rows_where("bot_id = ?", [row["id"]], order_by="number")
    ]
    recent = matches(db, bot=name, limit="50")
    faults = [
        {"match": m["id"], "seat": f["seat"], "kind": f["kind"], "message": f["message"]}
        for m in recent
        for f in m["faults"]
        if m["seats"][f["seat"]].rsplit(" v", 1)[0] == name
    ]
    ids = [v["id"] for v in db.table("versions").rows_where("bot_id = ?", [row["id"]], select="id")]
    return {"name": name, "retired": bool(row["retired"]), "versions": versions, "matches": recent, "faults": faults,
            "people": people.of_bot(db, ids)}


def _person_game(db: Database, game: str) -> dict[str, Any]:
    found = people.one(db, int(game)) if game.isdigit() and len(game) < 12 else None
    if found is None:
        raise NotFound(f"no person's game {game!r}")
    return found


def person_game(db: Database, game: str) -> dict[str, Any]:
    """A game a person played against a club's bot (:mod:`ladder.people`)."""
    return {key: value for key, value in _person_game(db, game).items() if key != "replay_path"}


def person_replay(db: Database, game: str, seat: str | None = None) -> dict[str, Any]:
    """A person's finished game's replay as frames (the spectator's, or ``seat``'s): a person's game is no unit's
    match, so its seed and every hand are shown once it is over."""
    found = _person_game(db, game)
    path = resolved_path(db, found["replay_path"]) if found["replay_path"] else None
    if path is None or not path.exists():
        raise NotFound(f"no replay for the person's game {game!r}" + ("" if found["status"] != "playing" else " yet"))
    if seat is not None and not (seat.isdigit() and len(seat) < 3):
        raise BadRequest("seat must be a seat number")
    log = read_replay(path)
    if seat is not None and int(seat) >= log.game().num_seats:
        raise BadRequest(f"this game has seats 0..{log.game().num_seats - 1}")
    return _frames_answer(log, None if seat is None else int(seat), live=False, seed_shown=True)


def tournaments(db: Database, arena: str | None = None) -> list[dict[str, Any]]:
    """Every tournament (of ``arena``), newest first: its format, arena, status and champion."""
    out = []
    for name in reversed(tournament_record.names(db)):
        report = describe(db, name)
        if arena and report["arena"] != arena:
            continue
        out.append({key: report[key] for key in ("name", "format", "elimination", "arena", "status", "champion")}
                   | {"entrants": len(report["entrants"]), "rounds": len(report["rounds"])})
    return out


def tournament(db: Database, name: str) -> dict[str, Any]:
    """A tournament whole: entrants, rounds with their groups, scores, winners and matches, standings, champion."""
    try:
        return describe(db, name)
    except KeyError:
        raise NotFound(f"no tournament {name!r}") from None
