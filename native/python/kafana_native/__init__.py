"""Kafana's compiled parts, each behind a facade of its own:

- :mod:`kafana_native.engine`: the engine core, the compiled twins of the Python engines (``referee.games``);
- :mod:`kafana_native.wire`: the referee's gRPC client (``referee.runtime.native_bridge``);
- :mod:`kafana_native.bots`: the shipped bots' accelerators, built on the engine core.

They live in one extension module (``kafana_native._core``, built from ``native/src/``) so that the engine's types
cross between the engine and the bots' accelerators without a conversion; importing this package imports none of
them until a facade is imported.
"""
