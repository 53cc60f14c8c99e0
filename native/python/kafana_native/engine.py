"""The engine core: the compiled twins of the Python engines' hot paths (``native/src/engine/``).

The Tabla family's stage generator (:func:`stage_ends`, :func:`stage_plays`), its games as state machines behind
the State API (:class:`FamilyCore`, with :class:`FamilyStage` the plays of a stage), Durak deals behind the State
API (:class:`DurakCore`, :class:`DurakListing`, the actions' table :func:`durak_actions`), random playouts of whole
games (:func:`playouts`, :func:`durak_playouts`) and the features of each play's position for evaluators
(:func:`after_features`, rows of :data:`FEATURES` float32). ``referee.games.engine`` decides whether it runs; the
Python engines are the reference it is tested against.
"""

from kafana_native._core import engine as _part

DurakCore = _part.DurakCore
DurakListing = _part.DurakListing
FamilyCore = _part.FamilyCore
FamilyStage = _part.FamilyStage
FEATURES: int = _part.FEATURES
after_features = _part.after_features
durak_actions = _part.durak_actions
durak_playouts = _part.durak_playouts
playouts = _part.playouts
stage_ends = _part.stage_ends
stage_plays = _part.stage_plays

__all__ = ["FEATURES", "DurakCore", "DurakListing", "FamilyCore", "FamilyStage", "after_features", "durak_actions",
           "durak_playouts", "playouts", "stage_ends", "stage_plays"]
