"""Kafana referee: owns the rules, drives bots over gRPC, keeps clocks and writes replays.

The engines live in :mod:`referee.games` and know nothing of gRPC, files or time. :mod:`referee.wire` is the one
bridge to the protocol, :mod:`referee.runtime` drives bot processes, and :mod:`referee.replay` reads and writes
replay logs.
"""

__version__ = "0.1.0"
