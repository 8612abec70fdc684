"""Skills, techniques and spells: GCS's ``skills`` and ``spells`` trees to the format's skills.

The format's skill is ``attribute + relativeLevel + bonuses``, priced by the skill cost table.
Every skill, technique, spell and ritual-magic spell becomes one, at GCS's level. GCS's computed
relative level (``calc.rsl``) includes its skill bonuses; the importer splits it into the level
the points buy (GCS's own rule) and the bonuses, and GCS's encumbrance penalty (in ``calc.level``,
not in ``rsl``) is one more bonus, so the level formula holds. Techniques, ritual magic and
entries GCS lists at 0 points keep GCS's level with the difference in ``relativeLevel``; where
the cost table cannot give GCS's points, the reason is the deviation's justification.

GCS's rules for levels the file saved none for, and the load skills are encumbered by, are in
:mod:`.skill_rules`; this module makes the entries."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..format.features import Feature, skill_bonuses, spell_colleges
from ..format.fields import (
    Node,
    fill_placeholders,
    filled_text,
    integer,
    kind_of,
    mapping,
    number,
    text,
    whole_number,
)
from ..format.skill_levels import BASE_RELATIVE, points_level
from .attributes import AttributeValue
from .context import Context
from .notes import listing
from .skill_rules import (
    LOAD_NAMES,
    SIX_ATTRIBUTES,
    SkillLevels,
    SkillLoad,
    computed_level,
    levels_by_name,
    parent_attributes,
    ritual_default,
    technique_attribute,
    technique_level,
)

__all__ = ["SkillSections", "skill_name", "skill_sections"]

_DIFFICULTY = {"e": "E", "a": "A", "h": "H", "vh": "VH"}
_RSL_NUMBER = re.compile(r"([+-][0-9]+)\s*$")
_RSL_NAME = re.compile(r"[A-Za-z]\w*")
_REFERENCE = re.compile(r"\$(\w+)")


@dataclass(slots=True)
class SkillSections:
    """The skills of the document, and what the import learned on the way."""

    skills: list[dict[str, Any]] = field(default_factory=list)
    by_gcs_pointer: dict[str, int] = field(default_factory=dict)
    """GCS pointer of a skill node → index in ``skills``."""
    nodes: dict[str, Node] = field(default_factory=dict)
    """GCS pointer → the GCS node of each skill in ``skills``."""
    by_name: dict[str, list[str]] = field(default_factory=dict)
    """Lower-case GCS name (placeholders filled, no specialization) → GCS pointers."""
    total: float = 0
    """GCS's skill and spell points (what GCS counts in the points spent)."""
    encumbered: dict[str, int] = field(default_factory=dict)
    """Load name → how many skills GCS's encumbrance penalty lowers."""
    below_one: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    """``skills`` or ``spells`` → (name, GCS points) of the entries stored at 1 point."""


def skill_name(node: Node, plain_name: str | None = None) -> str:
    """The display name: ``Name/TLn (Specialization)`` with placeholders filled (``plain_name``:
    the name with its placeholders filled, when the caller has it)."""
    if plain_name is None:
        plain_name = filled_text(node, "name").strip()
    name = plain_name or "(unnamed skill)"
    tech_level = text(node, "tech_level").strip()
    if tech_level:
        name += f"/TL{tech_level}"
    specialization = filled_text(node, "specialization").strip()
    return f"{name} ({specialization})" if specialization else name


