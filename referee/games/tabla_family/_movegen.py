"""The whole-stage move generator of the Tabla family, on packed boards.

A side's board is one integer: 4 bits per point in the side's own numbering, nibble 0 = borne off, nibbles
1..24 = the points, nibble 25 = the bar. An end position is a single int and a checker move is one addition.
The generator lists every legal play of a stage once per distinct end position, after maximisation (rules §1.3):
most dice used, the larger die when only one of two can be played, and a play that ends the game counts as
complete. Keep it behind :func:`stage_plays` so that a compiled core can replace it under the same tests.
"""

from __future__ import annotations

from collections.abc import Callable

Raw = tuple[int, int, int, bool]
"""A step as (src, dst, die, hit), dst 0 = off."""

HOME_SHIFT = 28
"""Shifting a board right by this drops the off count and the home points 1..6."""

BOARD_BITS = 104
"""Nibbles 0..25. Above them a stage may keep one bit per point it hit (Tabla): bit ``BOARD_BITS + 4p``, the
point's nibble bit shifted by ``BOARD_BITS``, so that the points hit read back as a nibble-mask."""

BOARD_MASK = (1 << BOARD_BITS) - 1
BAR_POINT = 25
BAR_SHIFT = 100
"""The bar's nibble starts at this bit."""

BAR_BIT = 1 << BAR_SHIFT
"""The bar's nibble bit (see :func:`occupied`)."""

LOW_BITS = int("1" * 26, 16)
"""Bit 0 of every nibble."""


def count(board: int, point: int) -> int:
    """Checkers on ``point`` (0 = off, 25 = bar) of a packed board.

    >>> count(pack({6: 5, 0: 2}), 6), count(pack({6: 5, 0: 2}), 0)
    (5, 2)
    """
    return (board >> (point << 2)) & 15


def pack(points: dict[int, int]) -> int:
    """Build a packed board from {point: checkers}.

    >>> pack({1: 2}) == 2 << 4
    True
    """
    board = 0
    for point, n in points.items():
        if not 0 <= n <= 15 or not 0 <= point <= 25:
            raise ValueError(f"bad point {point} or count {n}")
        board += n << (point << 2)
    return board


def unpack(board: int) -> dict[int, int]:
    """The non-empty points of a packed board as {point: checkers}.

    >>> unpack(pack({24: 15}))
    {24: 15}
    """
    return {p: n for p in range(26) if (n := (board >> (p << 2)) & 15)}


POINT_BITS = int("1" * 24 + "0", 16)
"""Bit 4p for the points p = 1..24."""

POINTS = POINT_BITS * 15
"""The nibbles of the points 1..24 (neither the bar nor the borne-off count)."""

_SOURCE_NIBBLES = int("1" * 25 + "0", 16)
"""Bit 4p for the points and the bar, p = 1..25."""

_HOME_NIBBLES = int("1" * 6 + "0", 16)
"""Bit 4p for the home points p = 1..6."""

_SPREAD = [sum(1 << (4 * i) for i in range(8) if byte >> i & 1) for byte in range(256)]


def spread(bits: int) -> int:
    """Turn a bitmask indexed by point into a nibble-mask (bit 4p for point p).

    >>> spread(0b1010) == (1 << 4) | (1 << 12)
    True
    """
    return _SPREAD[bits & 255] | _SPREAD[(bits >> 8) & 255] << 32 | _SPREAD[(bits >> 16) & 255] << 64 | _SPREAD[
        (bits >> 24) & 255
    ] << 96


_ONES = int("1" * 19, 16)


def outside_home(board: int) -> int:
    """How many checkers sit outside the home board (points 7..24 and the bar).

    >>> outside_home(pack({6: 5, 7: 2, 24: 3, 25: 1}))
    6
    """
    return (((board & BOARD_MASK) >> HOME_SHIFT) * _ONES >> 72) & 15


SWAP_NIBBLES = bytes(((byte & 15) << 4) | (byte >> 4) for byte in range(256))
"""Each byte with its two nibbles swapped: reversing a board's bytes with it reverses its nibbles (:func:`mirror`)."""


def mirror(board: int) -> int:
    """The board numbered from the other end: nibble p moves to 25 − p (the bar to 0, off to 25).

    >>> unpack(mirror(pack({24: 2, 0: 3, 25: 1})))
    {0: 1, 1: 2, 25: 3}
    """
    return int.from_bytes((board & BOARD_MASK).to_bytes(13, "little").translate(SWAP_NIBBLES), "big")


def stacked(board: int) -> int:
    """A mask with bit ``4p`` set for every point p holding two checkers or more.

    >>> stacked(pack({3: 1, 5: 2})) == 1 << 20
    True
    """
    return (board >> 1 | board >> 2 | board >> 3) & LOW_BITS


