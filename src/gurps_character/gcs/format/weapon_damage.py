"""A GCS weapon mode's damage as GCS rolls it, and a notation that resolves to the same dice.

GCS resolves a weapon's damage (``thr-1 cr``, ``base_leveled: 1d``, ``+1 per die``) for its
wielder: the dice of the ST the damage is based on (striking, lifting, telekinetic ST or IQ,
after the weapon's effective-ST bonuses, at most three times its minimum ST, times its ST
multiplier), plus the weapon's base dice and its dice per level of a leveled trait, then the
weapon bonuses in force (Brawling's and Weapon Master's per die, Claws' flat ones, percentages),
the weapon's own modifier per die, and, with the sheet's "modifying dice + adds" setting, adds
of +4 and more made dice (B269). Files that saved GCS's result (``calc.damage``) give it; the
rules are for those that did not (versions 1 and 2, files with the ``calc`` removed).

GCS's dice arithmetic is in :mod:`.gcs_dice`, and the format's damage entry for a resolved mode in
:mod:`.damage_notation`."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from .features import Feature
from .fields import Node, boolean, number, number_or_text, text
from .gcs_dice import (
    GcsDice,
    add_rolls,
    dice_plus_adds,
    fixed_point,
    format_roll,
    fxp,
    gcs_roll,
    scaled,
    with_percent,
    written_divisor,
)
from .progression import swing, thrust
from .weapon_bonuses import weapon_amount

__all__ = [
    "WeaponDamageResult",
    "Wielder",
    "damage_by_rules",
    "damage_from_calc",
    "plain_dice",
    "raw_damage_text",
]

_BEYOND_PLAIN: Final = ("base_leveled", "modifier_per_die", "st_mul", "leveled")
"""Damage keys that take more than :func:`plain_dice` reads (asked of every weapon, in C)."""
_THRUST_KINDS: Final = {"thr": "striking", "lift_thr": "lifting", "tk_thr": "telekinetic", "iq_thr": "iq"}
_SWING_KINDS: Final = {"sw": "striking", "lift_sw": "lifting", "tk_sw": "telekinetic", "iq_sw": "iq"}
_OLD_LEVELED: Final = {"thr_leveled": "thr", "sw_leveled": "sw"}
_CALC_ROLL: Final = re.compile(r"\s*(?:([0-9]+)d([0-9]*))?([+-]?[0-9]+)?(?:x([0-9]+))?(?:\(([0-9.]+)\))?")


@dataclass(frozen=True, slots=True)
class Wielder:
    """The character's numbers a weapon's damage is resolved with."""

    striking: int
    lifting: int
    telekinetic: int
    iq: int
    progression: str
    thrust: tuple[int, int]
    """GCS's thrust at striking ST (the document's), dice and adds."""
    swing: tuple[int, int]
    dice_plus_adds: bool
    """GCS's "use modifying dice + adds" setting (B269)."""


@dataclass(frozen=True, slots=True)
class WeaponDamageResult:
    """A weapon mode's damage as GCS shows it.

    Attributes:
        roll: The dice, or None when GCS shows no dice (an affliction, ``spec.``, no damage).
        divisor: The armor divisor (1 for none).
        type_text: GCS's damage type text (``cr``, ``burn ex/2 points``, ``HT-3 aff``).
        text: GCS's resolved damage as GCS writes it (``3d+8 cr``).
        causes: What made the dice what they are beyond the weapon's own text, for the notes.
        thrust_or_swing: ``thr`` or ``sw`` when the dice are the wielder's thrust or swing dice
            plus adds (the weapon is based on striking ST, not leveled or multiplied).
    """

    roll: GcsDice | None
    divisor: float
    type_text: str
    text: str
    causes: tuple[str, ...] = ()
    thrust_or_swing: str = ""
    raw: str = ""
    """The weapon's damage as GCS shows it before resolving (``thr-1 (+1 per die) cr``)."""


# ---------------------------------------------------------------- GCS's saved result


