"""The skills of an exported character in GCS's nodes: each document skill's name split as GCS
writes it (name, specialization, tech level), its difficulty and points, and the skill-bonus
features that give it the document's level where its attribute and points give another.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, Final

from ..format.skill_levels import points_level
from ..format.standard_sheet import ATTRIBUTE_NAMES
from .sheet import (
    ADJUSTMENTS,
    LIMIT,
    SheetBase,
    as_written,
    plain,
    signed,
)

__all__ = ["SkillsPart", "split_skill_name"]


_TABLED_POINTS: Final = 64
_RELATIVE_LEVELS: Final = {
    difficulty: tuple(points_level(difficulty, points) for points in range(_TABLED_POINTS))
    for difficulty in ("e", "a", "h", "vh")
}
""":func:`~..format.skill_levels.points_level` of each difficulty (not the wildcards') for 0 to 63 points."""

_SIGNED_LOW: Final = 32
_SIGNED: Final = tuple(signed(value) for value in range(-_SIGNED_LOW, _SIGNED_LOW))
"""Whole numbers from -32 to 31 with their sign (:func:`~.sheet.signed`), by value + 32."""


_DIFFICULTY_LEVELS: Final = {
    letter: (difficulty, _RELATIVE_LEVELS[difficulty])
    for letter, difficulty in (("E", "e"), ("A", "a"), ("H", "h"), ("VH", "vh"))
}
"""A document skill's difficulty as GCS writes it, with its relative levels for 0 to 63 points."""


_SKILL_NAME: Final = re.compile(r"(?P<name>.+?)(?:/TL(?P<tl>[^\s()/]+))?(?: \((?P<spec>[^()]+)\))?")


class SkillsPart(SheetBase):
    """Skills, with the skill bonuses their levels need."""

    def _skills(self) -> None:
        groups: dict[str | tuple[str, str], float] = {}
        skill_names = self.skill_names
        skill_parts = self.skill_parts
        values = self.values
        new_id = self.ids.new
        nodes = self.skills
        for index, skill in enumerate(self.doc.get("skills", ())):
            full = skill_names[index]
            if "(" not in full and "/TL" not in full:  # neither part: split_skill_name's whole name
                name = full
                spec = tech_level = None
            else:
                parts = skill_parts.get(full)
                if parts is None:
                    parts = skill_parts[full] = split_skill_name(full)
                name, spec, tech_level = parts
            attribute = skill["attribute"]
            difficulty, levels = _DIFFICULTY_LEVELS[skill["difficulty"]]
            points = skill["points"]
            if type(points) is not int or not -LIMIT <= points <= LIMIT:
                points = self.bounded(points, f"/skills/{index}/points", "Points")
                shown = plain(points)
                relative = points_level(difficulty, points)
            else:
                shown = points
                relative = (
                    levels[points] if 0 <= points < _TABLED_POINTS else points_level(difficulty, points)
                )
            ident = new_id("skill")  # drawn before the bonuses' holders draw theirs
            level = skill["level"]
            if type(level) is not int or not -LIMIT <= level <= LIMIT:
                level = math.floor(self.bounded(level, f"/skills/{index}/level", "Skill level"))
            value = values[attribute]
            base = value + relative
            # the skills GCS gives the same bonuses: one name and specialization, in any case
            low = name.lower() if name.isascii() else as_written(name).lower()
            key = (low, spec.lower() if spec.isascii() else as_written(spec).lower()) if spec else low
            given = groups.get(key)
            calc: dict[str, Any]
            if given is not None:
                if base + given != level:
                    self.note(
                        f"/skills/{index}/level",
                        "differs",
                        f"'{skill['name'][:60]}' is listed twice; GCS gives both the same skill bonuses, so "
                        "this "
                        f"one is {plain(base + given)} in GCS, not {level}.",
                    )
                calc = _skill_calc(base + given, attribute, value)
            else:
                needed = groups[key] = level - base
                if needed or "bonuses" in skill:
                    self._skill_bonuses(skill, f"/skills/{index}", name, spec, needed)
                if level <= 0 or type(level) is not int or type(value) is not int:
                    calc = _skill_calc(level, attribute, value)
                else:
                    relative = level - value
                    calc = {
                        "level": level,
                        "rsl": ATTRIBUTE_NAMES[attribute]
                        + (
                            _SIGNED[relative + _SIGNED_LOW]
                            if -_SIGNED_LOW <= relative < _SIGNED_LOW
                            else f"{relative:+d}"
                        ),
                    }
            notes = skill.get("notes")
            if notes or spec or tech_level is not None:
                node: dict[str, Any] = {"id": ident, "name": name}
                if notes:
                    node["local_notes"] = notes
                if spec:
                    node["specialization"] = spec
                node["difficulty"] = f"{attribute}/{difficulty}"
                if tech_level is not None:
                    node["tech_level"] = tech_level
                node["weapons"] = []
                node["features"] = []
                node["points"] = shown
                node["calc"] = calc
                nodes.append(node)
            else:  # the usual skill, made at once (the same keys in GCS's order)
                nodes.append(
                    {
                        "id": ident,
                        "name": name,
                        "difficulty": f"{attribute}/{difficulty}",
                        "weapons": [],
                        "features": [],
                        "points": shown,
                        "calc": calc,
                    }
                )

    def _skill_bonuses(
        self, skill: Mapping[str, Any], pointer: str, name: str, spec: str | None, needed: float
    ) -> float:
        """Skill-bonus features giving the skill ``needed`` levels beyond its attribute and
        points: the document's named bonuses on their traits, and the rest on the adjustments."""
        given = 0
        for position, bonus in enumerate(skill.get("bonuses", ())):
            amount = int(bonus["amount"])
            named = bonus["name"]
            if type(named) is not str or named.strip() != named:
                named = self.name(named, f"{pointer}/bonuses/{position}/name", "bonus")
            # holder()'s look-up first: its pointer is made only for a new trait (and its note)
            holder = self.trait_by_name.get(named) or self.item_by_name.get(named)
            if holder is None:
                holder = self.holder(named, f"{pointer}/bonuses/{position}")
            holder["features"].append(_skill_bonus(name, spec, amount))
            given += amount
        rest = needed - given
        if rest:
            self.adjust(
                _skill_bonus(name, spec, rest),
                f"{signed(int(rest))} to {skill['name']}: its level departs from its attribute and points",
            )
            self.note(
                f"{pointer}/level",
                "deviation",
                f"'{skill['name'][:60]}' is {skill['level']}, {signed(int(rest))} beyond what its "
                "attribute, points and "
                f"named bonuses give by the rules{self.why(pointer + '/level')}: in GCS a skill bonus on "
                f"'{ADJUSTMENTS}' "
                "gives it.",
            )
        return needed


def _skill_calc(level: float, attribute: str, value: float) -> dict[str, Any]:
    """A skill's ``calc``: its level and relative level (``DX+1``); GCS writes none at level 0 or below."""
    if level <= 0:
        return {}
    return {"level": plain(level), "rsl": f"{ATTRIBUTE_NAMES[attribute]}{signed(int(level - value))}"}


def _skill_bonus(name: str, spec: str | None, amount: float) -> dict[str, Any]:
    """A ``skill_bonus`` for exactly one skill name and specialization."""
    return {
        "type": "skill_bonus",
        "selection_type": "skills_with_name",
        "name": {"compare": "is", "qualifier": name},
        "specialization": {"compare": "is", "qualifier": spec} if spec else {"compare": "is"},
        "amount": plain(amount),
    }


def split_skill_name(full: str) -> tuple[str, str | None, str | None]:
    """A document skill name as GCS's name, specialization and tech level (``Guns/TL8
    (Pistol)``), when GCS writes them back as the same text; else the whole name."""
    if "/TL" in full:
        return _split_by_pattern(full)
    # no tech level: at most a specialization, in the parentheses the name ends with
    if full.endswith(")"):
        opening = full.rfind("(")
        if opening > 1 and full[opening - 1] == " ":
            name, spec = full[: opening - 1], full[opening + 1 : -1]
            fits = spec and ")" not in spec and "\n" not in name  # the pattern's parts
            if fits and name == name.strip() and spec == spec.strip():
                return name, spec, None
    return full, None, None  # as _split_by_pattern gives it (a test checks them against each other)


def _split_by_pattern(full: str) -> tuple[str, str | None, str | None]:
    """:func:`split_skill_name` by :data:`_SKILL_NAME` (the pattern's name, ``.+?``, has no line
    break; its specialization has no parentheses and is not empty)."""
    match = _SKILL_NAME.fullmatch(full)
    if match:
        name, tech_level, spec = match.group("name"), match.group("tl"), match.group("spec")
        rebuilt = (
            name + (f"/TL{tech_level}" if tech_level is not None else "") + (f" ({spec})" if spec else "")
        )
        if rebuilt == full and name == name.strip() and (spec is None or spec == spec.strip()):
            return name, spec, tech_level
    return full, None, None
