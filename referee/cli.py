"""The ``referee`` command: play games between bots, verify and show replays."""

from __future__ import annotations

import getpass
import json
import logging
import sys
import webbrowser
from collections import Counter
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

import click
import trio

from referee.analysis import AnalysisError, analyse, analysis_text
from referee.checkbot import check_bot
from referee.choices import ChoiceError, settle
from referee.games import GAMES, GapsTermination, InvalidOptionError, UnknownGameError, make_game
from referee.games.registry import RegistryError, registrations, resolve, shipped_games
from referee.matchspec import MatchSpec, SpecError
from referee.newbot import LANGUAGES, STARTERS, NewBotError, new_bot
from referee.render import replay_pages
from referee.replay import games_json, read_replay, verify
from referee.runtime import (
    BotPool,
    BotSpec,
    BuildError,
    Entrant,
    GameRecord,
    KnownBots,
    ManifestError,
    SeatOptions,
    default_store,
    prepare_bot,
    probe_hello,
    resolve_bot,
    run_game,
)
from referee.runtime.affinity import parse_cores, pin
from referee.runtime.build import BUILD_TIMEOUT
from referee.runtime.clock import DEFAULT_CLOCK, Clock
from referee.runtime.human import HUMAN, HUMAN_CLOCK, HumanSeat
from referee.runtime.lifetime import Orphaned, exit_when_orphaned
from referee.runtime.process import STARTUP_TIMEOUT
from referee.runtime.sandbox import (
    MODES,
    SANDBOX_ENV,
    SandboxUnavailable,
    limits_from_json,
    resolve_mode,
    sandbox_problem,
)

CONTEXT = {"help_option_names": ["-h", "--help"]}
PAGE_GOODBYE = 1.0
"""Seconds the people's pages are still served after the last game, so that they show its end."""


def game_seed(seed: int, index: int) -> str:
    """The public chance seed of game ``index`` of a run started with ``seed``.

    >>> game_seed(1, 0), game_seed(1, 1)
    ('1/0', '1/1')
    """
    return f"{seed}/{index}"


