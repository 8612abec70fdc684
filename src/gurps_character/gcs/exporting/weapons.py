"""The weapons of an exported character: each on its item (or, without cost and weight, on a
trait, as GCS keeps natural attacks) as GCS's melee and ranged modes, with the skill it is used
with (or GCS's DX-4 default), its damage fields and its parry field; and the level of a weapon's
skill that its computed values (:mod:`.weapon_calc`) and the defenses (:mod:`.defenses`) read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from ..format.weapon_damage import damage_from_calc
from .damage_fields import _common_damage, _damage_fields, _Recipe
from .sheet import (
    EQUIPMENT_KEYS,
    LIMIT,
    SheetBase,
    leading_int,
    reordered,
    text_of,
)
from .skills import split_skill_name
from .weapon_skills import _SkillFinder

__all__ = ["WeaponsPart"]


_PARRY: Final = re.compile(r"\s*[+-]?\d+\s*([FU]*)\s*", re.IGNORECASE)


_RULE_OF_20: Final = 20


_RANGED_TEXTS: Final = (
    ("minST", "strength"),
    ("accuracy", "accuracy"),
    ("range", "range"),
    ("rateOfFire", "rate_of_fire"),
    ("shots", "shots"),
)
"""A ranged weapon's texts: the document's key and GCS's, in GCS's order."""


_Mode = tuple[dict[str, Any], str | None, int, int, int | None, tuple[int, str] | None, _Recipe | None]
"""A weapon mode written: its GCS node; the skill it is used with; the weapon's index and the
damage line's (-1 for a ranged weapon), which make its pointer when a note needs it; its minimum
ST; its parry's modifier and flags (None when it cannot parry); its damage's recipe (None when
the damage is not of the common form)."""


class WeaponsPart(SheetBase):
    """Weapons on their items or traits, and their skills' levels."""

    _modes: Sequence[_Mode] = ()
    """The weapon modes written, for their levels, damage and parry (set by :meth:`_weapons`)."""
    _skill_finder: _SkillFinder | None = None
    """The skills indexed for the weapons' (made for the first weapon)."""
    _skill_places: dict[str, int] | None = None
    """Where each skill name is first in ``skill_names`` (made when first asked)."""

    def _weapons(self) -> None:
        weapons = self.doc.get("weapons", {})
        modes: list[_Mode] = []
        self._modes = modes
        for kind in ("melee", "ranged"):
            for index, weapon in enumerate(weapons.get(kind, [])):
                raw = weapon["name"]
                name = raw.strip() if type(raw) is str else None
                if name is None or name != raw:
                    name = self.name(raw, f"/weapons/{kind}/{index}/name", "weapon")
                cost = weapon.get("cost", 0)  # (none is 0, as cost_and_weight reads it)
                weight = weapon.get("weight", 0)
                if (
                    (type(cost) is not int and type(cost) is not float)
                    or not -LIMIT <= cost <= LIMIT
                    or (type(weight) is not int and type(weight) is not float)
                    or not -LIMIT <= weight <= LIMIT
                ):  # (the usual numbers need no pointer for a note)
                    cost, weight = self.cost_and_weight(weapon, f"/weapons/{kind}/{index}")
                owner: dict[str, Any]
                if cost or weight or "cost" in weapon or "weight" in weapon:
                    owner = self.new_item(name, cost, weight, text_of(weapon.get("notes")))
                    if weapon.get("legalityClass") is not None:
                        owner["legality_class"] = str(weapon["legalityClass"])
                        owner = reordered(owner, EQUIPMENT_KEYS)
                        self.equipment[-1] = owner
                        self.item_by_name[name] = self.item_by_name.get(name) or owner
                else:
                    owner = self.new_trait(
                        name, 0, ["Advantage", "Natural Attack"], text_of(weapon.get("notes"))
                    )
                    self.note(
                        f"/weapons/{kind}/{index}",
                        "added",
                        f"'{name[:60]}' has no cost or weight: in the GCS file it is a 0-point trait with "
                        "the "
                        "weapon (GCS keeps natural attacks on traits).",
                    )
                skill = self._weapon_skill(weapon, name, kind, index)
                if kind == "melee":
                    self._melee(weapon, owner["weapons"], skill, index, modes)
                else:
                    self._ranged(weapon, owner["weapons"], skill, index, modes)

    def _weapon_skill(self, weapon: Mapping[str, Any], name: str, kind: str, index: int) -> str | None:
        """The document skill a weapon (``name``, stripped) is used with: one named as the weapon
        (its name, or its name without a parenthesized part), else the longest skill name its notes
        mention, else the longest one its name contains as words; None (a DX default) when none
        fits."""
        finder = self._skill_finder
        if finder is None:  # made for the first weapon
            finder = self._skill_finder = _SkillFinder(self.skill_names)
        found = finder.named(name)
        if found is None:
            notes = weapon.get("notes")
            if isinstance(notes, str) and notes:
                found = finder.in_notes(notes.lower())
        if found is None:
            found = finder.in_words(name.lower())
        if found is not None:
            return found
        self.note(
            f"/weapons/{kind}/{index}",
            "defaulted",
            f"No skill of the document goes by the weapon '{name[:60]}': in GCS it defaults to DX-4.",
        )
        return None

    def _defaults(self, skill: str | None) -> list[dict[str, Any]]:
        """A GCS weapon's defaults: its skill's (GCS's name and specialization), or DX-4."""
        if skill is None:
            return [{"type": "dx", "modifier": -4}]
        parts = self.skill_parts.get(skill)
        if parts is None:  # as SkillsPart._skills reads it, which takes it from here
            parts = self.skill_parts[skill] = split_skill_name(skill)
        name, spec, _ = parts
        if spec:
            return [{"type": "skill", "name": name, "specialization": spec}]
        return [{"type": "skill", "name": name}]

    def _melee(
        self,
        weapon: Mapping[str, Any],
        owned: list[dict[str, Any]],
        skill: str | None,
        index: int,
        modes: list[_Mode],
    ) -> None:
        """A GCS melee weapon for each of a weapon's damage lines, added to its owner's ``owned``
        weapons and to ``modes``."""
        reach = weapon.get("reach")
        parry = weapon.get("parry")
        parry_text: str | None = None
        parried: tuple[int, str] | None = None
        if type(parry) is dict or isinstance(parry, Mapping):
            parry_text, parried = _parry(parry)
        defaults = self._defaults
        new_id = self.ids.new
        for line, damage in enumerate(weapon.get("damage", []) or _NO_DAMAGE):
            notation = damage.get("notation")
            notation = notation.strip() if type(notation) is str else text_of(notation).strip()
            common = _common_damage(notation)
            if common is None:
                fields, recipe = self._damage(notation, f"/weapons/melee/{index}/damage/{line}"), None
            else:
                fields, recipe = common
            if reach and parry_text is not None:  # the usual mode, made at once (the same order)
                node: dict[str, Any] = {
                    "id": new_id("melee_weapon"),
                    "sv": 1,
                    "damage": fields,
                    "reach": reach,
                    "parry": parry_text,
                    "defaults": defaults(skill),
                }
            else:
                node = {"id": new_id("melee_weapon"), "sv": 1, "damage": fields}
                if reach:
                    node["reach"] = reach
                if parry_text is not None:
                    node["parry"] = parry_text
                node["defaults"] = defaults(skill)
            modes.append((node, skill, index, line, None, parried, recipe))
            owned.append(node)

    def _ranged(
        self,
        weapon: Mapping[str, Any],
        owned: list[dict[str, Any]],
        skill: str | None,
        index: int,
        modes: list[_Mode],
    ) -> None:
        """A ranged weapon's GCS weapon, added to its owner's ``owned`` weapons and to ``modes``."""
        node: dict[str, Any] = {"id": self.ids.new("ranged_weapon"), "sv": 1}
        damage = weapon.get("damage") or _NO_DAMAGE[0]
        notation = damage.get("notation")
        notation = notation.strip() if type(notation) is str else text_of(notation).strip()
        common = _common_damage(notation)
        recipe: _Recipe | None = None
        if common is None:
            node["damage"] = self._damage(notation, f"/weapons/ranged/{index}/damage")
        else:
            node["damage"], recipe = common
        for key, target in _RANGED_TEXTS:
            value = weapon.get(key)
            if key == "range":
                value = value.get("notation") if type(value) is dict or isinstance(value, Mapping) else None
            if value:
                node[target] = value
        bulk = weapon.get("bulk")
        if bulk is not None:
            if type(bulk) is not int or not -LIMIT <= bulk <= LIMIT:  # (the usual need no pointer)
                bulk = int(self.bounded(bulk, f"/weapons/ranged/{index}/bulk", "Bulk"))
            node["bulk"] = str(bulk)
        recoil = weapon.get("recoil")
        if recoil is not None:
            if type(recoil) is not int or not -LIMIT <= recoil <= LIMIT:
                recoil = int(self.bounded(recoil, f"/weapons/ranged/{index}/recoil", "Recoil"))
            node["recoil"] = str(recoil)
        node["defaults"] = self._defaults(skill)
        modes.append((node, skill, index, -1, _minimum_st(node.get("strength")), None, recipe))
        owned.append(node)

    def _damage(self, notation: str, pointer: str) -> dict[str, Any]:
        """GCS's damage fields for a damage line's notation (stripped) not of the common form
        (its text as written when GCS has no fields for it)."""
        if not notation:
            self.note(f"{pointer}/notation", "differs", "A damage text of only spaces is no damage in GCS.")
        fields = _damage_fields(notation)
        if fields is None:
            if notation and notation != "-":
                read_as_dice = damage_from_calc(notation).roll is not None
                self.note(
                    f"{pointer}/notation",
                    "differs" if read_as_dice else "approximated",
                    f"GCS has no damage fields for '{notation[:60]}': the file holds it as the damage "
                    "type's text"
                    + (", which GCS shows as it is and which reads as dice there." if read_as_dice else "."),
                )
            return {"type": notation if notation != "-" else ""}
        return fields

    def _skill_level(self, skill: str | None) -> float:
        """A weapon's level from its skill, or from its DX-4 default (GCS's rule of 20: an
        attribute counts at most 20 for a default)."""
        if skill is not None:
            position = self._skill_place(skill)
            if position is not None:  # (else not the document's: a DX default)
                level = self.doc["skills"][position].get("level")
                if type(level) is int and -LIMIT <= level <= LIMIT:
                    return level
                return math.floor(self.bounded(level, "", "Skill level"))
        return min(self.values["dx"], _RULE_OF_20) - 4

    def _skill_node(self, skill: str) -> dict[str, Any]:
        position = self._skill_place(skill)
        if position is None:
            return self.adjustments_trait()
        return self.skills[position]  # (a node for each skill, in order)

    def _skill_place(self, skill: str) -> int | None:
        """Where ``skill`` is first in ``skill_names`` (indexed once: a search per weapon's
        skill would cost weapons x skills)."""
        places = self._skill_places
        if places is None:
            places = self._skill_places = {}
            for place, name in enumerate(self.skill_names):
                places.setdefault(name, place)
        return places.get(skill)