def damage_from_calc(resolved: str) -> WeaponDamageResult:
    """GCS's saved damage (``calc.damage``: ``2d+1(2) cut``, ``1d-3 +1d burn/point``) read as
    dice, armor divisor and type text; no dice when it starts with none."""
    resolved = resolved.strip()
    found = _CALC_ROLL.match(resolved) if len(resolved) < 400 else None
    if found is None or (found.group(1) is None and found.group(3) is None):
        return WeaponDamageResult(None, 1, resolved, resolved)
    count_text, sides_text, modifier_text, times_text, divisor_text = found.groups()
    end = found.end()
    if end < len(resolved) and not resolved[end].isspace():
        return WeaponDamageResult(None, 1, resolved, resolved)  # "HT-3aff", "10x" ...: not dice
    count = int(count_text) if count_text is not None and len(count_text) < 7 else 0
    sides = int(sides_text) if sides_text and len(sides_text) < 7 else 6
    modifier = int(modifier_text) if modifier_text and len(modifier_text) < 8 else 0
    times = int(times_text) if times_text and len(times_text) < 7 else 1
    if count_text is None and modifier <= 0:
        return WeaponDamageResult(None, 1, resolved, resolved)
    divisor = 1.0
    if divisor_text and len(divisor_text) < 20 and divisor_text.count(".") <= 1 and divisor_text != ".":
        divisor = float(fixed_point(Fraction(divisor_text))) or 1.0
    roll = GcsDice(count, sides, modifier, max(1, times))
    return WeaponDamageResult(roll, divisor, resolved[end:].strip(), resolved)


# ---------------------------------------------------------------- GCS's rules


WeaponBonusFinder = Callable[[tuple[str, ...]], list[Feature]]
"""The features of some kinds that reach the weapon (see :func:`.weapon_bonuses.weapon_bonuses`)."""


def _strength_kind(raw: str) -> tuple[str, bool]:
    """GCS's ST basis of a weapon's damage (``thr``, ``lift_sw`` ...) and whether it is the old
    leveled form (``thr_leveled``)."""
    if raw in _OLD_LEVELED:
        return _OLD_LEVELED[raw], True
    return raw, False


def _weapon_strength(
    kind: str, wielder: Wielder, owner: Node, min_st: Callable[[], int], bonuses: WeaponBonusFinder
) -> tuple[int, list[str]]:
    """The ST a weapon's damage is figured from, and why it is not the plain one."""
    causes: list[str] = []
    basis = _THRUST_KINDS.get(kind) or _SWING_KINDS.get(kind) or "striking"
    rated = number(owner, "rated_strength") or 0
    if rated:
        causes.append(f"figured at the item's rated ST {rated:g}")
    plain = {
        "striking": wielder.striking,
        "lifting": wielder.lifting,
        "telekinetic": wielder.telekinetic,
        "iq": wielder.iq,
    }[basis]
    found = bonuses(("weapon_effective_st_bonus",))
    cap = 3 * min_st()
    if not found and (cap <= 0 or (rated or plain) <= cap):
        return max(math.trunc(rated or plain), 0), causes
    strength = Fraction(rated or plain)
    percent = Fraction(0)
    for feature in found:
        amount = fxp(weapon_amount(feature, 1))
        if boolean(feature.data, "percent"):
            percent += amount
        elif amount:
            strength += amount
            causes.append(f"{_signed(amount)} ST for damage from {feature.owner}")
    if percent:
        strength += math.trunc(strength * percent / 100)
        causes.append(f"{_signed(percent)}% ST for damage")
    strength = max(strength, Fraction(0))
    if 0 < cap < strength:
        strength = Fraction(cap)
        causes.append(f"ST for damage at most 3 × the weapon's minimum ST {cap // 3}")
    return math.trunc(strength), causes


def _signed(value: Fraction | float | int) -> str:
    shown = float(value)
    return f"{shown:+g}"


def _damage(weapon: Node) -> Node:
    raw = weapon.get("damage")
    return raw if type(raw) is dict else {}


def _strength_dice(kind: str, strength: int, wielder: Wielder) -> tuple[int, int]:
    """Thrust or swing at an ST: the character's own (GCS's saved values) at striking ST, else
    the file's damage progression (the Basic Set's where it is one GCS alone computes)."""
    thrusting = kind in _THRUST_KINDS
    if strength == wielder.striking:
        return wielder.thrust if thrusting else wielder.swing
    rule = thrust if thrusting else swing
    found = rule(strength, wielder.progression) or rule(strength, "basic_set")
    return found if found is not None else (1, 0)


