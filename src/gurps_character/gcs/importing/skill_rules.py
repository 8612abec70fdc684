"""GCS's rules for the levels of skills, techniques and spells a file saved none for
(``CalculateSkillLevel`` and technique levels: the attribute, what the points buy or the default,
the skill bonuses, the encumbrance penalty), the encumbrance load for skills, and the attribute
each technique's level is based on."""

from __future__ import annotations

import math

from ..format.features import skill_bonuses
from ..format.fields import Node, filled_text, kind_of, mapping, number, text
from ..format.skill_levels import BASE_RELATIVE, points_level
from ..format.units import kilograms
from .attributes import AttributeValue
from .context import Context

# GCS's Basic Lift for a file that saved none: the encumbrance module's rule, not written twice
from .derived import _lift_by_rules as lift_by_rules
from .equipment import carried_weight_for_skills

__all__ = [
    "LOAD_NAMES",
    "SIX_ATTRIBUTES",
    "SkillLevels",
    "SkillLoad",
    "computed_level",
    "levels_by_name",
    "parent_attributes",
    "ritual_default",
    "technique_attribute",
    "technique_level",
]

SIX_ATTRIBUTES = ("st", "dx", "iq", "ht", "will", "per")
LOAD_NAMES = ("None", "Light", "Medium", "Heavy", "Extra-Heavy")
_LOADS = (1, 2, 3, 6, 10)


class SkillLoad:
    """The encumbrance level GCS uses for skill penalties (its load with the weight of equipped
    items marked "ignore weight for skills" left out), worked out when a skill first needs it."""

    __slots__ = ("_ctx", "_level", "_st")

    def __init__(self, ctx: Context, st: int) -> None:
        self._ctx = ctx
        self._st = st
        self._level: int | None = None

    @property
    def level(self) -> int:
        """0 (none) to 4 (extra-heavy): the weight carried for skills against Basic Lift ×1, 2, 3,
        6, 10 (GCS's saved Basic Lift, or GCS's rules for it)."""
        if self._level is None:
            lift = kilograms(mapping(self._ctx.data, "calc").get("basic_lift"), "lb")
            if lift is None:
                lift = lift_by_rules(self._ctx, self._st) / 2
            carried = carried_weight_for_skills(self._ctx)
            self._level = next((i for i, load in enumerate(_LOADS) if carried <= lift * load + 1e-9), 4)
        return self._level

    @property
    def name(self) -> str:
        return LOAD_NAMES[self.level]


class SkillLevels:
    """The best level among skills of one name: of any specialization, and by specialization."""

    __slots__ = ("best", "by_specialization")

    def __init__(self) -> None:
        self.best: float | None = None
        self.by_specialization: dict[str, float] = {}

    def add(self, specialization: str, level: float) -> None:
        self.best = level if self.best is None else max(self.best, level)
        known = self.by_specialization.get(specialization)
        self.by_specialization[specialization] = level if known is None else max(known, level)

    def of(self, specialization: str) -> float | None:
        """The best level, of the specialization when one is given."""
        return self.by_specialization.get(specialization) if specialization else self.best


def levels_by_name(
    ctx: Context, attributes: dict[str, AttributeValue], encumbrance: SkillLoad
) -> dict[str, SkillLevels]:
    """GCS's level of every skill with points, by lower-case name: (lower-case specialization,
    level), the saved level or, without one, GCS's rules."""
    found: dict[str, SkillLevels] = {}
    for node, _, _ in ctx.section("skills"):
        points = number(node, "points") or 0
        if kind_of(node) != "skill" or points <= 0:
            continue
        level = number(mapping(node, "calc"), "level")
        if level is None:
            level = computed_level(ctx, node, points, attributes, encumbrance)
        if level is None:
            continue
        name = filled_text(node, "name").strip().lower()
        specialization = filled_text(node, "specialization").strip().lower()
        found.setdefault(name, SkillLevels()).add(specialization, level)
    return found


