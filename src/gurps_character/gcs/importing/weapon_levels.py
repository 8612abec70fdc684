"""A weapon mode's level, parry and block as GCS gives them (its saved ``calc``, else GCS's rules:
the best default, the minimum-ST shortfall, weapon skill bonuses, the encumbrance of fencing
weapons), and the best parry and block among the ready weapons."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..format.fields import MAX_DEPTH, Node, children, leading_whole_number, mapping, node_list, number, text
from ..format.progression import basic_lift_pounds
from ..format.units import kilograms
from ..format.weapon_bonuses import weapon_amount, weapon_bonuses, weapon_skill_bonuses
from .weapon_modes import Character, Default, Mode, criterion_text

__all__ = ["BestDefense", "best_defense", "level_record", "min_strength"]


@dataclass(slots=True)
class BestDefense:
    """The best parry (or block) among the ready weapons so far: its value, skill, and why."""

    value: int | None = None
    skill: str | None = None
    cause: str = ""
    source: str = ""


def level_record(character: Character, mode: Mode) -> dict[str, Any]:
    """GCS's level (and parry and block for melee) of a weapon mode: its ``calc``, or its rules."""
    calc = mapping(mode.weapon, "calc")
    record: dict[str, Any] = {"source": mode.pointer}
    by_rules: tuple[float | None, dict[str, float | None]] | None = None
    saved = number(calc, "level")
    if saved is not None:
        record["level"] = math.floor(saved)
    else:
        by_rules = _levels_by_rules(character, mode)
        level = by_rules[0]
        record["level"] = None if level is None else (0 if calc else math.floor(level))
    skill = _weapon_skill(mode, record["level"])
    if skill:
        record["skill"] = skill
    if not mode.melee:
        return record
    for key in ("parry", "block"):
        raw = text(mode.weapon, key)
        if calc and (key in calc or _defense_modifier(raw) is None):
            shown = calc.get(key, raw)
            value = leading_whole_number(shown) if type(shown) is str else None
            record[key] = value
            if type(shown) is str and value is not None:
                record[f"{key}Text"] = shown.strip()
            continue
        if calc:  # GCS saved no parry because it is what the weapon says
            record[key] = leading_whole_number(raw)
            continue
        if by_rules is None:
            by_rules = _levels_by_rules(character, mode)
        defense = by_rules[1].get(key)
        record[key] = None if defense is None else math.floor(defense)
        if defense is not None:
            flags = "".join(flag for flag in ("F", "U") if key == "parry" and flag in raw.upper())
            record[f"{key}Text"] = f"{math.floor(defense)}{flags}"
    return record


def _weapon_skill(mode: Mode, level: int | None) -> str | None:
    """The document skill that gives the weapon its level: a skill default whose level is the
    weapon's level (else the one with the best level)."""
    best: Default | None = None
    for default in mode.defaults:
        if default.kind != "skill" or default.skill is None or default.level is None:
            continue
        if level is not None and math.floor(default.level) == level:
            return default.skill
        if best is None or best.level is None or default.level > best.level:
            best = default
    return best.skill if best is not None else None


def best_defense(best: BestDefense, mode: Mode, record: dict[str, Any], key: str) -> None:
    value = record.get(key)
    if type(value) is not int or (best.value is not None and value <= best.value):
        return
    best.value = value
    best.skill = record.get("skill")
    shown = record.get(f"{key}Text", str(value))
    parts = [
        f"GCS's {key} with '{mode.owner_name}' ({mode.identity.usage or 'default use'}) is {shown}",
        f"from skill '{best.skill}'" if best.skill else "from a default that is no skill of the document",
        f"the weapon's {key} modifier {text(mode.weapon, key).strip() or '0'}",
    ]
    best.cause = ", ".join(parts)
    best.source = mode.pointer


# ---------------------------------------------------------------- by GCS's rules


def _levels_by_rules(character: Character, mode: Mode) -> tuple[float | None, dict[str, float | None]]:
    """GCS's level of a weapon mode (the best default plus the adjustments, at least 0; None when
    no default applies) and, for melee, its parry and block (None when it cannot)."""
    adjustment, _ = _adjustment(character, mode)
    after = _encumbrance_penalty(character, mode)
    levels = [
        (default.kind, default.level + adjustment) for default in mode.defaults if default.level is not None
    ]
    level = max((value + after for _, value in levels), default=None)
    defenses: dict[str, float | None] = {}
    if mode.melee:
        for key, bonus in (("parry", character.parry_bonus), ("block", character.block_bonus)):
            defenses[key] = _defense_by_rules(character, mode, key, levels, bonus + after)
    return (None if level is None else max(level, 0)), defenses


