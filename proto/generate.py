"""Regenerate the Python code for proto/kafana/v1/bot.proto into kit/kafana_kit/v1/ (the Python bot kit's package,
which the referee imports too), and copy the .proto into every starter kit (a bot folder holds its files itself: the sandbox and the ladder's copy see nothing outside it).

Run ``python proto/generate.py`` after changing the .proto file; ``tests/wire/test_generated.py`` and
``tests/bots/test_starters.py`` fail while the committed code or a kit's copy is stale. grpcio-tools must be the
same version as grpcio (see pyproject.toml).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
PROTO_FILE = "kafana/v1/bot.proto"
OUT_DIR = ROOT / "kit" / "kafana_kit" / "v1"
GENERATED = ("bot_pb2.py", "bot_pb2.pyi", "bot_pb2_grpc.py")
KITS = tuple(ROOT / "bots" / kit / "proto" / PROTO_FILE for kit in ("cpp", "go", "java", "javascript", "rust"))
"""The starter kits' copies of the contract."""


def generate() -> dict[str, str]:
    """Run protoc on the contract and return {file name: contents} with package-relative imports."""
    from grpc_tools import protoc

    with tempfile.TemporaryDirectory() as tmp:
        args = [
            "protoc",
            f"-I{PROTO_DIR}",
            f"--python_out={tmp}",
            f"--pyi_out={tmp}",
            f"--grpc_python_out={tmp}",
            str(PROTO_DIR / PROTO_FILE),
        ]
        if protoc.main(args) != 0:
            raise RuntimeError("protoc failed on " + PROTO_FILE)
        out = Path(tmp) / "kafana" / "v1"
        files = {name: (out / name).read_text() for name in GENERATED}
    files["bot_pb2_grpc.py"] = files["bot_pb2_grpc.py"].replace(
        "from kafana.v1 import bot_pb2", "from . import bot_pb2"
    )
    return files


def main() -> int:
    for name, text in generate().items():
        (OUT_DIR / name).write_text(text)
    print(f"wrote {', '.join(GENERATED)} to {OUT_DIR.relative_to(ROOT)}")
    for copy in KITS:
        copy.write_bytes((PROTO_DIR / PROTO_FILE).read_bytes())
    print(f"copied {PROTO_FILE} into {', '.join(str(copy.relative_to(ROOT)) for copy in KITS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
