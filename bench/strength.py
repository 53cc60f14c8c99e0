"""How strong one bot is against another: duplicate games in-process through the referee's real game loop.

Usage: python bench/strength.py BOT OTHER [--game tabla] [--pairs 1000] [--start 0] [--jobs 1]

BOT and OTHER name modules of ``bots/python`` with a ``choose(request)`` (``td_bot``, ``expectimax_bot``,
``heuristic_bot``, ``random_bot``, …), or a seat of the benchmark's own, ``bench/NAME_player.py``: ``gnubg``, GNU
Backgammon's 0-ply evaluation in Tabla (the ``bench`` extra installs it), ``points``, ``td_bot`` ignoring a match's
score. ``NAME@FOLDER`` is a learned bot (``td_bot``, ``td1_bot``, ``td2_bot``) reading its networks from FOLDER
instead of ``bots/python/weights``, so that two networks can meet (``td_bot@candidates td_bot@bots/python/weights``).
Every pair of games shares one seed, so both bots meet the same dice: BOT
takes seat 0 in the first game and seat 1 in the second. Prints BOT's share of the games won (draws count half)
with its 95% interval (normal approximation over the pairs, whose two games are not independent), the points a
game (in ``tabla-match``: the matches won, the points a match and the single games the matches were made of), the
share of single games decided by two points or more (mars, Tapa's mother: what the match equity table of
``bots/python/match_equity.py`` needs, from a bot against itself), and the wall time per decision of each bot (the
clock counts each bot's own ``choose`` calls). ``--jobs N`` splits the pairs into N runs of consecutive seeds, one
process each, and adds them up: the same games and the same figures as one process (timings aside). Each run
says on stderr every ``PROGRESS`` pairs how far it has come and its score so far.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib
import math
import sys
import time
from pathlib import Path

import trio

from referee.games import make_game
from referee.runtime import Clock, LocalPlayer, play_game

UNLIMITED = Clock(bank=1e9, increment=0, cap=1e9)
PROGRESS = 50
"""Pairs between a run's progress lines."""


class Timed:
    """A bot's ``choose`` that adds up the time it takes."""

    def __init__(self, choose) -> None:
        self._choose = choose
        self.seconds = 0.0
        self.calls = 0

    def __call__(self, request):
        start = time.perf_counter()
        try:
            return self._choose(request)
        finally:
            self.seconds += time.perf_counter() - start
            self.calls += 1

    @property
    def per_call_ms(self) -> float:
        return 1000 * self.seconds / max(1, self.calls)


async def duplicate(game_id: str, bot, other, pairs: int, start: int) -> tuple[list[float], list[int], int]:
    """BOT's score (1 won, ½ drawn, 0 lost) summed per pair, BOT's points minus OTHER's per game (a match's: per
    match), and the single games played (a match counts the games within it)."""
    game = make_game(game_id)
    scores, margins, played = [], [], 0
    for pair in range(start, start + pairs):
        score = 0.0
        for seat in (0, 1):
            players = [LocalPlayer(0, other), LocalPlayer(1, other)]
            players[seat] = LocalPlayer(seat, bot)
            record = await play_game(game, players, match_id=f"strength-{pair}-{seat}", seed=pair, clock=UNLIMITED)
            if record.faults:
                raise SystemExit(f"pair {pair}: a fault: {record.faults[0]}")
            winner = record.outcome.winner
            score += 0.5 if winner is None else float(winner == seat)
            margins.append(record.outcome.points[seat] - record.outcome.points[1 - seat])
            played += max(1, len(record.outcome.games))
        scores.append(score)
        if len(scores) % PROGRESS == 0 and len(scores) < pairs:
            print(f"seeds {start}-{start + pairs - 1}: {len(scores)} pairs played, {sum(scores) / len(scores) / 2:.1%} "
                  "won", file=sys.stderr, flush=True)
    return scores, margins, played


def _chunks(start: int, pairs: int, jobs: int) -> list[tuple[int, int]]:
    """``pairs`` consecutive seeds from ``start`` cut into at most ``jobs`` runs: (first seed, pairs) each."""
    size, extra = divmod(pairs, jobs)
    runs, first = [], start
    for job in range(jobs):
        count = size + (job < extra)
        if count:
            runs.append((first, count))
        first += count
    return runs


