"""A build in two phases: the dependencies fetched by the language's own tool, running none of the bot's code, into
caches every build shares read-only; then the bot's build with no network at all."""

from __future__ import annotations

import json
import socket
import textwrap

import pytest

from referee.runtime import BuildError, prepare_bot
from referee.runtime.fetch import build_environment, deps_folder, ecosystems
from referee.runtime.sandbox import FETCH_UID, sandbox_problem

needs_sandbox = pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")

REACH_OUT = textwrap.dedent("""
    import socket, sys
    address = (sys.argv[1], int(sys.argv[2]))
    try:
        socket.create_connection(address, timeout=5).close()
    except OSError as exc:
        print("no network:", exc.__class__.__name__)
    else:
        print("reached", address)
        sys.exit(1)
""")


def bot(folder, build, files=()):
    folder.mkdir()
    (folder / "bot.toml").write_text(f'name = "b"\ncommand = ["python3", "bot.py"]\nbuild = {json.dumps(build)}\n')
    (folder / "bot.py").write_text("pass\n")
    for name, text in files:
        (folder / name).write_text(text)
    return folder


@needs_sandbox
def test_a_build_script_cannot_connect_out(tmp_path):
    """The build phase runs in a network namespace of its own: the host's loopback listener is not there, nor any
    other address."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        listener.settimeout(0.5)
        folder = bot(tmp_path / "bot", ["sh", "-c", f"python3 reach.py 127.0.0.1 {port} && python3 reach.py "
                                                    f"192.0.2.1 80 && python3 reach.py 1.1.1.1 443"],
                     [("reach.py", REACH_OUT)])
        shown: list[str] = []
        prepare_bot(folder, tmp_path / "store", sandboxed=True, echo=shown.append)
        with pytest.raises(TimeoutError):
            listener.accept()
    assert [line.split("] ", 1)[1] for line in shown] == ["no network: ConnectionRefusedError",
                                                        "no network: OSError", "no network: OSError"]


@needs_sandbox
def test_the_fetch_runs_none_of_the_bots_scripts_and_the_build_reads_the_caches_only(tmp_path):
    """npm's install scripts are disabled in the fetch (the bot's own ``preinstall`` does not run); the build
    may read the shared cache but not write it; the fetch wrote it as its own uid."""
    package = {"name": "b", "version": "1.0.0", "private": True, "scripts": {"preinstall": "touch ran"}}
    folder = bot(tmp_path / "bot", ["sh", "-c", "touch \"$npm_config_cache/planted\" 2>/dev/null && exit 1; "
                                                 "test ! -e ran && echo cache read-only"],
                 [("package.json", json.dumps(package))])
    shown: list[str] = []
    spec = prepare_bot(folder, tmp_path / "store", sandboxed=True, echo=shown.append)
    cache = deps_folder(tmp_path / "store") / "npm"
    assert shown[0] == "fetching the npm dependencies (the build itself runs offline)"
    assert shown[-1].endswith("] cache read-only") and not (cache / "planted").exists()
    assert not (spec.path / "ran").exists() and cache.stat().st_uid == FETCH_UID


def test_the_build_is_told_where_the_caches_are_and_that_it_is_offline(tmp_path):
    folder = tmp_path / "bot"
    folder.mkdir()
    for marker in ("Cargo.toml", "go.mod", "pom.xml", "package.json", "requirements.txt"):
        (folder / marker).write_text("")
    assert [e.name for e in ecosystems(folder)] == ["cargo", "go", "npm", "maven", "pip"]
    env = build_environment(folder, tmp_path / "deps")
    assert env["CARGO_HOME"] == str(tmp_path / "deps" / "cargo") and env["CARGO_NET_OFFLINE"] == "true"
    assert env["GOMODCACHE"] == str(tmp_path / "deps" / "go") and env["GOPROXY"] == "off"
    assert env["MAVEN_OPTS"] == f"-Dmaven.repo.local={tmp_path / 'deps' / 'maven'}"
    assert env["npm_config_offline"] == "true" and env["PIP_NO_INDEX"] == "1"


@needs_sandbox
def test_a_python_bot_gets_its_requirements_as_wheels_and_installs_them_offline(tmp_path):
    """``requirements.txt``: the fetch downloads wheels only (an sdist would run its setup code) into the copy's
    ``build/wheels``; the build installs them with pip, with no index and no network."""
    folder = bot(tmp_path / "bot", ["python3", "-m", "pip", "install", "--quiet", "--target", "build/site",
                                    "--requirement", "requirements.txt"],
                 [("requirements.txt", "six==1.17.0\n")])
    spec = prepare_bot(folder, tmp_path / "store", sandboxed=True)
    assert (spec.path / "build" / "site" / "six.py").is_file()
    assert [p.name for p in (spec.path / "build" / "wheels").iterdir()] == ["six-1.17.0-py2.py3-none-any.whl"]


@needs_sandbox
def test_a_dependency_that_is_not_locked_in_the_fetch_fails_the_build(tmp_path):
    """What the fetch did not bring is not there: the build cannot fetch it itself."""
    folder = bot(tmp_path / "bot", ["python3", "-m", "pip", "install", "--quiet", "--target", "build/site", "six"])
    with pytest.raises(BuildError, match="build .* failed"):
        prepare_bot(folder, tmp_path / "store", sandboxed=True)
