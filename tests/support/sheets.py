"""What every rendered sheet holds, for the sheet's tests in this process and in a browser."""

from __future__ import annotations

from typing import Final

__all__ = ["SECTIONS"]

SECTIONS: Final = (
    "profile",
    "attributes",
    "secondary",
    "condition",
    "encumbrance",
    "defenses",
    "dr",
    "reactions",
    "traits",
    "skills",
    "melee",
    "ranged",
    "equipment",
    "notes",
    "points",
)
"""The ids of the sheet's sections, in page order: each is on every sheet, empty or not."""
