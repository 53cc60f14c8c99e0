"""House rule 1: the import direction between the wings, checked on the source."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imports(folder: Path) -> dict[Path, set[str]]:
    found = {}
    for path in folder.rglob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
        found[path] = names
    return found


def test_engines_import_no_runtime_wire_grpc_trio_or_storage():
    forbidden = ("grpc", "trio", "sqlite_utils", "referee.runtime", "referee.wire", "referee.replay", "ladder")
    for path, names in imports(ROOT / "referee" / "games").items():
        bad = [n for n in names if n.startswith(forbidden)]
        assert not bad, f"{path} imports {bad}"


def test_only_the_wire_package_imports_generated_code():
    """The protocol boundary: referee.wire's converters (messages and the Session stream's framing) alone."""
    boundary = ROOT / "referee" / "wire"
    for folder in ("referee", "bots", "ladder"):
        for path, names in imports(ROOT / folder).items():
            if path.parent == boundary and path.name in ("_convert.py", "_session.py"):
                continue
            assert not any(n.startswith("kafana_kit.v1") for n in names), f"{path} imports generated code"
            source = path.read_text()
            assert "bot_pb2" not in source, f"{path} mentions bot_pb2"


def test_ladder_knows_no_grpc():
    for path, names in imports(ROOT / "ladder").items():
        assert not any(n.startswith(("grpc", "referee.wire")) for n in names), path


def _module_graph(package: Path, prefix: str) -> dict[str, set[str]]:
    """Every module of ``package`` and the modules of it that it imports (anywhere in the file: at the top, in a
    function, under TYPE_CHECKING), relative imports resolved."""
    graph: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        name = ".".join([prefix, *parts])
        here = name.split(".") if is_package else name.split(".")[:-1]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = here[: len(here) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                if base.startswith(prefix):
                    found.add(base)
                    found.update(f"{base}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names if alias.name.startswith(prefix))
        graph[name] = found
    return {name: {other for other in found if other in graph and other != name} for name, found in graph.items()}


def test_the_game_modules_import_no_circle_and_the_families_stay_apart():
    graph = _module_graph(ROOT / "referee" / "games", "referee.games")
    packages = {"referee.games", "referee.games.tabla_family", "referee.games.cards"}
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for other in graph[name]:
            if other in packages:
                continue  # a package's __init__ only names its modules
            assert state.get(other) != 1, f"import circle: {' -> '.join(trail + [other])}"
            if other not in state:
                visit(other, trail + [other])
        state[name] = 2

    for name in graph:
        if name not in state and name not in packages:
            visit(name, [name])
    for name, found in graph.items():
        if ".tabla_family." in name:
            assert not any(".cards" in other for other in found), f"{name} imports a card game"
        if ".cards." in name:
            assert not any(".tabla_family" in other for other in found), f"{name} imports the Tabla family"


def test_the_proto_is_the_one_schema_of_the_wire_records():
    """No field number is written by hand: the native core's records are prost's messages generated from
    proto/kafana/v1/bot.proto by its build (native/build.rs), and the Python encoder of requests reads its numbers
    from the generated code (the byte-for-byte tests of tests/wire and the native states check what both write)."""
    for path in (ROOT / "native" / "src").glob("*.rs"):
        assert "#[prost(" not in path.read_text(), f"{path} declares a protobuf record by hand"
    encoder = (ROOT / "referee" / "wire" / "_convert.py").read_text()
    literal = re.search(r"\b(?:int_field|packed_field|field|tag|_text)\(\d", encoder)
    assert literal is None, f"referee/wire/_convert.py writes a field number by hand: {literal and literal.group()}"


def _game_classes() -> set[str]:
    """The classes the engines define (games, states, views, actions), by name."""
    return {node.name for path in (ROOT / "referee" / "games").rglob("*.py")
            for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ClassDef)}


def test_the_shared_modules_look_games_up_in_the_registry():
    """The runtime, wire, renderer, frames, playouts, environments, check-bot and the ladder never test what class
    a game, a state, a view or an action is: what differs between games is in the games' registrations
    (referee/games/registry.py), each in its game's folder."""
    engine_classes = _game_classes()
    own = ("backgammon.py", "durak.py", "gapa.py", "gaps.py")  # each game's training encoding, one module each
    shared = [path for folder in ("referee", "ladder") for path in (ROOT / folder).rglob("*.py")
              if "games" not in path.relative_to(ROOT).parts and not (path.parent.name == "envs" and path.name in own)]
    for path in shared:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
                kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
                names = {getattr(kind, "id", getattr(kind, "attr", None)) for kind in kinds}
                assert not names & engine_classes, f"{path.relative_to(ROOT)}:{node.lineno} tests {names & engine_classes}"


def test_the_shipped_bots_use_only_public_names():
    """The shipped bots import no private module of Kafana and read no private attribute of another object (the
    evaluator API: referee.games.tabla_family's FamilyState.sides and game, pack and features; the cards' helpers
    from referee.games.cards; the accelerators of kafana_native.bots)."""
    for path in sorted((ROOT / "bots" / "python").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__":
                private = [part for part in node.module.split(".") if part.startswith("_")]
                assert not private, f"{path.name}:{node.lineno} imports the private {node.module}"
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
                assert own, f"{path.name}:{node.lineno} reads {ast.unparse(node)}"


def test_the_native_parts_stay_apart():
    """native/ is three parts: the engine core depends on no other part, the wire client on none at all, and the
    bots' accelerators on the engine only; Python reaches each through its facade (kafana_native.engine, .wire,
    .bots), never the extension itself, and the wire client only from the runtime."""
    source = ROOT / "native" / "src"
    allowed = {"engine": {"engine"}, "wire": set(), "bots": {"bots", "engine"}}
    for part, reaches in allowed.items():
        files = [source / f"{part}.rs"] if (source / f"{part}.rs").exists() else sorted((source / part).rglob("*.rs"))
        assert files, part
        for path in files:
            used = set(re.findall(r"crate::(\w+)", path.read_text()))
            assert used <= reaches, f"{path.relative_to(ROOT)} uses crate::{sorted(used - reaches)}"
    for folder in ("referee", "bots", "ladder", "bench", "kit"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            assert "kafana_native._core" not in text, f"{path} imports the extension itself"
            wire = re.search(r"from kafana_native import wire|import kafana_native\.wire|kafana_native\.wire import", text)
            assert not wire or path.parent == ROOT / "referee" / "runtime", f"{path} imports the wire client"


def test_the_commands_need_nothing_of_the_test_extras():
    """README's first command installs the project without its test extras: every command, the web of a league and
    of a club, and a person's seat start with those packages out of reach."""
    import importlib.metadata
    import subprocess
    import sys
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    wanted = {re.split(r"[<>=!~ \[]", extra)[0].lower().replace("_", "-") for extra in extras}
    modules = sorted({module for module, dists in importlib.metadata.packages_distributions().items()
                      if any(d.lower().replace("_", "-") in wanted for d in dists)})
    assert "playwright" in modules and "pytest" in modules
    code = (
        "import importlib.abc, sys\n"
        f"BLOCKED = set({modules!r})\n"
        "class Blocked(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name.split('.')[0] in BLOCKED:\n"
        "            raise ImportError(f'{name} is a test extra')\n"
        "sys.meta_path.insert(0, Blocked())\n"
        "import referee.cli, ladder.cli, ladder.web.app, ladder.web.seat, ladder.challenges, ladder.club\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
