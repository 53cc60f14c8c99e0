"""A bot that tries to see the hidden cards. At its first decision of a Durak or Gapa game it deals the game again
from every seed it could derive from what it is sent (the match id and its parts; the ladder's old seed, a hash
of the league, arena, round and pairing; the public seeds of ``referee play``), through the engines it can read,
with the referee's chance stream and with Python's own generator. A seed that deals exactly what it sees would
give away the opponent's hand and the stock. Its first answer's comment says how many did (``SAW k OF n``); it
then plays the first legal action."""

import hashlib
import random
import re

from bots.python.kit import serve
from referee.chance import ChanceStream
from referee.games import CHANCE, make_game
from referee.wire import ActResponse

LADDER_ID = re.compile(r"^(?P<prefix>.+)-r(?P<round>\d+)-(?P<pairing>\d+(?:v\d+)*)-(?P<rotation>\d+)$")
LOCAL_ID = re.compile(r"^.+-s(?P<seed>-?\d+)-(?P<number>\d+)$")


def old_seed(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)


def candidates(match_id: str) -> list[object]:
    """Every seed a bot could derive from the match id."""
    found: list[object] = [match_id, *re.findall(r"\d+", match_id)]
    ladder = LADDER_ID.match(match_id)
    if ladder:
        prefix, number, pairing = ladder["prefix"], ladder["round"], ladder["pairing"].replace("v", "-")
        for cut in [m.start() for m in re.finditer("-", prefix)]:
            league, arena = prefix[:cut], prefix[cut + 1 :]
            found += [old_seed(f"{league}/{arena}/{number}/{pairing}"), old_seed(f"/{arena}/{number}/")]
    local = LOCAL_ID.match(match_id)
    if local:
        public = f"{local['seed']}/{int(local['number']) - 1}"
        found += [public, old_seed(public)]
    return found


def streams(seed: object) -> list[random.Random]:
    return [ChanceStream(str(seed)), random.Random(seed if isinstance(seed, int) else str(seed))]


def deals_what_it_sees(request, rng: random.Random) -> bool:
    """Whether dealing from ``rng`` gives what the bot sees now: its Durak hand (unchanged until it first acts),
    or its whole Gapa view when no decision was taken yet."""
    state = make_game(request.game, dict(request.options)).new_state()
    while state.current_player == CHANCE:
        state.apply(state.sample_chance(rng))
    if request.game == "durak":
        return sorted(state.view(request.seat).hand) == sorted(request.view.hand)
    return request.decision == 0 and state.view(request.seat) == request.view


seen: set[str] = set()


def choose(request):
    if request.match_id.startswith("check-") or request.match_id in seen:
        return 0
    seen.add(request.match_id)
    tried = [rng for seed in candidates(request.match_id) for rng in streams(seed)]
    saw = sum(deals_what_it_sees(request, rng) for rng in tried)
    return ActResponse(0, f"SAW {saw} OF {len(tried)}")


serve(choose, name="seer", games=["durak", "gapa"])
