"""A replay's decisions judged: each decision with a choice re-run from the replay and its plays valued by the
game's judge (its registration's ``judge``: for the Tabla family the shipped learned bots' search, for Durak the
Durak search bot's rollouts, ``bots.python.analysis``), the play made against the best, marked past stated
thresholds, and a summary per seat.

Errors are in points of the game (in a match: of twice the chance to win the match, less one; in Durak: of the
seat's points less the others' mean), shown in hundredths.
The thresholds are gnubg's: an error of :data:`DOUBTFUL` or more is doubtful, of :data:`BLUNDER` or more a blunder
(gnubg's "bad"). A decision with one legal action is forced and not judged.
"""

from __future__ import annotations

import pkgutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from referee.frames import DEALING
from referee.games import CHANCE, Game, State
from referee.games.registry import registration_of
from referee.replay import UNFINISHED, Replay, replay_states

DOUBTFUL = 0.04
"""The least error (in points) marked doubtful."""
BLUNDER = 0.08
"""The least error (in points) marked a blunder."""


class Judged(NamedTuple):
    """What a judge says of one decision: values for the mover by index into the legal actions (the plays it
    searched, the play made among them), and how it valued them."""

    values: dict[int, float]
    search: str


Judge = Callable[[Game, State, int], Judged]
"""A game's judge: ``judge(game, state, played)`` values the plays of ``state``'s decision worth a look and the
play ``played`` (an index into its legal actions) for the mover, from what the mover may see. It raises
:class:`AnalysisError` when it cannot judge (one line for the user)."""


class AnalysisError(ValueError):
    """The replay cannot be analysed: it does not re-run, or its game has no judge."""


def mark(error: float) -> str:
    """``blunder``, ``doubtful`` or empty, for an error in points.

    >>> mark(0.1), mark(0.05), mark(0.01)
    ('blunder', 'doubtful', '')
    """
    return "blunder" if error >= BLUNDER else "doubtful" if error >= DOUBTFUL else ""


@dataclass(frozen=True)
class Decision:
    """One judged decision."""

    step: int
    """Its step in the replay (1-based, as ``referee show`` counts them)."""
    seat: int
    roll: str
    """The chance step just before it (the dice), or empty (none, or a card of a deal)."""
    played: str
    best: str
    played_value: float
    best_value: float
    plays: int
    """How many legal actions the decision had."""
    search: str
    ms: float
    """Wall clock the judge took, milliseconds."""

    @property
    def error(self) -> float:
        """How much the play made loses against the best, in points."""
        return max(0.0, self.best_value - self.played_value)

    def to_json(self) -> dict[str, Any]:
        """The decision as JSON-ready data, its error and mark included."""
        return asdict(self) | {"error": round(self.error, 6), "mark": mark(self.error)}


@dataclass(frozen=True)
class SeatSummary:
    """A seat's decisions in sum."""

    seat: int
    bot: str
    decisions: int
    """Decisions judged (the forced ones are not)."""
    error: float
    """The errors' total, in points."""
    doubtful: int
    blunders: int

    @property
    def rate(self) -> float:
        """The mean error a judged decision, in points (gnubg's error rate)."""
        return self.error / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class Analysis:
    """A replay's judged decisions, in order, and their summary per seat."""

    game: str
    bots: tuple[str, ...]
    decisions: tuple[Decision, ...]

    def seats(self) -> list[SeatSummary]:
        """Each seat's summary."""
        return [SeatSummary(seat, bot, len(mine := [d for d in self.decisions if d.seat == seat]),
                            sum(d.error for d in mine), sum(mark(d.error) == "doubtful" for d in mine),
                            sum(mark(d.error) == "blunder" for d in mine))
                for seat, bot in enumerate(self.bots)]

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON-ready data: thresholds, decisions and each seat's summary (its rate included)."""
        return {"game": self.game, "bots": list(self.bots), "thresholds": {"doubtful": DOUBTFUL, "blunder": BLUNDER},
                "decisions": [d.to_json() for d in self.decisions],
                "seats": [asdict(s) | {"rate": round(s.rate, 6)} for s in self.seats()]}


