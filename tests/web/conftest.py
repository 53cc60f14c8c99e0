"""A league database made by the tests and a real ``ladder serve`` process on a free loopback port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import httpx
import pytest
import trio

from ._chromium import CHROMIUM, FLAGS
from ._league import build_league


@pytest.fixture(scope="package")
def league(tmp_path_factory):
    """(database path, {arena: a match id})."""
    path = tmp_path_factory.mktemp("web") / "league.db"
    return path, trio.run(build_league, path)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="package")
def server(league):
    """The base URL of ``ladder serve`` on the test league."""
    port = _free_port()
    process = subprocess.Popen(
        # every answer fresh: the tests change the database under the server and look at once
        [sys.executable, "-m", "ladder.cli", "serve", "--db", str(league[0]), "--port", str(port), "--cache", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            if httpx.get(f"{base}/api/arenas", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            raise RuntimeError(f"ladder serve did not start: {process.communicate()[0].decode()[-2000:]}")
        time.sleep(0.1)
    yield base
    process.terminate()
    process.wait(timeout=10)



@pytest.fixture(scope="package")
def browser():
    """Debian's headless Chromium, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def page(browser):
    """A 1400x1000 tab; ``page.requested`` lists every URL it asked for."""
    tab = browser.new_page(viewport={"width": 1400, "height": 1000})
    tab.requested = []
    tab.on("request", lambda request: tab.requested.append(request.url))
    yield tab
    tab.close()
