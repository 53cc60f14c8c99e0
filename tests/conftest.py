"""Test configuration: the misbehaving bots under runtime/bots are programs, not test modules."""

collect_ignore = ["runtime/bots"]
