"""Make the screenshots in this folder: the pages of ``ladder serve`` on a league database, and a person's seat
against td2_bot, in headless Chromium.

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


def _seat(page) -> None:
    """A person's seat at Tapa against td2_bot (``referee play tapa human``), a few moves in, a checker chosen."""
    import re
    import tempfile

    with tempfile.TemporaryDirectory() as out:
        game = subprocess.Popen([sys.executable, "-m", "referee.cli", "play", "tapa", "human",
                                 str(FOLDER.parents[1] / "bots" / "python" / "td2_bot.py"), "--no-browser",
                                 "--seed", "4", "--out", out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        try:
            assert game.stderr is not None
            address = next(found.group(1) for line in game.stderr
                           if (found := re.search(r"your seat is at (\S+)", line)))
            page.goto(address)
            for turn in range(4):
                page.wait_for_selector("body[data-kind=decide]")
                if turn == 3:
                    break
                asked = page.get_attribute("#board", "data-decision")
                page.click("#choices button >> nth=0")
                page.wait_for_function("asked => document.getElementById('board').dataset.decision !== asked", arg=asked)
            move = page.evaluate("window.kafanaSeat.received.at(-1).legal[0].steps[0][0]")
            page.click(f'#board polygon[data-part="{move}"]', force=True)
            page.wait_for_timeout(300)
            page.screenshot(path=str(FOLDER / "seat-tapa.png"))
            print("seat-tapa.png  referee play tapa human bots/python/td2_bot.py")
        finally:
            game.kill()
            game.wait()


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
            _seat(page)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
