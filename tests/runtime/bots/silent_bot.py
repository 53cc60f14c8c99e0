"""Never listens: starts and sleeps."""

import time

import _common

_common.record_pid()
time.sleep(3600)
