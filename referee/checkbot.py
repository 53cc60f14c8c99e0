"""``referee check-bot``: run a bot through a battery of checks and say exactly what is wrong with it.

The battery: the build (when the manifest names one), the handshake (answered in time, and how fast), the games
it claims (known ids only), one full game of each claimed game against the random bot, the hardest requests those
games produce (found by scanning seeded random games: the decision with the most legal actions, a Gjul Bara ladder
stage and a remainder, a 6-seat Durak throw-in poll and a transfer), a request with little time left on the clock,
and notifications.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import trio

from referee import wire
from referee.games import GAMES, Game, State, make_game
from referee.games.registry import registration_of
from referee.playouts import random_decisions
from referee.runtime import (
    BotError,
    BotSpec,
    BuildError,
    Clock,
    ProcessPlayer,
    build_note,
    default_store,
    is_prepared,
    prepare_bot,
    resolve_bot,
    run_game,
)
from referee.runtime.bridge import StreamClosed, StreamTimeout
from referee.runtime.build import BUILD_TIMEOUT, Echo, needs_build
from referee.runtime.process import STARTUP_TIMEOUT, bot_address

RANDOM_BOT = Path(__file__).resolve().parents[1] / "bots" / "python" / "random_bot.py"
SHORT_CLOCK_MS = 300
"""The move limit of the little-time-left request."""
SCAN_GAMES = 40
"""Seeded random games scanned per game id for the hardest requests."""


@dataclass(frozen=True)
class Check:
    """One check: its name, whether it passed, and what was seen."""

    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        """``PASS name: detail`` or ``FAIL …``."""
        return f"{'PASS' if self.ok else 'FAIL'} {self.name}: {self.detail}"


def decision_request(
    game: Game, state: State, decision: int = 0, seat: int | None = None, limit_ms: int = 10_000
) -> wire.ActRequest:
    """The ActRequest of ``state``'s decision for ``seat`` (default: the seat to act), every legal action with its
    notation and detail, the move's time ``limit_ms``: what check-bot sends (tests build requests with it too)."""
    seat = state.current_player if seat is None else seat
    legal = state.legal_actions()
    clock = wire.ClockInfo(limit_ms, 0, limit_ms, limit_ms)
    view, record = state.view_and_record(seat)
    return wire.ActRequest(
        match_id=f"check-{game.id}",
        game_number=state.game_number,
        game=game.id,
        seat=seat,
        options=dict(game.options),
        decision=decision,
        view=view,
        clock=clock,
        legal_actions=wire.LegalActions(legal),
        view_record=record,
    )


def hard_requests(game_id: str, seed: int = 1) -> Iterator[tuple[str, Game, State]]:
    """Decisions worth testing a bot on: the one with the most legal actions in seeded random games, and those its
    game's registration names (a ladder stage and a remainder in Gjul Bara, a 6-seat throw-in poll and a transfer
    in Durak), each the first found in seeded random games."""
    game = make_game(game_id)
    largest: tuple[int, State | None] = (0, None)
    for state, legal in random_decisions(game, SCAN_GAMES, seed):
        if legal is not None and len(legal) > largest[0]:
            largest = (len(legal), state.clone())
    if largest[1] is not None:
        yield f"the largest request ({largest[0]} legal actions)", game, largest[1]
    for case in registration_of(game_id).check_cases:
        if case.games and game.id not in case.games:
            continue
        special = make_game(game_id, case.options)
        decisions = random_decisions(special, SCAN_GAMES, seed)
        match = next((state.clone() for state, legal in decisions if legal and case.wanted(state, legal)), None)
        if match is not None:
            yield case.label, special, match


async def _ask(player: ProcessPlayer, request: wire.ActRequest) -> tuple[bool, str]:
    limit = request.clock.move_limit_ms / 1000
    start = time.perf_counter()
    try:
        with trio.fail_after(limit + 0.25):
            answer = await player.act(request, limit)
    except trio.TooSlowError:
        return False, f"no answer within {limit:.3f}s"
    except BotError as exc:
        return False, f"{exc.kind}: {exc.message}"
    ms = (time.perf_counter() - start) * 1000
    if not 0 <= answer.action_id < len(request.legal_actions):
        return False, f"answered id {answer.action_id}; legal ids are 0..{len(request.legal_actions) - 1}"
    return True, f"answered a legal id in {ms:.0f} ms"


async def _session(spec: BotSpec, startup_timeout: float, sandboxed: bool, body) -> list[Check]:
    """Start the bot, run ``body(player)`` (which returns checks), stop the bot; a failed start is one check."""
    with tempfile.TemporaryDirectory(prefix="kafana-check-") as folder:
        address = None if sandboxed else bot_address("unix", Path(folder), 0)
        player = ProcessPlayer(0, spec, address, None, startup_timeout=startup_timeout, sandboxed=sandboxed)
        async with trio.open_nursery() as nursery:
            start = time.perf_counter()
            try:
                await nursery.start(player.run)
            except BotError as exc:
                checks = [Check("handshake", False, f"{exc.kind}: {exc.message}")]
                tail = player.output()["stderr"].strip()[-1500:]
                return checks + ([Check("stderr", False, tail)] if tail else [])
            try:
                return await body(player, time.perf_counter() - start)
            finally:
                player.close()


