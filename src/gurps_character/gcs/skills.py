"""Skills, techniques and spells: GCS's ``skills`` and ``spells`` trees to the format's skills.

The format's skill is ``attribute + relativeLevel + bonuses``, priced by the skill cost table.
GCS's computed relative level (``calc.rsl``) includes its skill bonuses; the importer splits it
into the level the points buy (GCS's own rule) and the bonuses, so the level formula holds.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from ._context import Context
from ._fields import (
    Node,
    fill_placeholders,
    integer,
    is_container,
    kind_of,
    mapping,
    node_list,
    number,
    text,
    walk,
)
from .attributes import AttributeValue
from .features import Feature, skill_bonuses

__all__ = ["SkillSections", "skill_name", "skill_sections"]

_ATTRIBUTES = ("st", "dx", "iq", "ht", "will", "per")
_DIFFICULTY = {"e": "E", "a": "A", "h": "H", "vh": "VH"}
_BASE_RELATIVE = {"e": 0, "a": -1, "h": -2, "vh": -3}
_RSL_NUMBER = re.compile(r"([+-]\d+)\s*$")


@dataclass(slots=True)
class SkillSections:
    """The skills of the document, and what could not be one."""

    skills: list[dict[str, Any]] = field(default_factory=list)
    by_gcs_pointer: dict[str, int] = field(default_factory=dict)
    """GCS pointer of a skill node → index in ``skills``."""
    nodes: dict[str, Node] = field(default_factory=dict)
    """GCS pointer → the GCS node of each skill in ``skills``."""
    by_name: dict[str, list[str]] = field(default_factory=dict)
    """Lower-case GCS name (placeholders filled, no specialization) → GCS pointers."""
    total: float = 0
    """GCS's skill and spell points (what GCS counts in the points spent)."""
    elsewhere: list[dict[str, Any]] = field(default_factory=list)
    """Skills, techniques and spells the format cannot hold, for the extensions."""


def skill_name(node: Node) -> str:
    """The display name: ``Name/TLn (Specialization)`` with placeholders filled."""
    name = fill_placeholders(text(node, "name"), node).strip() or "(unnamed skill)"
    tech_level = text(node, "tech_level").strip()
    if tech_level:
        name += f"/TL{tech_level}"
    specialization = fill_placeholders(text(node, "specialization"), node).strip()
    return f"{name} ({specialization})" if specialization else name


def points_level(difficulty: str, points: float) -> int:
    """GCS's relative level for points in a skill of a difficulty (B170; wildcards priced per 3)."""
    base = _BASE_RELATIVE.get(difficulty, -3)
    if difficulty == "w":
        points /= 3
    if points < 1:
        return base - 1 if points > 0 else base - 10
    if points < 2:
        return base
    if points < 4:
        return base + 1
    return base + 1 + math.floor(points / 4)


def skill_sections(ctx: Context, attributes: dict[str, AttributeValue]) -> SkillSections:
    out = SkillSections()
    uncomputed = 0
    parents: dict[str, str] = {}
    for node, _, _ in walk(node_list(ctx.data, "skills"), "/skills"):
        if kind_of(node) == "skill":
            parents.setdefault(
                text(node, "name").strip().lower(), text(node, "difficulty").lower().partition("/")[0]
            )
    for key in ("skills", "spells"):
        for node, pointer, _ in walk(node_list(ctx.data, key), f"/{key}"):
            if is_container(node):
                continue
            points = number(node, "points") or 0
            out.total += points
            _one(ctx, out, node, pointer, points, attributes, parents)
            uncomputed += "level" not in mapping(node, "calc")
    if uncomputed:
        ctx.note(
            "/skills",
            "approximated",
            f"GCS saved no level for {uncomputed} skills or spells: their levels are what their points buy "
            "plus the skill bonuses of the traits and equipment in force.",
        )
    return out


