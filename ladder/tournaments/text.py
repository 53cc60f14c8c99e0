"""A tournament in the terminal: the bracket (or the rounds' pairings) and the standings, from
:func:`ladder.tournaments.report.describe`."""

from __future__ import annotations

from typing import Any


def _score(value: float) -> str:
    return f"{value:g}"


def _group_line(group: dict[str, Any]) -> str:
    seats = group["seats"]
    if len(seats) == 2:
        a, b = (f"{name} ({seed})" for name, seed in zip(seats, group["seeds"], strict=True))
        marks = ["*" if group["winner"] == name else " " for name in seats]
        score = f"{_score(group['scores'][0])}-{_score(group['scores'][1])}" if group["units"] else "  -  "
        how = {"seed": "  level: the better seed goes through", "forfeit": "  forfeit"}.get(group["decided_by"] or "", "")
        units = f"  ({group['units']} units)" if group["units"] > 1 else ""
        state = "" if group["status"] == "done" else f"  [{group['status']}]"
        return f"  {group['label']:<9}{marks[0]}{a:<26} {score:^9} {marks[1]}{b}{how}{units}{state}"
    ranked = sorted(zip(seats, group["scores"], strict=True), key=lambda pair: -pair[1])
    table = ", ".join(f"{name} {_score(score)}" for name, score in ranked) if group["units"] else ", ".join(seats)
    state = "" if group["status"] == "done" else f"  [{group['status']}]"
    return f"  {group['label']:<9}{table}{state}"


def render(report: dict[str, Any]) -> str:
    """The tournament as text.

    >>> print(render({"name": "t", "format": "knockout", "elimination": "single", "arena": "tapa", "status": "done",
    ...     "entrants": [{"bot": "a", "seed": 1}, {"bot": "b", "seed": 2}], "champion": "a", "standings": [],
    ...     "rounds": [{"number": 1, "byes": [], "groups": [{"label": "R1-1", "seats": ["a", "b"], "seeds": [1, 2],
    ...         "scores": [2, 0], "winner": "a", "decided_by": "points", "status": "done", "units": 1}]}]}))
    t: knockout (single elimination) in tapa, 2 entrants, done
    round 1
      R1-1     *a (1)                         2-0     b (2)
    champion: a
    """
    kind = report["format"] + (f" ({report['elimination']} elimination)" if report.get("elimination") else "")
    lines = [f"{report['name']}: {kind} in {report['arena']}, {len(report['entrants'])} entrants, {report['status']}"]
    for rnd in report["rounds"]:
        lines.append(f"round {rnd['number']}")
        lines += [_group_line(group) for group in rnd["groups"]]
        if rnd["byes"]:
            lines.append(f"  byes: {', '.join(rnd['byes'])}")
    standings = report["standings"]
    if standings and "buchholz" in standings[0]:
        lines.append("standings: score, Buchholz, Sonneborn-Berger")
        lines += [f"  {k}. {s['version']:<24} {_score(s['score']):>5} {_score(s['buchholz']):>6} "
                  f"{_score(s['sonneborn_berger']):>6}" for k, s in enumerate(standings, 1)]
    elif standings and "opponent" in standings[0]:
        lines.append(f"{report['entrants'][0]['bot']} against each: W D L")
        lines += [f"  {s['opponent']:<24} {s['wins']} {s['draws']} {s['losses']}" for s in standings]
    elif standings:
        lines.append("standings: points, tables topped, byes")
        lines += [f"  {k}. {' & '.join(s['members']):<32} {s['points']:>6.1f} {s['firsts']:>3} {s['byes']:>3}"
                  for k, s in enumerate(standings, 1)]
    if report.get("champion"):
        lines.append(f"champion: {report['champion']}")
    return "\n".join(lines)
