"""A GCS weapon mode's damage as GCS rolls it, and a notation that resolves to the same dice.

GCS resolves a weapon's damage (``thr-1 cr``, ``base_leveled: 1d``, ``+1 per die``) for its
wielder: the dice of the ST the damage is based on (striking, lifting, telekinetic ST or IQ,
after the weapon's effective-ST bonuses, at most three times its minimum ST, times its ST
multiplier), plus the weapon's base dice and its dice per level of a leveled trait, then the
weapon bonuses in force (Brawling's and Weapon Master's per die, Claws' flat ones, percentages),
the weapon's own modifier per die, and, with the sheet's "modifying dice + adds" setting, adds
of +4 and more made dice (B269). Files that saved GCS's result (``calc.damage``) give it; the
rules are for those that did not (versions 1 and 2, files with the ``calc`` removed).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any, Final

from ..._notation import HIT_TYPES, MODIFIERS
from .features import Feature, weapon_amount
from .fields import Node, boolean, number, number_or_text, text, whole_number
from .progression import swing, thrust

__all__ = [
    "GcsDice",
    "WeaponDamageResult",
    "Wielder",
    "damage_by_rules",
    "damage_entry",
    "damage_from_calc",
    "format_roll",
    "gcs_roll",
    "plain_dice",
    "raw_damage_text",
]

_THRUST_KINDS: Final = {"thr": "striking", "lift_thr": "lifting", "tk_thr": "telekinetic", "iq_thr": "iq"}
_SWING_KINDS: Final = {"sw": "striking", "lift_sw": "lifting", "tk_sw": "telekinetic", "iq_sw": "iq"}
_OLD_LEVELED: Final = {"thr_leveled": "thr", "sw_leveled": "sw"}
_SUBTRACTED: Final = re.compile(r"-[0-9]*[dD]")
_SPEC: Final = re.compile(r"([0-9]*)(?:[dD]([0-9]*))?([+-][0-9]+)?(?:[xX]([0-9]+))?")
_CALC_ROLL: Final = re.compile(r"\s*(?:([0-9]+)d([0-9]*))?([+-]?[0-9]+)?(?:x([0-9]+))?(?:\(([0-9.]+)\))?")
_LEAST_DIVISOR: Final = Fraction(1, 1000)
_GREATEST_DIVISOR: Final = Fraction(1000)
"""The armor divisors a notation holds (``resolve_hit`` divides or multiplies DR by at most 1000)."""
_MAX_COUNT: Final = 999_999
_MAX_NOTATION: Final = 900_000
"""The largest dice, adds and multiplier written in a notation (which takes six digits)."""
_PROSE: Final = frozenset({"per", "point", "points", "pt", "pts"})
_PER_TEXT: Final = re.compile(r"(?:/|\bper\s+)\s*([0-9]+)?\s*points?\b", re.IGNORECASE)
_STEP_TEXT: Final = re.compile(r"\+\s*([0-9]+)d([+-][0-9]+)?", re.IGNORECASE)
_DIVISOR_TEXT: Final = re.compile(r"\(\s*([0-9.]+|∞|inf)\s*\)", re.IGNORECASE)
_WORDS: Final = re.compile(r"[A-Za-z][A-Za-z+\-]*\.?")
"""A word of GCS's damage type text; a period may end it (``spec.``)."""
_SCHEMA_TYPES: Final = frozenset(
    {"cr", "cut", "imp", "pi-", "pi", "pi+", "pi++", "burn", "cor", "fat", "tox", "tbb", "aff", "spec"}
)


@dataclass(frozen=True, slots=True)
class GcsDice:
    """GCS's dice: ``count``d``sides`` + ``modifier``, the whole times ``multiplier``."""

    count: int
    sides: int = 6
    modifier: int = 0
    multiplier: int = 1


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


# ---------------------------------------------------------------- dice arithmetic


