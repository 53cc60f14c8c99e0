"""Make the screenshots in this folder: the pages of ``ladder serve`` on a league database, in headless Chromium.

    .venv/bin/ladder demo                                   # a league to show (kafana-demo.db)
    .venv/bin/ladder tournament --format knockout --arena durak-2 --db kafana-demo.db   # and a bracket
    .venv/bin/python docs/screenshots/take.py --db kafana-demo.db

Needs Chromium (``/usr/bin/chromium``, the tests' browser) and Playwright (the test extra).
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
SIZE = {"width": 1400, "height": 1000}
GAMES = {"tapa": "tapa", "tabla-match": "tabla-match", "durak-4": "durak", "gapa": "gapa", "gaps": "gaps"}
"""Arena -> the name of its replay screenshot (viewer-NAME.png)."""


def _serve(db: Path) -> tuple[subprocess.Popen, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "ladder.cli", "serve", "--db", str(db), "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            urllib.request.urlopen(f"{base}/api/arenas", timeout=1)
            return server, base
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"ladder serve did not start on {db}")


def _get(base: str, path: str) -> object:
    with urllib.request.urlopen(base + path, timeout=60) as answer:
        return json.load(answer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the league database to show")
    parser.add_argument("--bot", default="expectimax", help="the bot whose page is shown")
    args = parser.parse_args()
    db = args.db
    if not db.exists():
        raise SystemExit(f"no league database at {db}")
    from playwright.sync_api import sync_playwright

    server, base = _serve(db)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                                 args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport=SIZE)

            def shoot(path: str, name: str, ready: str) -> None:
                page.goto(base + path)
                page.wait_for_selector(ready)
                page.wait_for_timeout(500)
                page.screenshot(path=str(FOLDER / f"{name}.png"))
                print(f"{name}.png  {path}")

            shoot("/", "leaderboard", "h2.arena")
            shoot("/arenas/tabla-match", "arena", ".chart.cross-table .main-svg")
            shoot(f"/bots/{args.bot}", "bot", ".chart.rating-history .main-svg")
            shoot("/matches", "matches", "table.matches")
            cups = [t for t in _get(base, "/api/tournaments") if t["format"] == "knockout"]
            if cups:
                shoot(f"/tournaments/{cups[0]['name']}", "tournament", ".bracket .group")
            for arena, name in GAMES.items():
                [match] = _get(base, f"/api/matches?arena={arena}&limit=1")
                frames = _get(base, f"/api/matches/{match['id']}/replay")["frames"]
                step = len(frames) // 3
                shoot(f"/matches/{match['id']}#step={step}", f"viewer-{name}", f'#viewer[data-step="{step}"]')
            [match] = _get(base, "/api/matches?arena=tapa&limit=1")
            analysis = _get(base, f"/api/matches/{match['id']}/analysis")
            step = max(analysis["decisions"], key=lambda decision: decision["error"])["step"]
            page.goto(f"{base}/matches/{match['id']}#step={step}")
            page.wait_for_selector(f'#viewer[data-step="{step}"]')
            page.click("button.analyse")
            page.wait_for_selector(".stage .judgement")
            page.wait_for_timeout(500)
            page.screenshot(path=str(FOLDER / "viewer-analysis.png"))
            print(f"viewer-analysis.png  /matches/{match['id']}, judged")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