def _options(pairs: tuple[str, ...]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--option")
        options[key.strip()] = value.strip()
    return options


def sandbox_option(default: str) -> Callable:
    """The ``--sandbox on|auto|off`` option (default ``default``, or ``$KAFANA_SANDBOX``), for every command that
    starts bots."""
    return click.option(
        "--sandbox",
        "sandbox_mode",
        type=click.Choice(MODES),
        default=default,
        show_default=True,
        envvar=SANDBOX_ENV,
        show_envvar=True,
        help="Run bots in the sandbox: on (refuse without it), auto (when it works here), off (trusted bots only).",
    )


class ClockType(click.ParamType):
    """A ``--clock`` value, BANK+INC[/CAP] in seconds, read as a :class:`Clock` (a usage error otherwise)."""

    name = "BANK+INC/CAP"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> Clock:
        """``value`` as a :class:`Clock`."""
        if isinstance(value, Clock):
            return value
        try:
            return Clock.parse(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


CLOCK = ClockType()
"""The type of every command's ``--clock``."""


def build_timeout_option() -> Callable:
    """The ``--build-timeout`` option, for every command that builds bots."""
    return click.option("--build-timeout", default=BUILD_TIMEOUT, show_default=True, type=click.FloatRange(min=1),
                        help="Seconds each phase of a bot's build (fetch, build) may take.")


def build_echo(quiet: bool) -> Callable[[str], None] | None:
    """Where a build's output goes as it comes: standard error, unless ``quiet``."""
    return None if quiet else lambda line: click.echo(f"build: {line}", err=True)


def sandboxed_by(mode: str, quiet: bool = False) -> bool:
    """Resolve ``--sandbox`` (a usage error when ``on`` cannot work here); ``auto`` says on stderr which way it
    went."""
    try:
        sandboxed = resolve_mode(mode)
    except SandboxUnavailable as exc:
        raise click.UsageError(f"{exc}; for your own trusted bots use --sandbox auto or off") from None
    if mode == "auto" and not quiet:
        reason = "" if sandboxed else f" ({sandbox_problem()})"
        click.echo(f"sandbox: {'on' if sandboxed else 'off'}{reason}", err=True)
    return sandboxed


def _built_bot(path: str, sandboxed: bool, timeout: float, quiet: bool) -> BotSpec:
    """The bot at ``path`` as it runs: its prepared copy, built (in the sandbox when its games will be; its output
    shown unless ``quiet``; :func:`referee.runtime.prepare_bot`; click errors otherwise)."""
    try:
        return prepare_bot(path, default_store(), sandboxed, timeout, build_echo(quiet))
    except ManifestError as exc:
        raise click.UsageError(str(exc)) from None
    except BuildError as exc:
        raise click.ClickException(str(exc)) from None


@click.group(context_settings=CONTEXT)
@click.option("-v", "--verbose", count=True, help="More logging (-v faults and info, -vv bot traffic).")
def main(verbose: int) -> None:
    """Kafana referee: play games between bots, verify and show replays.

    Example: referee play tapa bots/python/random_bot.py bots/python/heuristic_bot.py --games 4
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


@main.command(context_settings=CONTEXT)
@click.argument("game_id")
@click.argument("bots", nargs=-1, required=True)
@click.option("--games", "count", default=1, show_default=True, type=click.IntRange(1), help="Games to play.")
@click.option(
    "--seed", default=1, show_default=True, type=int, help="Public seed of all chance (dice, deals) in the run."
)
@click.option("--clock", type=CLOCK, help=f"BANK+INC[/CAP] in seconds [default: {DEFAULT_CLOCK}, with a person "
              f"{HUMAN_CLOCK}].")
@click.option("--out", default="replays", show_default=True, type=click.Path(file_okay=False), help="Replay folder.")
@click.option("--option", "option_pairs", multiple=True, metavar="KEY=VALUE", help="A game option (repeatable).")
@click.option("--seats", type=int, help="Durak: seats (default: one per bot given).")
@click.option("--variant", help="Durak: podkidnoy or perevodnoy.")
@click.option("--deck", help="Durak: 36, 24 or 52 cards.")
@click.option("--teams", help="Durak: none or 2v2.")
@click.option("--transport", type=click.Choice(["unix", "tcp"]), default="unix", show_default=True)
@click.option("--startup-timeout", default=STARTUP_TIMEOUT, show_default=True, type=float, help="Seconds to Hello.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per game instead of text.")
@sandbox_option("auto")
@click.option("--pause-off-turn", is_flag=True, help="Stop each bot's processes while it is not its move (fair CPU).")
@click.option("--overwrite", is_flag=True, help="Replace replays of the same name (default: new names, NAME~2.jsonl).")
@click.option("--port", default=0, type=click.IntRange(0, 65535), help="With a person: the page's port on 127.0.0.1 "
              "[default: a free one].")
@click.option("--no-browser", is_flag=True, help="With a person: print the page's address, open no browser.")
@click.option("--serve-unix", type=click.Path(dir_okay=False, path_type=Path), hidden=True,
              help="With one person: serve the page on this Unix socket, with the seat's token read from standard "
                   "input (a club's service does so: its web passes the page on).")
@build_timeout_option()
def play(
    game_id: str,
    bots: tuple[str, ...],
    count: int,
    seed: int,
    clock: Clock | None,
    out: str,
    option_pairs: tuple[str, ...],
    seats: int | None,
    variant: str | None,
    deck: str | None,
    teams: str | None,
    transport: str,
    startup_timeout: float,
    as_json: bool,
    sandbox_mode: str,
    pause_off_turn: bool,
    overwrite: bool,
    port: int,
    no_browser: bool,
    serve_unix: Path | None,
    build_timeout: float,
) -> None:
    """Play GAME_ID between BOTS (.py files or bot folders, or ``human`` for a seat you play in the browser),
    alternating seats from game to game.

    Each game's result and replay path is printed, then a summary; the command fails (exit 1) when a seat's fault
    (a bot's, or a person's time running out) ended a game.

    Example: referee play tapa bots/python/random_bot.py bots/python/heuristic_bot.py --games 20 --seed 1

    Durak seats one bot per seat: referee play durak A B C D --variant perevodnoy (or --teams 2v2 for 0+2 v 1+3).

    Play a bot yourself: referee play tapa human bots/python/td2_bot.py (the game opens in your browser).
    """
    options = _options(option_pairs)
    shortcuts = {"seats": seats, "variant": variant, "deck": deck, "teams": teams}
    options.update({key: str(value) for key, value in shortcuts.items() if value is not None})
    known = resolve(game_id)
    if known is not None and "seats" not in options and any(o.name == "seats" for o in GAMES[known].OPTIONS):
        options["seats"] = str(len(bots))  # a game of several seat counts seats the bots given
    try:
        game = make_game(game_id, options)
    except (UnknownGameError, InvalidOptionError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    if len(bots) != game.num_seats:
        raise click.UsageError(f"{game.id} needs {game.num_seats} bots, {len(bots)} given")
    sandboxed = sandboxed_by(sandbox_mode if transport == "unix" or sandbox_mode == "on" else "off", quiet=as_json)
    if sandboxed and transport != "unix":
        raise click.UsageError("a sandboxed bot has no network: use --transport unix")
    people = {place: HumanSeat(place, HUMAN if bots.count(HUMAN) == 1 else f"{HUMAN}-{place}")
              for place, path in enumerate(bots) if path == HUMAN}
    specs = [None if path == HUMAN else _built_bot(path, sandboxed, build_timeout, as_json) for path in bots]
    for path, spec in dict(zip(bots, specs, strict=True)).items():
        if spec is not None:
            _ready_to_play(path, spec, game.id, transport, startup_timeout, sandboxed)
    clock = clock or (HUMAN_CLOCK if people else DEFAULT_CLOCK)

    async def play_each() -> list[GameRecord]:
        records: list[GameRecord] = []
        for index in range(count):
            shift = index % len(specs)
            seated = specs[shift:] + specs[:shift]
            origins = list(bots[shift:] + bots[:shift])
            for place, person in people.items():
                person.seat = (place - shift) % len(specs)
                person.names = [spec.label if spec is not None else HUMAN for spec in seated]
            match_id = f"{game.id}-s{seed}-{index + 1:03d}"
            record = await run_game(
                game,
                seated,
                match_id=match_id,
                seed=game_seed(seed, index),
                clock=clock,
                replay_path=Path(out) / f"{match_id}.jsonl",
                overwrite_replay=overwrite,
                transport=transport,
                startup_timeout=startup_timeout,
                sandboxed=sandboxed,
                pause_off_turn=pause_off_turn,
                recorded_paths=[origin if origin == HUMAN else str(Path(origin).resolve()) for origin in origins],
                people={person.seat: person for person in people.values()},
            )
            records.append(record)
            if as_json:
                click.echo(json.dumps(_record_json(record)))
            else:
                click.echo(f"{record.summary()}  [{record.replay_path}]")
        return records

    if serve_unix is not None and len(people) != 1:
        raise click.UsageError("--serve-unix serves one person's seat")
    records = (trio.run(play_each) if not people
               else _with_people(list(people.values()), play_each, port, no_browser, serve_unix))
    if not as_json:
        click.echo(_summary(records, [spec.label if spec is not None else HUMAN for spec in specs]))
    if faulted := sum(1 for record in records if record.faults):
        raise click.ClickException(f"{faulted} of {len(records)} games ended by a seat's fault (said above; referee "
                                   "show REPLAY shows each)")


def _with_people(people: list[HumanSeat], play_each: Callable[[], Awaitable[list[GameRecord]]], port: int,
                 no_browser: bool, unix_path: Path | None) -> list[GameRecord]:
    """Run ``play_each`` while the people's pages are served on 127.0.0.1 (each opened in the browser unless
    ``no_browser``; its address printed on standard error either way), or the one person's on the Unix socket
    ``unix_path`` with the token read from standard input."""
    from ladder.web.seat import Table, addresses, loopback_listener, serve_table, unix_listener  # for people only

    table = Table()
    where = f"unix:{unix_path}" if unix_path is not None else f"127.0.0.1:{port}"
    try:
        if unix_path is not None:
            token = sys.stdin.readline().strip()
            if not token:
                raise click.UsageError("--serve-unix reads the seat's token from standard input: none came")
            table.add(people[0], token)
            listener = unix_listener(unix_path)
        else:
            for person in people:
                table.add(person)
            listener = loopback_listener(port)
    except OSError as exc:
        raise click.ClickException(f"cannot serve the page on {where}: {exc.strerror or exc}") from None

    async def run() -> list[GameRecord]:
        async with trio.open_nursery() as nursery:
            await nursery.start(serve_table, table, listener)
            if unix_path is not None:
                click.echo(f"{people[0].info.name}: the seat is served on {where}", err=True)
            for person, address in addresses(table, listener) if unix_path is None else ():
                click.echo(f"{person.info.name}: your seat is at {address}", err=True)
                if not no_browser and not await trio.to_thread.run_sync(webbrowser.open, address):
                    click.echo("(no browser opened: open the address above)", err=True)
            try:
                records = await play_each()
            finally:
                for person in people:
                    person.close("the referee has ended")
            await trio.sleep(PAGE_GOODBYE)  # the pages hear the end before the server stops
            nursery.cancel_scope.cancel()
        return records

    try:
        with listener:
            return trio.run(run)
    finally:
        if unix_path is not None:
            unix_path.unlink(missing_ok=True)


def _ready_to_play(path: str, spec: BotSpec, game_id: str, transport: str, startup_timeout: float, sandboxed: bool):
    """Stop the command before any game when the bot at ``path`` does not start or does not play ``game_id``,
    with the bot's own words (the end of its stderr)."""
    info, fault, output = trio.run(
        partial(probe_hello, spec, transport=transport, startup_timeout=startup_timeout, sandboxed=sandboxed)
    )
    if fault is not None:
        problem = f"{fault.kind}: {fault.message}"
    elif info is not None and game_id not in info.games:
        problem = f"it does not play {game_id} (it lists {list(info.games)})"
    else:
        return
    tail = "\n".join(output["stderr"].strip().splitlines()[-15:])
    raise click.ClickException(f"bot {path}: {problem}" + (f"\n{tail}" if tail else ""))


def match_from_spec(
    data: object, pool: BotPool | None = None, known: KnownBots | None = None
) -> Callable[[], Awaitable[GameRecord]]:
    """The game the ``run-match`` spec ``data`` (parsed JSON, :class:`referee.matchspec.MatchSpec`) describes,
    ready to play (with bots from ``pool`` when given, resolved by ``known`` when given).

    Raises:
        SpecError: the spec is malformed, names an unknown game or option, a bot that is not there, or asks for
            a sandbox that cannot work here.
    """
    spec = MatchSpec.from_json(data)
    try:
        game = make_game(spec.game, spec.options)
        bots = [(known.resolve if known else resolve_bot)(path) for path in spec.bots]
        sandboxed = resolve_mode(spec.sandbox)
        limits = limits_from_json(spec.limits)
        entrants = [Entrant.from_json(entrant) for entrant in spec.entrants] if spec.entrants is not None else None
        if entrants is not None and len(entrants) != len(bots):
            raise ValueError(f"{len(bots)} bots but {len(entrants)} entrants")
    except (KeyError, TypeError) as exc:
        raise SpecError(f"bad match spec: {exc!r}") from None
    except (SandboxUnavailable, UnknownGameError, InvalidOptionError, ManifestError, ValueError) as exc:
        raise SpecError(str(exc)) from None
    return partial(
        run_game,
        game,
        bots,
        match_id=spec.match_id,
        seed=spec.seed,
        seed_public=not spec.seed_secret,
        clock=spec.clock,
        replay_path=Path(spec.replay) if spec.replay else None,
        overwrite_replay=True,  # the ladder names its replays, and plays a match again after an interruption
        transport=spec.transport,
        startup_timeout=spec.startup_timeout,
        sandboxed=sandboxed,
        limits=limits,
        pause_off_turn=spec.pause_off_turn,
        recorded_paths=spec.recorded_paths,
        pool=pool,
        unit=spec.unit,
        open_units=list(spec.open_units),
        entrants=entrants,
    )


@main.command("run-match", context_settings=CONTEXT)
@click.argument("spec_path", type=click.Path(exists=True, dir_okay=False))
def run_match(spec_path: str) -> None:
    """Play one match described by a JSON spec and print its result as one JSON line (for the ladder).

    The spec holds: game, bots (paths), seed, seed_secret (true: the replay shows only the seed's commitment until
    the match is over), and optionally match_id, options, clock (BANK+INC/CAP), replay (path), unit (the
    duplicate unit it belongs to), open_units (units still being played elsewhere: a worker's kept bot processes
    that played them sit this match out), entrants (one {name, version, games} per seat: who each bot must say
    it is in its Hello), transport, startup_timeout, sandbox (on, auto or off; default on), limits (the sandbox's
    limits that differ from the defaults, e.g. {"cpu_seconds": 60}), pause_off_turn (true or false; default:
    serve-matches's --pause-off-turn, else false) and
    recorded_paths (the bots' paths to write in the replay, when the bots run from a copy). Any other key, a
    missing one of the first four, or a value of the wrong type is refused.

    Example: referee run-match match.json
    """
    try:
        work = match_from_spec(json.loads(Path(spec_path).read_text()))
    except (SpecError, json.JSONDecodeError) as exc:
        raise click.UsageError(f"{spec_path}: {exc}") from None
    record = trio.run(_unless_orphaned, work)
    click.echo(json.dumps(_record_json(record)))


@main.command("serve-matches", context_settings=CONTEXT)
@sandbox_option("on")
@click.option("--limits", "limits_text", default="{}", help="The sandbox's limits that differ, as JSON.")
@click.option("--pause-off-turn", is_flag=True,
              help="Stop each bot's processes while it is not its move (in matches whose spec does not say).")
@click.option("--max-games", default=50, show_default=True, type=click.IntRange(1), help="Games per bot process.")
@click.option("--cores", "cores_text", help="Play on these cores only, bots included (e.g. 0-3,6).")
def serve_matches(sandbox_mode: str, limits_text: str, pause_off_turn: bool, max_games: int,
                  cores_text: str | None) -> None:
    """Play the matches of the run-match specs read from standard input, one JSON line each, printing one result
    line each (a match worker of the ladder). Bot processes are kept between matches and reused (never in both
    halves of a duplicate unit; see referee/runtime/seating.py); the worker ends at the end of its input.

    Example: echo '{"game": "tapa", "bots": ["a.py", "b.py"], "seed": "1", "seed_secret": false}' | referee
    serve-matches --sandbox off
    """
    try:
        limits = limits_from_json(json.loads(limits_text))
        options = SeatOptions(sandboxed=resolve_mode(sandbox_mode), limits=limits, pause_off_turn=pause_off_turn)
        if cores_text is not None:
            pin(parse_cores(cores_text))
    except (SandboxUnavailable, ValueError) as exc:
        raise click.UsageError(str(exc)) from None

    async def serve() -> None:
        source = trio.wrap_file(sys.stdin)
        async with trio.open_nursery() as nursery:
            pool, known = BotPool(nursery, options, max_games), KnownBots()
            while line := await source.readline():
                try:
                    record = await match_from_spec(json.loads(line), pool, known)()
                    answer = _record_json(record)
                except (SpecError, json.JSONDecodeError) as exc:
                    answer = {"error": str(exc)}
                answer["bot_starts"] = pool.starts  # so far, for benchmarks
                print(json.dumps(answer), flush=True)
            pool.close()

    trio.run(_unless_orphaned, serve)


async def _unless_orphaned(work):
    """Run ``work()`` but give up (stopping every bot on the way out) if our parent process dies: a killed ladder
    leaves no referee behind."""
    result = []

    async def run() -> None:
        result.append(await work())
        nursery.cancel_scope.cancel()

    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run)
            nursery.start_soon(exit_when_orphaned)
    except* Orphaned:
        raise SystemExit(3) from None
    return result[0]


