"""``ladder replay``'s stepper: Enter goes on, b back, a number jumps (within the pages), q or the end of input
stops, and Enter on the last page ends."""

from __future__ import annotations

import pytest

from ladder.stepper import step_through
from referee.render import Page

PAGES = [Page(1, f"page {k}") for k in range(4)]


def shown_for(answers: list[str], start: int = 0) -> list[str]:
    said: list[str] = []
    queue = list(answers)

    def ask(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    step_through(PAGES, start, ask=ask, show=said.append)
    return [line.split("] ", 1)[1] for line in said]


@pytest.mark.parametrize("answers,start,seen", [
    (["", "", "", ""], 0, ["page 0", "page 1", "page 2", "page 3"]),  # Enter on the last page ends
    (["", "b", "b", "q"], 0, ["page 0", "page 1", "page 0", "page 0"]),  # back stops at the first
    (["99", "1", "q"], 2, ["page 2", "page 3", "page 1"]),  # a jump stays within the pages
    (["", ""], 1, ["page 1", "page 2", "page 3"]),  # the end of input stops
])
def test_the_stepper_moves_as_told(answers, start, seen):
    assert shown_for(answers, start) == seen
