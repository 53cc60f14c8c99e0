"""Fetching a bot's dependencies before its build, with the language's own tool, running none of the bot's code.

A build runs the author's code (a ``build.rs``, a Makefile, a Maven plugin, an npm script), so it runs with no
network (:mod:`.build`). What it needs from the registries is fetched first, in a phase of its own that runs only
the package tool, its scripts disabled, on the files that name the dependencies:

=================  ==============================================  ==========================================
found in the bot   fetched by                                      the build then sees
=================  ==============================================  ==========================================
``Cargo.toml``     ``cargo fetch`` (``--locked`` with a lock file)  ``CARGO_HOME`` (the cache), offline
``go.mod``         ``go mod download`` (the local Go toolchain)    ``GOMODCACHE`` (the cache), ``GOPROXY=off``
``package.json``   ``npm ci --ignore-scripts`` (``npm install``     ``node_modules`` in its folder; npm offline
                   without a ``package-lock.json``)
``pom.xml``        the go-offline Maven plugin                     ``-Dmaven.repo.local`` (the cache)
``requirements``   ``pip download --only-binary=:all:`` into       ``PIP_NO_INDEX``, ``PIP_FIND_LINKS``
``.txt``           ``build/wheels``
=================  ==============================================  ==========================================

The downloads are kept in caches shared by every build of one store (:func:`deps_folder`): a fetch writes them
(sandboxed: as :data:`.sandbox.FETCH_UID`, the only uid that may), one fetch at a time; a build reads them,
read-only. Each tool checks what it fetches against the bot's lock file where it has one (``Cargo.lock``,
``go.sum``, ``package-lock.json``); Maven has none, and loads a project's build extensions while it resolves
(docs/security.md).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

GO_OFFLINE = "de.qaware.maven:go-offline-maven-plugin:1.2.8:resolve-dependencies"
"""The Maven goal that fetches a project's dependencies and plugins, with the artifacts its plugins ask for while
they run when the project names them (``dynamicDependencies``; Maven's own ``dependency:go-offline`` misses those)."""
DEPS = ".deps"
"""The folder of a store that holds the shared dependency caches."""


@dataclass(frozen=True)
class Ecosystem:
    """One language's packages: the file that reveals it, how to fetch, and what its build is told."""

    name: str
    """The cache's folder name (and the word shown)."""
    marker: str
    """A file in the bot's folder that says the bot uses this ecosystem."""
    tools: tuple[str, ...]
    """The commands whose versions a build of it depends on."""
    fetch: Callable[[Path], list[str]]
    """The fetch command for the bot in the folder given."""
    fetch_env: Callable[[Path], dict[str, str]]
    """The fetch's environment for the cache given."""
    build_env: Callable[[Path, Path], dict[str, str]]
    """What the build's environment gains, for the cache and the bot's folder given."""


ECOSYSTEMS = (
    Ecosystem(
        "cargo", "Cargo.toml", ("cargo", "rustc"),
        lambda folder: ["cargo", "fetch", *(["--locked"] if (folder / "Cargo.lock").exists() else [])],
        lambda cache: {"CARGO_HOME": str(cache)},
        lambda cache, folder: {"CARGO_HOME": str(cache), "CARGO_NET_OFFLINE": "true"},
    ),
    Ecosystem(
        "go", "go.mod", ("go",),
        lambda folder: ["go", "mod", "download"],
        lambda cache: {"GOMODCACHE": str(cache), "GOTOOLCHAIN": "local", "GOFLAGS": "-modcacherw",
                       "GOPROXY": os.environ.get("GOPROXY", "https://proxy.golang.org,direct")},
        lambda cache, folder: {"GOMODCACHE": str(cache), "GOTOOLCHAIN": "local", "GOPROXY": "off"},
    ),
    Ecosystem(
        "npm", "package.json", ("node", "npm"),
        lambda folder: ["npm", "ci" if (folder / "package-lock.json").exists() else "install", "--ignore-scripts",
                        "--no-audit", "--no-fund", "--loglevel=error"],
        lambda cache: {"npm_config_cache": str(cache), "npm_config_update_notifier": "false"},
        lambda cache, folder: {"npm_config_cache": str(cache), "npm_config_offline": "true",
                               "npm_config_update_notifier": "false"},
    ),
    Ecosystem(
        "maven", "pom.xml", ("mvn", "java"),
        lambda folder: ["mvn", "--batch-mode", "--quiet", "-Dstyle.color=never", GO_OFFLINE],
        lambda cache: {"MAVEN_OPTS": f"-Dmaven.repo.local={cache}"},
        lambda cache, folder: {"MAVEN_OPTS": f"-Dmaven.repo.local={cache}"},
    ),
    Ecosystem(
        "pip", "requirements.txt", (),
        lambda folder: [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                        "--only-binary=:all:", "--dest", "build/wheels", "--requirement", "requirements.txt"],
        lambda cache: {"PIP_CACHE_DIR": str(cache)},
        lambda cache, folder: {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(folder / "build" / "wheels"),
                               "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    ),
)


def ecosystems(folder: Path) -> list[Ecosystem]:
    """The ecosystems the bot in ``folder`` uses (by the files at its top)."""
    return [ecosystem for ecosystem in ECOSYSTEMS if (folder / ecosystem.marker).is_file()]


def deps_folder(store: Path) -> Path:
    """The dependency caches of the bots prepared in ``store``."""
    return store / DEPS


def build_environment(folder: Path, deps: Path) -> dict[str, str]:
    """What the build of the bot in ``folder`` is told about its fetched dependencies (overriding its manifest's
    ``env``: a build never reaches a registry)."""
    env: dict[str, str] = {}
    for ecosystem in ecosystems(folder):
        env.update(ecosystem.build_env(deps / ecosystem.name, folder))
    return env


@contextlib.contextmanager
def fetching(deps: Path) -> Iterator[None]:
    """Hold the caches in ``deps`` for one fetch (fetches take turns: a sandbox's file locks have no effect, so the
    tools' own cannot keep two of them apart)."""
    deps.mkdir(parents=True, exist_ok=True)
    with (deps / ".fetch.lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def open_to_builds(cache: Path) -> None:
    """Let every uid read what a fetch put in ``cache`` (a crate's files keep the modes of its archive, some
    private to their owner; a build runs as another uid)."""
    for current, dirs, files in os.walk(cache):
        for name, wanted in [*((d, 0o555) for d in dirs), *((f, 0o444) for f in files)]:
            path = os.path.join(current, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode) or mode & wanted == wanted:
                continue
            os.chmod(path, stat.S_IMODE(mode) | wanted)


def give_caches(deps: Path, used: list[Ecosystem], uid: int) -> None:
    """Make the caches in ``deps`` of the ecosystems ``used`` the fetching uid's (once: a cache it made is already
    its own)."""
    for ecosystem in used:
        cache = deps / ecosystem.name
        cache.mkdir(exist_ok=True)
        if cache.stat().st_uid != uid:
            for path in [cache, *cache.rglob("*")]:
                os.lchown(path, uid, uid)
