"""Weapons: every weapon GCS lists (enabled traits, carried equipment, skills, spells) to the
format's melee and ranged entries, with GCS's damage, and the level, parry and block GCS gives
each weapon mode (its ``calc``, or GCS's rules when the file saved none) in records parallel to
the document's lists, and the best parry and block.

The parts: :mod:`.weapon_modes` (the character, the weapons' owners and modes, their defaults),
:mod:`.weapon_skills` (the skills those defaults name) and :mod:`.weapon_levels` (each mode's
level, parry and block); this module assembles the entries and their damage."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

from ..format.damage_notation import damage_entry
from ..format.features import Feature
from ..format.fields import (
    Node,
    boolean,
    kind_of,
    leading_whole_number,
    mapping,
    node_list,
    number_text,
    plain,
    text,
)
from ..format.units import js_round
from ..format.weapon_bonuses import weapon_bonuses
from ..format.weapon_damage import (
    WeaponDamageResult,
    damage_by_rules,
    damage_from_calc,
    plain_dice,
    raw_damage_text,
)
from .context import Context
from .notes import listing, shortened
from .skills import SkillSections
from .weapon_levels import BestDefense, best_defense, level_record, min_strength
from .weapon_modes import Character, Mode, Owner, character_of, mode_of, owner_of, weapon_owners

__all__ = ["WeaponSections", "weapon_sections"]

_RANGE: Final = re.compile(r"\s*(x?)([0-9,]*\.?[0-9]+)\s*(?:/\s*(x?)([0-9,]*\.?[0-9]+))?\s*")
_MAX_CAUSES: Final = 400
"""Characters of the bonuses a weapon's notes name (a file can give one weapon thousands)."""
_MAX_NAME: Final = 200
"""Characters of an owner's name and of a usage in a weapon entry's name (each mode repeats them)."""


@dataclass(slots=True)
class WeaponSections:
    melee: list[dict[str, Any]] = field(default_factory=list)
    ranged: list[dict[str, Any]] = field(default_factory=list)
    parry: dict[str, Any] = field(default_factory=lambda: {"skill": None, "value": None})
    block: dict[str, Any] = field(default_factory=lambda: {"skill": None, "value": None})
    records: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {"melee": [], "ranged": []})
    """One record per entry of ``melee`` and ``ranged``: the GCS pointer, level, parry, block."""


def weapon_sections(
    ctx: Context, skills: SkillSections, st: int, damage: dict[str, Any] | None = None
) -> WeaponSections:
    """The weapon entries, their records and the best defenses. ``damage`` is the document's
    ``/damage`` (thrust and swing), which ``thr``/``sw`` notations resolve against."""
    out = WeaponSections()
    parry, block = BestDefense(), BestDefense()
    owners, telekinetic = weapon_owners(ctx)
    if not owners:
        return out
    character = character_of(ctx, skills, st, damage, telekinetic)
    for owner_node, pointer, shown in owners:
        owner: Owner | None = None
        for index, weapon in enumerate(node_list(owner_node, "weapons")):
            if type(weapon) is not dict:
                continue
            kind = kind_of(weapon)
            if kind not in ("melee_weapon", "ranged_weapon"):
                continue
            if owner is None:
                owner = owner_of(owner_node, pointer)
            mode = mode_of(character, weapon, owner, f"{pointer}/weapons/{index}", kind)
            record = level_record(character, mode)
            result = _damage(character, mode)
            if mode.melee:
                out.melee.append(_melee(character, mode, result, record))
                out.records["melee"].append(record)
                if shown and not boolean(weapon, "hide"):
                    best_defense(parry, mode, record, "parry")
                    best_defense(block, mode, record, "block")
            else:
                out.ranged.append(_ranged(character, mode, result, record, st))
                out.records["ranged"].append(record)
    for defense, key, target in ((parry, "parry", out.parry), (block, "block", out.block)):
        if defense.value is not None:
            target["skill"] = defense.skill
            target["value"] = defense.value
            ctx.cause(f"/defenses/{key}/value", defense.cause, defense.source)
    if out.melee or out.ranged:
        ctx.note(
            "",
            "approximated",
            "Weapons are listed one entry per GCS weapon mode, with a damage notation that resolves to "
            "GCS's dice and GCS's own damage text in the notes; each mode's level, parry and block are in "
            "extensions (weapons); their cost and weight are counted with the equipment.",
        )
    return out


# ---------------------------------------------------------------- damage


def _damage(character: Character, mode: Mode) -> WeaponDamageResult:
    """GCS's damage for a mode: its saved ``calc.damage``, else GCS's rules."""
    saved = mapping(mode.weapon, "calc").get("damage")
    written = mode.weapon.get("damage")
    if type(written) is str:  # a very old file's damage: GCS's text
        return damage_from_calc(written)
    if type(saved) is str and saved.strip():
        found = _saved_damage(character, saved)
        plain = plain_dice(mode.weapon, character.wielder, mode.levels is not None)
        if plain is not None and found.roll == plain[0]:  # GCS's dice are the weapon's own
            raw = raw_damage_text(mode.weapon)
            return WeaponDamageResult(
                found.roll, found.divisor, found.type_text, found.text, (), plain[1], raw
            )
        rules = _rules(character, mode)
        if found.roll is not None and rules.roll == found.roll:  # the rules explain GCS's dice
            return WeaponDamageResult(
                found.roll,
                found.divisor,
                found.type_text,
                found.text,
                rules.causes,
                rules.thrust_or_swing,
                rules.raw,
            )
        return WeaponDamageResult(found.roll, found.divisor, found.type_text, found.text, raw=rules.raw)
    return _rules(character, mode)


