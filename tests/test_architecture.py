"""House rule 1: the import direction between the wings, checked on the source."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imports(folder: Path) -> dict[Path, set[str]]:
    found = {}
    for path in folder.rglob("*.py"):
        if "_pb" in path.parts:
            continue
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


def test_only_the_wire_converter_imports_generated_code():
    for folder in ("referee", "bots", "ladder"):
        for path, names in imports(ROOT / folder).items():
            if path.name == "_convert.py":
                continue
            assert not any("_pb" in n for n in names), f"{path} imports generated code"
            source = path.read_text()
            assert "bot_pb2" not in source, f"{path} mentions bot_pb2"


def test_ladder_knows_no_grpc():
    for path, names in imports(ROOT / "ladder").items():
        assert not any(n.startswith(("grpc", "referee.wire")) for n in names), path
