"""Replay logs: JSON Lines, one header, one line per chance step and per decision, one result.

Format ``kafana-replay/2``::

    {"type": "header", "format": "kafana-replay/2", "match_id": …, "game": "tapa", "options": {…},
     "commitment": "9f…", "seed": "1/0", "seats": [{"seat": 0, "name": …, "version": …, "hash": …}, …],
     "clock": {…}, "referee_version": …}
    {"type": "chance", "notation": "opening 5-2"}
    {"type": "action", "seat": 0, "id": 3, "notation": "24/18 18/13", "ms": 12.5, "comment": "…"}
    {"type": "result", "termination": "mars", "points": [2, 0], "faults": [], "output": [{…}, {…}], "seed": "1/0"}

The header's ``commitment`` is the hash of the chance seed (:func:`referee.chance.commitment`); the header holds
the seed itself only when it is public (local play); a secret seed (a ladder's) is revealed in the result line.

The reader is lenient: it collects every problem instead of stopping at the first. :func:`verify` re-runs the
log through the engine, checks the seed against the commitment, draws every chance step again from the seed,
and lists every mismatch.
"""

from __future__ import annotations

import gzip
import json
import zlib
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii
from pathlib import Path
from typing import Any

from referee.chance import ChanceStream, commitment
from referee.files import open_temporary, publish, write_atomically
from referee.games import (
    CHANCE,
    LIMIT,
    TERMINAL,
    Game,
    IllegalActionError,
    InvalidActionError,
    Outcome,
    State,
    make_game,
)

FORMAT = "kafana-replay/2"
UNFINISHED = "no result line (the game did not finish writing)"
"""The problem of a replay whose game is still being played (or whose referee was killed)."""


def games_json(outcome: Outcome) -> list[dict[str, Any]]:
    """The per-game results of a match outcome as written in the result line (empty for a single game)."""
    return [
        {"game": game_id, "termination": game.termination, "points": list(game.points)}
        for game_id, game in outcome.games
    ]


def _json_text(text: str) -> str:
    """``text`` as a JSON string, as :func:`json.dumps` writes it."""
    return encode_basestring_ascii(text)


class ReplayWriter:
    """Writes one replay line by line into a hidden temporary file beside ``path``, which becomes ``path`` when the
    result is written: a replay file is always whole. The lines reach the file when :meth:`flush` is called (the
    driver calls it before it waits for a bot, so that a spectator sees the game as far as it is played and a
    killed referee leaves a readable prefix; one write for a decision and the chance steps before it). Without
    ``overwrite`` an existing replay is never replaced; the new one takes the next free name (``path`` then says
    which)."""

    def __init__(self, path: Path, overwrite: bool = False) -> None:
        self.path = path
        self.overwrite = overwrite
        path.parent.mkdir(parents=True, exist_ok=True)
        self._temporary, self._file = open_temporary(path)

    def _write(self, record: dict[str, Any]) -> None:
        self._line(json.dumps(record, separators=(",", ":")))

    def _line(self, text: str) -> None:
        self._file.write(text + "\n")

    def flush(self) -> None:
        """Write the lines so far to the file."""
        self._file.flush()

    def header(self, **fields: Any) -> None:
        """Write the header line."""
        self._write({"type": "header", "format": FORMAT, **fields})

    def chance(self, notation: str) -> None:
        """Write a chance step (the line :meth:`_write` would write, put together directly: one per roll)."""
        self._line(f'{{"type":"chance","notation":{_json_text(notation)}}}')

    def action(self, seat: int, action_id: int, notation: str, ms: float, comment: str = "") -> None:
        """Write a decision (the line :meth:`_write` would write, put together directly: one per decision)."""
        said = f',"comment":{_json_text(comment)}' if comment else ""
        self._line(
            f'{{"type":"action","seat":{int(seat)},"id":{int(action_id)},"notation":{_json_text(notation)},'
            f'"ms":{float(round(ms, 3))!r}{said}}}'
        )

    def result(self, **fields: Any) -> None:
        """Write the result line, close the file and give it its name."""
        self._write({"type": "result", **fields})
        self._file.close()
        self.path = publish(self._temporary, self.path, self.overwrite)

    def close(self) -> None:
        """Close the file (idempotent); a replay without its result is not kept."""
        if not self._file.closed:
            self._file.close()
            self._temporary.unlink(missing_ok=True)


