"""The demo league (``ladder demo``): the shipped Python bots are submitted (each passes a conformance run), then a
round robin with duplicate seeds is played in every arena they enter."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import trio
from sqlite_utils import Database

from referee.runtime.clock import DEFAULT_CLOCK

from .arenas import arena_ids
from .executor import Executor
from .league import Progress, play_league
from .registry import submit

SHIPPED = Path(__file__).resolve().parents[1] / "bots" / "python"
"""The shipped Python bots' folder."""
BOTS = (
    "random_bot.py", "heuristic_bot.py", "expectimax_bot.py", "td_bot.py", "td2_bot.py", "durak_search_bot.py",
    "durak_mc_bot.py", "gaps_search_bot.py",
)
"""The bots the demo enters."""
ARENAS = ("tabla-match", "tabla", "gjul-bara", "tapa", "durak-2", "durak-4", "durak-2v2", "gapa", "gaps")
"""The arenas it plays, in this order."""
FULL_ROUNDS = 5
"""The rounds of ``ladder demo --full``."""


def demo_arenas(db: Database) -> list[str]:
    """The demo's arenas that some bot of the database entered, in :data:`ARENAS`' order."""
    made = set(arena_ids(db))
    return [arena for arena in ARENAS if arena in made]


async def play_demo(
    db: Database,
    db_path: Path,
    executor: Executor,
    *,
    rounds: int,
    concurrency: int,
    say: Callable[[str], None],
    progress_of: Callable[[str], Callable[[Progress], None]],
) -> Progress:
    """Submit the :data:`BOTS` to the league at ``db_path`` (all at once), then play ``rounds`` rounds of a round
    robin in each of :func:`demo_arenas`, ``concurrency`` matches at a time, in one session of ``executor``. What
    happens is told line by line to ``say`` (a rejected bot with its report), each arena's progress to
    ``progress_of(arena)``; returns the progress of every arena summed."""

    async def enter(name: str) -> None:
        report = await submit(db, db_path, str(SHIPPED / name), executor)
        say(f"submitted {name}: " + (f"entered as {report.name} v{report.number}" if report.accepted else "REJECTED"))
        if not report.accepted:
            say(report.text())

    async with trio.open_nursery() as nursery:
        for name in BOTS:
            nursery.start_soon(enter, name)
    played = Progress()
    async with executor.session(concurrency):
        for arena in demo_arenas(db):
            say(f"running arena {arena} (round robin, {rounds} round(s), duplicate seeds, {concurrency} at a time)")
            played.add(await play_league(db, f"demo-{arena}", arena, "round-robin", rounds, executor,
                                         concurrency=concurrency, on_progress=progress_of(arena), clock=DEFAULT_CLOCK))
    return played
