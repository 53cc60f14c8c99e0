"""``referee new-bot``: a bot folder made from the starter of a language, with its own name, author and games.

The starters (``bots/<language>/``, and ``kit/example/`` for Python) are whole bots that play a random legal action
in every game. A new bot is a copy of one (its files as a bot's copy holds them: no build output, no generated
code), with the starter's name replaced by the new one wherever it names the bot (the manifest, the Hello, the
crate, module or artifact), its author likewise, the list of games its manifest and its Hello claim cut to the games
asked for, and a README that says where to write the decision and the next three commands. It passes
``referee check-bot`` as written (tests/bots/test_new_bot.py).
"""

from __future__ import annotations

import re
import shutil
import textwrap
from dataclasses import dataclass
from pathlib import Path

from referee.games import GAMES
from referee.games.registry import shipped_games
from referee.runtime.manifest import folder_files, resolve_bot

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")
"""A new bot's name: it is also a crate's, a Go module's and a Maven artifact's, so lower case, digits and ``-``."""
AUTHOR = re.compile(r"[^\"\\\x00-\x1f\x7f]{1,60}")
"""An author as it can stand between double quotes in every starter's language."""
GENERATED = ("kafanav1", "types")
"""Top folders of a starter that its own build or checks generate (Go's package, TypeScript's types)."""


@dataclass(frozen=True)
class Starter:
    """One language's starter."""

    folder: str
    """Where it lies in the repository."""
    language: str
    """The language, as a README names it."""
    decision: str
    """The file that holds its decision (``choose``)."""


STARTERS = {
    "python": Starter("kit/example", "Python (with kafana_kit)", "random_bot.py"),
    "javascript": Starter("bots/javascript", "JavaScript", "random_bot.js"),
    "c++": Starter("bots/cpp", "C++", "random_bot.cc"),
    "go": Starter("bots/go", "Go", "random_bot.go"),
    "rust": Starter("bots/rust", "Rust", "src/main.rs"),
    "java": Starter("bots/java", "Java", "src/main/java/kafana/bot/RandomBot.java"),
}
LANGUAGES = tuple(STARTERS)


class NewBotError(ValueError):
    """The new bot cannot be made as asked; the message says why."""


def _readme(name: str, starter: Starter, games: list[str], original: str | None) -> str:
    """The new bot's README: what it is, where its decision is, the next three commands, and the starter's notes
    on its kit (``original``, the starter's README, whose own commands are the starter's)."""
    play = games[0]
    lines = [
        f"# {name}: a Kafana bot in {starter.language}",
        "",
        textwrap.fill(f"Made by `referee new-bot` from the {starter.language} starter: it plays a random legal "
                      f"action in {', '.join(games)}. Write your own decision in `{starter.decision}` (`choose`).",
                      width=116),
        "",
        "```",
        f"referee check-bot {name}                    # build it and run the conformance checks, sandboxed",
        f"referee play {play} {name} {name} --games 2    # watch it play itself (then: referee show REPLAY)",
        f"ladder submit {name}                        # enter it in a league (ladder.db here)",
        "```",
    ]
    if original is not None:
        blocks = re.split(r"```.*?```\n?", original, maxsplit=1, flags=re.S)
        intro = blocks[0].split("\n", 1)[1].strip()  # below the starter's heading
        after = blocks[1].strip() if len(blocks) > 1 else ""
        lines += ["", "## The kit", "", intro, *(["", after] if after else [])]
    return "\n".join(lines) + "\n"


def new_bot(target: Path, language: str, games: list[str], author: str) -> Path:
    """Write the bot ``target`` (a folder that does not exist yet; its name is the bot's) from the starter of
    ``language``, claiming ``games`` (every game when empty), by ``author``; return its folder.

    Raises:
        NewBotError: an unknown language or game, a name or author the starters cannot carry, a folder that
            exists, or a starter missing from this installation.
    """
    name = target.name
    if language not in STARTERS:
        raise NewBotError(f"no starter for {language!r} (known: {', '.join(LANGUAGES)})")
    if not NAME.fullmatch(name):
        raise NewBotError(f"{name!r} cannot name a bot: lower-case letters, digits and '-', starting with a letter, "
                          "at most 40 (it also names the crate, module or artifact)")
    if not AUTHOR.fullmatch(author):
        raise NewBotError(f"{author!r} cannot be an author: 1 to 60 characters, no quotes, backslashes or controls")
    unknown = sorted(set(games) - set(GAMES))
    if unknown:
        raise NewBotError(f"unknown game {unknown[0]!r} (known: {', '.join(sorted(GAMES))})")
    if target.exists():
        raise NewBotError(f"{target} already exists: name a new folder")
    starter = STARTERS[language]
    source = ROOT / starter.folder
    if not (source / "bot.toml").is_file():
        raise NewBotError(f"the {language} starter is not in this installation ({source}): use a clone of Kafana")
    old_name = str(resolve_bot(source).manifest["name"])
    decision = (source / starter.decision).read_text()
    every_game = ", ".join(f'"{game}"' for game in shipped_games())  # as the starters list them
    if every_game not in decision or f'"{old_name}"' not in decision:
        raise NewBotError(f"the {language} starter no longer names itself and its games in {starter.decision} as "
                          "referee/newbot.py expects: update it")
    claimed = sorted(set(games)) if games else sorted(GAMES)
    replacements = [(every_game, ", ".join(f'"{game}"' for game in claimed)), ('"Kafana"', f'"{author}"'),
                    (old_name, name), (old_name.replace("-", "_"), name.replace("-", "_"))]
    staging = target.parent / f".{name}.new"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        for path in folder_files(source):
            relative = path.relative_to(source)
            if relative.parts[0] in GENERATED or relative == Path("README.md"):
                continue
            copied = staging / relative
            copied.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, copied)
            if relative.parts[0] != "proto":
                _replace_in(copied, replacements)
        readme = source / "README.md"
        text = readme.read_text().replace(old_name, name) if readme.is_file() else None
        (staging / "README.md").write_text(_readme(name, starter, claimed, text))
        staging.rename(target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target


def _replace_in(path: Path, replacements: list[tuple[str, str]]) -> None:
    """Apply ``replacements`` (old, new) to the text file ``path`` (a file that is not UTF-8 text is left)."""
    try:
        text = path.read_text()
    except UnicodeDecodeError:
        return
    changed = text
    for old, new in replacements:
        changed = changed.replace(old, new)
    if changed != text:
        path.write_text(changed)
