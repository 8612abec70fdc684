"""Weapons: every weapon GCS lists (enabled traits, carried equipment, skills, spells) to the
format's melee and ranged entries, and the best parry and block GCS computed."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Final, get_args

from ..document import WeaponDamageType
from ._context import Context
from ._fields import (
    MAX_DEPTH,
    Node,
    boolean,
    children,
    fill_placeholders,
    integer,
    kind_of,
    mapping,
    node_list,
    number,
    number_or_text,
    plain,
    text,
    walk,
)
from .features import display_name
from .skills import SkillSections
from .units import dice, js_round

__all__ = ["WeaponSections", "weapon_sections"]

# The format's own list (generated from the schema), so the importer cannot drift from it.
_DAMAGE_TYPES: Final = frozenset(get_args(WeaponDamageType))
_LEADING_INT = re.compile(r"\s*([+-]?\d+)")
_RANGE = re.compile(r"\s*(x?)([\d,]*\.?\d+)\s*(?:/\s*(x?)([\d,]*\.?\d+))?\s*")
_ST_BASE = {"thr": "thrust", "sw": "swing"}


@dataclass(slots=True)
class WeaponSections:
    melee: list[dict[str, Any]] = field(default_factory=list)
    ranged: list[dict[str, Any]] = field(default_factory=list)
    parry: dict[str, Any] = field(default_factory=lambda: {"skill": None, "value": None})
    block: dict[str, Any] = field(default_factory=lambda: {"skill": None, "value": None})


@dataclass(slots=True)
class _Defense:
    value: int | None = None
    skill: str | None = None
    cause: str = ""
    source: str = ""


def weapon_sections(ctx: Context, skills: SkillSections, st: int) -> WeaponSections:
    out = WeaponSections()
    parry, block = _Defense(), _Defense()
    for owner, pointer, shown in _weapon_owners(ctx):
        name = display_name(owner) or "(unnamed)"
        for index, weapon in enumerate(node_list(owner, "weapons")):
            if type(weapon) is not dict:
                continue
            where = f"{pointer}/weapons/{index}"
            kind = kind_of(weapon)
            if kind == "melee_weapon":
                out.melee.append(_melee(weapon, name, owner))
                if shown and not boolean(weapon, "hide"):
                    _best(ctx, parry, weapon, "parry", name, where, skills)
                    _best(ctx, block, weapon, "block", name, where, skills)
            elif kind == "ranged_weapon":
                out.ranged.append(_ranged(weapon, name, owner, st))
    for defense, key, target in ((parry, "parry", out.parry), (block, "block", out.block)):
        if defense.value is not None:
            target["skill"] = defense.skill
            target["value"] = defense.value
            ctx.cause(f"/defenses/{key}/value", defense.cause, defense.source)
    if out.melee or out.ranged:
        ctx.note(
            "",
            "approximated",
            "Weapons are listed one entry per GCS weapon mode, with their raw damage, GCS's resolved damage "
            "and skill level in the notes; their cost and weight are counted with the equipment.",
        )
    return out


def _weapon_owners(ctx: Context) -> list[tuple[Node, str, bool]]:
    """Nodes that may hold weapons, with whether GCS's sheet lists their weapons as ready: enabled
    traits, carried equipment (ready when equipped, below equipped containers), skills, spells."""
    owners: list[tuple[Node, str, bool]] = []
    key = ctx.traits_key
    for node, pointer, _ in walk(node_list(ctx.data, key), f"/{key}", skip_disabled=True):
        if node_list(node, "weapons"):
            owners.append((node, pointer, True))
    # file order, each item ready only below ready containers
    stack: list[tuple[list[Any], int, str, bool]] = [
        (node_list(ctx.data, "equipment"), 0, "/equipment", True)
    ]
    while stack:
        items, index, base, parent_ready = stack.pop()
        while index < len(items):
            node = items[index]
            pointer = f"{base}/{index}"
            index += 1
            if type(node) is not dict:
                continue
            quantity = number(node, "quantity")
            ready = parent_ready and boolean(node, "equipped") and (quantity is None or quantity > 0)
            if node_list(node, "weapons"):
                owners.append((node, pointer, ready))
            if children(node) and len(stack) + 1 < MAX_DEPTH:
                stack.append((items, index, base, parent_ready))
                stack.append((children(node), 0, pointer + "/children", ready))
                break
    for key in ("skills", "spells"):
        for node, pointer, _ in walk(node_list(ctx.data, key), f"/{key}"):
            if node_list(node, "weapons"):
                owners.append((node, pointer, True))
    return owners


def _leading_int(value: str) -> int | None:
    match = _LEADING_INT.match(value) if len(value) < 40 else None
    return int(match.group(1)) if match else None


def _resolved(weapon: Node, key: str) -> str:
    """GCS's resolved value (``calc``), or the raw field when GCS saved none."""
    calc = mapping(weapon, "calc")
    value = calc.get(key)
    if type(value) is str:
        return value
    if type(value) is int:
        return str(value)
    return text(weapon, key)


