"""JavaScript value semantics the formulas rely on: ``String(x)``, truthiness, ``===``, ``trim``."""

from __future__ import annotations

from typing import Any, Final

from ._jsnum import as_number, js_number_text
from ._values import MISSING, Dice

__all__ = ["js_strict_equal", "js_string", "js_trim", "js_truthy"]

_MAX_JOIN_DEPTH: Final = 64

_JS_WHITESPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""What ``String.prototype.trim`` removes (WhiteSpace and LineTerminator in ECMA-262)."""


def js_trim(text: str) -> str:
    """``text.trim()`` in JavaScript (Python's ``strip()`` knows other characters as space)."""
    return text.strip(_JS_WHITESPACE)


def js_string(value: Any) -> str:
    """``String(value)`` in JavaScript, for the values a formula can meet."""
    return _js_string(value, 0, set())


def _js_string(value: Any, depth: int, active: set[int]) -> str:
    if isinstance(value, str):
        return str(value)
    if value is None:
        return "null"
    if value is MISSING:
        return "undefined"
    if isinstance(value, bool):
        return "true" if value else "false"
    number = as_number(value)
    if number is not None:
        return js_number_text(number)
    if isinstance(value, list | tuple):
        # Array.prototype.join: null and undefined are empty, and so is an array inside itself
        if depth >= _MAX_JOIN_DEPTH or id(value) in active:
            return ""
        active.add(id(value))
        try:
            return ",".join(
                "" if item is None or item is MISSING else _js_string(item, depth + 1, active)
                for item in value
            )
        finally:
            active.discard(id(value))
    return "[object Object]"


def js_truthy(value: Any) -> bool:
    """JavaScript truthiness: ``false``, ``0``, ``NaN``, ``''``, ``null`` and ``undefined`` are
    false; everything else (``[]`` and ``{}`` too) is true."""
    if value is None or value is MISSING:
        return False
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return len(value) > 0
    number = as_number(value)
    if number is not None:
        return number == number and number != 0
    return True


def js_strict_equal(left: Any, right: Any) -> bool:
    """``left === right`` in JavaScript, with a missing value equal to ``null``.

    Numbers compare by value (``3 == 3.0``), booleans only equal booleans, strings by text, and
    objects and arrays only themselves. Dice never compare equal: in the reference every
    ``lookup()`` returns a new object.
    """
    if left is MISSING:
        left = None
    if right is MISSING:
        right = None
    if left is None or right is None:
        return left is right
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and bool(left) == bool(right)
    if isinstance(left, str) or isinstance(right, str):
        return isinstance(left, str) and isinstance(right, str) and str(left) == str(right)
    left_number = as_number(left)
    right_number = as_number(right)
    if left_number is not None or right_number is not None:
        return left_number is not None and right_number is not None and left_number == right_number
    if isinstance(left, Dice) or isinstance(right, Dice):
        return False  # every lookup() makes a new object in JavaScript, and === compares identity
    return left is right
