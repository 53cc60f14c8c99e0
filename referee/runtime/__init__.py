"""The runtime: seats bots (processes over gRPC or in-process functions), drives games, enforces clocks."""

from .build import BuildError, build_bot
from .clock import DEFAULT_CLOCK, Clock
from .driver import GameRecord, play_game
from .faults import (
    FAULT_KINDS,
    BotCrashed,
    BotError,
    BotIllegalAction,
    BotNoHello,
    BotProtocolError,
    BotResourceLimit,
    BotTimeout,
    Fault,
)
from .hello import Entrant
from .manifest import BotSpec, ManifestError, resolve_bot
from .player import LocalPlayer, Player
from .prepare import KnownBots, build_note, build_record, default_store, is_prepared, place_copy, prepare_bot
from .process import ProcessPlayer
from .runner import probe_hello, run_game
from .seating import BotPool, SeatOptions

__all__ = [
    "DEFAULT_CLOCK",
    "FAULT_KINDS",
    "BotPool",
    "BotCrashed",
    "BotError",
    "BotIllegalAction",
    "BotNoHello",
    "BotProtocolError",
    "BotResourceLimit",
    "BotSpec",
    "BotTimeout",
    "BuildError",
    "Clock",
    "Entrant",
    "Fault",
    "GameRecord",
    "KnownBots",
    "LocalPlayer",
    "ManifestError",
    "Player",
    "ProcessPlayer",
    "SeatOptions",
    "build_bot",
    "build_note",
    "build_record",
    "default_store",
    "is_prepared",
    "place_copy",
    "play_game",
    "prepare_bot",
    "probe_hello",
    "resolve_bot",
    "run_game",
]