def _best(
    ctx: Context, best: _Defense, weapon: Node, key: str, owner: str, where: str, skills: SkillSections
) -> None:
    calc = mapping(weapon, "calc")
    resolved = calc.get(key) if calc else _defense_by_rules(ctx, weapon, key, skills)
    value = _leading_int(resolved) if type(resolved) is str else None
    if value is None or (best.value is not None and value <= best.value):
        return
    best.value = value
    skill, detail = _weapon_skill(ctx, weapon, skills)
    best.skill = skill
    raw = text(weapon, key) or "0"
    bonus = number(mapping(ctx.data, "calc"), f"{key}_bonus")
    parts = [f"GCS's {key} with '{owner}' ({text(weapon, 'usage') or 'default use'}) is {resolved}"]
    parts.append(f"from {detail}" if detail else "from a default that is no skill of the document")
    parts.append(f"the weapon's {key} modifier {raw}")
    if bonus:
        parts.append(f"{key} bonus {bonus:+g} (Combat Reflexes, Enhanced {key.title()} ...)")
    best.cause = ", ".join(parts)
    best.source = where


def _defense_by_rules(ctx: Context, weapon: Node, key: str, skills: SkillSections) -> str | None:
    """GCS's parry or block for a weapon saved without ``calc``: 3 + half its skill level
    (rounded down) + the weapon's modifier + the character's Parry or Block bonuses, with the
    weapon's F or U flag; None when the weapon has none."""
    raw = text(weapon, key).strip()
    modifier = _leading_int(raw)
    level = _weapon_level(ctx, weapon, skills)
    if modifier is None or level is None:
        return None
    bonus = number(mapping(ctx.data, "calc"), f"{key}_bonus")
    if bonus is None:
        bonus = ctx.features.attribute_bonus(key)
    value = 3 + math.floor(level / 2) + modifier + math.floor(bonus)
    flags = "".join(flag for flag in ("F", "U") if flag in raw.upper())
    return f"{value}{flags}"


def _weapon_level(ctx: Context, weapon: Node, skills: SkillSections) -> float | None:
    """GCS's skill level with a weapon: its best default (an attribute, or a skill of the
    character, plus the default's modifier), or None when no default applies."""
    best: float | None = None
    for default in node_list(weapon, "defaults"):
        if type(default) is not dict:
            continue
        kind = text(default, "type").lower()
        modifier = number(default, "modifier") or 0
        level: float | None = None
        if kind in ctx.attribute_values:
            level = ctx.attribute_values[kind] + modifier
        elif kind == "10":
            level = 10 + modifier
        elif kind == "skill":
            level = _skill_level(default, skills)
            level = None if level is None else level + modifier
        if level is not None and (best is None or level > best):
            best = level
    return None if best is None else max(math.floor(best), 0)


