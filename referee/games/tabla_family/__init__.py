"""The Tabla family: Tabla, Gjul Bara and Tapa (the three games of a Tabla match) and the match itself.

One engine (``_family``) with each game's rules in its module; the move generator on packed boards
(``_movegen``: steps; ``_ends``: end positions, or the native core's), the dice (``_dice``), plays in notation
(``_plays``) and the board views (``_views``).

The evaluator API, for bots that value positions: :class:`FamilyState` (its ``sides``, and its ``game`` whose id
and ``core_options()`` the native core's functions of a position take), :func:`pack` and :mod:`.features` (the
features of each play's position, every roll's replies).
"""

from ._family import FamilyState
from ._movegen import pack

__all__ = ["FamilyState", "pack"]
