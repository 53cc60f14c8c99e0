"""The ``ladder`` command: submit bots, run leagues, show standings, and a demo league of the shipped bots."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import socket
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import click
import trio
from sqlite_utils import Database

from referee.chance import new_secret_seed
from referee.choices import ChoiceError, settle
from referee.cli import CLOCK, build_echo, build_timeout_option, sandbox_option, sandboxed_by
from referee.files import write_atomically
from referee.games import GAMES
from referee.games.registry import RegistryError, registrations
from referee.render import replay_pages
from referee.replay import read_replay, replay_bytes
from referee.runtime.clock import DEFAULT_CLOCK, Clock

from .arenas import arena_ids, arenas_for_game, load_arena, set_deals, set_decision_limit, set_paused
from .authors import AuthorError, add_author, list_authors, revoke_token, rotate_token, set_banned
from .demo import FULL_ROUNDS, demo_arenas, play_demo
from .duel import duel
from .executor import Executor, LocalExecutor
from .leaderboard import leaderboard
from .league import SCHEDULES, MissingBots, Progress, play_league
from .registry import latest_version, list_bots, retire, submit
from .retention import prune_replays
from .sprt import SprtResult
from .standings import COLUMNS, crosstable, standings
from .stepper import step_through
from .store import MissingDatabase, backup, open_store, replay_folder, replay_of
from .tournaments import record as tournament_record
from .tournaments import runner as tournaments
from .tournaments.formats import ELIMINATIONS, FORMATS, Spec
from .tournaments.report import describe
from .tournaments.runner import TournamentError
from .tournaments.text import render
from .upload_client import NotUploadable, UploadFailed, upload
from .web.process import WebStopped
from .writer import DatabaseBusy, hold_database

CONTEXT = {"help_option_names": ["-h", "--help"]}
DEFAULT_DB = "kafana.db"

db_option = click.option(
    "--db",
    "db_path",
    default=lambda: os.environ.get("KAFANA_DB", DEFAULT_DB),
    show_default=f"$KAFANA_DB or {DEFAULT_DB}",
    type=click.Path(dir_okay=False),
    help="The league database (SQLite).",
)


class _Commands(click.Group):
    """The ladder's commands: whichever of them meets a database it cannot use (locked by another writer for longer
    than a transaction waits, unreadable, on a full disk), or a service whose web process stopped, says so in one
    line, also when it happened in one of several tasks."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (sqlite3.OperationalError, WebStopped, BaseExceptionGroup) as exc:
            leaves = list(_leaves(exc))
            if not all(isinstance(leaf, (click.ClickException, sqlite3.OperationalError, WebStopped))
                       for leaf in leaves):
                raise
            first = leaves[0]
            if isinstance(first, click.ClickException):
                raise first from None
            if isinstance(first, WebStopped):
                raise click.ClickException(str(first)) from None
            raise UserError(f"the league database cannot be used: {first} (run the command again)") from None


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    """The exceptions of ``exc``, groups opened."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from _leaves(inner)
    else:
        yield exc


@click.group(cls=_Commands, context_settings=CONTEXT)
@click.option("-v", "--verbose", count=True, help="More logging.")
def main(verbose: int) -> None:
    """Kafana ladder: submit bots, run local leagues, keep honest ratings.

    Example: ladder demo
    """
    level = logging.WARNING if verbose == 0 else logging.INFO if verbose == 1 else logging.DEBUG
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        settle()
    except ChoiceError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        registrations()  # the games, the installed packages' included: a broken one is named before any work
    except RegistryError as exc:
        raise click.ClickException(str(exc)) from None


T = TypeVar("T")


class Interrupted(Exception):
    """Ctrl-C or SIGTERM stopped the work (cleanly: see :func:`_until_interrupted`)."""


class UserError(click.ClickException):
    """A mistake of the user's (a missing or busy database, an unknown arena, a bad value): ``Error: …`` on one
    line, exit code 2."""

    exit_code = 2


def _open(db_path: str, create: bool = False) -> Database:
    """The league database at ``db_path`` (created only with ``create``), or a one-line error."""
    try:
        return open_store(db_path, create=create)
    except (MissingDatabase, ValueError) as exc:
        raise UserError(str(exc)) from None


def _check_arena(db: Database, db_path: str, arena: str) -> None:
    """A usage error unless ``arena`` is an arena of the database, saying whether it is unknown or only empty."""
    if arena in arena_ids(db):
        return
    known = sorted({spec.id for game in GAMES for spec in arenas_for_game(game)})
    if arena in known:
        raise UserError(f"no bot in {db_path} plays {arena} yet: ladder submit one that does")
    raise UserError(f"no arena {arena!r} (the arenas are {', '.join(known)})")


async def _until_interrupted(work: Callable[[], Awaitable[T]]) -> T:
    """Run ``work()``; on Ctrl-C or SIGTERM cancel it (matches stop, bots end, what was being played is left for
    the next run) and raise :class:`Interrupted`."""
    done: list[T] = []
    interrupted = False

    async def watch(nursery: trio.Nursery) -> None:
        nonlocal interrupted
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for _ in signals:
                interrupted = True
                nursery.cancel_scope.cancel()
                return

    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch, nursery)
        done.append(await work())
        nursery.cancel_scope.cancel()
    if interrupted or not done:
        raise Interrupted
    return done[0]


def _play(db_path: str, what: str, make_work: Callable[[], Callable[[], Awaitable[T]]]) -> T:
    """Hold the database (one writer), then run the work ``make_work()`` gives, with one-line answers for a busy
    database, a missing bot and an interruption."""
    try:
        with hold_database(db_path, what):
            return trio.run(_until_interrupted, make_work())
    except DatabaseBusy as exc:
        raise UserError(str(exc)) from None
    except MissingBots as exc:
        raise click.ClickException(str(exc)) from None
    except Interrupted:
        click.echo("interrupted: the matches being played are left for the next run of the same command", err=True)
        sys.exit(130)


def _failed(progress: Progress) -> None:
    """Exit 1 when matches could not be played (their reasons were printed as they happened)."""
    if progress.errors:
        raise click.ClickException(
            f"{progress.errors} match(es) could not be played (reasons above; -v shows each whole error)"
        )


def _executor(mode: str, pause_off_turn: bool | None = None, scheduler: str | None = None) -> Executor:
    """An executor running bots with the sandbox as ``mode`` says, resolved once here (``auto`` says which): on this
    machine, or on the Dask cluster of ``scheduler`` (where each worker applies the same sandbox mode); bots are
    paused off turn as ``pause_off_turn`` says (None: at tables of more than two seats)."""
    if scheduler is None:
        return LocalExecutor(sandbox="on" if sandboxed_by(mode) else "off", pause_off_turn=pause_off_turn)
    try:
        from .dask_executor import DaskExecutor
    except ImportError:
        raise UserError("--executor dask needs Dask: pip install 'kafana[dask]'") from None
    try:
        return DaskExecutor(scheduler, sandbox=mode, pause_off_turn=pause_off_turn)
    except OSError as exc:
        raise UserError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None


@main.command("submit", context_settings=CONTEXT)
@click.argument("path", type=click.Path(exists=True))
@db_option
@sandbox_option("on")
@click.option("--server", help="Upload to the club ladder at this address instead (http://HOST:PORT).")
@click.option("--token", envvar="KAFANA_TOKEN", show_envvar=True, help="Your author token, with --server.")
@build_timeout_option()
def submit_command(path: str, db_path: str, sandbox_mode: str, server: str | None, token: str | None,
                   build_timeout: float) -> None:
    """Check the bot at PATH (a .py file or a folder with bot.toml) and enter it in the arenas of its games; with
    --server, pack it (a folder: what its copy would hold; a .py file: the file and a manifest that runs it with
    python3, able to import this repository's kit as on your machine) and upload it to a club ladder as your bot.

    Example: ladder submit bots/python/heuristic_bot.py   (ladder submit --server http://club:8000 --token kf_… mybot/)
    """
    if server is not None:
        if not token:
            raise UserError("uploading needs your author token: --token kf_… (or $KAFANA_TOKEN)")
        try:
            answer = upload(server, token, Path(path))
        except NotUploadable as exc:
            raise UserError(str(exc)) from None
        except UploadFailed as exc:
            raise click.ClickException(str(exc)) from None
        click.echo(answer.report)
        if not answer.accepted:
            raise click.ClickException("the bot did not pass the conformance run")
        return
    db = _open(db_path, create=True)
    executor = _executor(sandbox_mode)
    work = partial(submit, db, Path(db_path), path, executor, sandboxed_build=sandboxed_by(sandbox_mode),
                   build_timeout=build_timeout, echo=build_echo(quiet=False))
    report = trio.run(work)
    click.echo(report.text())
    if not report.accepted:
        raise click.ClickException("the bot did not pass the conformance run")


@main.command("author", context_settings=CONTEXT)
@click.argument("action", type=click.Choice(["add", "rotate", "revoke", "ban", "unban", "list"]))
@click.argument("name", required=False)
@db_option
def author_command(action: str, name: str | None, db_path: str) -> None:
    """Manage the authors of a club ladder: add one (its token is printed once), rotate or revoke its token,
    ban or unban it (a banned author's token stops working and its bots stop playing), list them.

    Example: ladder author add ana --db club.db
    """
    db = _open(db_path, create=action == "add")
    if action == "list":
        for author, state in list_authors(db):
            click.echo(f"{author:<24} {state}")
        return
    if not name:
        raise UserError(f"ladder author {action} needs the author's NAME")
    try:
        if action in ("add", "rotate"):
            token = add_author(db, name) if action == "add" else rotate_token(db, name)
            click.echo(f"{name}'s token (shown once; keep it secret): {token}")
        elif action == "revoke":
            revoke_token(db, name)
            click.echo(f"{name}'s token revoked (ladder author rotate {name} gives a new one)")
        else:
            set_banned(db, name, action == "ban")
            click.echo(f"{name} {action}ned")
    except AuthorError as exc:
        raise UserError(str(exc)) from None


@main.command("arena", context_settings=CONTEXT)
@click.argument("action", type=click.Choice(["pause", "resume", "limit", "deals"]))
@click.argument("arena")
@click.argument("number", required=False, type=click.IntRange(1))
@db_option
def arena_command(action: str, arena: str, number: int | None, db_path: str) -> None:
    """Pause an arena of a club ladder (the service plans no more of its units; those being played finish) or
    resume it; set the NUMBER of decisions after which the referee ends a game of the arena as a draw (``limit``),
    for the matches played from now on (each game's default: docs/bot-protocol.md, "Every game ends"); or set the
    NUMBER of deals a one-seat arena plays per bot (``deals``; docs/service.md).

    Example: ladder arena pause durak-4 --db club.db; ladder arena limit gapa 5000 --db club.db
    """
    db = _open(db_path)
    _check_arena(db, db_path, arena)
    if action in ("limit", "deals"):
        if number is None:
            what = "decisions" if action == "limit" else "deals"
            raise click.UsageError(f"ladder arena {action} ARENA NUMBER: how many {what}?")
        if action == "limit":
            set_decision_limit(db, arena, number)
        else:
            try:
                set_deals(db, arena, number)
            except ValueError as exc:
                raise click.UsageError(str(exc)) from None
        click.echo(f"{arena}: a game ends as a draw after {number} decisions" if action == "limit"
                   else f"{arena}: {number} deals per bot")
        return
    if number is not None:
        raise click.UsageError(f"ladder arena {action} takes no number")
    set_paused(db, arena, action == "pause")
    click.echo(f"{arena} {'paused' if action == 'pause' else 'resumed'}")


@main.command("bots", context_settings=CONTEXT)
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def bots_command(db_path: str, as_json: bool) -> None:
    """List the bots and their versions, with the disk each version's copy takes (its build's output included,
    files shared with the build store by hard links counted in full).

    Example: ladder bots
    """
    rows = list_bots(_open(db_path))
    if as_json:
        click.echo(json.dumps(rows))
        return
    for row in rows:
        state = " (retired)" if row["retired"] else ""
        click.echo(f"{row['name']:<20} v{row['number']:<3} {row['version']:<8} {row['hash'][:12]} "
                   f"{row['disk_bytes'] / 1e6:>8.1f} MB  {row['games']}{state}")


@main.command("retire", context_settings=CONTEXT)
@click.argument("name")
@db_option
def retire_command(name: str, db_path: str) -> None:
    """Take bot NAME out of scheduling (its results stay).

    Example: ladder retire random
    """
    if not retire(_open(db_path), name):
        raise click.ClickException(f"no bot named {name!r}")
    click.echo(f"{name} retired")


@main.command("prune", context_settings=CONTEXT)
@click.option("--replays-older-than", "days", required=True, type=click.FloatRange(min=0),
              help="Remove the replays of matches finished more than DAYS ago (tournaments' are kept).")
@db_option
def prune_command(days: float, db_path: str) -> None:
    """Remove old replays to keep a long-running ladder's folder in bounds: every result stays, and every replay
    of a tournament (docs/service.md, "Storage").

    Example: ladder prune --replays-older-than 30 --db club.db
    """
    pruned = prune_replays(_open(db_path), days)
    click.echo(f"removed {pruned.replays} replays ({pruned.bytes / 1e6:.1f} MB); results kept")


@main.command("backup", context_settings=CONTEXT)
@click.argument("destination", type=click.Path(dir_okay=False))
@db_option
def backup_command(destination: str, db_path: str) -> None:
    """Copy the league database to DESTINATION, whole and consistent, while a league or the service writes to it
    (SQLite's online backup). Copy the folders beside it too (NAME-bots/, NAME-replays/): docs/service.md.

    Example: ladder backup club-backup.db --db club.db
    """
    try:
        backup(_open(db_path), Path(destination))
    except ValueError as exc:
        raise UserError(str(exc)) from None
    click.echo(f"{db_path} copied to {destination}")


def _progress_printer(label: str) -> Callable[[Progress], None]:
    """Prints a line after each finished match, and the reason of each match that could not be played."""
    last = {"done": -1, "failures": 0}

    def show(progress: Progress) -> None:
        for failure in progress.failures[last["failures"]:]:
            click.echo(f"  {label}: FAILED {failure}", err=True)
        last["failures"] = len(progress.failures)
        if progress.done == last["done"]:
            return
        last["done"] = progress.done
        eta = progress.eta_seconds
        click.echo(
            f"  {label}: {progress.done}/{progress.total} matches done, {progress.running} running, "
            f"{progress.faults} faults, {progress.errors} errors" + (f", ~{eta:.0f}s left" if eta is not None else ""),
            err=True,
        )

    return show


async def _in_session(executor: Executor, concurrency: int, work: Callable[[], Awaitable[T]]) -> T:
    """Run ``work()``, ``concurrency`` matches at a time, in one session of ``executor`` (its match workers serve
    every match of it)."""
    async with executor.session(concurrency):
        return await work()


@main.command("league", context_settings=CONTEXT)
@click.option("--arena", required=True, help="The arena, e.g. tabla-match, tabla, gjul-bara, tapa.")
@click.option("--schedule", type=click.Choice(SCHEDULES), default="round-robin", show_default=True)
@click.option("--rounds", default=1, show_default=True, type=click.IntRange(1), help="Rounds (continuous: units).")
@click.option("--concurrency", default=2, show_default=True, type=click.IntRange(1),
              help="Matches at a time (locally at most one a core).")
@click.option("--challenger", help="Gauntlet: the bot that plays everybody.")
@click.option("--league", "league_name", help="League name (default ARENA-SCHEDULE); rerun it to resume.")
@click.option("--clock", type=CLOCK, default=str(DEFAULT_CLOCK), show_default=True, help="BANK+INC/CAP in seconds.")
@db_option
@sandbox_option("on")
@click.option("--pause-off-turn/--no-pause-off-turn", default=None,
              help="Stop each bot's processes while it is not its move (default: at tables of more than two seats).")
@click.option("--executor", "executor_kind", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="Where matches run: this machine, or a Dask cluster (docs/scaling.md).")
@click.option("--scheduler", help="The Dask scheduler, e.g. tcp://10.0.0.5:8786 (with --executor dask).")
def league_command(
    arena, schedule, rounds, concurrency, challenger, league_name, clock, db_path, sandbox_mode, pause_off_turn,
    executor_kind, scheduler,
) -> None:
    """Run a league in ARENA; running the same command again resumes it.

    Example: ladder league --arena tabla-match --rounds 2 --concurrency 2
    (on a cluster: --executor dask --scheduler tcp://HOST:8786 --concurrency 8)
    """
    if (executor_kind == "dask") != (scheduler is not None):
        raise click.UsageError("--executor dask and --scheduler go together")
    db = _open(db_path)
    _check_arena(db, db_path, arena)
    league = league_name or f"{arena}-{schedule}"
    challenger_id = None
    if schedule == "gauntlet":
        if not challenger:
            raise click.UsageError("--schedule gauntlet needs --challenger BOT")
        challenger_id = _latest_version(db, challenger)
    def work() -> Callable[[], Awaitable[Progress]]:
        executor = _executor(sandbox_mode, pause_off_turn, scheduler)
        league_run = partial(play_league, db, league, arena, schedule, rounds, executor, challenger=challenger_id,
                             concurrency=concurrency, on_progress=_progress_printer(arena), clock=clock)
        return partial(_in_session, executor, concurrency, league_run)

    progress = _play(db_path, f"ladder league --arena {arena}", work)
    _print_standings(db, [arena])
    _failed(progress)


def _print_standings(db: Database, arenas: list[str]) -> None:
    for arena in arenas:
        click.echo("\n" + leaderboard(arena, standings(db, arena, fresh=True)))


COLUMNS_HELP = "\b\nColumns:\n" + "\n".join(f"  {name}: {meaning}" for name, meaning in COLUMNS.items())


@main.command("standings", context_settings=CONTEXT, epilog=COLUMNS_HELP)
@click.option("--arena", multiple=True, help="Arena(s) to show (default: all).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@db_option
def standings_command(arena: tuple[str, ...], as_json: bool, db_path: str) -> None:
    """Ratings with 95% intervals, units, games, wins, draws, losses, faults and LOS (explained below).

    Example: ladder standings --arena tabla-match
    """
    db = _open(db_path)
    for name in arena:
        _check_arena(db, db_path, name)
    arenas = list(arena) or arena_ids(db)
    if as_json:
        click.echo(json.dumps({a: [s.__dict__ for s in standings(db, a, fresh=True)] for a in arenas}))
        return
    _print_standings(db, arenas)


@main.command("crosstable", context_settings=CONTEXT)
@click.option("--arena", required=True)
@db_option
def crosstable_command(arena: str, db_path: str) -> None:
    """Head to head: the row bot's wins out of games against the column bot.

    Example: ladder crosstable --arena tabla-match
    """
    db = _open(db_path)
    _check_arena(db, db_path, arena)
    labels, table = crosstable(db, arena)
    width = max([len(label) for label in labels] + [8])
    click.echo(" " * width + "".join(f"{label:>{width + 2}}" for label in labels))
    for row in labels:
        cells = "".join(
            f"{('%d/%d' % table[(row, col)]) if (row, col) in table else '-':>{width + 2}}" for col in labels
        )
        click.echo(f"{row:<{width}}{cells}")


def _latest_version(db: Database, name: str) -> int:
    version = latest_version(db, name)
    if version is None:
        raise UserError(f"no bot named {name!r}")
    return version


@main.command("duel", context_settings=CONTEXT)
@click.argument("bot_a")
@click.argument("bot_b")
@click.option("--arena", default="tabla-match", show_default=True)
@click.option("--elo0", default=0.0, show_default=True, help="H0: A is at most this much stronger.")
@click.option("--elo1", default=50.0, show_default=True, help="H1: A is at least this much stronger.")
@click.option("--alpha", default=0.05, show_default=True)
@click.option("--beta", default=0.05, show_default=True)
@click.option("--max-units", default=500, show_default=True, type=click.IntRange(1), help="Give up after this many.")
@click.option("--concurrency", default=2, show_default=True, type=click.IntRange(1))
@db_option
@sandbox_option("on")
def duel_command(bot_a, bot_b, arena, elo0, elo1, alpha, beta, max_units, concurrency, db_path, sandbox_mode) -> None:
    """Play duplicate units of BOT_A against BOT_B until the SPRT decides between H0 and H1.

    Example: ladder duel expectimax heuristic --arena tabla-match --elo0 0 --elo1 50
    """
    db = _open(db_path)
    a, b = _latest_version(db, bot_a), _latest_version(db, bot_b)
    _check_arena(db, db_path, arena)

    def unit_played(progress: Progress, result: SprtResult) -> None:
        for failure in progress.failures:
            click.echo(f"  FAILED {failure}", err=True)
        _failed(progress)
        bounds = f"(bounds {result.lower:.2f}, {result.upper:.2f})"
        click.echo(f"  {result.games} matches: LLR {result.llr:+.2f} {bounds}", err=True)

    def work() -> Callable[[], Awaitable[SprtResult]]:
        executor = _executor(sandbox_mode)
        until_decided = partial(duel, db, executor, arena, a, b, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta,
                                max_units=max_units, concurrency=concurrency, on_unit=unit_played)
        return partial(_in_session, executor, concurrency, until_decided)

    result = _play(db_path, f"ladder duel {bot_a} {bot_b}", work)
    verdict = {"H1": f"H1: {bot_a} is at least {elo1:g} stronger", "H0": f"H0: {bot_a} is at most {elo0:g} stronger"}
    click.echo(verdict.get(result.decision or "", f"undecided after {result.games} matches"))


@main.group("tournament", context_settings=CONTEXT, invoke_without_command=True)
@click.option("--format", "format_name", type=click.Choice(FORMATS), help="knockout, swiss, gauntlet or tables (Durak).")
@click.option("--arena", help="The arena, e.g. tabla-match, durak-4.")
@click.option("--name", help="The tournament's name (default FORMAT-ARENA); rerun it to resume.")
@click.option("--elimination", type=click.Choice(ELIMINATIONS), default="single", show_default=True,
              help="A knockout's: out after one lost unit, or after two.")
@click.option("--rounds", default=5, show_default=True, type=click.IntRange(1), help="Swiss, gauntlet, tables.")
@click.option("--challenger", help="Gauntlet: the bot that plays the field.")
@click.option("--concurrency", default=2, show_default=True, type=click.IntRange(1),
              help="Matches at a time (locally at most one a core).")
@click.option("--clock", type=CLOCK, default=str(DEFAULT_CLOCK), show_default=True, help="BANK+INC/CAP in seconds.")
@db_option
@sandbox_option("on")
@click.pass_context
def tournament_command(
    ctx, format_name, arena, name, elimination, rounds, challenger, concurrency, clock, db_path, sandbox_mode
) -> None:
    """Play a tournament among an arena's active bots (rerun the same command to resume), then print it;
    ``ladder tournament show NAME`` prints one, ``ladder tournament list`` lists them.

    Example: ladder tournament --format knockout --arena tabla-match
    """
    if ctx.invoked_subcommand is not None:
        return
    if not format_name or not arena:
        raise click.UsageError("give --format and --arena (or a subcommand: show, list)")
    db = _open(db_path)
    _check_arena(db, db_path, arena)
    spec_arena = load_arena(db, arena)
    if format_name == "gauntlet" and not challenger:
        raise click.UsageError("--format gauntlet needs --challenger BOT")
    spec = Spec(
        name=name or f"{format_name}-{arena}", format=format_name, arena=arena, seats=spec_arena.seats,
        rounds=0 if format_name == "knockout" else rounds, elimination=elimination if format_name == "knockout" else "single",
        teams=spec_arena.options.get("teams", "none") != "none", draw_seed=new_secret_seed() if format_name == "tables" else "",
    )
    challenger_id = _latest_version(db, challenger) if challenger else None
    try:
        with db.atomic():
            fresh = tournaments.start(db, spec, challenger_id)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    if not fresh:
        click.echo(f"resuming tournament {spec.name}", err=True)

    def work() -> Callable[[], Awaitable[Any]]:
        executor = _executor(sandbox_mode)
        run = partial(tournaments.play, db, spec.name, executor, concurrency=concurrency, clock=clock,
                      on_progress=_progress_printer(spec.name),
                      on_round=lambda number: click.echo(f"{spec.name}: round {number}", err=True))
        return partial(_in_session, executor, concurrency, run)

    try:
        _play(db_path, f"ladder tournament {spec.name}", work)
    except TournamentError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(render(describe(db, spec.name)))


@tournament_command.command("show", context_settings=CONTEXT)
@click.argument("name")
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def tournament_show(name: str, db_path: str, as_json: bool) -> None:
    """Print the tournament NAME: its bracket or rounds, standings and champion."""
    db = _open(db_path)
    try:
        report = describe(db, name)
    except KeyError:
        known = ", ".join(tournament_record.names(db)) or "none yet"
        raise UserError(f"no tournament {name!r} in {db_path} (the tournaments: {known})") from None
    click.echo(json.dumps(report, indent=2) if as_json else render(report))


@tournament_command.command("list", context_settings=CONTEXT)
@db_option
def tournament_list(db_path: str) -> None:
    """List the tournaments of the database."""
    db = _open(db_path)
    for name in tournament_record.names(db):
        report = describe(db, name)
        winner = f", champion {report['champion']}" if report["champion"] else ""
        click.echo(f"{name}: {report['format']} in {report['arena']}, {report['status']}{winner}")


def _tool(name: str) -> str:
    """How to start the command ``name`` from any shell: as it is when it is on PATH, else by its full path (the
    virtual environment of the README's commands)."""
    beside = Path(sys.executable).parent / name
    found = shutil.which(name)
    return name if found and Path(found).resolve() == beside.resolve() else str(beside)


@main.command("demo", context_settings=CONTEXT)
@click.option("--db", "db_path", default="kafana-demo.db", show_default=True, type=click.Path(dir_okay=False))
@click.option("--rounds", default=1, show_default=True, type=click.IntRange(1), help="Rounds in every arena.")
@click.option("--full", is_flag=True, help=f"A longer league: {FULL_ROUNDS} rounds in every arena.")
@click.option("--concurrency", default=2, show_default=True, type=click.IntRange(1))
def demo(db_path: str, rounds: int, full: bool, concurrency: int) -> None:
    """A league of the shipped bots: submit them, run a round robin in every arena (5-point Tabla matches, Tabla,
    Gjul Bara and Tapa games, Durak for 2 and 4 seats and in 2v2 teams, Gapa, Gaps in duplicate), print the
    standings and how to watch the replays. One round takes about two and a half minutes on 2 cores.

    Example: ladder demo   (ladder demo --full for more rounds)
    """
    db = _open(db_path, create=True)
    click.echo(f"League database: {db_path}")
    began = time.monotonic()
    # The shipped bots: sandboxed where the machine allows.
    everything = partial(play_demo, db, Path(db_path), rounds=FULL_ROUNDS if full else rounds,
                         concurrency=concurrency, say=click.echo, progress_of=_progress_printer)
    progress = _play(db_path, "ladder demo", lambda: partial(everything, _executor("auto")))
    _print_standings(db, demo_arenas(db))
    folder = replay_folder(db)
    example = next(iter(sorted(folder.rglob("*.jsonl.gz"))), None)
    minutes, seconds = divmod(round(time.monotonic() - began), 60)
    absolute = Path(db_path).resolve()
    click.echo(f"\nThe demo took {minutes}:{seconds:02d}. Replays are in {folder}/")
    if example is not None:
        click.echo(f"Watch one:    {_tool('referee')} show {example}")
    click.echo(f"In a browser: {_tool('ladder')} serve --db {absolute}   (then open http://127.0.0.1:8000/)")
    click.echo(f"More:         {_tool('ladder')} standings --db {absolute}")
    click.echo(f"              {_tool('ladder')} crosstable --arena tabla-match --db {absolute}")
    _failed(progress)


@main.command("replay", context_settings=CONTEXT)
@click.argument("match_id")
@db_option
@click.option("--game", "game_number", type=click.IntRange(1), help="Start at game K of a match or session.")
@click.option("--as-seat", type=int, default=None, help="What this seat saw (default: everything).")
@click.option("--export", "export_path", type=click.Path(dir_okay=False),
              help="Write the replay here as text (the ladder keeps it compressed) and stop.")
def replay_command(match_id: str, db_path: str, game_number: int | None, as_seat: int | None, export_path: str | None):
    """Step through a match's replay in the terminal: Enter for the next step, b back, a number to jump, q to quit
    (printed whole when the input is not a terminal); --export writes the replay file for sharing.

    Example: ladder replay demo-tapa-tapa-r0-2v1-0 --db kafana-demo.db --as-seat 1
    """
    db = _open(db_path)
    try:
        path = replay_of(db, match_id)
    except KeyError:
        raise UserError(f"no match {match_id!r} in {db_path} (ladder serve lists them)") from None
    if path is None:
        raise click.ClickException(f"match {match_id} has no replay file")
    if export_path:
        try:
            write_atomically(Path(export_path), replay_bytes(path))
        except OSError as exc:
            raise click.ClickException(f"cannot write {export_path}: {exc.strerror or exc}") from None
        click.echo(f"wrote {export_path}")
        return
    try:
        pages, problems = replay_pages(read_replay(path), as_seat)
    except ValueError as exc:
        if as_seat is not None and "seats" in str(exc):
            raise click.BadParameter(str(exc), param_hint="--as-seat") from None
        raise click.ClickException(f"match {match_id}: {exc}") from None
    for problem in problems:
        click.echo(f"warning: {problem}", err=True)
    index = 0
    if game_number is not None:
        index = next((k for k, page in enumerate(pages) if page.game_number >= game_number), -1)
        if index < 0:
            raise click.BadParameter(f"the replay has {pages[-1].game_number} game(s)", param_hint="--game")
    if not sys.stdin.isatty():
        click.echo("\n\n".join(page.text for page in pages[index:]))
        return
    step_through(pages, index, show=click.echo)


@main.command("serve", context_settings=CONTEXT)
@db_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (loopback by default).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--play", is_flag=True, help="Run the club ladder too: authors upload, the scheduler plays for ever.")
@click.option("--concurrency", default=2, show_default=True, type=click.IntRange(1), help="With --play: matches at a time.")
@click.option("--clock", type=CLOCK, default=str(DEFAULT_CLOCK), show_default=True,
              help="With --play: BANK+INC/CAP in seconds.")
@sandbox_option("on")
@click.option("--scheduler", help="With --play: play the matches on the Dask cluster of this scheduler (tcp://HOST:8786).")
@click.option("--tournament", "scheduled", multiple=True, metavar="FORMAT:ARENA",
              help="With --play: also play this tournament among the arena's active bots, again every --every hours.")
@click.option("--every", "every_hours", default=24.0, show_default=True, type=click.FloatRange(min=0, min_open=True),
              help="With --tournament: hours between two starts of a scheduled tournament.")
@click.option("--cache", "cache_seconds", default=1.0, show_default=True, type=click.FloatRange(min=0),
              help="Seconds a public answer is kept and given again (0: every request reads the database).")
@click.option("--keep-replays", "keep_days", type=click.FloatRange(min=0, min_open=True),
              help="With --play: every hour, remove the replays older than this many days (tournaments' stay).")
@click.option("--behind-tls", is_flag=True,
              help="A TLS-terminating proxy forwards to this port: the sign-in cookie is Secure, and each client's "
                   "address and scheme are the proxy's X-Forwarded-For and X-Forwarded-Proto (its last hop).")
@click.option("--user", "user_name", metavar="NAME",
              help="With --play, started as root: the user the web process runs as (default: uid and gid 60999).")
@click.option("--visitors-play", is_flag=True,
              help="With --play: visitors who are not signed in may play the bots too (authors always may).")
def serve(
    db_path: str, host: str, port: int, play: bool, concurrency: int, clock: Clock, sandbox_mode: str,
    scheduler: str | None, scheduled: tuple[str, ...], every_hours: float, cache_seconds: float,
    keep_days: float | None, behind_tls: bool, user_name: str | None, visitors_play: bool,
) -> None:
    """Serve the web UI: leaderboards, matches (live), bots, and a replay viewer for every match. With --play it
    is a club ladder's service (docs/service.md): authors sign in with their token (ladder author add) and upload
    bots, and the scheduler plays the most informative units for ever; Ctrl-C or SIGTERM stops it cleanly, and
    the same command resumes. Its web then runs in a process of its own, without root's rights.

    Example: ladder serve --db kafana-demo.db   (then open http://127.0.0.1:8000/; ladder serve --play for a club)
    """
    from hypercorn.config import Config
    from hypercorn.trio import serve as serve_asgi

    from .club import run_club
    from .service import Service, parse_schedule
    from .uploads import sweep as sweep_uploads
    from .web import make_app
    from .web.process import web_user

    if scheduled and not play:
        raise click.UsageError("--tournament goes with --play")
    if keep_days is not None and not play:
        raise click.UsageError("--keep-replays goes with --play (ladder prune does it once)")
    if user_name is not None and not play:
        raise click.UsageError("--user goes with --play (ladder serve alone runs as you)")
    if visitors_play and not play:
        raise click.UsageError("--visitors-play goes with --play (people play the bots of a club's service)")
    try:
        schedules = tuple(parse_schedule(text) for text in scheduled)
    except ValueError as exc:
        raise UserError(f"--tournament: {exc}") from None
    try:
        user = web_user(user_name) if play else None
    except ValueError as exc:
        raise UserError(str(exc)) from None
    db = _open(db_path, create=play)
    try:
        listener = socket.create_server((host, port))  # a busy or forbidden address: one line, not a traceback
    except OSError as exc:
        raise click.ClickException(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    if not play:
        config = Config()
        config.bind = [f"fd://{listener.fileno()}"]
        config.accesslog = None
        click.echo(f"Kafana league {db_path} at http://{host}:{port}/ (Ctrl-C stops)")
        try:
            trio.run(serve_asgi, make_app(db_path, cache_seconds=cache_seconds, behind_tls=behind_tls), config)
        except KeyboardInterrupt:
            click.echo("stopped", err=True)
        return
    path = Path(db_path).resolve()

    def work() -> Callable[[], Awaitable[None]]:
        executor = _executor(sandbox_mode, scheduler=scheduler)
        if swept := sweep_uploads(db, path):
            click.echo(f"removed {swept} upload(s) and copies the last run left unfinished", err=True)
        service = Service(db, executor, concurrency, clock, schedules, every_hours, keep_days)
        ready = partial(click.echo, f"Kafana club ladder {db_path} at http://{host}:{port}/, playing (Ctrl-C stops)")
        return partial(run_club, service, path, listener, user, cache_seconds=cache_seconds, behind_tls=behind_tls,
                       ready=ready, sandbox=sandbox_mode, visitors_play=visitors_play)

    _play(db_path, f"ladder serve --play on port {port}", work)


@main.command("web-process", context_settings=CONTEXT, hidden=True)
@click.option("--fd", type=int, required=True, help="The listening socket, inherited.")
@db_option
@click.option("--cache", "cache_seconds", default=1.0, type=click.FloatRange(min=0))
@click.option("--behind-tls", is_flag=True)
@click.option("--visitors-play", is_flag=True)
def web_process(fd: int, db_path: str, cache_seconds: float, behind_tls: bool, visitors_play: bool) -> None:
    """The web of ``ladder serve --play``, which starts it (ladder/web/process.py); not a command for people."""
    from .web.process import serve_web

    serve_web(Path(db_path), fd, cache_seconds, behind_tls, visitors_play)


if __name__ == "__main__":
    main()
