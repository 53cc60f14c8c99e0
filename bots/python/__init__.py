"""Python bots and the kit that serves a Python function as a Kafana bot (:func:`bots.python.kit.serve`)."""
