"""The combat view: what a combat engine reads, detached from the document and read-only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ._frozen import freeze, json_number, thaw
from .errors import CharacterError, guarded
from .formula import Dice
from .load import require_valid
from .update import Pool, get_pool

__all__ = [
    "Attributes",
    "CombatStats",
    "DamageDice",
    "DamageResistance",
    "EncumbranceLevel",
    "SkillDefense",
    "SkillStat",
    "Weapons",
    "combat_stats",
]


@dataclass(frozen=True, slots=True)
class Attributes:
    """The four primary attributes."""

    st: int
    dx: int
    iq: int
    ht: int

    def to_dict(self) -> dict[str, int]:
        """``{"st", "dx", "iq", "ht"}``."""
        return {"st": self.st, "dx": self.dx, "iq": self.iq, "ht": self.ht}


@dataclass(frozen=True, slots=True)
class SkillDefense:
    """Parry or Block: the skill it comes from and its value (None when the character has none)."""

    skill: str | None
    value: int | None

    def to_dict(self) -> dict[str, Any]:
        """``{"skill", "value"}``."""
        return {"skill": self.skill, "value": self.value}


@dataclass(frozen=True, slots=True)
class DamageDice:
    """Basic thrust and swing damage."""

    thrust: Dice
    swing: Dice

    def to_dict(self) -> dict[str, Any]:
        """``{"thrust": {notation, dice, adds}, "swing": {...}}``."""
        return {"thrust": self.thrust.to_dict(), "swing": self.swing.to_dict()}


@dataclass(frozen=True, slots=True)
class EncumbranceLevel:
    """One row of the encumbrance table (B17)."""

    level: int
    id: str
    max_load: float
    move: int
    dodge: int

    def to_dict(self) -> dict[str, Any]:
        """``{"level", "id", "maxLoad", "move", "dodge"}``."""
        return {
            "level": self.level,
            "id": self.id,
            "maxLoad": self.max_load,
            "move": self.move,
            "dodge": self.dodge,
        }


@dataclass(frozen=True, slots=True)
class DamageResistance:
    """DR at one hit location."""

    location: str
    dr: int
    location_id: str | None = None
    notes: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"location", "locationId"?, "dr", "notes"?}``."""
        out: dict[str, Any] = {"location": self.location}
        if self.location_id is not None:
            out["locationId"] = self.location_id
        out["dr"] = self.dr
        if self.notes is not None:
            out["notes"] = self.notes
        return out


