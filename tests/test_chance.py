"""Chance streams and committed seeds: the stream is fixed by its seed alone, a secret seed stays out of the replay
until the game is over, and ``referee verify`` checks the seed against its commitment and draws every chance step
again."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from referee.chance import Chance, ChanceStream, commitment, new_secret_seed
from referee.games import make_game
from referee.replay import ReplayWriter, read_replay, verify
from referee.runtime import Clock, LocalPlayer, play_game


def first_choice(request) -> int:
    return 0


async def record(path, game_id: str = "durak", seed: str = "s", public: bool = True) -> None:
    """A game of two players who always take the first legal action, logged to ``path``."""
    await play_game(
        make_game(game_id),
        [LocalPlayer(0, first_choice), LocalPlayer(1, first_choice)],
        match_id="chance",
        seed=seed,
        seed_public=public,
        clock=Clock(),
        replay=ReplayWriter(path),
    )


def rewrite(path, change) -> None:
    records = [json.loads(line) for line in path.read_text().splitlines()]
    change(records)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_a_stream_is_fixed_by_its_seed_alone():
    draws = [ChanceStream("seed").randrange(36) for _ in range(3)]
    assert draws == [ChanceStream("seed").randrange(36) for _ in range(3)]
    one, other = ChanceStream("seed"), ChanceStream("seed!")
    assert [one.getrandbits(64) for _ in range(4)] != [other.getrandbits(64) for _ in range(4)]
    with pytest.raises(TypeError):
        ChanceStream(7)  # type: ignore[arg-type]
    with pytest.raises(NotImplementedError):
        ChanceStream("x").getstate()


def test_a_stream_is_uniform():
    stream = ChanceStream("uniform")
    counts = Counter(stream.randrange(36) for _ in range(36_000))
    chi2 = sum((n - 1000) ** 2 / 1000 for n in counts.values())
    assert len(counts) == 36 and chi2 < 70  # 35 degrees of freedom: p < 0.001 above 66.6
    floats = [stream.random() for _ in range(10_000)]
    assert all(0.0 <= f < 1.0 for f in floats) and abs(sum(floats) / len(floats) - 0.5) < 0.02


def test_a_secret_seed_is_new_every_time_and_its_commitment_tells_nothing_of_it():
    seeds = {new_secret_seed() for _ in range(100)}
    assert len(seeds) == 100
    seed = new_secret_seed()
    assert seed not in commitment(seed) and Chance(seed, public=False).commitment == commitment(seed)


def test_draws_seen_do_not_give_the_next_away():
    """Unlike a Mersenne Twister, whose 624 outputs give its state away: a clone of ``random.Random`` fed the same
    32-bit outputs predicts it exactly, but not the stream."""
    twister = random.Random(5)
    outputs = [twister.getrandbits(32) for _ in range(624)]
    clone = random.Random()
    clone.setstate((3, tuple(_untemper(o) for o in outputs) + (624,), None))
    assert clone.getrandbits(32) == twister.getrandbits(32)
    stream = ChanceStream("secret")
    outputs = [stream.getrandbits(32) for _ in range(624)]
    clone.setstate((3, tuple(_untemper(o) for o in outputs) + (624,), None))
    assert [clone.getrandbits(32) for _ in range(8)] != [stream.getrandbits(32) for _ in range(8)]


def _untemper(y: int) -> int:
    """The Mersenne Twister state word behind one tempered output."""
    y ^= y >> 18
    y ^= (y << 15) & 0xEFC60000
    y = _undo_left(y, 7, 0x9D2C5680)
    return _undo_right(y, 11)


def _undo_left(y: int, shift: int, mask: int) -> int:
    result = y
    for _ in range(32 // shift + 1):
        result = y ^ ((result << shift) & mask)
    return result & 0xFFFFFFFF


def _undo_right(y: int, shift: int) -> int:
    result = y
    for _ in range(32 // shift + 1):
        result = y ^ (result >> shift)
    return result


async def test_a_secret_seed_is_revealed_only_in_the_result(tmp_path):
    path = tmp_path / "secret.jsonl"
    seed = new_secret_seed()
    await record(path, seed=seed, public=False)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    assert "seed" not in header and header["commitment"] == commitment(seed)
    assert all(seed not in line for line in lines[:-1]) and json.loads(lines[-1])["seed"] == seed
    assert verify(read_replay(path)) == []


async def test_a_public_seed_is_in_the_header(tmp_path):
    path = tmp_path / "public.jsonl"
    await record(path, game_id="tapa", seed="1/0")
    header = read_replay(path).header
    assert header["seed"] == "1/0" and header["commitment"] == commitment("1/0")
    assert verify(read_replay(path)) == []


async def test_verify_refuses_a_changed_seed(tmp_path):
    path = tmp_path / "changed.jsonl"
    await record(path, seed=new_secret_seed(), public=False)
    rewrite(path, lambda records: records[-1].update(seed=new_secret_seed()))
    assert any("does not match the header's commitment" in p for p in verify(read_replay(path)))


async def test_verify_refuses_a_seed_and_commitment_that_did_not_deal_the_game(tmp_path):
    path = tmp_path / "forged.jsonl"
    await record(path, seed=new_secret_seed(), public=False)
    forged = new_secret_seed()

    def forge(records):
        records[0]["commitment"] = commitment(forged)
        records[-1]["seed"] = forged

    rewrite(path, forge)
    assert any("the seed draws" in p for p in verify(read_replay(path)))


async def test_verify_refuses_a_changed_chance_step(tmp_path):
    path = tmp_path / "dice.jsonl"
    await record(path, game_id="tapa", seed="9")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    rolls = [i for i, r in enumerate(records) if r["type"] == "chance" and r["notation"].startswith("roll")]
    index = rolls[len(rolls) // 2]
    faces = "6-6" if records[index]["notation"] != "roll 6-6" else "1-1"

    def change(records):
        records[index]["notation"] = f"roll {faces}"

    rewrite(path, change)
    problems = verify(read_replay(path))
    assert any(f"('roll {faces}'): the seed draws" in problem for problem in problems), problems


async def test_verify_needs_a_seed(tmp_path):
    path = tmp_path / "unsealed.jsonl"
    await record(path, seed=new_secret_seed(), public=False)
    rewrite(path, lambda records: records[-1].pop("seed"))
    assert any("no chance seed" in p for p in verify(read_replay(path)))
