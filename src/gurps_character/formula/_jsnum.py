"""JavaScript number semantics: IEEE doubles, ``String(x)`` and ``JSON.stringify``.

Formula values follow the reference implementation, which is JavaScript: all arithmetic is on
doubles, numbers turn into text as ``Number.prototype.toString`` writes them, and a value that
``JSON.stringify`` would write as ``null`` (``NaN``, ``Infinity``) is ``None`` in a result.
"""

from __future__ import annotations

import math
from typing import Any, Final

__all__ = [
    "MAX_SAFE_INTEGER",
    "as_number",
    "finite_number",
    "js_divide",
    "js_floor",
    "js_number_text",
    "output_number",
]

MAX_SAFE_INTEGER: Final = 2**53
"""Integers up to this magnitude are exact doubles."""

_INF: Final = math.inf


def as_number(value: Any) -> float | None:
    """The value as a double, or ``None`` when it is not a number (booleans are not numbers).

    Integers too large for a double become infinities, as ``JSON.parse`` reads them.
    """
    kind = type(value)
    if kind is float:
        return value  # type: ignore[no-any-return]
    if kind is int:
        return _int_to_float(value)
    if kind is bool or not isinstance(value, int | float):
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return _int_to_float(int(value))
    return float(value)


def finite_number(value: Any) -> float | None:
    """The value as a double when it is a finite number, else ``None``: the reference's test
    ``typeof x === "number" && Number.isFinite(x)``, which every operator and math function
    applies to its operands (an infinity or NaN counts as no number, as text and booleans do)."""
    kind = type(value)
    if kind is float:
        return value if value - value == 0 else None  # inf - inf and nan - nan are NaN
    if kind is int and -_FINITE_INT < value < _FINITE_INT:
        return float(value)
    number = as_number(value)
    if number is None or number - number != 0:
        return None
    return number


_FINITE_INT: Final = 2**1023
"""Integers of smaller magnitude are finite doubles."""


def js_divide(left: float, right: float) -> float:
    """``left / right`` as JavaScript divides: by zero, an infinity of the combined sign, or NaN
    for ``0 / 0`` (Python raises)."""
    if right == 0:
        if left == 0 or left != left:
            return math.nan
        return math.copysign(math.inf, left) * math.copysign(1.0, right)
    return left / right


def js_floor(value: float) -> float:
    """``Math.floor``: infinities and NaN stay as they are (Python's ``floor`` raises)."""
    return float(math.floor(value)) if value - value == 0 else value


def _int_to_float(value: int) -> float:
    try:
        return float(value)
    except OverflowError:
        return _INF if value > 0 else -_INF


def output_number(value: float | int) -> int | float | None:
    """A number as a result carries it: integral values as ``int``, non-finite ones as ``None``
    (``JSON.stringify`` writes them as ``null``)."""
    if type(value) is int or (isinstance(value, int) and not isinstance(value, bool)):
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return int(value)
        value = _int_to_float(int(value))
    number = float(value)
    if number != number or number in (_INF, -_INF):
        return None
    if number.is_integer() and -MAX_SAFE_INTEGER <= number <= MAX_SAFE_INTEGER:
        return int(number)
    return number


def js_number_text(value: float | int) -> str:
    """``String(value)`` in JavaScript: ``3``, ``1.5``, ``1e+21``, ``1.5e-7``, ``NaN``, ``-Infinity``."""
    number = as_number(value)
    if number is None:  # pragma: no cover - callers pass numbers
        raise TypeError("not a number")
    if number != number:
        return "NaN"
    if number in (_INF, -_INF):
        return "Infinity" if number > 0 else "-Infinity"
    if number == 0:
        return "0"  # String(-0) is "0" too
    if number < 0:
        return "-" + js_number_text(-number)
    if number.is_integer() and number <= MAX_SAFE_INTEGER:
        return str(int(number))
    # repr() gives the shortest digits that round-trip, as ECMAScript's Number::toString does;
    # only the layout differs
    mantissa, _, exponent = repr(number).partition("e")
    whole, _, fraction = mantissa.partition(".")
    # the value is 0.DIGITS * 10**point
    all_digits = whole + fraction
    digits = all_digits.lstrip("0")
    point = len(whole) + int(exponent or 0) - (len(all_digits) - len(digits))
    digits = digits.rstrip("0")
    count = len(digits)
    if count <= point <= 21:
        return digits + "0" * (point - count)
    if 0 < point <= 21:
        return digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return "0." + "0" * (-point) + digits
    sign = "+" if point - 1 >= 0 else "-"
    head = digits[0] + ("." + digits[1:] if count > 1 else "")
    return f"{head}e{sign}{abs(point - 1)}"