def _one(
    ctx: Context,
    out: SkillSections,
    node: Node,
    pointer: str,
    points: float,
    attributes: dict[str, AttributeValue],
    parents: dict[str, str],
) -> None:
    name = skill_name(node)
    kind = kind_of(node)
    attribute, _, difficulty = text(node, "difficulty").lower().partition("/")
    technique = kind in ("technique", "ritual_magic_spell") or (not difficulty and attribute in ("a", "h"))
    calc = mapping(node, "calc")
    level = number(calc, "level")
    whole_points = math.floor(points)
    reason = ""
    if technique:
        difficulty, attribute = difficulty or attribute, _technique_attribute(node, parents)
    if whole_points < 1:
        reason = "it has fewer than 1 point (the format's skills cost at least 1)"
    elif technique and level is None:
        reason = "GCS saved no level for this technique"
    elif technique and attribute not in _ATTRIBUTES:
        reason = "the skill it is a technique of is not among the character's skills"
    elif attribute not in _ATTRIBUTES:
        reason = f"its attribute '{attribute}' is not one of ST, DX, IQ, HT, Will, Per"
    elif difficulty not in _DIFFICULTY:
        reason = f"its difficulty '{difficulty}' is not E, A, H or VH"
    if reason:
        _elsewhere(ctx, out, node, pointer, name, points, level, reason)
        return
    if whole_points != points:
        ctx.add_other("fractional skill points", points - whole_points)
        ctx.note(
            pointer,
            "approximated",
            f"'{name}' has {points:g} points in GCS; the format counts whole points: "
            f"{whole_points} here, the fraction in points.breakdown.other.",
        )
    base = attributes.get(attribute)
    base_value = math.floor(base.value) if base is not None else 10
    from_default = number(mapping(node, "defaulted_from"), "points") or 0
    relative = points_level(difficulty, points + max(from_default, 0))
    rsl = _rsl(calc, level, base_value)
    entry: dict[str, Any] = {"name": name, "attribute": attribute, "difficulty": _DIFFICULTY[difficulty]}
    sources: list[Feature] | None = None
    if technique and level is not None:
        relative = math.floor(level) - base_value
        bonus = 0
        ctx.cause(
            f"/skills/{len(out.skills)}/points",
            f"'{name}' is a GCS technique: its points buy levels above a default "
            "(B229), not the skill cost table",
            pointer,
        )
    elif rsl is not None:
        bonus = rsl - relative
    else:  # no level saved: GCS's bonuses in force
        sources = skill_bonuses(ctx.features, node, kind in ("spell", "ritual_magic_spell"))
        bonus = math.floor(sum(feature.amount() for feature in sources))
    entry["relativeLevel"] = relative
    entry["level"] = base_value + relative + bonus
    if bonus:
        if sources is None:
            sources = skill_bonuses(ctx.features, node, kind in ("spell", "ritual_magic_spell"))
        bonuses = _bonuses(bonus, sources)
        if bonuses:
            entry["bonuses"] = bonuses
        else:
            ctx.cause(
                f"/skills/{len(out.skills)}/level",
                f"GCS's skill bonuses to '{name}' total {bonus:+d}, more than the format's bonuses hold",
                pointer,
            )
    entry["points"] = whole_points
    notes = _notes(node, kind)
    if notes:
        entry["notes"] = notes
    if from_default > 0:
        ctx.cause(
            f"/skills/{len(out.skills)}/points",
            f"GCS improves '{name}' from a default (B173): the points' level starts from the default",
            pointer,
        )
    if not technique:
        ctx.cause(
            f"/skills/{len(out.skills)}/points",
            f"GCS gives {points:g} points in '{name}' the level of the last full step of its cost table "
            f"({_DIFFICULTY[difficulty]}: 1, 2, 4, 8, then +4 per level)",
            pointer,
        )
    out.by_gcs_pointer[pointer] = len(out.skills)
    out.nodes[pointer] = node
    out.by_name.setdefault(fill_placeholders(text(node, "name"), node).strip().lower(), []).append(pointer)
    out.skills.append(entry)


def _rsl(calc: Node, level: float | None, base_value: int) -> int | None:
    """GCS's relative level including bonuses (``calc.rsl``), or level − attribute."""
    rsl_text = text(calc, "rsl")
    match = _RSL_NUMBER.search(rsl_text)
    if match:
        return int(match.group(1))
    if rsl_text and re.fullmatch(r"[A-Za-z]\w*", rsl_text):
        return 0
    if level is not None:
        return math.floor(level) - base_value
    return None


def _technique_attribute(node: Node, skill_attributes: dict[str, str]) -> str:
    """A technique's attribute: its parent skill's (a ritual-magic spell's base skill), or the
    attribute it defaults to."""
    default = mapping(node, "default")
    kind = text(default, "type").lower()
    if kind in _ATTRIBUTES:
        return kind
    wanted = (text(default, "name") or text(node, "base_skill")).strip().lower()
    return skill_attributes.get(wanted, "iq" if kind_of(node) == "ritual_magic_spell" else "")


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


def _notes(node: Node, kind: str) -> str:
    parts = []
    if kind in ("spell", "ritual_magic_spell"):
        for key, label in (("college", "College"),):
            colleges = [c for c in node_list(node, key) if type(c) is str]
            if colleges:
                parts.append(f"{label}: {', '.join(colleges)}")
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
        value = fill_placeholders(text(node, key), node).strip()
        if value:
            parts.append(value)
    reference = text(node, "reference").strip()
    if reference:
        parts.append(f"Ref: {reference}")
    return "\n".join(parts)


def _elsewhere(
    ctx: Context,
    out: SkillSections,
    node: Node,
    pointer: str,
    name: str,
    points: float,
    level: float | None,
    reason: str,
) -> None:
    item: dict[str, Any] = {
        "name": name,
        "kind": kind_of(node) or "skill",
        "points": points,
        "source": pointer,
    }
    if level is not None:
        item["level"] = level
    out.elsewhere.append(item)
    ctx.add_other("skills the format cannot hold", points)
    ctx.note(
        pointer,
        "movedToExtensions",
        f"'{name}' is not among the document's skills because {reason}; "
        "it is in extensions (skills), its points in points.breakdown.other.",
    )
