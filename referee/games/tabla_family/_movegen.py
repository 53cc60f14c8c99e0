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
        "canonical",
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
        canonical: bool = False,
        rule: int | None = None,
    ) -> None:
        self.dice = dice
        self.frozen = frozen
        # rule: what ``terminal`` means, for the native core: -2 none, -1 the 15th checker off, 0 or 1 that or
        # Tapa's mother rule (1: the mover's own mother is pinned).
        self.rule = (-2 if terminal is None else -1) if rule is None else rule
        self.closed = closed
        # canonical: the game can end only by bearing off the 15th checker, so equal dice may be expanded in
        # non-increasing source order (each end position exactly once) and open two-dice plays as a product.
        self.canonical = canonical
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
            if self.canonical and not board >> BAR_SHIFT & 15 and outside_home(board) >= 3:
                plays = _open_two_dice(self, board, dice[0], dice[1])
                if plays:
                    return plays, 2
            return _two_dice(self, board, dice[0], dice[1])
        if self.canonical:
            if not board >> BAR_SHIFT & 15 and outside_home(board) >= len(dice):
                return _equal_dice_lanes(self, board, dice[0], len(dice))
            return _equal_dice_canonical(self, board, dice[0], len(dice))
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

    def moves(self, board: int, die: int, ceiling: int = 25, within: int = -1) -> list[tuple[Raw, int]]:
        """Every single step with ``die`` from ``board`` from a point no higher than ``ceiling`` (and, for steps
        inside the board, from a point of the nibble-mask ``within``): a list of (step, new board)."""
        out: list[tuple[Raw, int]] = []
        occ = occupied(board)
        cand = occ & self.movable[die] & within
        if ceiling < 25:
            cand &= (1 << ((ceiling + 1) << 2)) - 1
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
            if src <= ceiling and (board >> (src << 2)) & 15 and (self.bear_sources >> (src << 2)) & 1:
                out.append(((src, 0, die, False), board - (1 << (src << 2)) + 1))
            # A die larger than the highest occupied point bears off from that point.
            top = ((occ & BOARD_MASK) >> 4).bit_length()
            if top:
                src = ((top - 1) >> 2) + 1
                if src < die and src <= ceiling and (self.bear_sources >> (src << 2)) & 1:
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


def _open_two_dice(stage: Stage, board: int, high: int, low: int) -> dict[int, tuple[Raw, ...]]:
    """Two different dice with nothing on the bar and at least three checkers outside home (so nothing can be
    borne off this turn): every play is a high step and a low step, by two checkers (a product of the single-step
    lists) or by one checker (a continuation)."""
    full: dict[int, tuple[Raw, ...]] = {}
    highs = stage.moves(board, high)
    lows = stage.moves(board, low)
    closed, singles, track = stage.closed, stage.singles, stage.track_hits
    for step_h, end_h in highs:
        src_h, dst_h, _, hit_h = step_h
        delta_h = end_h - board
        for step_l, end_l in lows:
            src_l, dst_l = step_l[0], step_l[1]
            if src_l == src_h and (board >> (src_h << 2)) & 15 < 2:
                continue
            end = end_l + delta_h
            if dst_l == dst_h and hit_h:  # both land on the blot: the first hits, the second does not
                if track:
                    end -= 1 << (BOARD_BITS + (dst_h << 2))
                step_l = (src_l, dst_l, low, False)
            if end not in full:
                full[end] = (step_h, step_l)
    for (step_1, end_1), die in [(move, low) for move in highs] + [(move, high) for move in lows]:
        mid = step_1[1]
        dst = mid - die
        if dst < 1 or (closed >> (dst << 2)) & 1:
            continue
        end = end_1 - (1 << (mid << 2)) + (1 << (dst << 2))
        hit = bool((singles >> (dst << 2)) & 1) and not (end_1 >> (dst << 2)) & 15
        if hit and track:
            if (end_1 >> (BOARD_BITS + (dst << 2))) & 1:
                hit = False
            else:
                end += 1 << (BOARD_BITS + (dst << 2))
        if end not in full:
            full[end] = (step_1, (mid, dst, die, hit))
    return full


