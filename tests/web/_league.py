"""A small league database for the web tests: real league machinery, games played in-process with replays."""

from __future__ import annotations

import random
from pathlib import Path

from ladder.arenas import ArenaSpec, arena_for_game, arenas_for_game, ensure_arena
from ladder.executor import MatchJob, MatchResult
from ladder.league import plan, run_units
from ladder.registry import copies_folder
from ladder.store import now, open_store
from ladder.tournaments import runner
from ladder.tournaments.formats import Spec
from referee.games import make_game
from referee.replay import ReplayWriter, games_json
from referee.runtime import Clock, LocalPlayer, play_game
from tests.ladder._fakes import counting_seeds


def _pick(request) -> int:
    key = f"{request.match_id}/{request.game_number}/{request.seat}/{request.decision}"
    return random.Random(key).randrange(len(request.legal_actions))


class InProcessExecutor:
    """Plays each match in this process with seeded random players and writes its replay."""

    async def run(self, job: MatchJob) -> MatchResult:
        game = make_game(job.game, job.options)
        players = [LocalPlayer(seat, _pick) for seat in range(game.num_seats)]
        header = {"seats": [{"seat": s, "name": Path(p).name} for s, p in enumerate(job.bots)]}
        record = await play_game(
            game, players, match_id=job.match_id, seed=job.seed, seed_public=False, clock=Clock(),
            replay=ReplayWriter(Path(job.replay)), header=header,
        )
        return MatchResult(
            termination=record.outcome.termination,
            points=record.outcome.points,
            games=tuple(games_json(record.outcome)),
            decisions=record.decisions,
            bots=job.bots,
        )

    async def check(self, bot: str, startup_timeout: float) -> dict:
        raise NotImplementedError


ARENAS: list[ArenaSpec] = [
    arena_for_game("tapa"),
    arena_for_game("tabla-match"),
    *arenas_for_game("durak")[1:2],
    arena_for_game("gapa"),
    arena_for_game("gaps"),
]
"""tapa, tabla-match, durak-4, gapa and gaps (played in duplicate)."""


async def build_league(path: Path) -> dict[str, str]:
    """Four bots in every arena of :data:`ARENAS`, one round each, and a knockout (``cup``) in tabla; returns a
    match id of the league per arena."""
    db = open_store(path)
    with db.atomic():
        for spec in ARENAS:
            ensure_arena(db, spec)
        for index, name in enumerate(("alpha", "beta", "gamma", "delta")):
            bot_id = db["bots"].insert({"name": name, "created_at": now(), "retired": 0}).last_pk
            (copies_folder(db) / name).mkdir(parents=True)  # played in-process: the folders stay empty
            version = db["versions"].insert(
                {"bot_id": bot_id, "number": 1, "version": "1", "hash": f"{index:064d}", "path": f"{copies_folder(db).name}/{name}",
                 "language": "python", "author": "", "games": '["tapa", "tabla-match", "durak", "gapa", "gaps"]', "created_at": now()}
            ).last_pk
            for spec in ARENAS:
                db["entries"].insert({"arena_id": spec.id, "version_id": version, "joined_at": now()})
    for spec in ARENAS:
        plan(db, "web", spec.id, "round-robin", 1, new_seed=counting_seeds(spec.id))
    await run_units(db, "web", InProcessExecutor(), concurrency=2)
    with db.atomic():  # a knockout of the four in an arena of its own
        ensure_arena(db, arena_for_game("tabla"))
        for row in list(db.query("select distinct version_id from entries")):
            db["entries"].insert({"arena_id": "tabla", "version_id": row["version_id"], "joined_at": now()})
    runner.start(db, Spec(name="cup", format="knockout", arena="tabla", seats=2))
    await runner.play(db, "cup", InProcessExecutor(), concurrency=2, new_seed=counting_seeds("cup"))
    return {
        spec.id: db.execute("select id from matches where arena_id = ? order by id limit 1", [spec.id]).fetchone()[0]
        for spec in ARENAS
    }
