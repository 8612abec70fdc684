"""GCS's units to the format's metric ones, by the GURPS metric rule GCS itself uses
(1 kg = 2 lb, 1 inch = 2.5 cm; a yard is a metre, so Move and reach keep their numbers)."""

from __future__ import annotations

import math
import re

from .fields import MAX_MAGNITUDE, number_text

__all__ = ["dice", "dice_entry", "height_text", "js_round", "kilograms", "tidy", "weight_text"]

_KG_PER_UNIT = {"lb": 0.5, "#": 0.5, "oz": 0.5 / 16, "tn": 1000.0, "t": 1000.0, "kg": 1.0, "g": 0.001}
"""Kilograms per GCS weight unit (``tn`` is the short ton of 2,000 lb; ``t`` the metric tonne)."""
_WEIGHT = re.compile(r"\s*([+-]?(?:[0-9][0-9,]*)?\.?[0-9]+)\s*(lb|#|oz|tn|t|kg|g)?\s*", re.IGNORECASE)
_FEET_INCHES = re.compile(
    r"""\s*(?:([0-9]{1,9}(?:\.[0-9]+)?)\s*')?\s*(?:([0-9]{1,9}(?:\.[0-9]+)?)\s*(?:"|''))?\s*"""
)
_DICE = re.compile(r"\s*([0-9]{1,6})\s*[dD]([0-9]*)\s*(?:([+-])\s*([0-9]{1,6}))?\s*")


def kilograms(value: object, default_unit: str = "lb") -> float | None:
    """A GCS weight (``"3 lb"``, ``"1,234.5 lb"``, ``"2 kg"``, or a bare number in the file's
    default unit) in kilograms, or None when it is not a weight."""
    if type(value) in (int, float) and not isinstance(value, bool):
        amount, unit = float(value), default_unit  # type: ignore[arg-type]
    elif type(value) is str and len(value) < 60:
        match = _WEIGHT.fullmatch(value)
        read = number_text(match.group(1)) if match else None
        if match is None or read is None:
            return None
        amount, unit = float(read), (match.group(2) or default_unit)
    else:
        return None
    if not -MAX_MAGNITUDE <= amount <= MAX_MAGNITUDE:
        return None
    factor = _KG_PER_UNIT.get(unit.lower(), _KG_PER_UNIT.get(default_unit, 0.5))
    result = amount * factor
    return result if -MAX_MAGNITUDE <= result <= MAX_MAGNITUDE else None


def js_round(value: float, digits: int = 0) -> float:
    """Rounding as the format's ``round()`` (half up, like JavaScript's ``Math.round``)."""
    scale = 10.0**digits
    return math.floor(value * scale + 0.5) / scale


def weight_text(value: str, default_unit: str = "lb") -> str | None:
    """A profile weight (``"115 lb"``) as metric text (``"57.5 kg"``), or None."""
    kg = kilograms(value, default_unit)
    if kg is None:
        return None
    return f"{_short(js_round(kg, 1))} kg"


def height_text(value: str) -> str | None:
    """A GCS height (``5'6"``, ``6' 1"``) as metric text (``"165 cm"``), or None."""
    match = _FEET_INCHES.fullmatch(value) if len(value) < 40 else None
    if match is None or not (match.group(1) or match.group(2)):
        return None
    inches = float(match.group(1) or 0) * 12 + float(match.group(2) or 0)
    return f"{_short(js_round(inches * 2.5, 1))} cm"


def _short(value: float) -> str:
    return str(int(value)) if value.is_integer() else f"{value:g}"


def tidy(value: float) -> float | int:
    """A sum of GCS's fixed-point numbers (4 decimals) without float noise, whole when it is."""
    rounded = round(value, 6)
    return int(rounded) if float(rounded).is_integer() else rounded


def dice(notation: str) -> tuple[int, int] | None:
    """Six-sided dice and adds of a notation (``"1d-2"``, ``"2d"``, ``"1d+0"``), or None."""
    match = _DICE.fullmatch(notation) if len(notation) < 40 else None
    if match is None or match.group(2) not in ("", "6"):
        return None
    adds = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
    return int(match.group(1)), adds


def dice_entry(count: int, adds: int) -> dict[str, object]:
    """The format's dice object."""
    notation = f"{count}d" + (f"{adds:+d}" if adds else "")
    return {"notation": notation, "dice": count, "adds": adds}