@dataclass(frozen=True, slots=True)
class SkillStat:
    """A skill as combat uses it: name, effective level, controlling attribute, difficulty."""

    name: str
    level: int
    attribute: str
    difficulty: str

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "level", "attribute", "difficulty"}``."""
        return {
            "name": self.name,
            "level": self.level,
            "attribute": self.attribute,
            "difficulty": self.difficulty,
        }


@dataclass(frozen=True, slots=True)
class Weapons:
    """Melee and ranged weapons, each a read-only mapping in the document's own shape."""

    melee: tuple[Mapping[str, Any], ...]
    ranged: tuple[Mapping[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        """``{"melee": [...], "ranged": [...]}`` as plain JSON."""
        return {"melee": thaw(self.melee), "ranged": thaw(self.ranged)}


@dataclass(frozen=True, slots=True)
class CombatStats:
    """A read-only copy of what combat needs; changing the document later does not change it."""

    name: str
    size_modifier: int
    hp: Pool
    fp: Pool
    attributes: Attributes
    will: int
    perception: int
    basic_speed: float
    basic_move: int
    dodge: int
    parry: SkillDefense
    block: SkillDefense
    damage: DamageDice
    encumbrance: tuple[EncumbranceLevel, ...]
    damage_resistance: tuple[DamageResistance, ...]
    skills: tuple[SkillStat, ...]
    weapons: Weapons
    experimental: bool

    def to_dict(self) -> dict[str, Any]:
        """The reference's JSON form (camelCase keys)."""
        return {
            "name": self.name,
            "sizeModifier": self.size_modifier,
            "hp": self.hp.to_dict(),
            "fp": self.fp.to_dict(),
            "attributes": self.attributes.to_dict(),
            "will": self.will,
            "perception": self.perception,
            "basicSpeed": self.basic_speed,
            "basicMove": self.basic_move,
            "dodge": self.dodge,
            "parry": self.parry.to_dict(),
            "block": self.block.to_dict(),
            "damage": self.damage.to_dict(),
            "encumbrance": [level.to_dict() for level in self.encumbrance],
            "damageResistance": [entry.to_dict() for entry in self.damage_resistance],
            "skills": [skill.to_dict() for skill in self.skills],
            "weapons": self.weapons.to_dict(),
            "experimental": self.experimental,
        }


def _dice(value: Mapping[str, Any]) -> Dice:
    return Dice(value["notation"], _n(value["dice"]), _n(value["adds"]))


def _defense(value: Mapping[str, Any]) -> SkillDefense:
    return SkillDefense(value.get("skill"), _n(value.get("value")))


_n = json_number
"""Every number of the view goes through this: the document may store ``5.0`` for 5."""


def _project(document: Mapping[str, Any]) -> CombatStats:
    attributes = document["attributes"]
    secondary = document["secondary"]
    defenses = document["defenses"]
    weapons = document.get("weapons") or {}
    integrity = document.get("integrity")
    return CombatStats(
        name=document["profile"]["name"],
        size_modifier=_n(document["profile"].get("sizeModifier", 0)),
        hp=get_pool(document, "hp"),
        fp=get_pool(document, "fp"),
        attributes=Attributes(*(_n(attributes[key]["value"]) for key in ("st", "dx", "iq", "ht"))),
        will=_n(secondary["will"]["value"]),
        perception=_n(secondary["per"]["value"]),
        basic_speed=_n(secondary["basicSpeed"]["value"]),
        basic_move=_n(secondary["basicMove"]["value"]),
        dodge=_n(defenses["dodge"]["value"]),
        parry=_defense(defenses["parry"]),
        block=_defense(defenses["block"]),
        damage=DamageDice(_dice(document["damage"]["thrust"]), _dice(document["damage"]["swing"])),
        encumbrance=tuple(
            EncumbranceLevel(
                _n(row["level"]), row["id"], _n(row["maxLoad"]), _n(row["move"]), _n(row["dodge"])
            )
            for row in document["encumbrance"]["levels"]
        ),
        damage_resistance=tuple(
            DamageResistance(entry["location"], _n(entry["dr"]), entry.get("locationId"), entry.get("notes"))
            for entry in document.get("damageResistance") or ()
        ),
        skills=tuple(
            SkillStat(skill["name"], _n(skill["level"]), skill["attribute"], skill["difficulty"])
            for skill in document["skills"]
        ),
        weapons=Weapons(freeze(list(weapons.get("melee") or ())), freeze(list(weapons.get("ranged") or ()))),
        experimental=isinstance(integrity, Mapping) and integrity.get("experimental") is True,
    )


@guarded
def combat_stats(document: Mapping[str, Any]) -> CombatStats:
    """The combat view of a character: pools, attributes, defenses, damage, encumbrance, DR,
    skills and weapons.

    The document must match the schema (checked first, by the fast check that valid documents
    take): the view is read from it as it is, so nothing invalid may reach the result. The result
    shares nothing with the document (later changes to either never affect the other), and its
    whole numbers are ``int`` whatever the document stored (``5.0`` is 5).

    Args:
        document: A schema-valid character document.

    Returns:
        A :class:`CombatStats` (its ``to_dict()`` is the reference's JSON).

    Raises:
        CharacterError: ``notAnObject``, or ``schema`` when the document does not match the schema.
    """
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    require_valid(document)
    return _project(document)