def gcs_roll(spec: str) -> tuple[GcsDice, bool] | None:
    """A dice spec of a weapon's damage (``1d``, ``2d+1``, ``-1``, ``+2``, ``6dx2``) and whether
    it is subtracted (``-1d``); None for text GCS would evaluate as a script."""
    spec = spec.strip().lstrip("+")
    amount = whole_number(spec) if len(spec) < 8 else None
    if amount is not None:  # the usual weapon adds: "-1", "2"
        return GcsDice(0, 6, amount), False
    subtract = False
    if _SUBTRACTED.match(spec):
        subtract, spec = True, spec[1:]
    if not spec or len(spec) > 40:
        return None
    found = _SPEC.fullmatch(spec)
    if found is None:
        return None
    count_text, sides_text, modifier_text, times_text = found.groups()
    if sides_text is None:  # no "d": a plain amount
        if count_text and not modifier_text:
            return GcsDice(0, 6, _bounded(int(count_text))), False
        if modifier_text and not count_text:
            return GcsDice(0, 6, _bounded(int(modifier_text))), False
        return None
    count = _bounded(int(count_text)) if count_text else 1
    sides = _bounded(int(sides_text)) if sides_text else 6
    modifier = _bounded(int(modifier_text)) if modifier_text else 0
    times = max(1, _bounded(int(times_text))) if times_text else 1
    return GcsDice(count, sides, modifier, times), subtract


def _bounded(value: int) -> int:
    return max(-_MAX_COUNT, min(_MAX_COUNT, value))


def _times(levels: int, roll: GcsDice) -> GcsDice:
    """A roll for ``levels`` levels: count and modifier scale, the multiplier stays."""
    return replace(roll, count=_bounded(roll.count * levels), modifier=_bounded(roll.modifier * levels))


def _add(left: GcsDice, right: GcsDice, left_sub: bool, right_sub: bool) -> tuple[GcsDice, bool]:
    """Two rolls added as GCS adds them: dice of one size add up (the multipliers too, less one);
    dice of different sizes become the smaller size with the same average (the remainder as
    adds). The flag says the sum is negative dice (GCS then rolls nothing)."""
    left_count = -left.count if left_sub else left.count
    right_count = -right.count if right_sub else right.count
    if left.sides > 1 and right.sides > 1 and left.sides != right.sides:
        sides = min(left.sides, right.sides)
        average = Fraction(sides + 1, 2)
        both = (
            Fraction(left_count * (left.sides + 1), 2) * left.multiplier
            + Fraction(right_count * (right.sides + 1), 2) * right.multiplier
        )
        count = math.trunc(both / average)
        remainder = both - count * average
        summed = GcsDice(count, sides, _round_half_away(remainder) + left.modifier + right.modifier, 1)
    else:
        summed = GcsDice(
            left_count + right_count,
            max(left.sides, right.sides),
            left.modifier + right.modifier,
            left.multiplier + right.multiplier - 1,
        )
    if summed.count < 0:
        return replace(summed, count=-summed.count), True
    return summed, False


def _round_half_away(value: Fraction) -> int:
    half = Fraction(1, 2)
    return math.floor(value + half) if value >= 0 else -math.floor(-value + half)


def _percent(roll: GcsDice, percent: Fraction | int) -> GcsDice:
    """A percentage damage bonus: the average grows by it, kept in whole dice and adds."""
    count = Fraction(roll.count)
    per_die = Fraction(roll.sides + 1, 2)
    average = per_die * count + roll.modifier
    modifier = Fraction(roll.modifier) * (100 + percent) / 100
    if average < 0:
        count = max(Fraction(0), count * (100 + percent) / 100)
    else:
        average = average * (100 + percent) / 100 - modifier
        count = max(Fraction(0), Fraction(math.floor(average / per_die)))
        modifier += _round_half_away(average - count * per_die)
    return GcsDice(math.trunc(count), roll.sides, math.trunc(modifier), roll.multiplier)


def _dice_plus_adds(roll: GcsDice) -> GcsDice:
    """B269: adds of +4 or more become dice (+4 is 1d, +5 is 1d+1, +7 is 2d...); for d6 each
    die takes 3.5 adds, alternately 4 and 3."""
    count, modifier = roll.count, roll.modifier
    if modifier <= 0 or roll.sides < 1:
        return roll
    average = (roll.sides + 1) // 2
    if roll.sides % 2 == 1:
        count += modifier // average
        modifier %= average
    else:
        while modifier > average:
            if modifier > 2 * average:
                modifier -= 2 * average + 1
                count += 2
            else:
                modifier -= average + 1
                count += 1
    return GcsDice(count, roll.sides, modifier, roll.multiplier)


