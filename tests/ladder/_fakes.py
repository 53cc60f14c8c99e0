"""A fast, deterministic executor for ladder tests: results follow from the seed and the seated bot paths."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable

import trio

from ladder.executor import MatchJob, MatchResult
from referee.runtime import resolve_bot


class FakeExecutor:
    """Seat order and seed decide: the bot whose path sorts last wins unless the seed says otherwise."""

    def __init__(self, delay: float = 0.0, strengths: dict[str, float] | None = None) -> None:
        self.delay = delay
        self.jobs: list[MatchJob] = []
        self.strengths = strengths or {}

    async def run(self, job: MatchJob) -> MatchResult:
        self.jobs.append(job)
        if self.delay:
            await trio.sleep(self.delay)
        roll = int(hashlib.sha256(f"{job.seed}/{job.match_id}".encode()).hexdigest()[:8], 16) / 2**32
        strength = [self.strengths.get(path.rsplit("/", 1)[-1], 0.5) for path in job.bots]
        p0 = strength[0] / (strength[0] + strength[1])
        points = (1, 0) if roll < p0 else (0, 1)
        with open(job.replay, "w") if job.replay and _folder(job.replay) else _null() as handle:
            handle.write("{}\n")
        return MatchResult(termination="normal", points=points, decisions=10, bots=job.bots, seconds=self.delay)

    async def check(self, bot: str, startup_timeout: float) -> dict:
        """A passed check of a Tapa bot; its Hello as :func:`random_bot_folder`'s says it (the manifest's name, the
        kit's default version)."""
        name = str(resolve_bot(bot).manifest.get("name") or bot)
        info = {"name": name, "version": "1.0", "author": "", "language": "python", "games": ["tapa"]}
        return {"info": info, "passed": True, "checks": [{"name": "handshake", "ok": True, "detail": "fake"}]}


def counting_seeds(prefix: str = "seed") -> Callable[[], str]:
    """Deterministic stand-ins for a ladder's secret seeds (seed-0, seed-1, …): the same league twice plays the
    same chance."""
    counter = itertools.count()
    return lambda: f"{prefix}-{next(counter)}"


def _folder(path: str) -> bool:
    from pathlib import Path

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return True


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *args):
        return False

    def write(self, text):
        pass


def random_bot_folder(parent, name: str, games: str = '["tapa"]', extra: str = ""):
    """A bot folder (manifest + bot.py) serving the random bot under ``name`` for ``games`` (a Python list)."""
    folder = parent / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\ncommand = ["python3", "bot.py"]\n')
    (folder / "bot.py").write_text(
        "from bots.python.kit import serve\nfrom bots.python.random_bot import choose\n"
        f'serve(choose, name="{name}", games={games})\n{extra}'
    )
    return folder
