"""The standings as the terminal shows them (``ladder league``, ``ladder demo``): one table per arena."""

from __future__ import annotations

from collections.abc import Sequence

from .standings import Standing

HEADER = (f"  {'bot':<22}{'rating':>8}  {'95% interval':<15}{'units':>6}{'games':>6}{'W':>5}{'D':>4}{'L':>5}"
          f"{'faults':>7}{'LOS next':>10}")


def leaderboard(arena: str, rows: Sequence[Standing]) -> str:
    """The arena's standings as a table: a line per bot, best first, and when the ratings were fitted."""
    if not rows:
        return f"{arena}\n  (no complete results yet)"
    lines = [arena, HEADER]
    for s in rows:
        label = f"{s.bot} v{s.number}"
        los = f"{100 * s.superiority:.0f}%" if s.superiority is not None else ""
        known = f"{s.low:.0f}..{s.high:.0f}" if s.low is not None and s.high is not None else "?"
        lines.append(f"  {label:<22}{s.rating:>8.0f}  {known:<15}{s.units:>6}"
                     f"{s.games:>6}{s.wins:>5}{s.draws:>4}{s.losses:>5}{s.faults:>7}{los:>10}")
    lines.append(f"  (ratings fitted {rows[0].rated_at})")
    return "\n".join(lines)