def skill_sections(ctx: Context, attributes: dict[str, AttributeValue], st: int) -> SkillSections:
    """Every skill, technique, spell and ritual-magic spell as one of the format's skills, at
    GCS's level (``calc.level``, encumbrance penalty included; GCS's rules when the file saved
    none)."""
    out = SkillSections()
    uncomputed = 0
    parents: dict[str, str] | None = None
    encumbrance = SkillLoad(ctx, st)
    skill_levels: dict[str, SkillLevels] | None = None
    for key in ("skills", "spells"):
        for node, pointer, _ in ctx.section(key):
            kind = kind_of(node)
            if kind.endswith("_container") or (not kind and type(node.get("children")) is list):
                continue
            points = number(node, "points") or 0
            out.total += points
            calc = mapping(node, "calc")
            saved = number(calc, "level")
            level: float | None = None
            if kind in ("technique", "ritual_magic_spell") and saved is None:
                if skill_levels is None:
                    skill_levels = levels_by_name(ctx, attributes, encumbrance)
                level = technique_level(ctx, node, points, attributes, skill_levels, ritual_default(node))
                if level is not None and kind == "technique":  # a technique of this technique
                    named = filled_text(node, "name").strip().lower()
                    skill_levels.setdefault(named, SkillLevels()).add("", level)
            if kind in ("technique", "ritual_magic_spell") and parents is None:
                parents = parent_attributes(ctx)
            skill = _Skill(node, pointer, kind or "skill", calc, saved, points, level)
            leveled = _one(ctx, out, skill, attributes, parents or {}, encumbrance)
            uncomputed += saved is None and leveled
    for key, found in out.below_one.items():
        names = listing([name for name, _ in found], 300)
        difference = sum(points - 1 for _, points in found)
        ctx.note(
            f"/{key}",
            "approximated",
            f"{len(found)} {key if len(found) != 1 else key[:-1]} with fewer than 1 point in GCS ({names}) "
            f"{'are' if len(found) != 1 else 'is'} stored with the format's minimum of 1 point, at GCS's "
            f"level (0 where GCS gives none); points.breakdown.other holds the difference "
            f"({difference:+g}), so the points spent stay GCS's.",
        )
    for load, count in out.encumbered.items():
        ctx.note(
            "/skills",
            "approximated",
            f"The levels of {count} skill{'s' if count != 1 else ''} include GCS's encumbrance penalty for "
            f"the load carried ({load} encumbrance, times each skill's multiplier), as a bonus named "
            f"'Encumbrance ({load})'; they do not follow later changes of the load.",
        )
    if uncomputed:
        ctx.note(
            "/skills",
            "approximated",
            f"GCS saved no level for {uncomputed} skill{'s' if uncomputed != 1 else ''} or "
            f"spell{'s' if uncomputed != 1 else ''}: their "
            "levels are computed with GCS's rules (what the points buy, from the default for techniques, "
            "plus the skill bonuses in force and the encumbrance penalty).",
        )
    return out


class _Skill(NamedTuple):
    """One skill, technique or spell node with what the loop already read of it."""

    node: Node
    pointer: str
    kind: str
    calc: Node
    saved_level: float | None
    """GCS's ``calc.level``."""
    points: float
    computed_level: float | None
    """GCS's level by its rules, for a technique GCS saved none for."""