def judge_of(game_id: str) -> Judge:
    """The judge the game's registration names.

    Raises:
        AnalysisError: the game has none.
    """
    registration = registration_of(game_id)
    if registration.judge is None:
        raise AnalysisError(f"no analysis for {game_id}: the Tabla family's games and Durak have one")
    try:
        judge: Judge = pkgutil.resolve_name(registration.judge)
    except (ImportError, AttributeError, ValueError) as exc:
        raise AnalysisError(f"the judge of {game_id}, {registration.judge}, cannot be loaded: {exc}") from None
    return judge


def analyse(replay: Replay, judge: Judge | None = None, seats: set[int] | None = None) -> Analysis:
    """Judge every decision with a choice of ``replay`` (of ``seats`` only, when given) by ``judge`` (default: the
    game's).

    Raises:
        AnalysisError: the replay does not re-run, or its game has no judge.
    """
    states, problems = replay_states(replay)
    problems = [problem for problem in problems if problem != UNFINISHED]
    if problems or not states:
        raise AnalysisError(f"the replay does not re-run: {problems[0] if problems else 'no game'}")
    game_id = replay.header["game"]
    judge = judge or judge_of(game_id)
    game = replay.game()
    count = game.num_seats
    if seats is not None and not seats <= set(range(count)):
        raise AnalysisError(f"seat {min(seats - set(range(count)))}: the game has seats 0 to {count - 1}")
    decisions, roll = [], ""
    for index, (step, state) in enumerate(zip(replay.steps, states), 1):
        if step["type"] == "chance":
            roll = "" if step["notation"].startswith(DEALING) else step["notation"]
            continue
        legal = state.legal_actions()
        if state.current_player == CHANCE or len(legal) < 2 or (seats is not None and step["seat"] not in seats):
            continue
        started = time.perf_counter()
        judged = judge(game, state, step["id"])
        ms = 1000 * (time.perf_counter() - started)
        best = max(judged.values, key=judged.values.__getitem__)
        decisions.append(Decision(index, step["seat"], roll, step["notation"], legal[best].notation(),
                                  judged.values[step["id"]], judged.values[best], len(legal), judged.search, ms))
        roll = ""
    seated = {seat.get("seat"): seat.get("name") for seat in replay.header.get("seats") or [] if isinstance(seat, dict)}
    bots = tuple(str(seated.get(seat) or f"seat {seat}") for seat in range(count))
    return Analysis(game_id, bots, tuple(decisions))


def analysis_text(analysis: Analysis) -> str:
    """The analysis as ``referee analyse`` prints it: a line a decision, errors in hundredths of a point, then a
    line a seat that has decisions judged."""
    lines = []
    for d in analysis.decisions:
        verdict = f"error {100 * d.error:5.1f}  {mark(d.error)}".rstrip() if d.error > 0 else "the best"
        better = f"  best {d.best} ({d.best_value:+.3f})" if d.error > 0 else ""
        lines.append(f"step {d.step:4d}  seat {d.seat}  {d.roll:10s} {d.played} ({d.played_value:+.3f}){better}  "
                     f"{verdict}")
    searches = sorted({d.search for d in analysis.decisions})
    if analysis.decisions:
        mean = sum(d.ms for d in analysis.decisions) / len(analysis.decisions)
        lines.append(f"judged by {', '.join(searches)}: {mean:.0f} ms a decision; doubtful from {100 * DOUBTFUL:g}, "
                     f"blunder from {100 * BLUNDER:g} hundredths of a point")
    for seat in analysis.seats():
        if not seat.decisions:
            continue
        lines.append(f"seat {seat.seat} ({seat.bot}): {seat.decisions} decisions judged, error rate "
                     f"{100 * seat.rate:.1f} hundredths of a point a decision, {seat.doubtful} doubtful, "
                     f"{seat.blunders} blunder{'' if seat.blunders == 1 else 's'}")
    return "\n".join(lines)
