"""Text a bot sent, made safe to show: control characters are shown as escapes, never obeyed.

A bot's comment, its captured output and the details of a failed call reach terminals (``referee show``, the CLI's
messages) and pages. An escape sequence in them could move a terminal's cursor, rewrite what was printed or set the
window's title; a bidirectional override could make a page say something it does not. :func:`printable` turns
every such character into its ``\\x..``/``\\u....`` escape.
"""

from __future__ import annotations

_KEPT_IN_LINES = frozenset("\n\t")


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, lines: bool = False) -> str:
    """``text`` with every character that :meth:`str.isprintable` refuses escaped: controls, format characters
    (bidi overrides, zero-width marks), separators other than the space, surrogates, unassigned code points; with
    ``lines``, newlines and tabs are kept.

    >>> printable("ok\\x1b[2Jcleared")
    'ok\\\\x1b[2Jcleared'
    >>> printable("two\\nlines", lines=True) == "two\\nlines", printable("two\\nlines")
    (True, 'two\\\\x0alines')
    >>> printable("Durak ♠ é")
    'Durak ♠ é'
    """
    if text.isprintable():
        return text
    return "".join(
        char if char.isprintable() or (lines and char in _KEPT_IN_LINES) else _escape(char) for char in text
    )
