"""Stepping through a replay's pages in a terminal (``ladder replay``): Enter for the next page, ``b`` back, a
number to jump, ``q`` to quit."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.render import Page

PROMPT = "Enter: next, b: back, NUMBER: jump, q: quit > "


def step_through(pages: Sequence[Page], start: int, ask: Callable[[str], str] = input,
                 show: Callable[[str], None] = print) -> None:
    """Show ``pages`` from ``start`` one at a time, each with its place, moving as the answers to ``ask`` say;
    end at ``q``, at the end of input, or when Enter is pressed on the last page."""
    index = start
    while True:
        show(f"\n[{index}/{len(pages) - 1}] " + pages[index].text)
        try:
            answer = ask(PROMPT).strip()
        except EOFError:
            return
        if answer == "q":
            return
        if answer == "b":
            index = max(0, index - 1)
        elif answer.isdigit():
            index = min(len(pages) - 1, int(answer))
        elif index == len(pages) - 1:
            return
        else:
            index += 1