def _one(
    ctx: Context,
    out: SkillSections,
    skill: _Skill,
    attributes: dict[str, AttributeValue],
    parents: dict[str, str],
    encumbrance: SkillLoad,
) -> bool:
    """One skill, technique or spell as a format skill at GCS's level; whether it has one."""
    node, pointer, points = skill.node, skill.pointer, skill.points
    index = len(out.skills)
    plain_name = filled_text(node, "name").strip()
    name = skill_name(node, plain_name)
    kind = skill.kind
    raw_attribute, _, raw_difficulty = text(node, "difficulty").lower().partition("/")
    technique = kind in ("technique", "ritual_magic_spell") or (
        not raw_difficulty and raw_attribute in ("a", "h")
    )
    spell = kind in ("spell", "ritual_magic_spell")
    calc = skill.calc
    if technique:
        difficulty = raw_difficulty or raw_attribute
        gcs_attribute = technique_attribute(node, parents) or ("iq" if spell else "dx")
    else:
        difficulty, gcs_attribute = raw_difficulty, raw_attribute
    attribute = _standard_attribute(gcs_attribute, attributes)
    base = attributes.get(attribute)
    base_value = math.floor(base.value) if base is not None else 10
    real = attributes.get(gcs_attribute)
    real_value = math.floor(real.value) if real is not None else base_value
    level = skill.saved_level
    if level is None:
        level = skill.computed_level
    if level is None and not technique:
        level = computed_level(ctx, node, points, attributes, encumbrance)
    penalty, load = _penalty(skill, kind == "skill" and not technique, real_value, encumbrance)
    entry: dict[str, Any] = {
        "name": name,
        "attribute": attribute,
        "difficulty": _DIFFICULTY.get(difficulty, "VH" if difficulty == "w" else "A"),
    }
    bonuses: list[dict[str, Any]] = []
    from_default = number(mapping(node, "defaulted_from"), "points") or 0
    extra = 0 if difficulty == "w" or spell else max(from_default, 0)
    bought = points / 3 if difficulty == "w" else points + extra
    if not technique and math.floor(bought) >= 1 and level is not None:
        cost_difficulty = difficulty if difficulty in BASE_RELATIVE or difficulty == "w" else "a"
        relative = points_level(cost_difficulty, points + extra)
        rsl = _rsl(calc, None, real_value) if skill.saved_level is not None else None
        skill_bonus = math.floor(level - real_value - penalty - relative if rsl is None else rsl - relative)
        if real_value != base_value:
            label = f"{_label(gcs_attribute, real)} instead of {attribute.upper()}"
            bonuses.append({"name": label, "amount": real_value - base_value})
        itemized = _bonuses(skill_bonus, skill_bonuses(ctx.features, node, spell)) if skill_bonus else []
        if skill_bonus and not itemized:
            ctx.cause(
                f"/skills/{index}/level",
                f"GCS's skill bonuses to '{name}' total {skill_bonus:+d}, "
                "more than the format's bonuses hold",
                pointer,
            )
        bonuses += itemized
    else:
        relative = math.floor(level or 0) - base_value - penalty
    if penalty and level is not None:
        bonuses.append({"name": f"Encumbrance ({load})", "amount": penalty})
        out.encumbered[load] = out.encumbered.get(load, 0) + 1
    stored_level = math.floor(level) if level is not None else 0
    entry["relativeLevel"] = relative
    entry["level"] = stored_level
    formula = base_value + relative
    if bonuses and all(-20 <= b["amount"] <= 20 for b in bonuses) and len(bonuses) <= _MAX_BONUS_ENTRIES + 2:
        entry["bonuses"] = bonuses
        formula += sum(b["amount"] for b in bonuses)
    if formula != stored_level:
        ctx.cause(
            f"/skills/{index}/level",
            f"GCS gives '{name}' level {stored_level}, which its relative level ({_rsl_text(calc)}), skill "
            "bonuses and encumbrance penalty do not add up to",
            pointer,
        )
    entry["points"] = _stored_points(ctx, out, pointer, name, points)
    notes = _notes(node, kind, level is None)
    if notes:
        entry["notes"] = notes
    if _cost(relative, entry["difficulty"]) != entry["points"]:
        ctx.cause(
            f"/skills/{index}/points", _points_cause(node, name, points, technique, difficulty), pointer
        )
    if points >= 1:
        out.by_gcs_pointer[pointer] = index
        out.nodes[pointer] = node
        out.by_name.setdefault(plain_name.lower(), []).append(pointer)
    if real_value != base_value or gcs_attribute != attribute:
        ctx.note(
            pointer,
            "approximated",
            f"'{name}' is based on {_label(gcs_attribute, real)}, which the format's skills cannot name: "
            f"it counts from {attribute.upper()}"
            + (
                f", with the difference ({real_value - base_value:+d}) as a bonus."
                if real_value != base_value
                else "."
            ),
        )
    out.skills.append(entry)
    return level is not None