def damage_by_rules(
    weapon: Node,
    owner: Node,
    levels: int | None,
    wielder: Wielder,
    min_st: Callable[[], int],
    bonuses: WeaponBonusFinder,
) -> WeaponDamageResult:
    """A weapon mode's damage by GCS's rules (``levels``: the owner's level when it is leveled,
    else None)."""
    damage = _damage(weapon)
    type_text = text(damage, "type").strip()
    kind, old_leveled = _strength_kind(text(damage, "st").strip())
    causes: list[str] = []
    base, subtract = GcsDice(0), False
    base_spec = text(damage, "base").strip()
    leveled_spec = text(damage, "base_leveled").strip()
    per_level_base = levels is not None and (number(weapon, "sv") or 0) < 1 and bool(base_spec)
    if per_level_base:
        base_spec, leveled_spec = "", base_spec  # GCS read such a file's base as per level
    if base_spec:
        parsed = gcs_roll(base_spec)
        if parsed is None:  # a script GCS evaluates: not computed here
            return WeaponDamageResult(None, 1, type_text, raw_damage_text(weapon, per_level_base))
        base, subtract = parsed
    if levels is not None and levels > 0 and leveled_spec:
        parsed = gcs_roll(leveled_spec)
        if parsed is None:
            return WeaponDamageResult(None, 1, type_text, raw_damage_text(weapon, per_level_base))
        base, subtract = add_rolls(base, scaled(levels, parsed[0]), subtract, parsed[1])
        causes.append(f"{leveled_spec} per level × {levels}")
    thrust_or_swing = ""
    if kind in _THRUST_KINDS or kind in _SWING_KINDS:
        strength, why = _weapon_strength(kind, wielder, owner, min_st, bonuses)
        multiplier = number_or_text(damage, "st_mul")
        if multiplier is not None and multiplier > 0 and multiplier != 1:
            strength = math.trunc(strength * fxp(multiplier))
            why.append(f"ST for damage × {multiplier:g}")
        causes.extend(why)
        dice, adds = _strength_dice(kind, strength, wielder)
        st_roll = GcsDice(dice, 6, adds)
        leveled = old_leveled or boolean(damage, "leveled")
        if leveled:
            st_roll = scaled(max(levels or 0, 0), st_roll)
            causes.append(f"{kind} × {max(levels or 0, 0)} levels")
        elif not why and kind in ("thr", "sw"):
            thrust_or_swing = kind
        base, subtract = add_rolls(base, st_roll, subtract, False)
    if subtract:  # still negative dice: GCS rolls no damage
        base = GcsDice(0)
    raw = raw_damage_text(weapon, per_level_base)
    return _with_bonuses(weapon, base, type_text, wielder, bonuses, causes, thrust_or_swing, raw)


def plain_dice(weapon: Node, wielder: Wielder, leveled_owner: bool) -> tuple[GcsDice, str] | None:
    """The dice of a weapon without bonuses (its base plus the wielder's thrust or swing, as GCS
    shows them), and ``thr``/``sw`` when based on them; None when its damage is more than that
    (leveled, per die, another ST), which only GCS's full rules resolve."""
    damage = _damage(weapon)
    if leveled_owner or not damage.keys().isdisjoint(_BEYOND_PLAIN):
        return None
    kind = text(damage, "st").strip()
    if kind not in ("thr", "sw", "", "none"):
        return None
    base, subtract = GcsDice(0), False
    base_spec = text(damage, "base").strip()
    if base_spec:
        parsed = gcs_roll(base_spec)
        if parsed is None:
            return None
        base, subtract = parsed
    if kind in ("thr", "sw"):
        dice, adds = wielder.thrust if kind == "thr" else wielder.swing
        base, subtract = add_rolls(base, GcsDice(dice, 6, adds), subtract, False)
    if subtract:
        return None
    return (dice_plus_adds(base) if wielder.dice_plus_adds else base), (kind if kind in ("thr", "sw") else "")