def _equal_dice_canonical(stage: Stage, board: int, die: int, n: int) -> tuple[dict[int, tuple[Raw, ...]], int]:
    """Equal dice expanded with non-increasing sources: each multiset of steps once, and distinct multisets of
    equal steps always give distinct end positions, so no end position repeats."""
    finished: dict[int, tuple[Raw, ...]] = {}
    deepest: dict[int, tuple[Raw, ...]] = {}
    depth = 0
    terminal = stage.terminal
    stack: list[tuple[int, tuple[Raw, ...], int]] = [(board, (), 25)]
    while stack:
        start, steps, ceiling = stack.pop()
        moved = False
        if len(steps) < n:
            for step, end in stage.moves(start, die, ceiling):
                moved = True
                chain = steps + (step,)
                if terminal is not None and terminal(end):
                    finished[end] = chain
                else:
                    stack.append((end, chain, step[0]))
        if not moved and steps:
            if len(steps) > depth:
                depth = len(steps)
                deepest = {start: steps}
            elif len(steps) == depth:
                deepest[start] = steps
    if finished:
        if depth == n:
            finished.update(deepest)
        return finished, n
    return deepest, depth


LANES = [[]] + [[tuple(range(top, 0, -die)) for top in range(24, 24 - die, -1)] for die in range(1, 7)]
"""LANES[die]: the points a checker can reach from one another with ``die`` (p, p−die, …), highest first."""


def _lane_options(stage: Stage, board: int, die: int, n: int, lane: tuple[int, ...]) -> list[list[tuple[int, tuple]]]:
    """The ways to play up to ``n`` steps of ``die`` inside one lane, by step count: (board delta, steps).

    Points are taken from the top down and each decides how many of its checkers (its own and those that just
    arrived) move on, so steps come in non-increasing source order and each way gives its own end position.
    """
    movable, singles, track = stage.movable[die], stage.singles, stage.track_hits
    states: list[tuple[int, int, int, tuple]] = [(0, 0, 0, ())]  # (arrived here, steps used, delta, steps)
    arrivals = False  # some state has checkers arriving at the current point
    for src in lane:
        shift = src << 2
        here = (board >> shift) & 15
        if not (here or arrivals):
            continue
        if not (movable >> shift) & 1:
            if arrivals:
                states = [(0, used, delta, steps) for _, used, delta, steps in states]
                arrivals = False
            continue
        dst = src - die
        move = (1 << (dst << 2)) - (1 << shift)
        hit = bool((singles >> (dst << 2)) & 1)
        first = (src, dst, die, hit)
        plain = (src, dst, die, False) if hit else first
        hit_delta = 1 << (BOARD_BITS + (dst << 2)) if hit and track else 0
        grown = []
        for arrived, used, delta, steps in states:
            grown.append((0, used, delta, steps))
            for k in range(1, min(here + arrived, n - used) + 1):
                grown.append((k, used + k, delta + k * move + hit_delta, steps + (first,) + (plain,) * (k - 1)))
        arrivals = len(grown) > len(states)
        states = grown
    by_count: list[list[tuple[int, tuple]]] = [[] for _ in range(n + 1)]
    for _, used, delta, steps in states:
        by_count[used].append((delta, steps))
    while len(by_count) > 1 and not by_count[-1]:
        by_count.pop()
    return by_count


def _equal_dice_lanes(stage: Stage, board: int, die: int, n: int) -> tuple[dict[int, tuple[Raw, ...]], int]:
    """Equal dice with nothing on the bar and at least ``n`` checkers outside home (so nothing is borne off):
    checkers only move within their lane (p, p−die, p−2·die, …), lanes do not interact, so each lane's step
    sequences are enumerated alone (non-increasing sources) and the plays are the combinations of lane options
    that use the most dice. Distinct combinations give distinct end positions."""
    options: list[list[list[tuple[int, tuple[Raw, ...]]]]] = []  # per lane, per step count: (delta, steps)
    occ = occupied(board) & stage.movable[die]
    for lane in LANES[die]:
        if not any((occ >> (point << 2)) & 1 for point in lane):
            continue
        by_count = _lane_options(stage, board, die, n, lane)
        if len(by_count) > 1:
            options.append(by_count)
    used = min(n, sum(len(by_count) - 1 for by_count in options))
    if not used:
        return {}, 0
    capacity = [0] * (len(options) + 1)  # capacity[i]: the most steps lanes i.. can take
    for index in range(len(options) - 1, -1, -1):
        capacity[index] = capacity[index + 1] + len(options[index]) - 1
    partial: list[tuple[int, tuple[Raw, ...], int]] = [(0, (), 0)]  # (delta, steps, steps taken)
    for index, lane in enumerate(options):
        rest = capacity[index + 1]
        grown = []
        for delta, steps, taken in partial:
            for count in range(max(0, used - taken - rest), min(used - taken, len(lane) - 1) + 1):
                for lane_delta, lane_steps in lane[count]:
                    grown.append((delta + lane_delta, steps + lane_steps, taken + count))
        partial = grown
    return {board + delta: steps for delta, steps, _ in partial}, used
