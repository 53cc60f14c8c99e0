"""The fast twin of the step generator: the legal end positions of a stage, without their steps.

Engines list, check and apply plays by end position (a packed board with the hit bits of :mod:`._movegen`);
the steps of a play are needed only to show or send it, and :meth:`Stage.plays` builds them then. Both
generators give the same keys (a test checks them against each other on every dice of random positions, and the
oracle tests against an independent brute-force enumerator); this one adds shortcuts that need no steps
(checkers on the bar entering first, fix-ups of a product found by mask) and leaves the rare stages that may end
before the 15th checker is off (Tapa's mother) to the step generator. Keep :func:`stage_ends` as the one entry
point, so that a compiled core can replace it under the same tests.
"""

from __future__ import annotations

from collections.abc import Collection

from ._movegen import BAR_BIT, BAR_SHIFT, BOARD_BITS, BOARD_MASK, HOME_SHIFT, LANES, LOW_BITS, Stage, outside_home

_HIT_BIT = {1 << (point << 2): 1 << (BOARD_BITS + (point << 2)) for point in range(26)}
"""The hit bit of each point, by the point's nibble bit."""


def stage_ends(stage: Stage, board: int) -> tuple[Collection[int], int]:
    """The end positions of every legal play of the stage's dice from ``board``, each once (a set or a list), and
    how many dice they use.

    The same end positions as ``stage.plays(board)``.
    """
    dice = stage.dice
    if len(dice) == 2 and dice[0] != dice[1]:
        if stage.canonical:
            if board >> BAR_SHIFT & 15:
                return _enter_two_dice(stage, board, dice[0], dice[1])
            if outside_home(board) >= 3:
                ends = _open_two_dice(stage, board, dice[0], dice[1])
                if ends:
                    return ends, 2
        return _two_dice(stage, board, dice[0], dice[1])
    die, n = dice[0], len(dice)
    if stage.canonical:
        on_bar = board >> BAR_SHIFT & 15
        if on_bar:
            if not stage.movable[die] & BAR_BIT:
                return set(), 0  # nothing moves while a checker cannot enter
            # Checkers on the bar enter first (with canonical order, all of them); the rest is open play.
            entering = min(on_bar, n)
            land = BAR_BIT >> (die << 2)
            entered = board + entering * (land - BAR_BIT)
            if stage.track_hits and stage.singles & land:
                entered += _HIT_BIT[land]
            rest = n - entering
            if not rest:
                return {entered}, n
            if outside_home(entered) >= rest:
                ends, used = _lanes(stage, entered, die, rest)
                return ends or {entered}, entering + used
        elif outside_home(board) >= n:
            return _lanes(stage, board, die, n)
        return _canonical(stage, board, die, n)
    plays, used = stage.plays(board)  # rare: a game that may end before the 15th checker is off (Tapa)
    return plays.keys(), used


def _moves(stage: Stage, board: int, die: int, ceiling: int = -1) -> list[tuple[int, int]]:
    """Every single step with ``die``: (source nibble bit, end board), sources within the nibble-mask
    ``ceiling``. The rules of :meth:`Stage.moves`."""
    out = []
    occ = (board | board >> 1 | board >> 2 | board >> 3) & LOW_BITS
    cand = occ & stage.movable[die] & ceiling
    if occ & BAR_BIT:  # checkers on the bar must enter first
        cand &= BAR_BIT
    shift = die << 2
    singles = stage.singles
    while cand:
        low = cand & -cand
        cand ^= low
        land = low >> shift
        end = board - low + land
        if singles & land and not occ & land:
            if stage.track_hits:
                hit = _HIT_BIT[land]
                if not board & hit:
                    end += hit
        out.append((low, end))
    if stage.can_bear_off and not (board & BOARD_MASK) >> HOME_SHIFT:
        src = 1 << shift
        sources = stage.bear_sources & ceiling
        if board & (src * 15):
            if sources & src:
                out.append((src, board - src + 1))
        else:
            top = (occ & BOARD_MASK) >> 4  # a die larger than the highest point bears off from it
            if top and top.bit_length() < shift - 3:
                src = 1 << (top.bit_length() + 3)
                if sources & src:
                    out.append((src, board - src + 1))
    return out


def _two_dice(stage: Stage, board: int, high: int, low: int) -> tuple[set[int], int]:
    full: set[int] = set()
    alone: tuple[set[int], set[int]] = (set(), set())
    terminal = stage.terminal
    for first, second, only in ((high, low, alone[0]), (low, high, alone[1])):
        for _, end1 in _moves(stage, board, first):
            if terminal is not None and terminal(end1):
                full.add(end1)
                continue
            after = _moves(stage, end1, second)
            if after:
                full.update([end for _, end in after])
            else:
                only.add(end1)
    if full:
        return full, 2
    if alone[0]:
        return alone[0], 1
    return alone[1], (1 if alone[1] else 0)


