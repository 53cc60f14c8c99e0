"""A bot that points the referee elsewhere: it listens on a socket of its own name and makes the socket the
referee expects (``$KAFANA_BOT_ADDRESS``) a symbolic link to ``$KAFANA_TEST_LINK``: another bot's socket through
the referee's descriptors (``/proc/self/fd/N/…``), a socket of the host, or its own real socket."""

import os

from bots.python.kit import serve

expected = os.environ["KAFANA_BOT_ADDRESS"].removeprefix("unix:")
own = f"{expected}.real"
target = os.environ["KAFANA_TEST_LINK"].replace("{own}", own)
os.environ["KAFANA_BOT_ADDRESS"] = f"unix:{own}"
os.symlink(target, expected)
serve(lambda request: 0, name="symlinker", games=["tapa"])
