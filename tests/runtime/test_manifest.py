"""Bot specs from files and folders, and a clear error for every broken manifest."""

from __future__ import annotations

import sys

import pytest

from referee.runtime import ManifestError, resolve_bot


def write(folder, text):
    folder.mkdir(exist_ok=True)
    (folder / "bot.toml").write_text(text)
    return folder


def test_python_file(tmp_path):
    bot = tmp_path / "b.py"
    bot.write_text("print(1)\n")
    spec = resolve_bot(bot)
    assert spec.command == (sys.executable, str(bot)) and spec.cwd == tmp_path and len(spec.content_hash) == 64


def test_folder_and_content_hash(tmp_path):
    folder = write(tmp_path / "bot", 'name = "x"\ncommand = "python3 main.py --fast"\ngames = ["tapa"]\n')
    (folder / "main.py").write_text("pass\n")
    spec = resolve_bot(folder)
    assert spec.command == (sys.executable, "main.py", "--fast") and spec.label == "x"
    before = spec.content_hash
    (folder / "main.py").write_text("pass  # changed\n")
    assert resolve_bot(folder).content_hash != before


def test_build_command(tmp_path):
    folder = write(tmp_path / "bot", 'name = "x"\ncommand = ["build/bot"]\nbuild = "make --silent"\n')
    spec = resolve_bot(folder)
    assert spec.build == ("make", "--silent") and spec.command == ("build/bot",)
    (folder / "build").mkdir()
    (folder / "build" / "bot").write_text("built output does not change the content hash")
    assert resolve_bot(folder).content_hash == spec.content_hash


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name = ", "not valid TOML"),
        ('command = ["a"]\n', "missing required key 'name'"),
        ('name = "x"\n', "missing required key 'command'"),
        ('name = "x"\ncommand = 3\n', "must be a string or a list"),
        ('name = "x"\ncommand = []\n', "empty"),
        ('name = "x"\ncommand = "a"\ngames = "tapa"\n', "list of game ids"),
        ('name = 1\ncommand = "a"\n', "'name' must be a string"),
        ('name = "x"\ncommand = "a"\nbuild = 3\n', "'build' must be a string or a list"),
        ('name = "x"\ncommand = "a"\nbuild = ""\n', "'build' is empty"),
        ('name = "a/b"\ncommand = "a"\n', "name 'a/b' must be 1-64 characters"),
        ('name = "x"\ncommand = "a"\nenv = "LEVEL=3"\n', "'env' must be a table"),
        ('name = "x"\ncommand = "a"\nenv = { KAFANA_BOT_ADDRESS = "x" }\n', "not a variable a bot may set"),
        ('name = "x"\ncommand = "a"\nenv = { LEVEL = 3 }\n', "LEVEL must be a string"),
    ],
)
def test_broken_manifests(tmp_path, text, words):
    with pytest.raises(ManifestError, match=words):
        resolve_bot(write(tmp_path / "bot", text))


def test_declared_environment(tmp_path):
    spec = resolve_bot(write(tmp_path / "bot", 'name = "x"\ncommand = "a"\nenv = { LEVEL = "3", A = "" }\n'))
    assert spec.env == (("A", ""), ("LEVEL", "3"))


def test_a_link_out_of_the_folder_is_refused_and_named(tmp_path):
    folder = write(tmp_path / "bot", 'name = "x"\ncommand = "a"\n')
    (tmp_path / "outside.proto").write_text("syntax")
    (folder / "contract.proto").symlink_to(tmp_path / "outside.proto")
    with pytest.raises(ManifestError, match=r"bot/contract.proto links to .*outside.proto, outside the bot's folder"):
        resolve_bot(folder)


def test_links_inside_the_folder_count_as_their_files(tmp_path):
    folder = write(tmp_path / "bot", 'name = "x"\ncommand = "a"\n')
    (folder / "real.txt").write_text("same")
    before = resolve_bot(folder).content_hash
    (folder / "alias.txt").symlink_to("real.txt")
    assert resolve_bot(folder).content_hash != before  # the alias is a file of the bot
    (folder / "loop").symlink_to(".")
    with pytest.raises(ManifestError, match="links back to a folder above it"):
        resolve_bot(folder)
    (folder / "loop").unlink()
    (folder / "gone").symlink_to("missing.txt")
    with pytest.raises(ManifestError, match="which does not exist"):
        resolve_bot(folder)


def test_bad_paths(tmp_path):
    with pytest.raises(ManifestError, match="no bot at"):
        resolve_bot(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ManifestError, match="has no bot.toml"):
        resolve_bot(tmp_path / "empty")
    other = tmp_path / "bot.sh"
    other.write_text("")
    with pytest.raises(ManifestError, match=".py file"):
        resolve_bot(other)