def _cost(relative: int, difficulty: str) -> int | None:
    """The format's cost formula: ``skillCost(relativeLevel + difficultyOffset)`` (B170)."""
    level = relative + _OFFSET.get(difficulty, 0)
    if level < -1:
        return None
    return (1, 2, 4, 8)[level + 1] if level <= 2 else 8 + 4 * (level - 2)


_OFFSET = {"E": -1, "A": 0, "H": 1, "VH": 2}


def _penalty(skill: _Skill, applies: bool, attribute_value: int, encumbrance: SkillLoad) -> tuple[int, str]:
    """GCS's encumbrance penalty to a skill and the load's name: the encumbrance level for skills
    × the skill's ``encumbrance_penalty_multiplier`` (GCS's saved level shows the one it applied)."""
    if not applies:
        return 0, ""
    multiplier = number(skill.node, "encumbrance_penalty_multiplier") or 0
    if multiplier <= 0:
        return 0, ""
    level = skill.saved_level
    rsl = _rsl(skill.calc, None, attribute_value)
    if level is not None and rsl is not None:
        seen = math.floor(level) - attribute_value - rsl
        steps = -seen / multiplier
        if seen <= 0 and float(steps).is_integer() and steps <= 4:
            return seen, LOAD_NAMES[int(steps)]
    return math.floor(-encumbrance.level * multiplier), encumbrance.name


def _label(ident: str, value: AttributeValue | None) -> str:
    return (value.name if value is not None and value.name else ident.replace("_", " ").title()) or "?"


def _rsl_text(calc: Node) -> str:
    return text(calc, "rsl") or "none saved"


_ATTRIBUTE_HOMES = {
    "vision": "per",
    "hearing": "per",
    "taste_smell": "per",
    "touch": "per",
    "fright_check": "will",
}
"""GCS attributes the format's skills cannot name → the standard attribute they derive from."""


def _standard_attribute(ident: str, attributes: dict[str, AttributeValue]) -> str:
    """The format's attribute for a GCS one: itself when it is one of the six; a sense or Fright
    Check the attribute it derives from; any other the first of the six its base refers to, else IQ."""
    if ident in SIX_ATTRIBUTES:
        return ident
    if ident in _ATTRIBUTE_HOMES:
        return _ATTRIBUTE_HOMES[ident]
    found = attributes.get(ident)
    for reference in _REFERENCE.findall(found.base if found is not None else ""):
        if reference in SIX_ATTRIBUTES:
            return str(reference)
    return "iq"


def _stored_points(ctx: Context, out: SkillSections, pointer: str, name: str, points: float) -> int:
    """The points the entry holds: GCS's, whole; the format's minimum of 1 for fewer (the
    difference goes to points.breakdown.other, so the points spent stay GCS's)."""
    whole = math.floor(points)
    if whole < 1:
        ctx.add_other("skills with fewer than 1 point, stored at 1", points - 1)
        out.below_one.setdefault(pointer.split("/")[1], []).append((name, points))
        return 1
    if whole != points:
        ctx.add_other("fractional skill points", points - whole)
        ctx.note(
            pointer,
            "approximated",
            f"'{name}' has {points:g} points in GCS; the format counts whole points: "
            f"{whole} here, the fraction in points.breakdown.other.",
        )
    return whole


def _points_cause(node: Node, name: str, points: float, technique: bool, difficulty: str) -> str:
    """Why the format's cost formula may not give GCS's points for this entry."""
    if points < 1:
        return (
            f"GCS lists '{name}' with {points:g} points; the format's skills cost at least 1, so 1 is stored "
            "and points.breakdown.other holds the difference"
        )
    kind = kind_of(node)
    if kind == "ritual_magic_spell":
        return (
            f"'{name}' is a GCS ritual-magic spell: its points buy levels above its base skill's "
            "default, as a technique's do (B229), not the skill cost table"
        )
    if technique:
        return (
            f"'{name}' is a GCS technique: its points buy levels above a default (B229), "
            "not the skill cost table"
        )
    if difficulty == "w":
        return f"'{name}' is a wildcard skill (B175): GCS prices it at three times a Very Hard skill"
    if number(mapping(node, "defaulted_from"), "points"):
        return f"GCS improves '{name}' from a default (B173): the points' level starts from the default"
    label = _DIFFICULTY.get(difficulty, difficulty.upper())
    return (
        f"GCS gives {points:g} points in '{name}' the level of the last full step of its cost table "
        f"({label}: 1, 2, 4, 8, then +4 per level)"
    )