def _defense_by_rules(
    character: Character, mode: Mode, key: str, levels: list[tuple[str, float]], bonus: float
) -> float | None:
    """GCS's parry or block with a weapon: 3 + half the best default (a parry or block default
    counts whole) + the weapon's modifier + the Parry or Block bonus + the weapon's own parry or
    block bonuses, at least 0; None when the weapon cannot."""
    modifier = _defense_modifier(text(mode.weapon, key))
    if modifier is None:
        return None
    if not levels:
        return 0
    best = max(value if kind == key else math.trunc(value / 2) for kind, value in levels)
    value = modifier + 3 + best + bonus
    for feature in weapon_bonuses(character.ctx.features, mode.identity, (f"weapon_{key}_bonus",)):
        value += weapon_amount(feature)
    return math.trunc(max(value, 0))


def _defense_modifier(raw: str) -> int | None:
    """A weapon's parry or block text (``0``, ``-1``, ``0F``, ``+2U``) as its modifier; None for
    ``No`` or nothing (the weapon cannot)."""
    raw = raw.strip()
    if not raw or "no" in raw.lower():
        return None
    return leading_whole_number(raw) or 0


def min_strength(character: Character, mode: Mode) -> int:
    """The weapon's minimum ST (its ``strength``, plus minimum-ST bonuses)."""
    minimum = float(leading_whole_number(text(mode.weapon, "strength")) or 0)
    for feature in weapon_bonuses(character.ctx.features, mode.identity, ("weapon_min_st_bonus",)):
        minimum += weapon_amount(feature)
    return math.trunc(minimum)


def _adjustment(character: Character, mode: Mode) -> tuple[float, list[str]]:
    """What GCS adds to every default of a weapon: -1 per point of ST below the minimum, and the
    skill bonuses to weapons of its name or to this weapon."""
    causes: list[str] = []
    damage_kind = text(mapping(mode.weapon, "damage"), "st").strip()
    wielder = character.wielder
    if damage_kind.startswith("tk_"):
        strength = wielder.telekinetic
    elif damage_kind.startswith("iq_"):
        strength = wielder.iq
    elif mode.melee or ("x" in text(mode.weapon, "range").lower() and not _crossbow(mode)):
        strength = wielder.striking
    else:
        strength = wielder.lifting
    shortfall = min_strength(character, mode) - strength
    adjustment = 0.0
    if shortfall > 0:
        adjustment -= shortfall
        causes.append(f"-{shortfall} for ST below the weapon's minimum")
    for feature in weapon_skill_bonuses(character.ctx.features, mode.identity):
        amount = feature.amount()
        if amount:
            adjustment += amount
            causes.append(f"{amount:+g} from {feature.owner}")
    return adjustment, causes


def _crossbow(mode: Mode) -> bool:
    return any(
        type(default) is dict and criterion_text(default.get("name"), mode.owner) == "Crossbow"
        for default in node_list(mode.weapon, "defaults")
    )


def _encumbrance_penalty(character: Character, mode: Mode) -> int:
    """GCS's encumbrance penalty on a fencing weapon that can parry (its level and defenses)."""
    raw = text(mode.weapon, "parry")
    if not mode.melee or _defense_modifier(raw) is None or "f" not in raw.lower():
        return 0
    if character.skill_encumbrance is None:
        character.skill_encumbrance = _skill_encumbrance(character)
    return -character.skill_encumbrance


def _skill_encumbrance(character: Character) -> int:
    """The encumbrance level for skills: the carried items' weight for skills (GCS's saved one,
    else their own weight and contents times the quantity) against Basic Lift × 1, 2, 3, 6, 10."""
    data = character.ctx.data
    unit = text(mapping(data, "settings"), "default_weight_units") or "lb"
    lift = kilograms(mapping(data, "calc").get("basic_lift"), "lb")
    if lift is None:
        # GCS's Basic Lift, as the encumbrance table has it: ST halved (rounded up) while a pool's
        # threshold halves it (B419, B426)
        lifting = character.wielder.lifting
        if character.ctx.active_ops.get("halve_st"):
            lifting = math.ceil(lifting / 2)
        lift = basic_lift_pounds(lifting, character.wielder.progression) / 2
    carried = 0.0
    stack: list[tuple[Node, float, int]] = [
        (item, 1.0, 0) for item in node_list(data, "equipment") if type(item) is dict
    ]
    while stack:
        item, times, depth = stack.pop()
        calc = mapping(item, "calc")
        quantity = number(item, "quantity")
        quantity = 1 if quantity is None else max(quantity, 0)
        saved = kilograms(calc.get("extended_weight_for_skills", calc.get("extended_weight")), "lb")
        if saved is not None:
            carried += saved * times
            continue
        weight = item.get("base_weight", item.get("weight"))  # base_weight: GCS 5 files since 2025-07
        carried += (kilograms(weight, unit) or 0) * quantity * times
        if depth < MAX_DEPTH:
            stack.extend(
                (child, times * quantity, depth + 1) for child in children(item) if type(child) is dict
            )
    return next((level for level, load in enumerate((1, 2, 3, 6, 10)) if carried <= lift * load + 1e-9), 4)
