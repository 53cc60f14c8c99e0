"""Run a league with the fake executor (used by the crash-safety test, which SIGKILLs this process)."""

import sys

import trio

from ladder.league import plan, run_units
from ladder.store import open_store
from tests.ladder._fakes import FakeExecutor, counting_seeds
from tests.ladder.test_league import seed_bots

db = open_store(sys.argv[1])
seed_bots(db, 4)
plan(db, "crash", "tapa", "round-robin", int(sys.argv[2]), new_seed=counting_seeds())
trio.run(lambda: run_units(db, "crash", FakeExecutor(delay=0.15), concurrency=2))
