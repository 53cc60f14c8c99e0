"""Run a league with the fake executor, holding the database as the ladder does (used by the crash-safety test,
which SIGKILLs this process, and by the one-writer test, which starts two at once). Exits 2 when another run
holds the database."""

import sys

import trio

from ladder.league import plan, run_units
from ladder.store import open_store
from ladder.writer import DatabaseBusy, hold_database
from tests.ladder._fakes import FakeExecutor, counting_seeds
from tests.ladder.test_league import seed_bots

try:
    with hold_database(sys.argv[1], "the league script"):
        db = open_store(sys.argv[1])
        seed_bots(db, 4)
        plan(db, "crash", "tapa", "round-robin", int(sys.argv[2]), new_seed=counting_seeds())
        trio.run(lambda: run_units(db, "crash", FakeExecutor(delay=0.15), concurrency=2))
except DatabaseBusy as exc:
    print(exc, file=sys.stderr)
    sys.exit(2)