_PLAIN = [{1 << (p << 2): (1 << ((p - d) << 2)) - (1 << (p << 2)) for p in range(d + 1, 26)} for d in range(13)]
"""Per distance d (1..12): {source nibble bit: the board delta of a checker moving d points} (inside the board)."""

_WITH_HIT = [
    {src: delta + (_HIT_BIT[src] >> (d << 2)) for src, delta in plain.items()} for d, plain in enumerate(_PLAIN)
]
"""The same with the hit bit of the landing point."""


def _step_ends(base: int, plain: int, hits: int, die: int) -> list[int]:
    """``base`` plus the board delta of a step with ``die`` from each source of the nibble-masks ``plain`` and
    ``hits`` (the latter land on a blot and hit it)."""
    deltas = _PLAIN[die]
    out = []
    while plain:
        src = plain & -plain
        plain ^= src
        out.append(base + deltas[src])
    if hits:
        deltas = _WITH_HIT[die]
        while hits:
            src = hits & -hits
            hits ^= src
            out.append(base + deltas[src])
    return out


def _enter(stage: Stage, board: int, die: int) -> int | None:
    """The board after a checker enters from the bar with ``die``, or None if the point is closed."""
    if not stage.movable[die] & BAR_BIT:
        return None
    land = BAR_BIT >> (die << 2)
    entered = board - BAR_BIT + land
    if stage.track_hits and stage.singles & land and not board & _HIT_BIT[land]:
        entered += _HIT_BIT[land]
    return entered


def _enter_two_dice(stage: Stage, board: int, high: int, low: int) -> tuple[set[int], int]:
    """Two different dice with checkers on the bar (a stage that ends only by bearing off, which cannot happen
    this turn): two on the bar enter with both dice; one enters with either die and any checker plays the other."""
    by_high, by_low = _enter(stage, board, high), _enter(stage, board, low)
    if board >> BAR_SHIFT & 15 >= 2:
        if by_high is not None and by_low is not None:
            both = _enter(stage, by_high, low)
            return {both}, 2  # type: ignore[arg-type]
        entered = by_high if by_high is not None else by_low
        return ({entered}, 1) if entered is not None else (set(), 0)
    ends: set[int] = set()
    singles = stage.singles if stage.track_hits else 0
    for entered, second in ((by_high, low), (by_low, high)):
        if entered is None:
            continue
        occ = (entered | entered >> 1 | entered >> 2 | entered >> 3) & LOW_BITS
        cand = occ & stage.movable[second]
        hits = cand & (singles & ~occ) << (second << 2)  # not the blot the entering checker just hit
        ends.update(_step_ends(entered, cand ^ hits, hits, second))
    if ends:
        return ends, 2
    entered = by_high if by_high is not None else by_low  # one die only: the larger when it can be played
    return ({entered}, 1) if entered is not None else (set(), 0)


def _open_two_dice(stage: Stage, board: int, high: int, low: int) -> set[int]:
    """Nothing on the bar, nothing to bear off this turn: two checkers (the product of the single steps) or one
    checker moving twice."""
    stacked = (board >> 1 | board >> 2 | board >> 3) & LOW_BITS
    occ = board & LOW_BITS | stacked
    movable = stage.movable
    high_shift, low_shift = high << 2, low << 2
    from_high, from_low = occ & movable[high], occ & movable[low]
    singles = stage.singles if stage.track_hits else 0
    hit_high = from_high & singles << high_shift
    hit_low = from_low & singles << low_shift
    highs = _step_ends(0, from_high ^ hit_high, hit_high, high)
    low_ends = _step_ends(board, from_low ^ hit_low, hit_low, low)
    ends = {end + delta for delta in highs for end in low_ends}
    # Two pairs of the product are wrong (and match no legal end): one lone checker making both steps, and two
    # steps onto one blot, which hit it once only.
    lone = from_high & from_low & ~stacked
    while lone:
        src = lone & -lone
        lone ^= src
        by_high = (_WITH_HIT if hit_high & src else _PLAIN)[high][src]
        ends.discard(board + by_high + (_WITH_HIT if hit_low & src else _PLAIN)[low][src])
    if singles:
        blots = (from_high >> high_shift) & (from_low >> low_shift) & singles
        while blots:
            land = blots & -blots
            blots ^= land
            wrong = board + _WITH_HIT[high][land << high_shift] + _WITH_HIT[low][land << low_shift]
            ends.discard(wrong)
            ends.add(wrong - _HIT_BIT[land])
    # One checker moving twice through a point the mover does not hold (through one it holds, the play equals a
    # pair of the product). Both orders end alike unless the point passed is a blot (hit on the way).
    free = ~occ
    via_high = (from_high >> high_shift) & movable[low] & free  # the points passed, high die first
    via_low = (from_low >> low_shift) & movable[high] & free
    blot_high, blot_low = via_high & singles, via_low & singles
    twice = (via_high ^ blot_high) << high_shift | (via_low ^ blot_low) << low_shift
    distance = high + low
    finals = singles << (distance << 2)  # sources whose final landing is a blot
    plain_both, hit_both = _PLAIN[distance], _WITH_HIT[distance]
    while twice:
        src = twice & -twice
        twice ^= src
        ends.add(board + (hit_both[src] if finals & src else plain_both[src]))
    for passed, shift in ((blot_high, high_shift), (blot_low, low_shift)):
        while passed:
            mid = passed & -passed
            passed ^= mid
            src = mid << shift
            ends.add(board + (hit_both[src] if finals & src else plain_both[src]) + _HIT_BIT[mid])
    return ends