@dataclass
class Replay:
    """A replay as read: header, the step lines in order, the result, and any problems met while reading."""

    header: dict[str, Any]
    steps: list[dict[str, Any]]
    result: dict[str, Any] | None
    errors: list[str] = field(default_factory=list)

    def game(self) -> Game:
        """The game of the header, with its options."""
        return make_game(self.header["game"], self.header.get("options") or {})

    @property
    def seed(self) -> str | None:
        """The chance seed: from the result line (revealed at the end), else the header's public one."""
        seed = (self.result or {}).get("seed", self.header.get("seed"))
        return seed if isinstance(seed, str) else None


def seed_problems(replay: Replay) -> list[str]:
    """What is wrong with the replay's seed: missing, or not the one its header committed to."""
    if replay.seed is None:
        return ["no chance seed (neither in the header nor revealed in the result)"]
    if commitment(replay.seed) != replay.header.get("commitment"):
        return [f"the seed {replay.seed!r} does not match the header's commitment"]
    return []


COMPRESSED = b"\x1f\x8b"
"""How a gzip-compressed replay file begins (a ladder stores its replays so; ``gzip -d`` makes them text again)."""


def _decoded(raw: bytes) -> tuple[bytes, list[str]]:
    """A replay file's bytes as the referee wrote them, and what is wrong with its compression if anything: a
    compressed file cut short gives what it holds."""
    if not raw.startswith(COMPRESSED):
        return raw, []
    stream = zlib.decompressobj(wbits=31)
    try:
        text = stream.decompress(raw)
    except zlib.error as exc:
        return b"", [f"the compressed file cannot be read ({exc})"]
    return text, [] if stream.eof else ["the compressed file is cut short"]


def replay_bytes(path: str | Path) -> bytes:
    """The text of a replay file as the referee wrote it, whether it is stored plain or compressed."""
    return _decoded(Path(path).read_bytes())[0]


def compress_replay(path: Path, text: bytes) -> Path:
    """Store the replay ``text`` of the file at ``path`` compressed, as ``PATH.gz`` (written whole or not at all;
    byte for byte the same for the same text), and remove ``path``; return the new path."""
    target = path.with_name(path.name + ".gz")
    write_atomically(target, gzip.compress(text, mtime=0))
    path.unlink(missing_ok=True)
    return target