@main.command(context_settings=CONTEXT)
@click.argument("bot")
@click.option("--startup-timeout", default=STARTUP_TIMEOUT, show_default=True, type=float, help="Seconds to Hello.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@sandbox_option("auto")
@build_timeout_option()
def hello(bot: str, startup_timeout: float, as_json: bool, sandbox_mode: str, build_timeout: float) -> None:
    """Start BOT, print what it answers to Hello, and stop it (exit 1 if it does not answer).

    Example: referee hello bots/python/random_bot.py
    """
    sandboxed = sandboxed_by(sandbox_mode, quiet=as_json)
    spec = _built_bot(bot, sandboxed, build_timeout, as_json)
    info, fault, output = trio.run(lambda: probe_hello(spec, startup_timeout=startup_timeout, sandboxed=sandboxed))
    if as_json:
        click.echo(json.dumps({"info": info.__dict__ if info else None, "fault": fault.to_json() if fault else None}))
    elif info is not None:
        click.echo(f"{info.name} {info.version} by {info.author or '?'} ({info.language or '?'}): {', '.join(info.games)}")
    if fault is not None:
        raise click.ClickException(f"{fault.kind}: {fault.message}\n{output['stderr'][-2000:]}".rstrip())


@main.command("check-bot", context_settings=CONTEXT)
@click.argument("bot")
@click.option("--startup-timeout", default=STARTUP_TIMEOUT, show_default=True, type=float, help="Seconds to Hello.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@sandbox_option("auto")
@build_timeout_option()
def check_bot_command(bot: str, startup_timeout: float, as_json: bool, sandbox_mode: str, build_timeout: float) -> None:
    """Run BOT through a battery of checks and print a report; exit 0 only if everything passed.

    Handshake and its timing, claimed games, the hardest requests of each game (most legal actions, a Gjul Bara
    ladder stage and remainder), little time left on the clock, Notify, and a full game of each claimed game
    against the random bot.

    Example: referee check-bot bots/python/random_bot.py
    """
    try:
        spec = resolve_bot(bot)
    except ManifestError as exc:
        raise click.UsageError(str(exc)) from None
    sandboxed = sandboxed_by(sandbox_mode, quiet=as_json)
    report = trio.run(_unless_orphaned, partial(check_bot, spec, startup_timeout, sandboxed,
                                                build_timeout=build_timeout, echo=build_echo(as_json)))
    failed = [c for c in report.checks if not c.ok]
    if as_json:
        click.echo(json.dumps(report.to_json()))
    else:
        for check in report.checks:
            click.echo(check.line())
        click.echo(f"{len(report.checks) - len(failed)} passed, {len(failed)} failed")
    if failed:
        raise click.ClickException(f"{len(failed)} check(s) failed")


def _record_json(record: GameRecord) -> dict:
    return {
        "match_id": record.match_id,
        "game": record.game,
        "seed": record.seed,
        "bots": list(record.bots),
        "termination": record.outcome.termination,
        "points": list(record.outcome.points),
        "games": games_json(record.outcome),
        "faults": [f.to_json() for f in record.faults],
        "decisions": record.decisions,
        "replay": str(record.replay_path),
    }


def _summary(records: list[GameRecord], labels: list[str]) -> str:
    wins: Counter[str] = Counter()
    points: Counter[str] = Counter()
    faults: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    draws = 0
    for record in records:
        for seat, name in enumerate(record.bots):
            points[name] += record.outcome.points[seat]
        places = record.outcome.places
        if places:  # card games: the first out win, the last (the durak) lose
            best, worst = min(places), max(places)
            draws += best == worst
            for seat, place in enumerate(places):
                if best != worst and place in (best, worst):
                    (wins if place == best else lost)[record.bots[seat]] += 1
        elif len(record.bots) == 1:  # a patience: a win is a win against the cards
            wins[record.bots[0]] += record.outcome.termination == GapsTermination.WIN
        elif record.outcome.winner is None:
            draws += 1
        else:
            wins[record.bots[record.outcome.winner]] += 1
        for fault in record.faults:
            faults[record.bots[fault.seat]] += 1
    names = sorted({name for record in records for name in record.bots})
    unit = "matches" if any(record.outcome.games for record in records) else "games"
    solo = all(len(record.bots) == 1 for record in records)
    lines = [f"summary of {len(records)} {unit}" + ("" if solo else f" ({draws} drawn)") + ":"]
    for name in names:
        durak = f"  durak {lost[name]:>4}" if lost else ""
        lines.append(f"  {name:<20} wins {wins[name]:>4}{durak}  points {points[name]:>4}  faults {faults[name]:>3}")
    return "\n".join(lines)


@main.command("new-bot", context_settings=CONTEXT)
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--language", required=True, type=click.Choice(LANGUAGES), help="The starter to begin from.")
@click.option("--game", "games", multiple=True, metavar="GAME",
              help=f"A game it plays (repeatable; default every game: {', '.join(shipped_games())}, and those "
                   "of installed packages).")
@click.option("--author", default=lambda: getpass.getuser(), show_default="your user name", help="Its author.")
def new_bot_command(folder: Path, language: str, games: tuple[str, ...], author: str) -> None:
    """Write a new bot in FOLDER (its name is the bot's) from the starter of a language: a manifest, the kit, a bot
    that plays a random legal action, and a README with the next commands. It passes check-bot as written.

    Example: referee new-bot mybot --language rust --game tapa
    """
    try:
        made = new_bot(folder, language, list(games), author)
    except NewBotError as exc:
        raise click.UsageError(str(exc)) from None
    claimed = ", ".join(sorted(set(games))) or "every game"
    click.echo(f"wrote {made}/: {made.name}, a {language} bot for {claimed}; write your decision in "
               f"{made / STARTERS[language].decision}. Next:")
    click.echo(f"  referee check-bot {folder}\n  referee play {(sorted(games) or ['tapa'])[0]} {folder} {folder}\n"
               f"  ladder submit {folder}")


@main.command("verify", context_settings=CONTEXT)
@click.argument("replays", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
def verify_command(replays: tuple[str, ...]) -> None:
    """Re-run each replay through the engine; exit 1 if any step or result differs.

    Example: referee verify replays/tapa-s1-001.jsonl
    """
    failed = 0
    for path in replays:
        problems = verify(read_replay(path))
        if problems:
            failed += 1
            click.echo(f"FAIL {path}", err=True)
            for problem in problems:
                click.echo(f"  {problem}", err=True)
        else:
            click.echo(f"ok   {path}")
    if failed:
        raise click.ClickException(f"{failed} of {len(replays)} replays do not verify")


@main.command(context_settings=CONTEXT)
@click.argument("replay_path", type=click.Path(exists=True, dir_okay=False))
@click.option("--as-seat", type=int, default=None, help="Show what this seat saw (default: the spectator's view).")
def show(replay_path: str, as_seat: int | None) -> None:
    """Print a replay move by move with an ASCII board (or the card table).

    Example: referee show replays/tapa-s1-001.jsonl
    """
    try:
        pages, problems = replay_pages(read_replay(replay_path), as_seat)
    except ValueError as exc:
        if as_seat is not None and "seats" in str(exc):
            raise click.BadParameter(str(exc), param_hint="--as-seat") from None
        raise click.ClickException(str(exc)) from None
    click.echo("\n\n".join(page.text for page in pages))
    for problem in problems:
        click.echo(f"warning: {problem}", err=True)


@main.command("analyse", context_settings=CONTEXT)
@click.argument("replay_path", type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", "seats", type=int, multiple=True, help="Judge this seat's decisions only (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON.")
def analyse_command(replay_path: str, seats: tuple[int, ...], as_json: bool) -> None:
    """Judge every decision of a Tabla-family or Durak replay: the play made against the best a shipped bot's search
    finds, the error in hundredths of a point, doubtful and blunders marked, and each seat's error rate.

    Example: referee analyse replays/tapa-s1-001.jsonl
    """
    try:
        analysis = analyse(read_replay(replay_path), seats=set(seats) if seats else None)
    except AnalysisError as exc:
        raise click.ClickException(f"{replay_path}: {exc}") from None
    click.echo(json.dumps(analysis.to_json()) if as_json else analysis_text(analysis))


if __name__ == "__main__":
    main()