_NO_DAMAGE: Final = (MappingProxyType({"notation": "-"}),)
"""The damage line of a weapon without one."""


def _minimum_st(strength: object) -> int | None:
    """The minimum ST a weapon's text gives (:func:`leading_int`'s reading), or None."""
    if type(strength) is str and strength.isdigit() and strength.isascii() and len(strength) <= 6:
        return int(strength)  # (the usual text, read without the pattern)
    return leading_int(strength) if isinstance(strength, str) else None


def _parry_text(parry: Mapping[str, Any]) -> str:
    """GCS's parry field: the modifier and its flags (``0``, ``-1F``, ``0U``), or ``No``."""
    return _parry(parry)[0]


def _parry(parry: Mapping[str, Any]) -> tuple[str, tuple[int, str] | None]:
    """GCS's parry field (:func:`_parry_text`), and the modifier and flags (``F``, ``U``) GCS
    reads from it (the modifier's first six digits); None for ``No``."""
    modifier: Any = parry.get("modifier")
    kind = type(modifier)
    if (
        kind is not int
        and kind is not float
        and (isinstance(modifier, bool) or not isinstance(modifier, int | float))
    ):
        return "No", None  # none, or not a number
    if abs(modifier) > LIMIT:
        return "No", None
    notation = text_of(parry.get("notation"))
    flags = ""
    if "F" in notation.upper():  # no flag without an F (most parries have none)
        match = _PARRY.fullmatch(notation)
        if match is not None and "F" in match.group(1).upper():
            flags = "F"
    if parry.get("unbalanced") is True:
        flags += "U"
    whole = int(modifier)
    text = f"{whole}{flags}" if flags else str(whole)
    read = whole if -1_000_000 < whole < 1_000_000 else leading_int(text)  # (leading_int's six digits)
    return text, (None if read is None else (read, flags))
