"""GCS's attributes and the values derived from them, for an exported character, as one part of
the sheet (:class:`StatsPart`), made of one part per concern:

* :mod:`.attributes`: the levels bought (``adj``) and the bonuses that give the document's
  values, cost reductions, the pools' current values; the file's ``attributes``.
* :mod:`.damage_table`: the damage progression and Striking ST bonus that give the document's
  thrust and swing.
* :mod:`.derived`: the pools' states (their rules in :mod:`.pools`), Dodge, Basic Lift, Move and
  Dodge per encumbrance level, as GCS computes them.
* :mod:`.points`: the points spent and the file's total.
"""

from __future__ import annotations

from .attributes import AttributesPart
from .damage_table import DamageTablePart
from .derived import DerivedPart
from .points import PointsPart

__all__ = ["StatsPart"]


class StatsPart(AttributesPart, DamageTablePart, DerivedPart, PointsPart):
    """Attributes, derived values and points."""