def occupied(board: int) -> int:
    """A mask with bit ``4p`` set for every non-empty point p (off count included).

    >>> occupied(pack({0: 3, 2: 8})) == (1 | 1 << 8)
    True
    """
    board |= board >> 1
    board |= board >> 2
    return board & LOW_BITS


class Stage:
    """The constant facts of one stage: its dice, which points are closed, frozen or hold a lone opposing checker.

    The three masks are nibble-masks: bit ``4p`` stands for point p (see :func:`occupied`). With ``track_hits``
    (Tabla) every hit sets bit ``BOARD_BITS + 4 * point`` of the board it produces, so that end positions differing
    only in what was hit stay distinct; :data:`BOARD_MASK` recovers the checkers.
    """

    __slots__ = (
        "dice",
        "closed",
        "singles",
        "can_bear_off",
        "terminal",
        "movable",
        "bear_sources",
        "track_hits",
        "frozen",
        "rule",
    )

    def __init__(
        self,
        dice: tuple[int, ...],
        closed: int,
        frozen: int,
        singles: int,
        can_bear_off: bool,
        terminal: Callable[[int], bool] | None,
        track_hits: bool = False,
        rule: int | None = None,
    ) -> None:
        self.dice = dice
        self.frozen = frozen
        # rule: what ``terminal`` means, for the native core: -2 none, -1 the 15th checker off, 0 or 1 that or
        # Tapa's mother rule (1: the mover's own mother is pinned).
        self.rule = (-2 if terminal is None else -1) if rule is None else rule
        self.closed = closed
        self.singles = singles
        self.can_bear_off = can_bear_off
        self.terminal = terminal
        self.track_hits = track_hits
        # movable[die]: nibble-mask of sources whose step with die lands on an open point of the board; only the
        # stage's dice have one (another die is a KeyError, never a silent "no moves").
        open_points = ~closed & POINT_BITS
        sources = ~frozen & _SOURCE_NIBBLES if frozen else _SOURCE_NIBBLES
        high, low = dice[0], dice[-1]
        self.movable = {high: open_points << (high << 2) & sources, low: open_points << (low << 2) & sources}
        self.bear_sources = sources & _HOME_NIBBLES if frozen else _HOME_NIBBLES

    def plays(self, board: int) -> tuple[dict[int, tuple[Raw, ...]], int]:
        """See :func:`stage_plays`."""
        dice = self.dice
        if len(dice) == 2 and dice[0] != dice[1]:
            return _two_dice(self, board, dice[0], dice[1])
        return _equal_dice(self, board, dice[0], len(dice))

    def follow(self, board: int, steps: tuple[tuple[int, int, bool], ...]) -> int | None:
        """The board after playing ``steps`` (src, dst, hit) one by one with the stage's dice, or None if a step is
        impossible. Maximisation is not checked here: compare the result with the legal plays' end boards."""
        left = list(self.dice)
        for index, (src, dst, _hit) in enumerate(steps):
            for die in sorted(set(left)):
                found = next((end for (s, d, _, _), end in self.moves(board, die) if s == src and d == dst), None)
                if found is not None:
                    board = found
                    left.remove(die)
                    break
            else:
                return None
            if self.terminal is not None and index < len(steps) - 1 and self.terminal(board):
                return None  # the game ended before the last step
        return board

    def random_play(self, board: int, below: Callable[[int], int]) -> int | None:
        """The end of a play of random single steps (the playouts' ``steps`` policy): of two different dice, the
        order first (``below(2)``: 0 the larger first), then for each die one of its :meth:`moves` (``below(n)``
        of the n), stopping when a step ends the game. A walk that uses every die, or ends the game, is a legal
        play (it uses the most dice there are); None when a die has no step on the way, since another walk might
        have used them all.

        >>> stage = Stage((6, 5), closed=0, frozen=0, singles=0, can_bear_off=True, terminal=None)
        >>> stage.random_play(pack({24: 1}), lambda n: 0) == pack({13: 1})
        True
        """
        dice = self.dice
        if len(dice) == 2 and dice[0] != dice[1] and below(2) == 1:
            dice = (dice[1], dice[0])
        terminal = self.terminal
        for die in dice:
            moves = self.moves(board, die)
            if not moves:
                return None
            board = moves[below(len(moves))][1]
            if terminal is not None and terminal(board):
                break
        return board

    def moves(self, board: int, die: int) -> list[tuple[Raw, int]]:
        """Every single step with ``die`` from ``board``: a list of (step, new board)."""
        out: list[tuple[Raw, int]] = []
        occ = occupied(board)
        cand = occ & self.movable[die]
        if occ & BAR_BIT:  # checkers on the bar must enter first
            cand &= BAR_BIT
        singles = self.singles
        track = self.track_hits
        while cand:
            low = cand & -cand
            cand ^= low
            src = (low.bit_length() - 1) >> 2
            dst = src - die
            end = board - low + (1 << (dst << 2))
            if (singles >> (dst << 2)) & 1 and not (occ >> (dst << 2)) & 1:
                if not track:  # Tapa: landing on the lone checker pins it (again, if it was released)
                    out.append(((src, dst, die, True), end))
                elif not (board >> (BOARD_BITS + (dst << 2))) & 1:  # Tabla: a blot is hit once, then it is on the bar
                    out.append(((src, dst, die, True), end + (1 << (BOARD_BITS + (dst << 2)))))
                else:
                    out.append(((src, dst, die, False), end))
            else:
                out.append(((src, dst, die, False), end))
        board_only = board & BOARD_MASK
        if self.can_bear_off and not board_only >> HOME_SHIFT:
            src = die
            if (board >> (src << 2)) & 15 and (self.bear_sources >> (src << 2)) & 1:
                out.append(((src, 0, die, False), board - (1 << (src << 2)) + 1))
            # A die larger than the highest occupied point bears off from that point.
            top = ((occ & BOARD_MASK) >> 4).bit_length()
            if top:
                src = ((top - 1) >> 2) + 1
                if src < die and (self.bear_sources >> (src << 2)) & 1:
                    out.append(((src, 0, die, False), board - (1 << (src << 2)) + 1))
        return out


