"""The games the system knows, each registered once: a :class:`Registration` holds what the rest of the system needs
of a game (or a family of games) beside its engine, and the runtime, the wire, the text renderer, the replay
frames, the training environments and the web viewer look a game up here instead of knowing it.

The built-in games register in their folders (``tabla_family/registration.py``, ``cards/registration.py``). A
game of another Python package registers through the entry point group :data:`ENTRY_POINT_GROUP`, naming its
:class:`Registration`; the package's ``pyproject.toml`` says::

    [project.entry-points."kafana.games"]
    nim = "nim_game:REGISTRATION"

Registrations are loaded when a game is first looked up, not when this module is imported (a registration may
use the wire and the renderer, which use the engines); the installed packages are scanned for entry points only
when a lookup needs more than the built-in games (a listing of every game, or a game or view not built in).

>>> registration_of("plakoto").viewer
'backgammon'
>>> sorted(game_classes())[:3]
['durak', 'gapa', 'gaps']
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ._core import Game, State

if TYPE_CHECKING:
    from referee.envs import Encoding

ENTRY_POINT_GROUP = "kafana.games"
"""The entry point group through which other packages register games."""

BUILT_IN = ("referee.games.tabla_family.registration", "referee.games.cards.registration")
"""The modules whose ``REGISTRATIONS`` are the games shipped with Kafana."""

JSON_WIRE = "json"
"""The ActRequest view field of a game without a message of its own in bot.proto: its view as JSON text."""


class Renderer(Protocol):
    """Draws a view as text for the terminal (``names``: the seats' names, when known)."""

    def __call__(self, view: Any, names: tuple[str, ...] | None = None) -> str: ...


class CheckCase(NamedTuple):
    """A decision worth testing a bot on (``referee check-bot``): the first one that ``wanted`` picks in seeded
    random games of the game with ``options`` (of each game of the registration in ``games``; all when empty)."""

    label: str
    options: Mapping[str, str]
    wanted: Callable[[State, Sequence[Any]], bool]
    games: tuple[str, ...] = ()


class Playouts(Protocol):
    """Seeded random whole games played inside the native core, and how their Python reference draws alike
    (:mod:`referee.playouts`): a capability of the games whose core has such a loop. ``rng`` is the playouts'
    stream (:class:`referee.playouts.SplitMix64`: ``below(n)``, ``dice()``)."""

    policies: tuple[str, ...]
    """How the games may choose a play: ``uniform`` among the distinct legal plays, or a policy of their own."""

    def problem(self, game: Game) -> str | None:
        """Why ``game`` (with its options) has no playouts, or None."""
        ...

    def chance(self, state: State, rng: Any) -> Any:
        """The chance outcome of ``state`` drawn from ``rng`` as the core draws it."""
        ...

    def walk(self, state: State, legal: Any, policy: str, rng: Any) -> int | None:
        """For a policy of the game's own: the index among ``legal`` of the play it chooses, or None to draw one
        uniformly."""
        ...

    def native(self, game: Game, count: int, seed: int, policy: str) -> list[tuple[str, tuple[int, ...], int]]:
        """``count`` games in the core: each one's termination, points and decisions."""
        ...


class ResultLine(Protocol):
    """Says a finished game's result in one line, from the replay's result and the spectator's last view; None
    to let the referee say it the usual way (the termination and the points)."""

    def __call__(self, result: Mapping[str, Any], final: Any, names: tuple[str, ...]) -> str | None: ...


def _fields_as_json(view: Any) -> dict[str, Any]:
    """A dataclass view's fields as JSON-ready data (the default of :attr:`Registration.view_json`)."""
    return dataclasses.asdict(view)


Clicks = list[list[str | list[str]]]
"""An action's parts as a person clicks them (:attr:`Registration.clicks`)."""


def _no_clicks(notation: str) -> Clicks:
    """No part of the action is clicked on the drawing: it is chosen from the list."""
    return []


@dataclass(frozen=True, eq=False)
class Registration:
    """What the system needs of one game (or family of games) beside its engine (each registration is itself: two
    are never equal).

    Attributes:
        games: game id → the engine's :class:`Game` class, for every game this registration adds.
        views: the classes of the views its states give (seats' and spectators'); a view is looked up by class.
        render: draws a view as text.
        aliases: other names → game id.
        view_json: a view as JSON-ready data, for the replay frames and for the wire of a game without a message
            of its own; the default writes a dataclass's fields.
        action_json: an action as JSON-ready data, sent as a legal action's detail on the JSON wire (None: the
            notation alone).
        viewer: the web viewer's drawing for its views (``viewer.js``); ``"text"`` shows :attr:`render`'s text.
        wire: the field of ActRequest's ``view`` (and LegalAction's ``detail``) that carries its views, as named in
            bot.proto; :data:`JSON_WIRE` for a game the proto has no message for.
        encoding: makes the training environments' encoding of a game (None: no environment).
        result_line: says a finished game's result in the terminal, when the usual line does not do.
        check_cases: decisions worth testing a bot on besides the one with the most legal actions.
        playouts: the native core's random whole games (None: the game has none).
        arenas: game id → the ladder's arenas of the game, (arena id, options) each, for a game played in several
            (Durak for two, four and 2v2); a game not named has one arena, of its default options, named as it.
        judge: where the function that values a decision's plays for ``referee analyse`` lives, as
            ``module:name`` (:data:`referee.analysis.Judge`; imported only when a replay is analysed), or None.
        clicks: an action's parts as a person clicks them on the viewer's drawing, from its notation: a list of
            steps, each the ``data-part`` names of the things clicked in turn (a Tabla checker's point, then the
            point it goes to), a part a name or a list of names any of which does (the point, or the die); the
            steps may be clicked in any order. An action without parts (the default: all
            of a game drawn as text) is chosen from the list of legal actions.
    """

    games: Mapping[str, type[Game]]
    views: tuple[type, ...]
    render: Renderer
    aliases: Mapping[str, str] = field(default_factory=dict)
    view_json: Callable[[Any], dict[str, Any]] = _fields_as_json
    action_json: Callable[[Any], Any] | None = None
    viewer: str = "text"
    wire: str = JSON_WIRE
    encoding: Callable[[Game], Encoding] | None = None
    result_line: ResultLine | None = None
    check_cases: tuple[CheckCase, ...] = ()
    playouts: Playouts | None = None
    arenas: Mapping[str, tuple[tuple[str, Mapping[str, str]], ...]] = field(default_factory=dict)
    judge: str | None = None
    clicks: Callable[[str], Clicks] = _no_clicks


class UnknownViewError(TypeError):
    """A view of a class no registration declares."""


class RegistryError(ValueError):
    """Two registrations claim one game id, alias or view class, or an entry point is not a registration."""


@dataclass(frozen=True)
class _Registry:
    by_game: Mapping[str, Registration]
    by_view: Mapping[type, Registration]
    aliases: Mapping[str, str]


def _claim(table: dict, key: Any, claim: tuple[Registration, str], what: str) -> None:
    """Enter ``key`` for ``claim`` (a registration and where it came from), unless another registration has it."""
    held = table.get(key)
    if held is not None and held[0] is not claim[0]:
        raise RegistryError(f"{what} {key!r} is registered twice: by {held[1]} and by {claim[1]}")
    table[key] = claim


def _loaded(packages: bool) -> list[tuple[Registration, str]]:
    """Every registration with where it came from: the built-in modules', then, with ``packages``, the entry
    points' in name order."""
    found = [(r, name) for name in BUILT_IN for r in importlib.import_module(name).REGISTRATIONS]
    if not packages:
        return found
    from importlib.metadata import entry_points  # its import and the scan of every package: only when asked

    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        try:
            loaded = point.load()
        except Exception as exc:  # whatever a package's import raises, the error names the entry point
            raise RegistryError(f"entry point {point.name} = {point.value} of {ENTRY_POINT_GROUP}: {exc}") from exc
        for one in loaded if isinstance(loaded, (list, tuple)) else [loaded]:
            if not isinstance(one, Registration):
                raise RegistryError(f"entry point {point.name} = {point.value} is not a Registration")
            found.append((one, f"entry point {point.name} = {point.value}"))
    return found


@functools.cache
def _registry(packages: bool = True) -> _Registry:
    """The registrations, the installed packages' too unless ``packages`` is False (the built-in games alone, which
    a lookup of a built-in game or view needs: a process that plays the shipped games never scans the packages)."""
    by_game: dict[str, tuple[Registration, str]] = {}
    by_view: dict[type, tuple[Registration, str]] = {}
    aliases: dict[str, tuple[Registration, str]] = {}
    for claim in _loaded(packages):
        registration = claim[0]
        for game_id in registration.games:
            _claim(by_game, game_id, claim, "game")
        for view in registration.views:
            _claim(by_view, view, claim, "view class")
        for alias in registration.aliases:
            _claim(aliases, alias, claim, "alias")
    clashes = sorted(set(aliases) & set(by_game))
    if clashes:
        raise RegistryError(f"alias {clashes[0]!r} is also a game id")
    return _Registry({k: r for k, (r, _) in by_game.items()}, {k: r for k, (r, _) in by_view.items()},
                     {alias: r.aliases[alias] for alias, (r, _) in aliases.items()})


@functools.cache
def shipped_games() -> tuple[str, ...]:
    """The ids of the games Kafana ships (those of :data:`BUILT_IN`), sorted: what the starter bots claim."""
    return tuple(sorted(game_id for name in BUILT_IN for r in importlib.import_module(name).REGISTRATIONS
                        for game_id in r.games))


def registrations() -> tuple[Registration, ...]:
    """Every registration, each once."""
    return tuple(dict.fromkeys(_registry().by_game.values()))


@functools.cache
def game_classes() -> Mapping[str, type[Game]]:
    """Game id → game class, for every registered game (read-only)."""
    return MappingProxyType({game_id: r.games[game_id] for game_id, r in _registry().by_game.items()})


def resolve(game_id: str) -> str | None:
    """The game id that ``game_id`` (an id or an alias) names, or None."""
    for packages in (False, True):
        registry = _registry(packages)
        name = registry.aliases.get(game_id, game_id)
        if name in registry.by_game:
            return name
    return None


def registration_of(game_id: str) -> Registration:
    """The registration of the game ``game_id`` (an id or an alias).

    Raises:
        KeyError: no game has this id or alias.
    """
    name = resolve(game_id)
    if name is None:
        raise KeyError(game_id)
    built_in = _registry(packages=False).by_game.get(name)
    return built_in if built_in is not None else _registry().by_game[name]


def registration_for(view: Any) -> Registration:
    """The registration whose game gives ``view``.

    Raises:
        UnknownViewError: no registration declares the view's class.
    """
    kind = type(view)
    try:
        return _registry(packages=False).by_view.get(kind) or _registry().by_view[kind]
    except KeyError:
        raise UnknownViewError(f"no registered game gives views of class {type(view).__name__}") from None
