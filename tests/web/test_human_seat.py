"""A person's seat played in headless Chromium as a person plays it: ``referee play GAME human BOT…`` serves the
page, and the test clicks the board (a checker's point, then where it goes; a card; a card, then a gap) with the
mouse, and a move's button only when the clicks leave several moves open. A Tapa game and a Tabla game (from the
bar, and off) against a shipped bot, a four-seat Durak deal against three, a Gaps deal alone; each replay verifies, and every message the page received
shows the seat's own view at its own decisions and nothing else."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from referee.frames import view_json
from referee.replay import read_replay, replay_states, verify

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = str(ROOT / "bots" / "python" / "random_bot.py")
ADDRESS = re.compile(r"your seat is at (http://127\.0\.0\.1:\d+/play/\S+)")
MESSAGE_KEYS = {"kind", "version", "seat", "names", "view", "game", "game_number", "decision", "legal", "limit_ms",
                "bank_ms", "played", "termination", "seats", "message"}
"""Everything a message to the page may carry."""


def start(tmp_path: Path, game: str, *seats: str) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "play", game, *seats, "--no-browser", "--sandbox", "off",
         "--out", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )
    assert process.stderr is not None
    for line in process.stderr:
        if found := ADDRESS.search(line):
            return process, found.group(1)
    process.wait()
    raise AssertionError(f"no address: {process.stdout.read() if process.stdout else ''}")


def click_part(page, part: str) -> None:
    """Click, with the mouse, the middle of the largest thing drawn for ``part`` (a point's triangle rather than its
    checkers, a gap's cell)."""
    boxes = [box for box in (node.bounding_box() for node in page.query_selector_all(f'#board [data-part="{part}"]'))
             if box and box["width"] and box["height"]]
    assert boxes, f"nothing drawn for {part!r}"
    box = max(boxes, key=lambda b: b["width"] * b["height"])
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def play_through(page, address: str | None, seed: int) -> tuple[list[dict], Counter[str]]:
    """Play every decision the page (at ``address``, or the one shown) is asked with a seeded random choice (of a
    part that may be clicked several ways, a seeded one of those drawn: a point or a die); the messages received,
    and how many moves were made by clicks on the board alone (``board``) and how many dice were clicked
    (``dice``)."""
    rng = random.Random(seed)
    if address is not None:
        page.goto(address)
    last, made = -1, Counter[str]()
    while True:
        page.wait_for_function(
            "last => document.body.dataset.kind === 'closed' || (document.body.dataset.kind === 'decide' && "
            "Number(document.getElementById('board').dataset.decision) !== last)", arg=last, timeout=60_000)
        message = page.evaluate("window.kafanaSeat.received.at(-1)")
        if message["kind"] == "closed":
            return page.evaluate("window.kafanaSeat.received"), made
        last = message["decision"]
        action = rng.choice(message["legal"])
        for step in action["steps"]:
            for part in step:
                if isinstance(part, list):
                    part = rng.choice([p for p in part if page.query_selector(f'#board [data-part="{p}"]')])
                    made["dice"] += part.startswith("d")
                click_part(page, part)
        # The page plays a move by itself when the clicks make it whole and no other fits.
        played = bool(action["steps"]) and page.evaluate(
            "last => document.body.dataset.kind !== 'decide' || document.getElementById('board').dataset.decision "
            "!== String(last) || document.querySelector('#choices button.whole:only-child') !== null", last)
        if played:
            made["board"] += 1
        else:
            page.click(f'#choices button[data-action="{action["id"]}"]')
        page.wait_for_function(
            "last => document.body.dataset.kind !== 'decide' || "
            "Number(document.getElementById('board').dataset.decision) !== last", arg=last, timeout=60_000)


def seat_decisions(replay_path: Path, seat: int) -> list[tuple[dict, list[str]]]:
    """The seat's view (as the page draws it) and legal moves at each of its decisions, from the replay re-run."""
    replay = read_replay(replay_path)
    states, problems = replay_states(replay)
    assert not problems
    return [(json.loads(json.dumps(view_json(state.view(seat)))), [a.notation() for a in state.legal_actions()])
            for state in states[:-1] if state.current_player == seat]


def finished(tmp_path: Path, process: subprocess.Popen) -> Path:
    """The replay of the one game ``process`` (``referee play``) played, once it has ended."""
    out, err = process.communicate(timeout=60)
    replays = sorted(tmp_path.glob("*.jsonl*"))
    assert len(replays) == 1, (out, err)
    return replays[0]


def check(replay: Path, received: list[dict], seat: int) -> None:
    assert verify(read_replay(replay)) == []
    decisions = seat_decisions(replay, seat)
    asked = [m for m in received if m["kind"] == "decide"]
    assert [m["view"] for m in asked] == [view for view, _ in decisions]
    assert [[a["notation"] for a in m["legal"]] for m in asked] == [legal for _, legal in decisions]
    views = [view for view, _ in decisions]
    for message in received:
        assert set(message) <= MESSAGE_KEYS, message
        assert message["seat"] == seat
        assert "view" not in message or message["view"] in views  # only what it was shown at its decisions
    assert [m["version"] for m in received] == list(range(1, len(received) + 1))  # in order, none lost or twice
    assert received[-1]["kind"] == "closed"


@pytest.fixture
def seat_page(browser):
    tab = browser.new_page(viewport={"width": 1400, "height": 1000})
    yield tab
    tab.close()


def test_a_tapa_game_against_a_bot(seat_page, tmp_path):
    process, address = start(tmp_path, "tapa", "human", RANDOM_BOT)
    received, made = play_through(seat_page, address, seed=1)
    check(finished(tmp_path, process), received, seat=0)
    assert made["board"] == len([m for m in received if m["kind"] == "decide"])  # every play made on the board
    assert any(m["kind"] == "match_over" for m in received)


def test_a_tabla_game_enters_from_the_bar_and_bears_off_by_clicks(seat_page, tmp_path):
    process, address = start(tmp_path, "tabla", "human", RANDOM_BOT)
    received, made = play_through(seat_page, address, seed=7)
    check(finished(tmp_path, process), received, seat=0)
    played = [m["played"] for m in received if m["kind"] == "wait"]
    assert made["board"] == len(played) and made["dice"] > 10  # every play on the board, by points or dice
    assert any(play.startswith("bar/") for play in played) and any("/off" in play for play in played)


def test_a_four_seat_durak_deal(seat_page, tmp_path):
    process, address = start(tmp_path, "durak", "human", RANDOM_BOT, RANDOM_BOT, RANDOM_BOT)
    received, made = play_through(seat_page, address, seed=2)
    check(finished(tmp_path, process), received, seat=0)
    assert made["board"] > 0
    assert all(m["view"]["hands"] == [] for m in received if "view" in m)  # never another seat's hand


def test_a_gaps_deal(seat_page, tmp_path):
    process, address = start(tmp_path, "gaps", "human")
    received, made = play_through(seat_page, address, seed=3)
    check(finished(tmp_path, process), received, seat=0)
    assert made["board"] > 0
