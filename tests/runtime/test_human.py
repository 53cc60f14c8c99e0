"""A person's seat: the driver asks it like a bot (the same view, legal actions and clock), its page answers; a
stale, unknown or malformed answer is refused in one line and changes nothing; a seat out of time is a timeout
fault. Its page's routes on a loopback port: the page, the messages as server-sent events, the moves."""

from __future__ import annotations

import json
import random

import httpx
import pytest
import trio

from ladder.web.seat import Table, addresses, loopback_listener, serve_table
from referee.games import make_game
from referee.games.tabla_family.registration import checker_clicks
from referee.replay import ReplayWriter, read_replay, verify
from referee.runtime import Clock, LocalPlayer, play_game, run_game
from referee.runtime.human import HUMAN, HumanSeat
from referee.runtime.manifest import resolve_bot

GAME = make_game("tapa")


def first_legal(request) -> int:
    return 0


async def answer_each(seat: HumanSeat, choose=lambda message: 0) -> list[dict]:
    """Answer every decision the seat is asked (``choose`` picks the id) until it is closed; the messages seen."""
    seen: list[dict] = []
    while True:
        for message in await seat.messages_after(len(seen)):
            seen.append(message)
            if message["kind"] == "closed":
                return seen
            if message["kind"] == "decide":
                assert seat.answer(message["decision"], choose(message)) is None


async def test_the_seat_plays_a_game_and_refuses_bad_answers(tmp_path):
    person = HumanSeat(0)
    rng = random.Random(1)
    refusals: list[str] = []

    def choose(message):
        refusals.extend([
            person.answer(message["decision"] + 1, 0),
            person.answer(message["decision"], len(message["legal"])),
            person.answer(message["decision"], -1),
        ])
        return rng.randrange(len(message["legal"]))

    async with trio.open_nursery() as nursery:
        seen: list[list[dict]] = []

        async def watch():
            seen.append(await answer_each(person, choose))

        nursery.start_soon(watch)
        record = await play_game(GAME, [person, LocalPlayer(1, first_legal)], match_id="h", seed=3, clock=Clock(),
                                 replay=ReplayWriter(tmp_path / "h.jsonl"))
        assert person.answer(0, 0) == "it is not this seat's move"
        person.close("over")
    assert not record.faults
    assert verify(read_replay(tmp_path / "h.jsonl")) == []
    kinds = [m["kind"] for m in seen[0]]
    assert kinds[-2:] == ["match_over", "closed"] and "decide" in kinds and "wait" in kinds
    asked = sum(1 for m in seen[0] if m["kind"] == "decide")
    assert len(refusals) == 3 * asked  # every bad answer refused, none taken
    assert sum(r.startswith("decision ") and "is over" in r for r in refusals) == asked
    assert sum(r.startswith("no legal action") for r in refusals) == 2 * asked
    decide = next(m for m in seen[0] if m["kind"] == "decide")
    assert decide["limit_ms"] == 30_000 and decide["bank_ms"] == 120_000
    assert all(a["steps"] == checker_clicks(a["notation"]) for a in decide["legal"])


async def test_a_seat_out_of_time_is_a_timeout_fault(autojump_clock):
    person = HumanSeat(0)
    record = await play_game(GAME, [person, LocalPlayer(1, first_legal)], match_id="t", seed=3,
                             clock=Clock(bank=5, increment=0, cap=2))
    assert [f.kind for f in record.faults] == ["timeout"] and record.faults[0].seat == 0
    assert person.message["kind"] == "timeout"  # a faulty seat is told nothing more
    assert person.answer(0, 0) == "it is not this seat's move"


async def test_run_game_seats_a_person_beside_a_bot_process(tmp_path):
    person = HumanSeat(1)
    person.names = ["random", HUMAN]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(answer_each, person)
        record = await run_game(GAME, [resolve_bot("bots/python/random_bot.py"), None], match_id="p", seed=1,
                                clock=Clock(), replay_path=tmp_path / "p.jsonl", people={1: person})
        person.close("over")
    assert not record.faults
    replay = read_replay(tmp_path / "p.jsonl")
    assert replay.header["seats"][1] == {"seat": 1, "name": HUMAN, "version": "", "author": HUMAN,
                                         "language": HUMAN, "path": "", "hash": ""}
    assert verify(replay) == []
    with pytest.raises(ValueError, match="both a bot and a person"):
        await run_game(GAME, [None, None], match_id="x", seed=1, clock=Clock(), replay_path=None, people={0: person})


async def test_the_page_routes():
    person = HumanSeat(0)
    table = Table()
    token = table.add(person)
    listener = loopback_listener()
    async with trio.open_nursery() as nursery:
        await nursery.start(serve_table, table, listener)
        ((_, address),) = addresses(table, listener)
        assert address.endswith(f"/play/{token}")
        game = trio.Event()

        async def play():
            await play_game(GAME, [person, LocalPlayer(1, first_legal)], match_id="w", seed=3, clock=Clock())
            person.close("over")
            game.set()

        nursery.start_soon(play)
        async with httpx.AsyncClient(timeout=10) as client:
            page = await client.get(address)
            assert page.status_code == 200 and "play.js" in page.text
            assert page.headers["content-security-policy"].startswith("default-src 'self'")
            wrong = await client.get(address[:-3] + "xyz/events")
            assert wrong.status_code == 404 and "no such seat" in wrong.json()["error"]
            for body in (b"junk", b'{"decision": 1}', b'{"decision": "1", "action": 0}', b"[]"):
                bad = await client.post(f"{address}/move", content=body)
                assert bad.status_code == 400 and bad.json()["error"].startswith("a move is JSON")
            async with client.stream("GET", f"{address}/events") as events:
                assert events.headers["content-type"].startswith("text/event-stream")
                lines = events.aiter_lines()
                message = None
                while True:
                    line = await lines.__anext__()
                    if not line.startswith("data: "):
                        continue
                    message = json.loads(line.removeprefix("data: "))
                    if message["kind"] == "decide":
                        stale = await client.post(f"{address}/move", json={"decision": message["decision"] + 5,
                                                                           "action": 0})
                        assert stale.status_code == 409 and stale.json()["error"].startswith("decision ")
                        done = await client.post(f"{address}/move", json={"decision": message["decision"],
                                                                          "action": 0})
                        assert done.json() == {"ok": True}
                    if message["kind"] == "closed":
                        break
            assert message["kind"] == "closed"
            await game.wait()
        nursery.cancel_scope.cancel()
    listener.close()


def test_the_answer_refused_when_no_decision_is_asked():
    person = HumanSeat(0)
    assert person.answer(0, 0) == "it is not this seat's move"
    assert person.message == {"kind": "wait", "version": 0}