def stage_plays(
    board: int,
    dice: tuple[int, ...],
    *,
    closed: int,
    frozen: int = 0,
    singles: int = 0,
    can_bear_off: bool = True,
    terminal: Callable[[int], bool] | None = None,
) -> tuple[dict[int, tuple[Raw, ...]], int]:
    """All legal plays of one stage, keyed by end board, and how many dice they use.

    Args:
        board: the mover's packed board.
        dice: two different dice (larger first), or n equal dice (a double or a ladder stage).
        closed: bitmask of the mover's points it may not land on.
        frozen: bitmask of points whose checkers cannot move (Tapa: the mover's pinned checkers).
        singles: bitmask of points holding a lone opposing checker that a landing would hit or pin.
        can_bear_off: False forbids bearing off altogether (Tapa ``pinned_home_blocks_all``).
        terminal: tells whether a board ends the game; such a play is complete and stops there.

    Returns:
        ``(plays, used)``: {end board: steps} with the shortest steps found for each end board, and the number of
        dice the legal plays use (``len(dice)`` for complete plays, 0 when nothing can be played).

    >>> plays, used = stage_plays(pack({13: 1, 0: 14}), (6, 5), closed=1 << 7)  # 7 closed: only 13/8/2
    >>> list(plays.values()), used
    ([((13, 8, 5, False), (8, 2, 6, False))], 2)
    """
    return Stage(dice, spread(closed), spread(frozen), spread(singles), can_bear_off, terminal).plays(board)


def _keep_shorter(plays: dict[int, tuple[Raw, ...]], end: int, steps: tuple[Raw, ...]) -> None:
    old = plays.get(end)
    if old is None or len(steps) < len(old):
        plays[end] = steps


def _two_dice(stage: Stage, board: int, high: int, low: int) -> tuple[dict[int, tuple[Raw, ...]], int]:
    full: dict[int, tuple[Raw, ...]] = {}
    only_high: dict[int, tuple[Raw, ...]] = {}
    only_low: dict[int, tuple[Raw, ...]] = {}
    terminal = stage.terminal
    for first, second, alone in ((high, low, only_high), (low, high, only_low)):
        for step1, board1 in stage.moves(board, first):
            if terminal is not None and terminal(board1):
                _keep_shorter(full, board1, (step1,))
                continue
            followed = False
            for step2, board2 in stage.moves(board1, second):
                followed = True
                if board2 not in full:
                    full[board2] = (step1, step2)
            if not followed:
                alone.setdefault(board1, (step1,))
    if full:
        return full, 2
    if only_high:
        return only_high, 1
    return only_low, (1 if only_low else 0)


def _equal_dice(stage: Stage, board: int, die: int, n: int) -> tuple[dict[int, tuple[Raw, ...]], int]:
    frontier: dict[int, tuple[Raw, ...]] = {board: ()}
    finished: dict[int, tuple[Raw, ...]] = {}
    terminal = stage.terminal
    depth = 0
    for _ in range(n):
        layer: dict[int, tuple[Raw, ...]] = {}
        for start, steps in frontier.items():
            for step, end in stage.moves(start, die):
                if terminal is not None and terminal(end):
                    _keep_shorter(finished, end, steps + (step,))
                elif end not in layer:
                    layer[end] = steps + (step,)
        if not layer:
            break
        frontier = layer
        depth += 1
    if finished:
        if depth == n:
            finished.update(frontier)
        return finished, n
    return (frontier, depth) if depth else ({}, 0)
