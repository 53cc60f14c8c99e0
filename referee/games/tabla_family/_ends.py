"""The fast twin of the step generator: the legal end positions of a stage, without their steps.

Engines list, check and apply plays by end position (a packed board with the hit bits of :mod:`._movegen`);
the steps of a play are needed only to show or send it, and :meth:`Stage.plays` builds them then. Both
generators give the same keys (a test checks them against each other on every dice of random positions, and the
oracle tests against an independent brute-force enumerator); this one adds shortcuts that need no steps
(checkers on the bar entering first, fix-ups of a product found by mask, equal dice chain by chain) where the
game can end only by bearing off the 15th checker, and takes every order of the steps elsewhere (Tapa's mother
stages). Keep :func:`stage_ends` as the one entry point, so that a compiled core can replace it under the same
tests.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache

from ._movegen import BAR_BIT, BAR_SHIFT, BOARD_BITS, BOARD_MASK, HOME_SHIFT, LOW_BITS, Stage, outside_home
from ..engine import NATIVE

_HIT_AT = [1 << (BOARD_BITS + at) for at in range(BOARD_BITS)]
"""The hit bit of each point, by the point's nibble shift (4 × point)."""


def python_stage_ends(stage: Stage, board: int) -> tuple[list[int], int]:
    """The end positions of every legal play of the stage's dice from ``board``, each once and in increasing
    order, and how many dice they use.

    The same end positions as ``stage.plays(board)``.
    """
    ends, used = _ends(stage, board)
    return sorted(ends), used


def _ends(stage: Stage, board: int) -> tuple[Collection[int], int]:
    """:func:`python_stage_ends`, in no particular order."""
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
                entered += _HIT_AT[BAR_SHIFT - (die << 2)]
            rest = n - entering
            if not rest:
                return {entered}, n
            if outside_home(entered) >= rest:
                ends, used = _open_equal_dice(stage, entered, die, rest)
                return ends or {entered}, entering + used
        elif outside_home(board) >= n:
            return _open_equal_dice(stage, board, die, n)
        return _canonical(stage, board, die, n)
    return _any_order(stage, board, die, n)  # a game that may end before the 15th checker is off (Tapa)


def native_stage_ends(stage: Stage, board: int) -> tuple[list[int], int]:
    """:func:`python_stage_ends` computed by the native core."""
    return NATIVE.stage_ends(  # type: ignore[union-attr]
        board, stage.dice, stage.closed, stage.frozen, stage.singles, stage.can_bear_off, stage.track_hits, stage.rule
    )


stage_ends = native_stage_ends if NATIVE is not None else python_stage_ends
"""The engines' entry point: the native core when it runs (see :mod:`.engine`), else the Python generator."""


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
                hit = _HIT_AT[land.bit_length() - 1]
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


_PLAIN = [[0] * BOARD_BITS for _ in range(13)]
"""Per distance d (1..12): the board delta of a checker moving d points inside the board, by the source's nibble
shift (4 × point)."""

_WITH_HIT = [[0] * BOARD_BITS for _ in range(13)]
"""The same with the hit bit of the landing point."""

for _d in range(1, 13):
    for _p in range(_d + 1, 26):
        _PLAIN[_d][_p << 2] = (1 << ((_p - _d) << 2)) - (1 << (_p << 2))
        _WITH_HIT[_d][_p << 2] = _PLAIN[_d][_p << 2] + (1 << (BOARD_BITS + ((_p - _d) << 2)))


def _step_ends(base: int, plain: int, hits: int, die: int) -> list[int]:
    """``base`` plus the board delta of a step with ``die`` from each source of the nibble-masks ``plain`` and
    ``hits`` (the latter land on a blot and hit it)."""
    deltas = _PLAIN[die]
    out = []
    while plain:
        at = plain.bit_length() - 1
        plain ^= 1 << at
        out.append(base + deltas[at])
    if hits:
        deltas = _WITH_HIT[die]
        while hits:
            at = hits.bit_length() - 1
            hits ^= 1 << at
            out.append(base + deltas[at])
    return out


def _enter(stage: Stage, board: int, die: int) -> int | None:
    """The board after a checker enters from the bar with ``die``, or None if the point is closed."""
    if not stage.movable[die] & BAR_BIT:
        return None
    land = BAR_BIT >> (die << 2)
    entered = board - BAR_BIT + land
    hit = _HIT_AT[BAR_SHIFT - (die << 2)]
    if stage.track_hits and stage.singles & land and not board & hit:
        entered += hit
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
        at = lone.bit_length() - 1
        src = 1 << at
        lone ^= src
        by_high = (_WITH_HIT if hit_high & src else _PLAIN)[high][at]
        ends.discard(board + by_high + (_WITH_HIT if hit_low & src else _PLAIN)[low][at])
    if singles:
        blots = (from_high >> high_shift) & (from_low >> low_shift) & singles
        while blots:
            at = blots.bit_length() - 1
            blots ^= 1 << at
            wrong = board + _WITH_HIT[high][at + high_shift] + _WITH_HIT[low][at + low_shift]
            ends.discard(wrong)
            ends.add(wrong - _HIT_AT[at])
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
        at = twice.bit_length() - 1
        twice ^= 1 << at
        ends.add(board + (hit_both[at] if finals >> at & 1 else plain_both[at]))
    for passed, shift in ((blot_high, high_shift), (blot_low, low_shift)):
        while passed:
            at = passed.bit_length() - 1
            passed ^= 1 << at
            src = at + shift
            ends.add(board + (hit_both[src] if finals >> src & 1 else plain_both[src]) + _HIT_AT[at])
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


