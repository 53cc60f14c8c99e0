"""Kafana ladder: registers bots, schedules leagues, runs matches through referee processes, stores every result in
SQLite and rates the bots. It knows no gRPC: matches run in ``referee run-match`` subprocesses."""
