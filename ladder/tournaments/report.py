"""A tournament as JSON-ready data: its settings, entrants with seeds, every round's groups with their scores,
winners and matches, the standings and the champion. The terminal (``ladder tournament show``) and the web draw
this, and nothing else."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from sqlite_utils import Database

from ..standings import version_labels
from . import record, swiss
from .model import History


def describe(db: Database, name: str) -> dict[str, Any]:
    """Everything about the tournament ``name``.

    Raises:
        KeyError: no such tournament.
    """
    current = record.state(db, name)
    spec, history = current.spec, current.history
    labels = version_labels(db)

    def label(version: int) -> str:
        return labels.get(version, f"#{version}")

    def matches_of(unit_ids: list[str]) -> list[dict[str, Any]]:
        if not unit_ids:
            return []
        marks = ",".join("?" * len(unit_ids))
        return [{"id": row["id"], "status": row["status"]} for row in db.query(
            f"select id, status from matches where unit_id in ({marks}) order by unit_id, rotation", unit_ids)]

    rounds = []
    for rnd, played in zip(history.rounds, current.played, strict=False):
        groups = []
        for group, state in zip(rnd.groups, played, strict=True):
            result = state.result
            groups.append({
                "label": group.label,
                "seats": [label(v) for v in group.seats],
                "seeds": [history.seed(v) for v in group.seats],
                "scores": list(state.scores),
                "winner": label(result.winner) if result and result.winner is not None else None,
                "decided_by": result.decided_by if result else None,
                "status": "done" if result else "playing" if state.units else "waiting",
                "units": len(state.units),
                "matches": matches_of([unit for unit, _ in state.units]),
            })
        entry = {"number": rnd.number, "groups": groups, "byes": [label(v) for v in rnd.byes]}
        if spec.format == "swiss" and rnd.number <= len(history.results):  # the standings as this round left them
            after = History(history.entrants, history.withdrawn, history.rounds[: rnd.number],
                            history.results[: rnd.number])
            entry["standings"] = [{"bot": label(line.version), "score": line.score} for line in swiss.standings(after)]
        rounds.append(entry)
    standings = []
    for line in spec.standings(history):
        data = asdict(line)
        for key in ("version", "opponent"):
            if key in data:
                data[key] = label(data[key])
        if "members" in data:
            data["members"] = [label(v) for v in data["members"]]
        if "opponents" in data:
            data["opponents"] = [label(v) for v in data["opponents"]]
        standings.append(data)
    champion = spec.champion(history)
    return {
        "name": spec.name,
        "format": spec.format,
        "elimination": spec.elimination if spec.format == "knockout" else None,
        "arena": spec.arena,
        "rounds_planned": spec.rounds or None,
        "teams": spec.teams,
        "status": current.status,
        "entrants": [{"bot": label(v), "seed": history.seed(v), "withdrawn": v in history.withdrawn}
                     for v in history.entrants],
        "rounds": rounds,
        "standings": standings,
        "champion": label(champion) if champion is not None else None,
    }
