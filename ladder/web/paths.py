"""Where the web's files are."""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).parent / "static"
"""The pages' HTML shells, scripts and style, served under ``/static/``."""
