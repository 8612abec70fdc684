"""GCS's dice and its arithmetic on them: a dice spec read as GCS reads it, rolls added (dice of
different sizes at the same average), scaled per level, grown by a percentage, adds of +4 and more
made dice (B269), GCS's fixed-point amounts, and dice and armor divisors written as GCS writes them."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Final

from .fields import whole_number

__all__ = [
    "MAX_COUNT",
    "GcsDice",
    "add_rolls",
    "bounded",
    "dice_plus_adds",
    "fixed_point",
    "format_roll",
    "fxp",
    "gcs_roll",
    "scaled",
    "with_percent",
    "writable_divisor",
    "written_divisor",
]

_SUBTRACTED: Final = re.compile(r"-[0-9]*[dD]")
_SPEC: Final = re.compile(r"([0-9]*)(?:[dD]([0-9]*))?([+-][0-9]+)?(?:[xX]([0-9]+))?")
_LEAST_DIVISOR: Final = Fraction(1, 1000)
_GREATEST_DIVISOR: Final = Fraction(1000)
"""The armor divisors a notation holds (``resolve_hit`` divides or multiplies DR by at most 1000)."""
MAX_COUNT: Final = 999_999


@dataclass(frozen=True, slots=True)
class GcsDice:
    """GCS's dice: ``count``d``sides`` + ``modifier``, the whole times ``multiplier``."""

    count: int
    sides: int = 6
    modifier: int = 0
    multiplier: int = 1


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
            return GcsDice(0, 6, bounded(int(count_text))), False
        if modifier_text and not count_text:
            return GcsDice(0, 6, bounded(int(modifier_text))), False
        return None
    count = bounded(int(count_text)) if count_text else 1
    sides = bounded(int(sides_text)) if sides_text else 6
    modifier = bounded(int(modifier_text)) if modifier_text else 0
    times = max(1, bounded(int(times_text))) if times_text else 1
    return GcsDice(count, sides, modifier, times), subtract


def bounded(value: int) -> int:
    return max(-MAX_COUNT, min(MAX_COUNT, value))


def scaled(levels: int, roll: GcsDice) -> GcsDice:
    """A roll for ``levels`` levels: count and modifier scale, the multiplier stays."""
    return replace(roll, count=bounded(roll.count * levels), modifier=bounded(roll.modifier * levels))


def add_rolls(left: GcsDice, right: GcsDice, left_sub: bool, right_sub: bool) -> tuple[GcsDice, bool]:
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


def with_percent(roll: GcsDice, percent: Fraction | int) -> GcsDice:
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


def dice_plus_adds(roll: GcsDice) -> GcsDice:
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


def fxp(value: float) -> Fraction:
    """A GCS fixed-point amount (4 decimals), exact."""
    return Fraction(round(value * 10_000), 10_000)


def fixed_point(value: Fraction) -> Fraction:
    """A value as GCS's fixed point holds it: truncated to 4 decimals."""
    return Fraction(math.trunc(value * 10_000), 10_000)


def written_divisor(divisor: float) -> str:
    """A divisor as GCS writes it (``4``, ``1.5``, ``0.25``, ``∞``): its decimals, no exponent."""
    if not math.isfinite(divisor):
        return "∞"
    shown = format(Decimal(float.__repr__(divisor)), "f")
    return shown.rstrip("0").rstrip(".") if "." in shown else shown


def writable_divisor(divisor: float) -> bool:
    """Whether a notation holds the divisor: ∞, or a decimal from 0.001 to 1000."""
    if 0.01 <= divisor <= 100:  # the usual divisors (1, 2, 0.5 ...), far from the bounds as doubles too
        return True
    return math.isinf(divisor) or _LEAST_DIVISOR <= Fraction(float.__repr__(divisor)) <= _GREATEST_DIVISOR