def computed_level(
    ctx: Context, node: Node, points: float, attributes: dict[str, AttributeValue], encumbrance: SkillLoad
) -> float | None:
    """GCS's level of a skill or spell the file saved none for (``CalculateSkillLevel``): the
    attribute + what the points buy (a skill improved from a default adds the default's points;
    a wildcard's points count a third), or, without points, the default's level; + the skill
    (spell) bonuses in force; + for skills the encumbrance penalty × its multiplier. None when
    GCS gives no level (no points and no default, an unknown attribute or difficulty)."""
    attribute, _, difficulty = text(node, "difficulty").lower().partition("/")
    base = attributes.get(attribute)
    if base is None or difficulty not in (*BASE_RELATIVE, "w"):
        return None
    spell = kind_of(node) in ("spell", "ritual_magic_spell")
    default = mapping(node, "defaulted_from")
    from_default = number(default, "points") or 0
    extra = 0 if difficulty == "w" or spell else max(from_default, 0)
    bought = points / 3 if difficulty == "w" else points + extra
    if math.floor(bought) >= 1:
        level: float = math.floor(base.value) + points_level(difficulty, points + extra)
    elif not spell and from_default < 0 and number(default, "adjusted_level") is not None:
        level = number(default, "adjusted_level") or 0
    else:
        return None
    level += sum(feature.amount() for feature in skill_bonuses(ctx.features, node, spell))
    multiplier = number(node, "encumbrance_penalty_multiplier") or 0
    if not spell and multiplier:
        level -= encumbrance.level * multiplier
    return level


def technique_level(
    ctx: Context,
    node: Node,
    points: float,
    attributes: dict[str, AttributeValue],
    skill_levels: dict[str, SkillLevels],
    default: Node | None = None,
) -> float | None:
    """GCS's technique level for a file that saved none: the best level of the skill it defaults
    to (one with points, or a technique met before) or the attribute's value, + the default's
    modifier, + its points (the first point of a Hard technique buys nothing), + the skill
    bonuses in force, at most the skill's level + ``limit`` (B229); None when GCS would have no
    level either. ``default`` stands in for the node's own (a ritual-magic spell's base skill)."""
    if default is None:
        default = mapping(node, "default")
    kind = text(default, "type").strip().lower()
    if kind == "skill":
        wanted = text(default, "specialization").strip().lower()
        known = skill_levels.get(text(default, "name").strip().lower())
        best = known.of(wanted) if known is not None else None
        if best is None:
            return None
        start = best
    elif kind in attributes:
        start = math.floor(attributes[kind].value)
    else:
        return None
    modifier = number(default, "modifier") or 0
    bought = points - 1 if text(node, "difficulty").strip().lower().endswith("h") else points
    bonus = sum(feature.amount() for feature in skill_bonuses(ctx.features, node, False))
    level = start + modifier + max(bought, 0) + bonus
    limit = number(node, "limit")
    if limit is not None:
        level = min(level, start + limit)
    return math.floor(level) if level >= 1 else None


def ritual_default(node: Node) -> Node | None:
    """A ritual-magic spell's default (GCS levels it as a technique of its base skill, at minus
    its number of prerequisites); None for other nodes."""
    if kind_of(node) != "ritual_magic_spell":
        return None
    return {
        "type": "skill",
        "name": text(node, "base_skill"),
        "modifier": -(number(node, "prereq_count") or 0),
    }


# ---------------------------------------------------------------- techniques' attributes


def parent_attributes(ctx: Context) -> dict[str, str]:
    """Lower-case skill or technique name → the attribute its level is based on: a skill's own,
    a technique's through the skill (or technique) it defaults to."""
    found: dict[str, str] = {}
    techniques: dict[str, Node] = {}
    for node, _, _ in ctx.section("skills"):
        name = filled_text(node, "name").strip().lower()
        if kind_of(node) == "skill":
            found.setdefault(name, text(node, "difficulty").lower().partition("/")[0])
        elif kind_of(node) == "technique":
            techniques.setdefault(name, mapping(node, "default"))
    nowhere: set[str] = set()  # techniques whose chain of defaults ends in no attribute
    for name in techniques:
        seen: set[str] = set()
        current = name
        while (
            current in techniques and current not in seen and current not in found and current not in nowhere
        ):
            seen.add(current)
            default = techniques[current]
            kind = text(default, "type").strip().lower()
            if kind != "skill":
                if kind in SIX_ATTRIBUTES:
                    found[current] = kind
                break
            current = _default_name(default)
        if current in found:
            for one in seen:
                found.setdefault(one, found[current])
        else:
            nowhere.update(seen)
    return found


def _default_name(default: Node) -> str:
    value = default.get("name")
    if type(value) is dict:
        value = value.get("qualifier")
    return value.strip().lower() if type(value) is str else ""


def technique_attribute(node: Node, skill_attributes: dict[str, str]) -> str:
    """A technique's attribute: its parent skill's (a ritual-magic spell's base skill), or the
    attribute it defaults to."""
    default = mapping(node, "default")
    kind = text(default, "type").lower()
    if kind in SIX_ATTRIBUTES:
        return kind
    wanted = (text(default, "name") or text(node, "base_skill")).strip().lower()
    return skill_attributes.get(wanted, "iq" if kind_of(node) == "ritual_magic_spell" else "")