def _saved_damage(character: Character, saved: str) -> WeaponDamageResult:
    """:func:`damage_from_calc` of a text, read once per import (a file's weapons repeat them)."""
    found = character.saved_damage.get(saved)
    if found is None:
        found = character.saved_damage[saved] = damage_from_calc(saved)
    return found


def _rules(character: Character, mode: Mode) -> WeaponDamageResult:
    features = character.ctx.features

    def bonuses(kinds: tuple[str, ...]) -> list[Feature]:
        return weapon_bonuses(features, mode.identity, kinds)

    return damage_by_rules(
        mode.weapon,
        mode.owner,
        mode.levels,
        character.wielder,
        lambda: min_strength(character, mode),
        bonuses,
    )


def _damage_entry(
    character: Character, mode: Mode, result: WeaponDamageResult
) -> tuple[dict[str, Any], list[str]]:
    raw_type = text(mapping(mode.weapon, "damage"), "type")
    return damage_entry(result, character.wielder, raw_type)


# ---------------------------------------------------------------- entries


def _entry_name(mode: Mode) -> str:
    """The entry's name: the owner's and the usage, as each mode repeats them (shortened)."""
    owner = shortened(mode.owner_name, _MAX_NAME)
    usage = shortened(mode.identity.usage, _MAX_NAME)
    return f"{owner} ({usage})" if usage else owner


def _resolved(weapon: Node, key: str) -> str:
    """GCS's resolved value (``calc``), or the raw field when GCS saved none."""
    calc = mapping(weapon, "calc")
    value = calc.get(key)
    if type(value) is str:
        return value
    if type(value) is int:
        return str(value)
    return text(weapon, key)


def _weapon_notes(
    mode: Mode, result: WeaponDamageResult, dice: bool, extra: list[str], level: int | None
) -> str:
    weapon = mode.weapon
    parts = []
    usage = mode.identity.usage
    if usage:
        parts.append(usage)
    raw = result.raw or raw_damage_text(weapon)
    if not dice:
        shown = result.text or raw
        parts.append(
            f"GCS damage {shown} (not dice: not rolled)" if shown else "no damage (not dice: not rolled)"
        )
    elif raw and raw != result.text:
        parts.append(f"GCS damage {raw}, {result.text} for this character")
    elif result.text:
        parts.append(f"GCS damage {result.text}")
    if result.causes:
        parts.append("including " + listing(list(result.causes), _MAX_CAUSES))
    parts.extend(extra)
    if level is not None:
        parts.append(f"skill level {level}")
    strength = text(weapon, "strength").strip()
    if strength:
        parts.append(f"min ST {strength}")
    for key in ("usage_notes", "local_notes", "notes"):
        more = text(weapon, key).strip()
        if more:
            parts.append(more)
    return "; ".join(parts)


def _melee(
    character: Character, mode: Mode, result: WeaponDamageResult, record: dict[str, Any]
) -> dict[str, Any]:
    damage, extra = _damage_entry(character, mode, result)
    entry: dict[str, Any] = {
        "name": _entry_name(mode),
        "damage": [damage],
    }
    reach = _resolved(mode.weapon, "reach").strip()
    if reach:
        entry["reach"] = reach
    parry = text(mode.weapon, "parry").strip()
    if parry:
        modifier = leading_whole_number(parry)
        entry["parry"] = {"notation": parry, "modifier": modifier, "unbalanced": "u" in parry.lower()}
    notes = _weapon_notes(mode, result, "base" in damage, extra, record.get("level"))
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
        values: list[float] = []
        for times, amount in ((match.group(1), match.group(2)), (match.group(3), match.group(4))):
            if amount is None:
                continue
            read = number_text(amount)
            if read is None:  # beyond ±10^9: no range is read
                values = []
                break
            value = read * st if times else read
            values.append(js_round(value, 1))
        if len(values) == 2:
            entry["halfDamage"], entry["max"] = (plain(v) for v in values)
        elif len(values) == 1:
            entry["max"] = plain(values[0])
    return entry


def _ranged(
    character: Character, mode: Mode, result: WeaponDamageResult, record: dict[str, Any], st: int
) -> dict[str, Any]:
    damage, extra = _damage_entry(character, mode, result)
    entry: dict[str, Any] = {
        "name": _entry_name(mode),
        "damage": damage,
    }
    weapon = mode.weapon
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
    bulk = leading_whole_number(_resolved(weapon, "bulk"))
    if bulk is not None and bulk <= 0:
        entry["bulk"] = bulk
    recoil = leading_whole_number(_resolved(weapon, "recoil"))
    entry["recoil"] = recoil if recoil is not None and recoil >= 1 else None
    legality = leading_whole_number(text(mode.owner, "legality_class"))
    if legality is not None and 0 <= legality <= 4:
        entry["legalityClass"] = legality
    notes = _weapon_notes(mode, result, "base" in damage, extra, record.get("level"))
    if notes:
        entry["notes"] = notes
    return entry