def format_roll(roll: GcsDice) -> str:
    """The dice as GCS writes them: ``2d+1``, ``1d``, ``3dx2``, ``2`` (no dice), ``2d3``."""
    out = ""
    if roll.count > 0:
        out = f"{roll.count}d" + ("" if roll.sides == 6 else str(roll.sides))
    if roll.modifier:
        out += f"{roll.modifier:+d}" if out else str(roll.modifier)
    if roll.multiplier != 1:
        out += f"x{roll.multiplier}"
    return out or "0"


def _fxp(value: float) -> Fraction:
    """A GCS fixed-point amount (4 decimals), exact."""
    return Fraction(round(value * 10_000), 10_000)


def _fixed_point(value: Fraction) -> Fraction:
    """A value as GCS's fixed point holds it: truncated to 4 decimals."""
    return Fraction(math.trunc(value * 10_000), 10_000)


def _divisor_text(divisor: float) -> str:
    """A divisor as GCS writes it (``4``, ``1.5``, ``0.25``, ``∞``): its decimals, no exponent."""
    if not math.isfinite(divisor):
        return "∞"
    shown = format(Decimal(float.__repr__(divisor)), "f")
    return shown.rstrip("0").rstrip(".") if "." in shown else shown


def _writable(divisor: float) -> bool:
    """Whether a notation holds the divisor: ∞, or a decimal from 0.001 to 1000."""
    if 0.01 <= divisor <= 100:  # the usual divisors (1, 2, 0.5 ...), far from the bounds as doubles too
        return True
    return math.isinf(divisor) or _LEAST_DIVISOR <= Fraction(float.__repr__(divisor)) <= _GREATEST_DIVISOR


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
        divisor = float(_fixed_point(Fraction(divisor_text))) or 1.0
    roll = GcsDice(count, sides, modifier, max(1, times))
    return WeaponDamageResult(roll, divisor, resolved[end:].strip(), resolved)


# ---------------------------------------------------------------- GCS's rules

WeaponBonusFinder = Callable[[tuple[str, ...]], list[Feature]]
"""The features of some kinds that reach the weapon (see :func:`.features.weapon_bonuses`)."""


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
        amount = _fxp(weapon_amount(feature, 1))
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
        base, subtract = _add(base, _times(levels, parsed[0]), subtract, parsed[1])
        causes.append(f"{leveled_spec} per level × {levels}")
    thrust_or_swing = ""
    if kind in _THRUST_KINDS or kind in _SWING_KINDS:
        strength, why = _weapon_strength(kind, wielder, owner, min_st, bonuses)
        multiplier = number_or_text(damage, "st_mul")
        if multiplier is not None and multiplier > 0 and multiplier != 1:
            strength = math.trunc(strength * _fxp(multiplier))
            why.append(f"ST for damage × {multiplier:g}")
        causes.extend(why)
        dice, adds = _strength_dice(kind, strength, wielder)
        st_roll = GcsDice(dice, 6, adds)
        leveled = old_leveled or boolean(damage, "leveled")
        if leveled:
            st_roll = _times(max(levels or 0, 0), st_roll)
            causes.append(f"{kind} × {max(levels or 0, 0)} levels")
        elif not why and kind in ("thr", "sw"):
            thrust_or_swing = kind
        base, subtract = _add(base, st_roll, subtract, False)
    if subtract:  # still negative dice: GCS rolls no damage
        base = GcsDice(0)
    raw = raw_damage_text(weapon, per_level_base)
    return _with_bonuses(weapon, base, type_text, wielder, bonuses, causes, thrust_or_swing, raw)