def _canonical(stage: Stage, board: int, die: int, n: int) -> tuple[set[int], int]:
    """Equal dice expanded with non-increasing sources: each end position once."""
    finished: set[int] = set()
    deepest: set[int] = set()
    depth = 0
    terminal = stage.terminal
    stack = [(board, 0, -1)]
    while stack:
        start, taken, ceiling = stack.pop()
        moved = False
        if taken < n:
            for src, end in _moves(stage, start, die, ceiling):
                moved = True
                if terminal is not None and terminal(end):
                    finished.add(end)
                else:
                    stack.append((end, taken + 1, (src << 1) - 1))
        if not moved and taken:
            if taken > depth:
                depth = taken
                deepest = {start}
            elif taken == depth:
                deepest.add(start)
    if finished:
        if depth == n:
            finished |= deepest
        return finished, n
    return deepest, depth


_LANE_STEPS = [
    [
        (
            sum(1 << (point << 2) for point in lane),
            tuple(
                (bit, point << 2, land, land - bit)
                for point in lane
                if point > die
                for bit, land in [(1 << (point << 2), 1 << ((point - die) << 2))]
            ),
        )
        for lane in lanes
    ]
    for die, lanes in enumerate(LANES)
]
"""Per die, per lane: the nibble-mask of its points and, for each point that can step inside the board, (its
nibble bit, its shift, the landing point's nibble bit, the board delta of the step)."""


def _settled(states: dict[int, list[int]]) -> dict[int, list[int]]:
    """The groups with nothing arriving any more: merged by steps used (their lists are reused)."""
    settled: dict[int, list[int]] = {}
    for key, ends in states.items():
        used = key & ~7
        group = settled.get(used)
        if group is None:
            settled[used] = ends
        else:
            group.extend(ends)
    return settled


def _lanes(stage: Stage, board: int, die: int, n: int) -> tuple[list[int], int]:
    """Equal dice in open play, lane by lane (see ``_equal_dice_lanes`` of :mod:`._movegen`); distinct ends."""
    movable, singles = stage.movable[die], stage.singles
    track = stage.track_hits
    sources = (board | board >> 1 | board >> 2 | board >> 3) & movable
    # Partial plays grouped by (steps used, checkers arriving at the current point), keyed 8 * used + arrived:
    # the plays of one group grow alike, so each point costs a few list comprehensions. Lanes follow one
    # another; nothing arrives across.
    states: dict[int, list[int]] = {0: [board]}
    complete: list[int] = []  # the plays that used every die: they grow no further
    whole = n << 3  # the least key of a group that used every die
    for mask, lane in _LANE_STEPS[die]:
        if not sources & mask:
            continue
        arrivals = False
        for src, shift, land, move in lane:
            here = (board >> shift) & 15
            if not (here or arrivals):
                continue
            if not movable & src:
                if arrivals:
                    states, arrivals = _settled(states), False
                continue
            offset_hit = _HIT_BIT[land] if track and singles & land else 0
            grown: dict[int, list[int]] = {}
            arrivals = False
            for key, ends in states.items():
                used = key & ~7
                staying = grown.get(used)
                if staying is None:
                    grown[used] = ends  # the old groups are done with: their lists may be reused
                else:
                    staying.extend(ends)
                most = here + (key & 7)
                left = n - (used >> 3)
                offset = offset_hit
                for k in range(1, (most if most < left else left) + 1):
                    offset += move
                    moved = used + 9 * k  # the group's key after k more steps, k of them arriving
                    if moved >= whole:
                        complete.extend([end + offset for end in ends])
                        continue
                    target = grown.get(moved)
                    if target is None:
                        grown[moved] = [end + offset for end in ends]
                    else:
                        target.extend([end + offset for end in ends])
                    arrivals = True
            states = grown
        if arrivals:
            states = _settled(states)
    if complete:
        return complete, n
    used = max(states)
    if not used:
        return [], 0
    return states[used], used >> 3
