"""``referee analyse``: every decision with a choice judged against the best play the shipped learned bots' search
finds, marked past gnubg's thresholds, summed per seat; a blunder made by hand from the rules is marked; a replay
that cannot be judged is one line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.analysis import BLUNDER, DOUBTFUL, AnalysisError, Judged, analyse, mark
from referee.cli import main
from referee.games import CHANCE, make_game
from referee.games.engine import ACCELERATORS
from referee.replay import FORMAT, read_replay


def random_replay(path: Path, game_id: str, seed: int, decisions: int | None = None) -> Path:
    """A replay of a seeded game of uniformly random plays (in-process, no bots), cut after ``decisions`` when
    given (then without its result line, as a game still being played or a killed referee's replay)."""
    rng = random.Random(seed)
    state = make_game(game_id).new_state()
    records = [{"type": "header", "format": FORMAT, "game": game_id, "options": {},
                "seats": [{"seat": 0, "name": "alpha"}, {"seat": 1, "name": "beta"}]}]
    made = 0
    while not state.is_terminal() and (decisions is None or made < decisions):
        if state.current_player == CHANCE:
            outcome = state.sample_chance(rng)
            records.append({"type": "chance", "notation": outcome.notation()})
        else:
            legal = state.legal_actions()
            index = rng.randrange(len(legal))
            outcome = legal[index]
            records.append({"type": "action", "seat": state.current_player, "id": index,
                            "notation": outcome.notation(), "ms": 0.0})
            made += 1
        state.apply(outcome)
    if state.is_terminal():
        records.append({"type": "result", "termination": "normal", "points": list(state.outcome().points)})
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def by_index(game, state, played):
    """A judge that values the play of index i at -i/100 points: the first play is the best."""
    return Judged({index: -index / 100 for index in {0, 1, played}}, "by index")


def test_each_decision_is_judged_against_the_best_and_summed_per_seat(tmp_path):
    replay = read_replay(random_replay(tmp_path / "r.jsonl", "tapa", seed=5))
    analysis = analyse(replay, by_index)
    legal_counts = [d.plays for d in analysis.decisions]
    assert analysis.decisions and min(legal_counts) >= 2  # the forced ones are not judged
    for decision in analysis.decisions:
        step = replay.steps[decision.step - 1]
        assert (step["seat"], step["notation"]) == (decision.seat, decision.played)
        assert decision.error == pytest.approx(step["id"] / 100)
        assert replay.steps[decision.step - 2]["type"] == "chance" or decision.roll
    for summary in analysis.seats():
        mine = [d for d in analysis.decisions if d.seat == summary.seat]
        assert summary.decisions == len(mine) and summary.error == pytest.approx(sum(d.error for d in mine))
        assert summary.blunders == sum(d.error >= BLUNDER for d in mine)
        assert summary.doubtful == sum(DOUBTFUL <= d.error < BLUNDER for d in mine)
    assert [s.bot for s in analysis.seats()] == ["alpha", "beta"]
    only = analyse(replay, by_index, seats={1})
    assert [d.step for d in only.decisions] == [d.step for d in analysis.decisions if d.seat == 1]


def test_the_thresholds_are_gnubgs():
    assert (mark(0.039), mark(0.04), mark(0.079), mark(0.08), mark(2.0)) == (
        "", "doubtful", "doubtful", "blunder", "blunder")


@pytest.mark.parametrize("game_id", ["tabla", "tapa"])
def test_a_blunder_made_by_hand_is_marked(game_id):
    """The mover's last two checkers on its 1- and 2-points with 2-1 to play, the opponent's last two on its
    1-point: bearing both off wins a point; 2/1 1/off leaves one, and the opponent bears off and wins with any
    roll. The judge (td2's search with the native core, else td1's) sees the two points between them."""
    from bots.python.analysis import judge

    state = make_game(game_id).position(0, {1: 1, 2: 1}, {24: 2}, dice=(2, 1))
    plays = {play.notation(): index for index, play in enumerate(state.legal_actions())}
    assert set(plays) == {"2/off 1/off", "2/1 1/off"}, plays
    judged = judge(make_game(game_id), state, plays["2/1 1/off"])
    assert judged.search == ("td2: two rolls ahead" if ACCELERATORS is not None else "td1: one roll ahead")
    assert judged.values[plays["2/off 1/off"]] == pytest.approx(1.0)
    assert judged.values[plays["2/1 1/off"]] == pytest.approx(-1.0)
    assert mark(judged.values[plays["2/off 1/off"]] - judged.values[plays["2/1 1/off"]]) == "blunder"


@pytest.mark.parametrize("game_id", ["tapa", "gjul-bara", "tabla-match", "durak"])
def test_referee_analyse_prints_what_analyse_finds(tmp_path, game_id):
    """The command's JSON is the analysis; its text has a line a judged decision and one a seat. A game cut short
    is judged as far as it goes."""
    path = random_replay(tmp_path / "r.jsonl", game_id, seed=2, decisions=24)
    done = CliRunner().invoke(main, ["analyse", str(path), "--json"])
    assert done.exit_code == 0, done.output
    printed = json.loads(done.output)
    decisions = printed["decisions"]
    assert decisions and all(d["best_value"] >= d["played_value"] - 1e-9 for d in decisions)
    assert all(d["mark"] == mark(d["error"]) for d in decisions)
    assert printed["thresholds"] == {"doubtful": DOUBTFUL, "blunder": BLUNDER}
    text = CliRunner().invoke(main, ["analyse", str(path)])
    assert text.exit_code == 0 and len(text.output.splitlines()) == len(decisions) + 1 + len(printed["seats"])


def test_what_cannot_be_judged_is_one_line(tmp_path):
    gapa = random_replay(tmp_path / "g.jsonl", "gapa", seed=1, decisions=10)
    broken = tmp_path / "b.jsonl"
    broken.write_text('{"x": 1}\n')
    tapa = random_replay(tmp_path / "t.jsonl", "tapa", seed=1, decisions=4)
    for arguments, said in [([str(gapa)], "no analysis for gapa"), ([str(broken)], "does not re-run"),
                            ([str(tapa), "--seat", "2"], "seat 2: the game has seats 0 to 1")]:
        done = CliRunner().invoke(main, ["analyse", *arguments])
        assert done.exit_code == 1 and "Traceback" not in done.output, done.output
        assert len(done.output.strip().splitlines()) == 1 and said in done.output, done.output
    with pytest.raises(AnalysisError):
        analyse(read_replay(gapa))