def plain_dice(weapon: Node, wielder: Wielder, leveled_owner: bool) -> tuple[GcsDice, str] | None:
    """The dice of a weapon without bonuses (its base plus the wielder's thrust or swing, as GCS
    shows them), and ``thr``/``sw`` when based on them; None when its damage is more than that
    (leveled, per die, another ST), which only GCS's full rules resolve."""
    damage = _damage(weapon)
    if leveled_owner or any(
        key in damage for key in ("base_leveled", "modifier_per_die", "st_mul", "leveled")
    ):
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
        base, subtract = _add(base, GcsDice(dice, 6, adds), subtract, False)
    if subtract:
        return None
    return (_dice_plus_adds(base) if wielder.dice_plus_adds else base), (
        kind if kind in ("thr", "sw") else ""
    )


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
    divisor: Fraction | int = _fxp(written) if written is not None and written > 0 and written != 1 else 1
    percent_damage: Fraction | int = 0
    percent_divisor: Fraction | int = 0
    modifier = base.modifier
    for feature in bonuses(("weapon_bonus", "weapon_dr_divisor_bonus")):
        amount = _fxp(weapon_amount(feature, die_count))
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
        per_die = _fxp(per_die_written)
        amount = per_die * die_count
        if phoenix:
            amount /= 2
        if math.trunc(amount):
            modifier += math.trunc(amount)
            causes.append(f"{math.trunc(amount):+d} from the weapon's {_signed(per_die)} per die")
    roll = GcsDice(base.count, base.sides, modifier, base.multiplier)
    if percent_damage:
        roll = _percent(roll, percent_damage)
        causes.append(f"{_signed(percent_damage)}% damage")
    if percent_divisor:
        divisor += Fraction(divisor) * percent_divisor / 100
    divisor = _fixed_point(Fraction(divisor))
    shown = _dice_plus_adds(roll) if wielder.dice_plus_adds else roll
    if shown != roll:
        causes.append("adds of +4 or more made dice (GCS's 'modifying dice + adds' setting, B269)")
    if shown.count == 0 and shown.modifier == 0:
        return WeaponDamageResult(None, float(divisor), type_text, raw, tuple(causes), raw=raw)
    text_ = format_roll(shown)
    if divisor != 1:
        text_ += f"({_divisor_text(float(divisor))})"
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


# ---------------------------------------------------------------- the document's entry


@dataclass(frozen=True, slots=True)
class _TypeParts:
    word: str
    modifiers: tuple[str, ...]
    per_points: int
    step: tuple[int, int] | None
    divisor: float | None
    leftover: str


def _type_parts(type_text: str) -> _TypeParts:
    """GCS's damage type text split into what the notation holds: the damage word (the first
    type a hit resolves, else the first plain word, a period after it kept: ``aff``, ``spec.``,
    ``ctrl``), modifiers (``ex``), per points, a step of dice per point, a divisor written in
    the text, and what is left over."""
    plain = type_text.strip().lower()
    if plain in HIT_TYPES:  # the usual text: one damage type
        return _TypeParts(plain, (), 0, None, None, "")
    rest = type_text if len(type_text) < 400 else type_text[:400]
    per_points = 0
    step: tuple[int, int] | None = None
    divisor: float | None = None
    found_per = _PER_TEXT.search(rest)
    if found_per:
        per_points = max(1, min(int((found_per.group(1) or "1")[:8]), _MAX_COUNT))
        rest = rest[: found_per.start()] + " " + rest[found_per.end() :]
    found_step = _STEP_TEXT.search(rest)
    if found_step and per_points:
        step = (
            min(int(found_step.group(1)[:8]), _MAX_COUNT),
            _bounded(int((found_step.group(2) or "0")[:8])),
        )
        rest = rest[: found_step.start()] + " " + rest[found_step.end() :]
    found_divisor = _DIVISOR_TEXT.search(rest)
    if found_divisor:
        value = found_divisor.group(1).lower()
        amount = 0.0
        if value in ("∞", "inf"):
            amount = math.inf
        elif len(value) < 20 and value.count(".") <= 1 and value != ".":
            amount = float(_fixed_point(Fraction(value)))
        if amount > 0 and _writable(amount):
            divisor = amount
            rest = rest[: found_divisor.start()] + " " + rest[found_divisor.end() :]
    words = [(m.group(0), m.start(), m.end()) for m in _WORDS.finditer(rest)]
    lowered = [w.lower() for w, _, _ in words]
    bare = [w.rstrip(".") for w in lowered]
    chosen: int | None = next((i for i, w in enumerate(bare) if w in HIT_TYPES), None)
    word = bare[chosen] if chosen is not None else "damage"
    if chosen is None:  # a damage word no hit resolves (ctrl, aff, spec.): the dice still roll
        chosen = next(
            (i for i, w in enumerate(bare) if w.isalpha() and w not in _PROSE and w not in MODIFIERS),
            None,
        )
        word = lowered[chosen] if chosen is not None else word
    modifiers: list[str] = []
    kept = set() if chosen is None else {chosen}
    for i, w in enumerate(bare):
        if w in MODIFIERS and w not in modifiers and i != chosen:
            modifiers.append(w)
            kept.add(i)
        elif w in _PROSE:
            kept.add(i)
    leftover = rest
    for i in sorted(kept, reverse=True):
        _, start, end = words[i]
        leftover = leftover[:start] + " " + leftover[end:]
    leftover = " ".join(leftover.replace("/", " ").split()).strip(" ,;")
    return _TypeParts(word, tuple(modifiers), per_points, step, divisor, leftover)


