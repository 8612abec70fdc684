"""What every part of one import shares: the GCS file, the features in force, the notes, and
the GCS causes behind values that may differ from the format's formulas."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..format.features import Features
from ..format.fields import Node, Walked, section_nodes
from .notes import NoteKind, NoteLog

__all__ = ["Context"]


@dataclass(slots=True)
class Context:
    """The state of one import (never shared between imports).

    Attributes:
        data: The GCS file (owned by the importer).
        version: Its version (1, 2, 4 or 5).
        traits_key: ``traits`` (v4, v5) or ``advantages`` (v1, v2).
        features: The features in force.
        log: The notes so far.
        causes: Document pointer → what in the GCS file makes GCS's value what it is; the
            justification of a deviation found there.
        origins: Document pointer → JSON Pointer of the GCS data it came from (for notes).
        other_points: Points GCS counts that the document has no list for (``breakdown.other``),
            by what they are.
    """

    data: Node
    version: int
    traits_key: str
    features: Features
    log: NoteLog
    causes: dict[str, list[str]] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)
    other_points: dict[str, float] = field(default_factory=dict)
    attribute_values: dict[str, float] = field(default_factory=dict)
    """GCS attribute id → GCS's value (for weapon defaults)."""
    active_ops: dict[str, list[str]] = field(default_factory=dict)
    """Threshold op (``halve_move``...) → the active states that have it, as "FP 'Collapse'"."""
    unhalved_encumbrance: dict[str, list[int]] = field(default_factory=dict)
    """Move and Dodge per level before GCS's halving for the pools, when GCS halved them."""
    walked: Walked = field(default_factory=dict)
    """The walks of the file's top-level lists so far (see :meth:`section`)."""

    def section(self, key: str, *, skip_disabled: bool = False) -> list[tuple[Node, str, int]]:
        """Every node of the file's top-level list ``key`` (``skills``, ``traits``...) and of its
        children, as :func:`~..format.fields.walk` gives them, walked once per import."""
        return section_nodes(self.data, key, self.walked, skip_disabled=skip_disabled)

    def note(self, source: str, kind: NoteKind, message: str) -> None:
        self.log.add(source, kind, message)

    def cause(self, pointer: str, reason: str, source: str = "") -> None:
        """Records why GCS's value at a document pointer may differ from the formula."""
        if source:
            self.origins.setdefault(pointer, source)
        reasons = self.causes.setdefault(pointer, [])
        if reason not in reasons:
            reasons.append(reason)

    def add_other(self, what: str, points: float) -> None:
        if points:
            self.other_points[what] = self.other_points.get(what, 0) + points