def _skill_level(default: Node, skills: SkillSections) -> float | None:
    """The best level among the character's skills a default names (name and specialization)."""
    name = _named(default, "name")
    specialization = _named(default, "specialization")
    best: float | None = None
    for pointer in skills.by_name.get(name, ()):
        node = skills.nodes[pointer]
        node_spec = fill_placeholders(text(node, "specialization"), node).strip().lower()
        if specialization and node_spec != specialization:
            continue
        gcs_level = number(mapping(node, "calc"), "level")
        level = gcs_level if gcs_level is not None else skills.skills[skills.by_gcs_pointer[pointer]]["level"]
        if best is None or level > best:
            best = level
    return best


def _named(default: Node, key: str) -> str:
    """A default's skill name or specialization, lower case: plain text, or the qualifier of a
    criterion object (``{"compare": "is", "qualifier": "Broadsword"}``)."""
    value = default.get(key)
    if type(value) is dict:
        return text(value, "qualifier").strip().lower()
    return value.strip().lower() if type(value) is str else ""


def _weapon_skill(ctx: Context, weapon: Node, skills: SkillSections) -> tuple[str | None, str]:
    """The document skill that gives the weapon its level: the skill default whose GCS level plus
    modifier equals the weapon's GCS level (else the best such default)."""
    wanted = number(mapping(weapon, "calc"), "level")
    best: tuple[float, str, str] | None = None
    attribute_detail = ""
    for default in node_list(weapon, "defaults"):
        kind = text(default, "type").lower() if type(default) is dict else ""
        if kind in ctx.attribute_values and type(default) is dict:
            level = ctx.attribute_values[kind] + (number(default, "modifier") or 0)
            if wanted is not None and level == wanted and not attribute_detail:
                attribute_detail = (
                    f"the weapon's default {kind.upper()}{level - ctx.attribute_values[kind]:+g} = {level:g}"
                )
            continue
        if kind != "skill":
            continue
        name = _named(default, "name")
        specialization = _named(default, "specialization")
        modifier = number(default, "modifier") or 0
        for pointer in skills.by_name.get(name, ()):
            node, index = skills.nodes[pointer], skills.by_gcs_pointer[pointer]
            node_spec = fill_placeholders(text(node, "specialization"), node).strip().lower()
            if specialization and node_spec != specialization:
                continue
            entry = skills.skills[index]
            gcs_level = number(mapping(node, "calc"), "level")
            level = (gcs_level if gcs_level is not None else entry["level"]) + modifier
            detail = f"skill '{entry['name']}' {level:g}" + (f" ({modifier:+g})" if modifier else "")
            if wanted is not None and level == wanted:
                return entry["name"], detail
            if best is None or level > best[0]:
                best = (level, entry["name"], detail)
    if attribute_detail:
        return None, attribute_detail
    if best is not None:
        return best[1], best[2]
    return None, ""


def _damage(weapon: Node) -> dict[str, Any]:
    raw = weapon.get("damage")
    if type(raw) is str:
        return {"notation": raw.strip() or "-"}
    damage = raw if type(raw) is dict else {}
    kind = text(damage, "type").strip()
    strength = text(damage, "st").strip()
    base = text(damage, "base").strip()
    divisor = number_or_text(damage, "armor_divisor")
    st_text = "" if strength in ("", "none") else strength
    notation = st_text
    base_text = "" if st_text and base in ("0", "+0", "-0") else base
    if base_text:
        notation += base_text if (not st_text or base_text[:1] in "+-") else f"+{base_text}"
    if divisor and divisor != 1:
        notation += f"({divisor:g})"
    notation = f"{notation} {kind}".strip() or "-"
    entry: dict[str, Any] = {"notation": notation}
    adds = integer(number_or_text(damage, "base")) if base else 0
    if strength in _ST_BASE and adds is not None:
        entry["base"] = _ST_BASE[strength]
        entry["adds"] = adds
    elif not st_text:
        parsed = dice(base)
        if parsed is not None:
            entry.update({"base": "fixed", "dice": parsed[0], "adds": parsed[1]})
    first = kind.split(" ")[0].lower() if kind else ""
    if first in _DAMAGE_TYPES:
        entry["type"] = first
    return entry


