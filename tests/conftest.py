"""Test configuration: the misbehaving bots and the league script are programs, not test modules."""

collect_ignore = ["runtime/bots", "ladder/_league_script.py"]