@dataclass
class CheckReport:
    """What the battery found: the bot's Hello (None if it never answered) and every check."""

    info: wire.BotInfo | None
    checks: list[Check]

    @property
    def passed(self) -> bool:
        """True when every check passed."""
        return all(check.ok for check in self.checks)

    def to_json(self) -> dict:
        """A JSON-ready dict (``referee check-bot --json``)."""
        return {
            "info": self.info.__dict__ if self.info else None,
            "passed": self.passed,
            "checks": [check.__dict__ for check in self.checks],
        }


async def check_bot(
    spec: BotSpec, startup_timeout: float = STARTUP_TIMEOUT, sandboxed: bool = False, store: Path | None = None,
    build_timeout: float = BUILD_TIMEOUT, echo: Echo | None = None,
) -> CheckReport:
    """Run the battery on the bot ``spec``, from its prepared copy (made in ``store``, default
    :func:`referee.runtime.default_store`, and built there, in the sandbox when ``sandboxed``, each phase within
    ``build_timeout`` seconds, its output passed to ``echo``, unless ``spec`` is one already, or a build of the same
    content and toolchain is there), as every game runs it. Each claimed game gets a fresh bot process, so a bot
    that fails in one game is reported for that game only."""
    checks: list[Check] = []
    if not is_prepared(spec) and spec.path.is_dir():
        start = time.time()
        try:
            spec = await trio.to_thread.run_sync(prepare_bot, spec.path, store or default_store(), sandboxed,
                                                 build_timeout, echo)
        except BuildError as exc:
            return CheckReport(None, [Check("build", False, str(exc))])
        if needs_build(spec):
            checks.append(Check("build", True, build_note(spec, start)))
    elif spec.build:
        checks.append(Check("build", True, f"{' '.join(spec.build)}: built when this copy was prepared"))
    games: list[str] = []
    hello: list[wire.BotInfo] = []

    async def handshake(player: ProcessPlayer, seconds: float) -> list[Check]:
        info = player.info
        hello.append(info)
        checks = [Check("handshake", True, f"{info.name} {info.version} answered Hello in {1000 * seconds:.0f} ms")]
        claimed = spec.manifest.get("name")
        if claimed and claimed != info.name:
            checks.append(Check("name", False, f"the manifest calls it {claimed!r} and its Hello {info.name!r}: a bot "
                                               "has one name, in both (a ladder refuses it)"))
        games.extend(info.games)  # the runtime refused a Hello listing an unknown game
        if not info.games:
            checks.append(Check("games", False, f"no games listed in Hello (known: {', '.join(sorted(GAMES))})"))
        else:
            checks.append(Check("games", True, ", ".join(games)))
        over = "over the Session stream" if info.session else "by a Notify call"
        try:
            await player.notify(wire.MatchOver("check", games[0] if games else "", ()), strict=True)
            checks.append(Check("notify", True, f"acknowledged a MatchOver {over}"))
        except grpc.RpcError as exc:
            allowed = exc.code() == grpc.StatusCode.UNIMPLEMENTED
            checks.append(Check("notify", allowed, "not implemented (allowed)" if allowed else exc.code().name))
        except (StreamClosed, StreamTimeout, wire.WireError) as exc:  # a session bot must answer every message
            checks.append(Check("notify", False, f"{over}: {exc}"))
        return checks

    checks += await _session(spec, startup_timeout, sandboxed, handshake)
    if not hello:
        return CheckReport(None, checks)
    for index, game_id in enumerate(games):

        async def requests(player: ProcessPlayer, _seconds: float, game_id: str = game_id, first: bool = index == 0):
            found = []
            for label, game, state in hard_requests(game_id):
                ok, detail = await _ask(player, decision_request(game, state))
                found.append(Check(f"{game_id}: {label}", ok, detail))
            if first:
                _, game, state = next(hard_requests(game_id))
                ok, detail = await _ask(player, decision_request(game, state, limit_ms=SHORT_CLOCK_MS))
                found.append(Check(f"clock: {SHORT_CLOCK_MS} ms left", ok, detail))
            return found

        checks += await _session(spec, startup_timeout, sandboxed, requests)
        with tempfile.TemporaryDirectory(prefix="kafana-check-") as folder:
            game = make_game(game_id)
            record = await run_game(
                game,
                [spec, *[resolve_bot(RANDOM_BOT)] * (game.num_seats - 1)],
                match_id=f"check-{game_id}",
                seed=1,
                clock=Clock(),
                replay_path=Path(folder) / "check.jsonl",
                startup_timeout=startup_timeout,
                sandboxed=sandboxed,
            )
        own = [f for f in record.faults if f.seat == 0]
        name = f"{game_id}: a full game against the random bot"
        if own:
            checks.append(Check(name, False, f"{own[0].kind}: {own[0].message}"))
        else:
            checks.append(Check(name, True, f"{record.decisions} decisions, {record.outcome.termination}"))
    return CheckReport(hello[0], checks)
