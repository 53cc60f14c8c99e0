"""``ladder serve``: a web UI for the league (leaderboards, matches, replays) over a small JSON API."""

from .app import make_app

__all__ = ["make_app"]
