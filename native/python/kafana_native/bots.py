"""The shipped bots' accelerators (``native/src/bots/``), each the twin of a Python reference in ``bots/python/``.

:func:`gaps_solve` (``gaps_solver.py``'s search), :func:`durak_rollouts` (``durak_mc_bot.py``'s greedy rollouts
of guessed deals), :func:`extra_inputs` (``td_inputs.py``'s extra inputs), :class:`ValueNet` (``td_network.py``'s
network in float32), :func:`best_replies` (every roll's best reply valued by a :class:`ValueNet`, the search
step of ``td2_bot.py``), :func:`td_self_play` (``td_train.py``'s TD(λ) self-play of a points network),
:func:`td_rollouts` (self-play positions valued by the network's rollouts, ``rollout_train.py``'s data) and
:func:`bearoff_values` (the exact values of races in which both sides bear off, by one-sided tables). A bot uses
them when ``referee.games.engine`` says the native core is the engine in use.
"""

from kafana_native._core import bots as _part

ValueNet = _part.ValueNet
bearoff_values = _part.bearoff_values
best_replies = _part.best_replies
durak_rollouts = _part.durak_rollouts
gaps_solve = _part.gaps_solve
extra_inputs = _part.extra_inputs
td_rollouts = _part.td_rollouts
td_self_play = _part.td_self_play

__all__ = ["ValueNet", "bearoff_values", "best_replies", "durak_rollouts", "extra_inputs", "gaps_solve",
           "td_rollouts", "td_self_play"]
