"""Knockouts: single elimination on a seeded bracket, and double elimination by losses.

Single elimination places the seeds on a standard bracket (1 meets the last seed, 1 and 2 can meet only in the
final) of the next power of two; the places left empty are byes, which go to the best seeds. Double elimination
keeps a winners' bracket (no loss yet, paired in bracket order) and a losers' bracket (one loss, paired by seed);
a second loss knocks an entrant out; the two last meet in a grand final, played again if the winners' bracket
entrant loses it. In both, an odd group out gives a bye to its best seed.
"""

from __future__ import annotations

from .model import Group, History, Round, next_power_of_two


def bracket_positions(size: int) -> list[int]:
    """The seeds in bracket order for a bracket of ``size`` (a power of two): neighbours meet in round 1.

    >>> bracket_positions(4), bracket_positions(8)
    ([1, 4, 2, 3], [1, 8, 4, 5, 2, 7, 3, 6])
    """
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, doubled - s)]
    return order


def single_elimination(history: History) -> Round | None:
    """The next round of a single-elimination bracket, or None when it has a champion.

    >>> from ladder.tournaments.model import Result
    >>> h = History(entrants=[10, 20, 30, 40, 50])
    >>> first = single_elimination(h); [g.seats for g in first.groups], first.byes
    ([(40, 50)], (10, 20, 30))
    >>> h.rounds.append(first); h.results.append([Result((1, 3), 50)])
    >>> [g.seats for g in single_elimination(h).groups]
    [(10, 50), (20, 30)]
    """
    entrants = list(history.entrants)
    size = next_power_of_two(len(entrants))
    slots: list[int | None] = [entrants[s - 1] if s <= len(entrants) else None for s in bracket_positions(size)]
    played = {group.label: (group, result) for group, result in history.played()}
    number = 0
    while True:
        number += 1
        if len(slots) == 1:
            return None
        pairs = [(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]
        labelled = [(f"R{number}-{k + 1}", a, b) for k, (a, b) in enumerate(pairs)]
        if number > len(history.rounds):
            groups = tuple(Group((a, b), label) for label, a, b in labelled if a is not None and b is not None)
            byes = tuple(x for _, a, b in labelled for x in (a, b) if x is not None and (a is None or b is None))
            if not groups and len(slots) == 2:
                return None  # the final has one side only: its entrant is the champion
            return Round(number, groups, byes)
        slots = []
        for label, a, b in labelled:
            if a is None or b is None:
                slots.append(a if b is None else b)
            else:
                slots.append(played[label][1].winner)


def champion(history: History) -> int | None:
    """The winner of a finished single-elimination bracket (None while it runs)."""
    if single_elimination(history) is not None:
        return None
    entrants = list(history.entrants)
    if len(entrants) == 1:
        return entrants[0]
    last = history.played()
    return last[-1][1].winner if last else None


def _losses(history: History) -> dict[int, int]:
    losses = {v: 0 for v in history.entrants}
    for group, result in history.played():
        for version in group.seats:
            if result.winner is not None and version != result.winner:
                losses[version] += 1
    for version in history.withdrawn:
        losses[version] = 2
    return losses


def _pair_in_order(players: list[int], history: History, tag: str, number: int) -> tuple[list[Group], list[int]]:
    """Neighbours in ``players`` meet; an odd one out gives the best seed a bye."""
    byes = []
    if len(players) % 2:
        best = min(players, key=history.seed)
        players = [p for p in players if p != best]
        byes.append(best)
    groups = [Group((players[i], players[i + 1]), f"{tag}{number}-{i // 2 + 1}") for i in range(0, len(players), 2)]
    return groups, byes


def double_elimination(history: History) -> Round | None:
    """The next round of a double-elimination knockout, or None when one entrant is left with fewer than two
    losses.

    >>> from ladder.tournaments.model import Result
    >>> h = History(entrants=[1, 2, 3, 4])
    >>> r1 = double_elimination(h); [(g.label, g.seats) for g in r1.groups]
    [('W1-1', (1, 4)), ('W1-2', (2, 3))]
    >>> h.rounds.append(r1); h.results.append([Result((3, 1), 1), Result((1, 3), 3)])
    >>> r2 = double_elimination(h); [(g.label, g.seats) for g in r2.groups]
    [('W2-1', (1, 3)), ('L2-1', (2, 4))]
    """
    losses = _losses(history)
    alive = [v for v in history.entrants if losses[v] < 2]
    if len(alive) <= 1:
        return None
    number = len(history.rounds) + 1
    order = {seed: k for k, seed in enumerate(bracket_positions(next_power_of_two(len(history.entrants))))}
    winners = sorted((v for v in alive if losses[v] == 0), key=lambda v: order[history.seed(v)])
    losers = sorted((v for v in alive if losses[v] == 1), key=history.seed)
    if len(winners) + len(losers) == 2 and len(winners) < 2:
        return Round(number, (Group(tuple(winners + losers), "final" if winners else "final-reset"),))
    groups: list[Group] = []
    byes: list[int] = []
    for bracket, tag in ((winners, "W"), (losers, "L")):
        if len(bracket) > 1:
            paired, rested = _pair_in_order(bracket, history, tag, number)
            groups += paired
            byes += rested
        else:
            byes += bracket  # alone in its bracket: waits for the other
    return Round(number, tuple(groups), tuple(byes))


def double_champion(history: History) -> int | None:
    """The one entrant left with fewer than two losses, once the knockout is over."""
    if double_elimination(history) is not None:
        return None
    losses = _losses(history)
    left = [v for v in history.entrants if losses[v] < 2]
    return left[0] if len(left) == 1 else None
