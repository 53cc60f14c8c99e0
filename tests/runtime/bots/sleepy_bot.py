"""Answers its first decision, then sleeps far past any deadline."""

import time

import _common

_common.serve_then(lambda: time.sleep(60), after=1, name="sleeper", games=["tapa"])