def _with_bonuses(
    weapon: Node,
    base: GcsDice,
    type_text: str,
    wielder: Wielder,
    bonuses: WeaponBonusFinder,
    causes: list[str],
    thrust_or_swing: str,
    raw: str,
) -> WeaponDamageResult:
    damage = _damage(weapon)
    die_count = base.count
    phoenix = wielder.progression == "phoenix_flame_d3" and base.sides == 3
    written = number_or_text(damage, "armor_divisor")
    divisor: Fraction | int = fxp(written) if written is not None and written > 0 and written != 1 else 1
    percent_damage: Fraction | int = 0
    percent_divisor: Fraction | int = 0
    modifier = base.modifier
    for feature in bonuses(("weapon_bonus", "weapon_dr_divisor_bonus")):
        amount = fxp(weapon_amount(feature, die_count))
        percent = boolean(feature.data, "percent")
        if feature.kind == "weapon_bonus":
            if percent:
                percent_damage += amount
                continue
            if phoenix:
                if boolean(feature.data, "leveled"):
                    amount /= 2
                if boolean(feature.data, "per_die") or boolean(feature.data, "per_level"):
                    amount /= 2
            if math.trunc(amount):
                modifier += math.trunc(amount)
                causes.append(f"{math.trunc(amount):+d} from {_bonus_source(feature)}")
        elif percent:
            percent_divisor += amount
        elif amount:
            divisor += amount
            causes.append(f"armor divisor {_signed(amount)} from {feature.owner}")
    per_die_written = number_or_text(damage, "modifier_per_die")
    if per_die_written:
        per_die = fxp(per_die_written)
        amount = per_die * die_count
        if phoenix:
            amount /= 2
        if math.trunc(amount):
            modifier += math.trunc(amount)
            causes.append(f"{math.trunc(amount):+d} from the weapon's {_signed(per_die)} per die")
    roll = GcsDice(base.count, base.sides, modifier, base.multiplier)
    if percent_damage:
        roll = with_percent(roll, percent_damage)
        causes.append(f"{_signed(percent_damage)}% damage")
    if percent_divisor:
        divisor += Fraction(divisor) * percent_divisor / 100
    divisor = fixed_point(Fraction(divisor))
    shown = dice_plus_adds(roll) if wielder.dice_plus_adds else roll
    if shown != roll:
        causes.append("adds of +4 or more made dice (GCS's 'modifying dice + adds' setting, B269)")
    if shown.count == 0 and shown.modifier == 0:
        return WeaponDamageResult(None, float(divisor), type_text, raw, tuple(causes), raw=raw)
    text_ = format_roll(shown)
    if divisor != 1:
        text_ += f"({written_divisor(float(divisor))})"
    if type_text:
        text_ += f" {type_text}"
    return WeaponDamageResult(shown, float(divisor), type_text, text_, tuple(causes), thrust_or_swing, raw)


def _bonus_source(feature: Feature) -> str:
    data = feature.data
    amount = number(data, "amount") or 0
    how = []
    if boolean(data, "per_die") or boolean(data, "per_level"):
        how.append(f"{amount:+g} per die")
    if boolean(data, "leveled"):
        how.append(f"{amount:+g} per level" if not how else "per level")
    return f"{feature.owner} ({', '.join(how)})" if how else feature.owner


def raw_damage_text(weapon: Node, base_per_level: bool = False) -> str:
    """The weapon's damage as GCS shows it before resolving it: ``thr-1 (+1 per die) cr``,
    ``1d per level burn``, ``sw+2(2) cut`` (``base_per_level``: the base counts per level, as in
    a leveled trait's weapon saved before GCS had ``base_leveled``)."""
    raw = weapon.get("damage")
    if type(raw) is str:
        return raw.strip()
    damage = _damage(weapon)
    kind, old_leveled = _strength_kind(text(damage, "st").strip())
    out = "" if kind in ("", "none") else kind
    if out and (old_leveled or boolean(damage, "leveled")):
        out += " (Leveled)"
    base = text(damage, "base").strip()
    leveled = text(damage, "base_leveled").strip()
    if base_per_level and base:
        base, leveled = "", base
    if base and base not in ("0", "+0", "-0"):
        out += base if not out or base[:1] in "+-" else f"+{base}"
    if leveled:
        out += (leveled if not out or leveled[:1] in "+-" else f"+{leveled}") + " per level"
    divisor = number_or_text(damage, "armor_divisor")
    if divisor is not None and divisor not in (0, 1):
        out += f"({divisor:g})"
    per_die = number_or_text(damage, "modifier_per_die")
    if per_die:
        out += f" ({per_die:+g} per die)"
    kind_text = text(damage, "type").strip()
    if kind_text:
        out += f" {kind_text}"
    return out.strip()
