"""The profile and notes of an exported character: name, age, height and weight (converted to
GCS's feet, inches and pounds), player, tech level and size modifier; the appearance and the
document's notes as GCS notes; and a note for what has no place in a GCS file (extensions).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from .sheet import (
    LIMIT,
    SheetBase,
    fxp_text,
)

__all__ = ["ProfilePart"]


_EMPTY: Final[MappingProxyType[str, Any]] = MappingProxyType({})
"""An object the document leaves out, read as empty (read only: no dict made for each read)."""


_METRIC_LENGTH: Final = re.compile(r"\s*(\d{1,6}(?:[.,]\d+)?)\s*(m|cm)\s*", re.IGNORECASE)

_FEET_INCHES: Final = re.compile(r"""\s*(\d{1,4}(?:\.\d+)?)\s*'(?:\s*(\d{1,4}(?:\.\d+)?)\s*")?\s*""")

_WEIGHT: Final = re.compile(r"\s*(\d{1,6}(?:[.,]\d+)?)\s*(kg|lb|lbs)\.?\s*", re.IGNORECASE)


class ProfilePart(SheetBase):
    """The profile, the notes and what the file cannot carry."""

    def _profile(self) -> dict[str, Any]:
        profile = self.doc["profile"]  # required, with its name; its other texts are text
        out: dict[str, Any] = {"name": profile["name"]}
        age = profile.get("age")
        if age:
            out["age"] = age
        height = profile.get("height")
        if height and height.strip():
            converted = _feet_and_inches(height)
            if converted is None:
                self.note(
                    "/profile/height",
                    "notCarried",
                    f"GCS writes heights in feet and inches: '{height[:40]}' is not one it can hold.",
                )
            else:
                out["height"] = converted
                if converted != height:
                    self.note(
                        "/profile/height",
                        "approximated",
                        f"Height {height} is {converted} (2.5 cm to the inch, as GCS converts).",
                    )
        weight = profile.get("weight")
        if weight and weight.strip():
            converted = _pounds(weight)
            if converted is None:
                self.note(
                    "/profile/weight",
                    "notCarried",
                    f"GCS writes weights in pounds: '{weight[:40]}' is not one it can hold.",
                )
            else:
                out["weight"] = converted
                if converted != weight:
                    self.note(
                        "/profile/weight",
                        "approximated",
                        f"Weight {weight} is {converted} (2 lb to the kg, as GCS converts).",
                    )
        player = profile.get("player")
        if player:
            out["player_name"] = player
        level = self.doc.get("techLevel", _EMPTY).get("level")
        if type(level) is int or (isinstance(level, int) and not isinstance(level, bool)):
            out["tech_level"] = str(level)
        size = profile.get("sizeModifier")
        if size:  # none or 0: no SM, as bounded() reads them
            if type(size) is not int or not -LIMIT <= size <= LIMIT:
                size = int(self.bounded(size, "/profile/sizeModifier", "Size modifier"))
            if size:
                out["SM"] = size
        return out

    def _notes(self) -> list[dict[str, Any]]:
        found = []
        appearance = self.doc["profile"].get("appearance")
        if appearance:
            appearance = appearance.strip()
            if appearance:
                found.append({"id": self.ids.new("note"), "markdown": "Appearance: " + appearance})
                self.note(
                    "/profile/appearance",
                    "approximated",
                    "GCS's profile has no appearance text: it is the first note.",
                )
        texts = self.doc.get("notes")
        if texts:
            new_id = self.ids.new
            for text in texts:
                if text:  # a valid document's notes are text
                    found.append({"id": new_id("note"), "markdown": text})
        return found

    def _not_carried(self) -> None:
        extensions = self.doc.get("extensions")
        if isinstance(extensions, Mapping) and extensions:
            self.note(
                "/extensions",
                "notCarried",
                f"The document's extensions ({', '.join(sorted(extensions)[:5])}) have no place in a GCS "
                "file.",
            )


def _feet_and_inches(height: str) -> str | None:
    """A height as GCS writes it (``5'8"``): metric converted at 2.5 cm to the inch."""
    imperial = _FEET_INCHES.fullmatch(height) if "'" in height else None  # feet are marked with '
    if imperial is not None:
        inches = round(float(imperial.group(1)) * 12 + float(imperial.group(2) or 0), 1)
    else:
        match = _METRIC_LENGTH.fullmatch(height)
        if match is None:
            return None
        amount = float(match.group(1).replace(",", "."))
        centimetres = amount * 100 if match.group(2).lower() == "m" else amount
        inches = round(centimetres / 2.5, 1)
    feet, rest = divmod(inches, 12)
    rest = round(rest, 1)  # plain() of it is itself (to 4 decimals already), or its int when whole
    if not rest:
        return f"{int(feet)}'"
    return f"{int(feet)}'{int(rest) if rest.is_integer() else rest}\""


def _pounds(weight: str) -> str | None:
    """A weight as GCS writes it (``128 lb``): kilograms at 2 lb each."""
    match = _WEIGHT.fullmatch(weight)
    if match is None:
        return None
    amount = float(match.group(1).replace(",", "."))
    pounds = amount * 2 if match.group(2).lower() == "kg" else amount
    return f"{fxp_text(pounds)} lb"