def _rsl(calc: Node, level: float | None, base_value: int) -> int | None:
    """GCS's relative level including bonuses (``calc.rsl``), or level − attribute."""
    rsl_text = text(calc, "rsl")
    match = _RSL_NUMBER.search(rsl_text)
    found = whole_number(match.group(1)) if match else None
    if found is not None:
        return found
    if rsl_text and _RSL_NAME.fullmatch(rsl_text):
        return 0
    if level is not None:
        return math.floor(level) - base_value
    return None


_MAX_BONUS_ENTRIES = 5


def _bonuses(amount: int, sources: list[Feature]) -> list[dict[str, Any]]:
    """GCS's skill bonuses: one entry per trait or item when the features in force add up to
    GCS's bonus, else one "GCS skill bonuses" entry; entries hold at most ±20 (the format's
    limit), and none are given when that would take more than five (the level then deviates,
    with the reason)."""
    by_owner: dict[str, float] = {}
    for feature in sources:
        by_owner[feature.owner or "GCS skill bonus"] = (
            by_owner.get(feature.owner or "GCS skill bonus", 0) + feature.amount()
        )
    named = [(owner, integer(total)) for owner, total in by_owner.items() if total]
    if sum(total or 0 for _, total in named) == amount and all(
        total is not None and abs(total) <= 20 for _, total in named
    ):
        return [{"name": owner, "amount": total} for owner, total in named]
    if abs(amount) > 20 * _MAX_BONUS_ENTRIES:
        return []
    entries = []
    remaining = amount
    while remaining:
        part = max(-20, min(20, remaining))
        entries.append({"name": "GCS skill bonuses", "amount": part})
        remaining -= part
    return entries


def _notes(node: Node, kind: str, unleveled: bool) -> str:
    parts = []
    if kind == "technique":
        default = mapping(node, "default")
        named = default.get("name")
        target = text(named, "qualifier") if type(named) is dict else named if type(named) is str else ""
        target = fill_placeholders(target, node).strip() or text(default, "type").upper() or "?"
        modifier = number(default, "modifier") or 0
        limit = number(node, "limit")
        parts.append(
            f"Technique: defaults to {target}{modifier:+g}"
            + (f", at most {target}{limit:+g}" if limit is not None else "")
        )
    if kind == "ritual_magic_spell":
        base_skill = text(node, "base_skill").strip()
        count = number(node, "prereq_count")
        parts.append(
            "Ritual magic"
            + (f": based on {base_skill}" if base_skill else "")
            + (f", {count:g} prerequisite{'s' if count != 1 else ''}" if count else "")
        )
    if unleveled:
        parts.append("GCS gives it no level")
    if kind in ("spell", "ritual_magic_spell"):
        colleges = spell_colleges(node)
        if colleges:
            parts.append(f"College: {', '.join(colleges)}")
        for key, label in (
            ("spell_class", "Class"),
            ("casting_cost", "Cost"),
            ("maintenance_cost", "Maintain"),
            ("casting_time", "Time"),
            ("duration", "Duration"),
            ("resist", "Resist"),
        ):
            value = text(node, key).strip()
            if value:
                parts.append(f"{label}: {value}")
    for key in ("local_notes", "notes"):
        value = filled_text(node, key).strip()
        if value:
            parts.append(value)
    reference = text(node, "reference").strip()
    if reference:
        parts.append(f"Ref: {reference}")
    return "\n".join(parts)