def _run(game_id: str, names: tuple[str, str], start: int, pairs: int) -> tuple[list[float], list[int], int, list]:
    """One process's share of the contest: the pairs' scores, the games' margins, the single games played and each
    bot's (seconds, calls)."""
    bot, other = (Timed(_module(name).choose) for name in names)
    scores, margins, played = trio.run(duplicate, game_id, bot, other, pairs, start)
    return scores, margins, played, [(bot.seconds, bot.calls), (other.seconds, other.calls)]


LEARNED = ("td_bot", "td1_bot", "td2_bot")
"""The learned bots, each of which may read its networks from a folder of its own (``NAME@FOLDER``)."""


def _module(name: str):
    """The bot module ``name``: the benchmark's own seat ``bench/<name>_player.py`` if there is one, else a module
    of bots/python; ``NAME@FOLDER`` a learned bot reading its networks from FOLDER."""
    name, _, folder = name.partition("@")
    if folder:
        return _learned(name, Path(folder))
    here = Path(__file__).resolve().parent
    if (here / f"{name}_player.py").is_file():
        sys.path.insert(0, str(here))
        return importlib.import_module(f"{name}_player")
    return importlib.import_module(f"bots.python.{name}")


def _learned(name: str, folder: Path):
    """A copy of the learned bot ``name``, and of the learned bots it plays by, of its own, whose networks are
    FOLDER's: the copies are imported afresh (their caches their own) and the modules of ``bots.python`` are then
    put back as they were."""
    if name not in LEARNED:
        raise ImportError(f"only a learned bot ({', '.join(LEARNED)}) reads networks from a folder, not {name}")
    if not folder.is_dir():
        raise ImportError(f"{folder}: no such folder of networks")
    package = importlib.import_module("bots.python")
    keys = [f"bots.python.{learned}" for learned in LEARNED]
    kept = {key: sys.modules.pop(key) for key in keys if key in sys.modules}
    try:
        importlib.import_module("bots.python.td_bot").WEIGHTS = folder.resolve()
        return importlib.import_module(f"bots.python.{name}")
    finally:
        for key in keys:
            sys.modules.pop(key, None)
            if key in kept:
                sys.modules[key] = kept[key]
                setattr(package, key.rpartition(".")[2], kept[key])
            elif hasattr(package, key.rpartition(".")[2]):
                delattr(package, key.rpartition(".")[2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bot")
    parser.add_argument("other")
    parser.add_argument("--game", default="tabla")
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--start", type=int, default=0, help="the first pair's seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes to share the pairs among")
    args = parser.parse_args()
    if args.jobs < 1 or args.pairs < 1:
        parser.error("--jobs and --pairs must be at least 1")
    names = (args.bot, args.other)
    try:
        for name in names:
            _module(name).choose
    except (ImportError, AttributeError) as error:
        parser.error(f"not a bot module of bots/python with choose(), nor a seat of bench/: {error}")
    runs = _chunks(args.start, args.pairs, args.jobs)
    with concurrent.futures.ProcessPoolExecutor(len(runs)) as pool:
        results = list(pool.map(_run, *zip(*((args.game, names, first, count) for first, count in runs))))
    scores = [score for result in results for score in result[0]]
    margins = [margin for result in results for margin in result[1]]
    bot, other = (Timed(None) for _ in names)
    played = sum(result[2] for result in results)
    for *_, clocks in results:
        for total, (seconds, calls) in zip((bot, other), clocks):
            total.seconds += seconds
            total.calls += calls
    games = 2 * len(scores)
    share = sum(scores) / games
    spread = math.sqrt(sum((s / 2 - share) ** 2 for s in scores) / max(1, len(scores) - 1))
    half = 1.96 * spread / math.sqrt(len(scores))
    match = args.game == "tabla-match"
    two = "" if match else f", {sum(abs(m) >= 2 for m in margins) / games:.1%} by two points"
    counted, unit = (f"{games} matches of {played} games", "match") if match else (f"{games} games", "game")
    print(f"{args.game}: {args.bot} against {args.other}, {counted} ({len(scores)} duplicate pairs): "
          f"{100 * share:.1f}% ± {100 * half:.1f}% won, {sum(margins) / games:+.2f} points a {unit}{two}; "
          f"{bot.per_call_ms:.2f} / {other.per_call_ms:.2f} ms a decision")


if __name__ == "__main__":
    main()