def damage_entry(
    result: WeaponDamageResult, wielder: Wielder, raw_type: str
) -> tuple[dict[str, Any], list[str]]:
    """The format's damage entry for a resolved weapon mode (a notation that
    ``resolve_damage_notation`` resolves to GCS's dice, adds, multiplier, armor divisor and
    type), and what the notes should add (text the notation leaves out). An entry without
    ``base`` is GCS's text for damage that is not dice."""
    notes: list[str] = []
    roll = result.roll
    parts = _rollable_parts(result)
    if roll is None or parts is None:
        return _not_dice(result, raw_type), notes
    divisor = result.divisor
    if parts.divisor is not None and divisor == 1:
        divisor = parts.divisor
    if not _writable(divisor):
        notes.append(
            f"GCS's armor divisor ({_divisor_text(divisor)}) is beyond what the notation holds "
            "(0.001 to 1000): left out"
        )
        divisor = 1
    entry: dict[str, Any] = {}
    base_text = _base_text(roll, result.thrust_or_swing, wielder, entry)
    notation = base_text + (f" ({_divisor_text(divisor)})" if divisor != 1 else "")
    notation += f" {parts.word}"
    if parts.modifiers:
        notation += " " + " ".join(parts.modifiers)
    if parts.step is not None:
        dice, adds = parts.step
        notation += f" +{dice}d" + (f"{adds:+d}" if adds else "")
    if parts.per_points:
        notation += "/point" if parts.per_points == 1 else f"/{parts.per_points} points"
    entry = {"notation": notation, **entry}
    if parts.word.rstrip(".") in _SCHEMA_TYPES:
        entry["type"] = parts.word.rstrip(".")
    if parts.word == "damage" and not result.type_text:
        notes.append("GCS names no damage type")
    elif parts.leftover:
        notes.append(f"GCS's damage text '{result.type_text}' is more than the notation holds")
    return entry, notes


def _rollable_parts(result: WeaponDamageResult) -> _TypeParts | None:
    """The parts of GCS's damage type text when the damage is six-sided dice the notation can
    hold (``1d aff`` and ``2d spec.`` too); None when it is not (no dice: ``HT-3 aff``,
    ``spec.``; a fixed amount of 0 or less, numbers beyond six digits)."""
    roll = result.roll
    if roll is None or roll.sides != 6 or (roll.count == 0 and roll.modifier <= 0):
        return None
    if max(roll.count, abs(roll.modifier), roll.multiplier) > _MAX_NOTATION:
        return None  # more than a notation writes (six digits, the wielder's adds included)
    return _type_parts(result.type_text)


def _base_text(roll: GcsDice, thrust_or_swing: str, wielder: Wielder, entry: dict[str, Any]) -> str:
    """``thr+2`` when the dice are the wielder's thrust (or swing) dice plus adds, else the
    dice; fills the entry's ``base``, ``dice`` and ``adds``."""
    if thrust_or_swing and roll.multiplier == 1:
        dice, adds = wielder.thrust if thrust_or_swing == "thr" else wielder.swing
        if roll.count == dice:
            extra = roll.modifier - adds
            entry.update(base="thrust" if thrust_or_swing == "thr" else "swing", adds=extra)
            return thrust_or_swing + (f"{extra:+d}" if extra else "")
    entry.update(base="fixed", dice=roll.count, adds=roll.modifier)
    times = f"x{roll.multiplier}" if roll.multiplier != 1 else ""
    if roll.count == 0:
        return f"{roll.modifier}{times}"
    return f"{roll.count}d" + (f"{roll.modifier:+d}" if roll.modifier else "") + times


def _not_dice(result: WeaponDamageResult, raw_type: str) -> dict[str, Any]:
    """GCS's text for damage that is not dice (an affliction, ``spec.``): not rollable."""
    shown = result.text.strip() or raw_type.strip() or "-"
    entry: dict[str, Any] = {"notation": shown}
    first = raw_type.strip().split(" ")[0].lower().rstrip(".") if raw_type.strip() else ""
    if first in _SCHEMA_TYPES:
        entry["type"] = first
    return entry
