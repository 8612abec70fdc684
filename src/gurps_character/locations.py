"""Hit locations: one vocabulary for every function that takes one (standard library only).

The rules name a humanoid's locations in the singular (``arm``, B398); the format's DR table
names them as the sheet does (``locationId``: ``arms``, ``eyes``). Both spellings are accepted
wherever a location is asked for, and :func:`rule_location` turns either into the rule's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal, TypeAlias

__all__ = ["HIT_LOCATIONS", "LOCATION_NAMES", "HitLocation", "rule_location"]

HitLocation: TypeAlias = Literal[
    "skull", "face", "eye", "neck", "torso", "vitals", "groin", "arm", "hand", "leg", "foot"
]
"""A humanoid hit location by the rule's name (B398)."""

HIT_LOCATIONS: Final[tuple[HitLocation, ...]] = (
    "skull",
    "face",
    "eye",
    "neck",
    "torso",
    "vitals",
    "groin",
    "arm",
    "hand",
    "leg",
    "foot",
)
"""The rule's names of a humanoid's hit locations, head to foot."""

LOCATION_NAMES: Final[Mapping[str, HitLocation]] = MappingProxyType(
    {
        **{name: name for name in HIT_LOCATIONS},
        "eyes": "eye",
        "arms": "arm",
        "hands": "hand",
        "legs": "leg",
        "feet": "foot",
    }
)
"""Every accepted spelling (the rule's names and the format's ``locationId`` values) → the
rule's name."""


def rule_location(name: str) -> HitLocation | None:
    """The rule's name for a location given either way (``"arms"`` → ``"arm"``), or None."""
    return LOCATION_NAMES.get(name) if isinstance(name, str) else None