def read_replay(path: str | Path) -> Replay:
    """Read a replay file (plain text, or compressed by :func:`compress_replay`), collecting problems in
    ``errors`` rather than raising (except for a missing file)."""
    header: dict[str, Any] = {}
    steps: list[dict[str, Any]] = []
    result = None
    text, errors = _decoded(Path(path).read_bytes())
    for number, line in enumerate(text.decode("utf-8", errors="replace").split("\n"), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            errors.append(f"line {number}: not JSON ({exc.msg})")
            continue
        kind = record.get("type") if isinstance(record, dict) else None
        if kind == "header":
            if header:
                errors.append(f"line {number}: a second header")
            header = record
        elif kind in ("chance", "action"):
            steps.append(record)
        elif kind == "result":
            result = record
        else:
            errors.append(f"line {number}: unknown record type {kind!r}")
    if not header:
        errors.append("no header line")
    elif header.get("format") != FORMAT:
        errors.append(f"format {header.get('format')!r}, expected {FORMAT!r}")
    if result is None:
        errors.append(UNFINISHED)
    return Replay(header, steps, result, errors)


def replay_states(replay: Replay, stream: ChanceStream | None = None) -> tuple[list[State], list[str]]:
    """Re-run the replay: the state before each step and after the last, plus every mismatch found. With the
    seed's ``stream``, every chance step must also be the one the stream draws."""
    problems = list(replay.errors)
    try:
        game = replay.game()
    except (KeyError, ValueError) as exc:
        return [], problems + [f"header: {exc}"]
    state = game.new_state()
    states = [state.clone()]
    for index, step in enumerate(replay.steps, 1):
        where = f"step {index} ({step.get('notation')!r})"
        player = state.current_player
        try:
            if step["type"] == "chance":
                if player != CHANCE:
                    problems.append(f"{where}: a chance step where seat {player} should act")
                    break
                if not isinstance(step.get("notation"), str):
                    problems.append(f"{where}: a chance step's notation is text")
                    break
                action = game.parse_action(step["notation"], state)
                if action not in [outcome for outcome, _ in state.chance_outcomes()]:
                    problems.append(f"{where}: not a possible chance outcome here")
                    break
                if stream is not None and (drawn := state.sample_chance(stream)) != action:
                    problems.append(f"{where}: the seed draws {drawn.notation()!r} here")
                    break
            else:
                if player != step.get("seat"):
                    problems.append(f"{where}: seat {step.get('seat')} acted but seat {player} was to act")
                    break
                legal = state.legal_actions()
                action_id = step.get("id")
                if not isinstance(action_id, int) or not 0 <= action_id < len(legal):
                    problems.append(f"{where}: id {action_id} is not among {len(legal)} legal actions")
                    break
                action = legal[action_id]
                if action.notation() != step.get("notation"):
                    problems.append(f"{where}: id {action_id} is {action.notation()!r} here, not {step.get('notation')!r}")
                    break
            state.apply(action)
        except (KeyError, InvalidActionError, IllegalActionError) as exc:
            problems.append(f"{where}: {exc}")
            break
        states.append(state.clone())
    return states, problems


def _limit_problems(replay: Replay, states: list[State]) -> list[str]:
    """What is wrong with a replay whose result says the referee ended it at its decision limit: the last game must
    have had exactly that many decisions, and the result must be the game's draw."""
    game = replay.game()
    final = states[-1]
    decisions = sum(1 for step, before in zip(replay.steps, states)
                    if step.get("type") == "action" and before.game_number == final.game_number)
    problems = []
    if decisions != game.decision_limit:
        problems.append(f"the result says limit, but the last game had {decisions} decisions, not "
                        f"{game.decision_limit}")
    expected = game.limit_outcome()
    if list(expected.points) != (replay.result or {}).get("points"):
        problems.append(f"limit points {list(expected.points)} != recorded {(replay.result or {}).get('points')}")
    return problems


def verify(replay: Replay) -> list[str]:
    """Check the seed against the commitment, re-run the replay through the engine drawing every chance step from
    the seed; return every mismatch (empty when the replay is exact)."""
    seed_wrong = seed_problems(replay)
    states, problems = replay_states(replay, None if seed_wrong else ChanceStream(replay.seed or ""))
    problems = seed_wrong + problems
    if problems or not states:
        return problems
    final = states[-1]
    result = replay.result or {}
    faults = result.get("faults") or []
    if faults:
        if final.current_player == TERMINAL:
            problems.append("the result records a fault, but the game had already ended")
        expected = replay.game().forfeit([f["seat"] for f in faults]) if final.current_player != TERMINAL else None
        if expected is not None and list(expected.points) != result.get("points"):
            problems.append(f"forfeit points {list(expected.points)} != recorded {result.get('points')}")
        return problems
    if final.current_player != TERMINAL and result.get("termination") == LIMIT:
        return problems + _limit_problems(replay, states)
    if final.current_player != TERMINAL:
        problems.append("the log ends before the game is over")
        return problems
    outcome = final.outcome()
    recorded_games = result.get("games") or []
    engine_games = games_json(outcome)
    if engine_games != recorded_games:
        problems.append(f"engine's games {engine_games} != recorded {recorded_games}")
    if outcome.termination != result.get("termination") or list(outcome.points) != result.get("points"):
        problems.append(
            f"engine says {outcome.termination} {list(outcome.points)}, "
            f"replay says {result.get('termination')} {result.get('points')}"
        )
    return problems
