"""The bonuses that reach one weapon as GCS gathers them: features in force that select weapons
by required skill (and its relative level) or by name, and the owner's own "this weapon" ones;
the damage, defense and minimum-ST bonuses, the skill bonuses to a weapon's level, and a weapon
bonus's amount per die and level."""

from __future__ import annotations

from dataclasses import dataclass

from .criteria import any_matches, matches, text_weight
from .features import Feature, Features, selection_of, weapon_indexer
from .fields import Node, boolean, number, text

__all__ = ["WeaponIdentity", "weapon_amount", "weapon_bonuses", "weapon_skill_bonuses"]


@dataclass(frozen=True, slots=True)
class WeaponIdentity:
    """What GCS matches a weapon bonus against.

    Attributes:
        owner: The owner's name (placeholders filled): "weapons with name" bonuses match it.
        usage: The weapon's usage (``Swung``): matched by the bonuses' specialization (or usage).
        tags: The owner's tags.
        skill: The name of the skill default with the best level ("" when none): "weapons with
            required skill" bonuses match it.
        specialization: That default's specialization.
        relative_level: The best relative level among the character's skills of that name and
            specialization that have points, or None when there is none.
        own: The owner's own features (and its enabled modifiers'), for "this weapon" bonuses.
    """

    owner: str
    usage: str
    tags: tuple[str, ...]
    skill: str
    specialization: str
    relative_level: float | None
    own: tuple[Feature, ...]


def _numeric_matches(criteria: object, value: float | None) -> bool:
    """A GCS numeric criterion (``{"compare": "at_least", "qualifier": 2}``, by default at least
    0); None is GCS's "no such skill", below every number."""
    if type(criteria) is not dict:
        criteria = {}
    compare = text(criteria, "compare") or "at_least"
    qualifier = number(criteria, "qualifier") or 0
    if compare == "any":
        return True
    if value is None:
        return compare in ("is_not", "at_most")
    checks = {
        "is": value == qualifier,
        "is_not": value != qualifier,
        "at_least": value >= qualifier,
        "at_most": value <= qualifier,
    }
    return checks.get(compare, True)


def _named_weapon(data: Node, weapon: WeaponIdentity) -> bool:
    return (
        matches(data.get("name"), weapon.owner)
        and matches(data.get("specialization"), weapon.usage)
        and any_matches(data.get("tags"), list(weapon.tags))
    )


def _with_skill(data: Node, weapon: WeaponIdentity) -> bool:
    return (
        _numeric_matches(data.get("level"), weapon.relative_level)
        and matches(data.get("name"), weapon.skill)
        and matches(data.get("specialization"), weapon.specialization)
        and matches(data.get("usage"), weapon.usage)
        and any_matches(data.get("tags"), list(weapon.tags))
    )


def _reaches(feature: Feature, weapon: WeaponIdentity, selections: tuple[str, ...]) -> bool:
    """Whether a weapon feature of one of the selections picks the weapon."""
    selection = selection_of(feature.data)
    if selection not in selections:
        return False
    if selection == "weapons_with_required_skill":
        return _with_skill(feature.data, weapon)
    if selection == "weapons_with_name":
        return _named_weapon(feature.data, weapon)
    return matches(feature.data.get("specialization"), weapon.usage)


def weapon_bonuses(features: Features, weapon: WeaponIdentity, kinds: tuple[str, ...]) -> list[Feature]:
    """The features of the given kinds (``weapon_bonus``, ``weapon_parry_bonus`` ...) that reach
    one weapon, each once, as GCS gathers them: those in force that select weapons by required
    skill (name, specialization, usage, tags, and the skill's relative level) or by name (the
    owner's name, the usage as specialization, tags), then the owner's own ones that select
    "this weapon" (by usage) or weapons by name."""
    found: list[Feature] = []
    budget = features.budget
    weight = _weapon_weight(weapon)
    for feature in features.weapon_candidates(kinds, weapon.skill, weapon.owner):
        if weight and not budget.take(weight):
            break
        if _reaches(feature, weapon, ("weapons_with_required_skill", "weapons_with_name")):
            found.append(feature)
    if not weapon.own or not budget.take(len(weapon.own) * (1 + weight)):
        return found
    seen = {feature.pointer for feature in found}
    for feature in weapon.own:
        if (
            feature.kind in kinds
            and feature.pointer not in seen
            and _reaches(feature, weapon, ("this_weapon", "weapons_with_name"))
        ):
            found.append(feature)
    return found


def _weapon_weight(weapon: WeaponIdentity) -> int:
    return text_weight(weapon.owner, weapon.usage, weapon.skill, weapon.specialization, *weapon.tags)


def weapon_amount(feature: Feature, dice: int = 1) -> float:
    """A weapon bonus's amount for a weapon of ``dice`` dice: times the dice when it is per die
    (``per_die``, or ``per_level`` as GCS 4 wrote it), times its owner's level when it is
    ``leveled``; 0 for negative dice or levels, as GCS."""
    data = feature.data
    amount = number(data, "amount") or 0
    if boolean(data, "per_die") or boolean(data, "per_level"):
        if dice < 0:
            return 0
        amount *= dice
    if boolean(data, "leveled"):
        if feature.level < 0:
            return 0
        amount *= feature.level
    return amount


def weapon_skill_bonuses(features: Features, weapon: WeaponIdentity) -> list[Feature]:
    """The skill bonuses GCS adds to a weapon's level: those in force that select weapons by
    name (the owner's name, the usage as specialization, tags), and the owner's own "this
    weapon" ones (by usage)."""
    index, everything = features.indexed(
        "weapon-level", ("skill_bonus",), weapon_indexer("weapons_with_name")
    )
    budget = features.budget
    weight = _weapon_weight(weapon)
    found = []
    for position in index.candidates([weapon.owner]):
        if weight and not budget.take(weight):
            break
        feature = everything[position]
        if text(feature.data, "selection_type") == "weapons_with_name" and _named_weapon(
            feature.data, weapon
        ):
            found.append(feature)
    if not weapon.own or not budget.take(len(weapon.own) * (1 + weight)):
        return found
    for feature in weapon.own:
        if (
            feature.kind == "skill_bonus"
            and text(feature.data, "selection_type") == "this_weapon"
            and matches(feature.data.get("specialization"), weapon.usage)
        ):
            found.append(feature)
    return found