def _any_order(stage: Stage, board: int, die: int, n: int) -> tuple[set[int], int]:
    """Equal dice in every order, step by step (a stage that may end before the 15th checker is off: a play that
    ends the game is complete, whatever dice it leaves)."""
    frontier = {board}
    finished: set[int] = set()
    terminal = stage.terminal
    depth = 0
    for _ in range(n):
        layer: set[int] = set()
        for start in frontier:
            for _, end in _moves(stage, start, die):
                if terminal is not None and terminal(end):
                    finished.add(end)
                else:
                    layer.add(end)
        if not layer:
            break
        frontier = layer
        depth += 1
    if finished:
        if depth == n:
            finished |= frontier
        return finished, n
    return (frontier, depth) if depth else (set(), 0)


@lru_cache(maxsize=4096)
def _chain_plan(key: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """How the plays of one chain grow, step by step, as index pairs.

    A chain is a run of sources p, p − die, p − 2·die, … (top down). ``key`` packs the most steps n and, 3 bits
    each below it, how many checkers each source holds (at most n); every source also passes on the checkers that
    arrive from the one above. A play of the chain is how many steps each source makes; listing its steps in
    top-down order, the plays with k + 1 steps are those with k steps plus one step from their last source or
    one below. Level k of the result lists, for each play with k + 1 steps, (index of its play in level k − 1,
    or 0 for the empty play; index of its last step in the chain's deltas: 2 × source, + 1 for a source's first
    step, which may hit). Up to n steps; each play once, so each end once.
    """
    caps = []
    while key >= 8:
        caps.append(key & 7)
        key >>= 3
    caps.reverse()
    size = len(caps)
    levels = []
    plays: list[tuple[tuple[int, ...], int]] = [((0,) * size, 0)]  # (steps per source, last source)
    for _ in range(key):
        grown: list[tuple[tuple[int, ...], int]] = []
        plan = []
        for parent, (made, last) in enumerate(plays):
            for source in range(last, size):
                if made[source] < caps[source] + (made[source - 1] if source else 0):
                    steps = list(made)
                    steps[source] += 1
                    grown.append((tuple(steps), source))
                    plan.append((parent, 2 * source + (not made[source])))
        if not grown:
            break
        levels.append(tuple(plan))
        plays = grown
    return tuple(levels)


def _open_equal_dice(stage: Stage, board: int, die: int, n: int) -> tuple[list[int], int]:
    """Equal dice in open play (no checker on the bar, none borne off): distinct ends, chain by chain.

    The sources are the movable points holding checkers and those below them (in steps of ``die``) that an
    arriving checker could leave again. Top down, each source joins the chain of the source above it, unless
    arrivals cannot matter there (a source holding c checkers below e empty sources gains nothing from arrivals
    when c + e ≥ n − 1: a checker arriving used e + 1 steps). Chains do not interact: each chain's plays come from
    its memoised plan (:func:`_chain_plan`), and the plays of the stage are the sums of one play per chain that
    use the most steps.
    """
    movable = stage.movable[die]
    shift = die << 2
    reach = (board | board >> 1 | board >> 2 | board >> 3) & LOW_BITS & movable
    sources = reach
    for _ in range(n - 1):
        reach = (reach >> shift) & movable
        sources |= reach
    singles = stage.singles if stage.track_hits else 0
    plain, hitting = _PLAIN[die], _WITH_HIT[die]
    chains: list[list] = []  # [plan key, deltas (per source: plain, first)]
    below: dict[int, tuple[list, int]] = {}  # the shift of the next source down: (its chain, empty sources above)
    while sources:
        at = sources.bit_length() - 1
        sources ^= 1 << at
        here = board >> at & 15
        above = below.pop(at, None)
        if above is None or here + above[1] >= n - 1:
            chain = [n, []]
            chains.append(chain)
            empty = 0
        else:
            chain, empty = above
        below[at - shift] = (chain, 0 if here else empty + 1)
        chain[0] = chain[0] << 3 | (here if here < n else n)
        chain[1] += (plain[at], hitting[at] if singles >> (at - shift) & 1 else plain[at])
    # Each chain's plays by number of steps (relative deltas; the first chain's from the board), then the sums
    # over the chains that use the most steps.
    options = []
    total = 0
    base = board
    for key, deltas in chains:
        values = [base]
        by_steps = [values]
        for plan in _chain_plan(key):
            values = [values[parent] + deltas[step] for parent, step in plan]
            by_steps.append(values)
        options.append(by_steps)
        total += len(by_steps) - 1
        base = 0
    target = total if total < n else n
    if not target:
        return [], 0
    partial = options[0]  # partial[k]: sums over the chains so far that used k steps
    left = total - len(partial) + 1  # the most steps the chains not yet added can take
    for by_steps in options[1:]:
        most = len(by_steps) - 1
        left -= most
        first = target - left if target > left else 0  # fewer steps so far cannot reach the target any more
        last = len(partial) - 1 + most
        grown = [[] for _ in range(first)]
        for k in range(first, (last if last < target else target) + 1):
            ends = [
                end + delta
                for before in range(k - most if k > most else 0, k if k < len(partial) else len(partial))
                for end in partial[before]
                for delta in by_steps[k - before]
            ]
            if k < len(partial):
                ends += partial[k]
            grown.append(ends)
        partial = grown
    return partial[target], target