def _usage(weapon: Node, owner: Node) -> str:
    """The weapon's use (``Swung``, ``Thrown``), placeholders filled from its owner's replacements."""
    return fill_placeholders(text(weapon, "usage"), owner).strip()


def _weapon_notes(weapon: Node, owner: Node) -> str:
    parts = []
    usage = _usage(weapon, owner)
    if usage:
        parts.append(usage)
    calc = mapping(weapon, "calc")
    damage = text(calc, "damage").strip()
    if damage:
        parts.append(f"GCS damage {damage}")
    level = number(calc, "level")
    if level is not None:
        parts.append(f"skill level {level:g}")
    strength = text(weapon, "strength").strip()
    if strength:
        parts.append(f"min ST {strength}")
    for key in ("usage_notes", "local_notes", "notes"):
        extra = text(weapon, key).strip()
        if extra:
            parts.append(extra)
    return "; ".join(parts)


def _melee(weapon: Node, owner: str, owner_node: Node) -> dict[str, Any]:
    usage = _usage(weapon, owner_node)
    entry: dict[str, Any] = {"name": f"{owner} ({usage})" if usage else owner, "damage": [_damage(weapon)]}
    reach = _resolved(weapon, "reach").strip()
    if reach:
        entry["reach"] = reach
    parry = text(weapon, "parry").strip()
    if parry:
        modifier = _leading_int(parry)
        entry["parry"] = {"notation": parry, "modifier": modifier, "unbalanced": "u" in parry.lower()}
    notes = _weapon_notes(weapon, owner_node)
    if notes:
        entry["notes"] = notes
    return entry


def _range(weapon: Node, st: int) -> dict[str, Any] | None:
    raw = _resolved(weapon, "range").strip()
    if not raw:
        return None
    entry: dict[str, Any] = {"notation": raw}
    match = _RANGE.fullmatch(raw) if len(raw) < 40 else None
    if match:
        values = []
        for times, amount in ((match.group(1), match.group(2)), (match.group(3), match.group(4))):
            if amount is None:
                continue
            value = float(amount.replace(",", ""))
            value = value * st if times else value
            values.append(js_round(value, 1))
        if len(values) == 2:
            entry["halfDamage"], entry["max"] = (plain(v) for v in values)
        elif len(values) == 1:
            entry["max"] = plain(values[0])
    return entry


def _ranged(weapon: Node, owner: str, owner_node: Node, st: int) -> dict[str, Any]:
    usage = _usage(weapon, owner_node)
    entry: dict[str, Any] = {"name": f"{owner} ({usage})" if usage else owner, "damage": _damage(weapon)}
    for key, target in (
        ("accuracy", "accuracy"),
        ("rate_of_fire", "rateOfFire"),
        ("shots", "shots"),
        ("strength", "minST"),
    ):
        value = _resolved(weapon, key).strip()
        if value:
            entry[target] = value
    found = _range(weapon, st)
    if found:
        entry["range"] = found
    bulk = _leading_int(_resolved(weapon, "bulk"))
    if bulk is not None and bulk <= 0:
        entry["bulk"] = bulk
    recoil = _leading_int(_resolved(weapon, "recoil"))
    entry["recoil"] = recoil if recoil is not None and recoil >= 1 else None
    legality = _leading_int(text(owner_node, "legality_class"))
    if legality is not None and 0 <= legality <= 4:
        entry["legalityClass"] = legality
    notes = _weapon_notes(weapon, owner_node)
    if notes:
        entry["notes"] = notes
    return entry
