"""JavaScript value semantics the formulas rely on: ``String(x)``, ``Number(x)``, truthiness,
``===``, property access (``x[key]``), ``trim``, ``toLowerCase`` and the whitespace of ``\\s``."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, Final

from ._jsnum import as_number, js_number_text
from ._values import MISSING, Dice

__all__ = [
    "JS_WHITESPACE",
    "js_get",
    "js_lower",
    "js_strict_equal",
    "js_string",
    "js_to_number",
    "js_trim",
    "js_truthy",
]

_MAX_JOIN_DEPTH: Final = 64

JS_WHITESPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""ECMA-262's WhiteSpace and LineTerminator: what ``trim()`` removes, what ``Number()`` ignores
around a number, and what the regular expression ``\\s`` matches (Python's ``str.isspace()``
and ``\\s`` know other characters, such as U+001C..U+001F and U+0085, and miss U+FEFF)."""


def js_trim(text: str) -> str:
    """``text.trim()`` in JavaScript (Python's ``strip()`` knows other characters as space)."""
    return text.strip(JS_WHITESPACE)


def js_lower(text: str) -> str:
    """``text.toLowerCase()``: Unicode's full lower-case mapping, as Python's ``lower()`` (both
    map U+0130 to two characters and a final sigma to U+03C2)."""
    return text.lower()


_ARRAY_INDEX: Final = re.compile(r"0|[1-9][0-9]*")
_MAX_ARRAY_INDEX: Final = 2**32 - 2


def js_get(value: Any, key: str) -> Any:
    """``value[key]`` in JavaScript, for the values a document holds.

    An object gives its own property; text and arrays give their ``length`` (text counted in
    UTF-16 code units, as JavaScript counts it) and their element at a canonical index (``"0"``,
    ``"12"``; a character of text is one UTF-16 code unit). Everything else is missing
    (``undefined``): null, numbers and booleans have no data properties, and the methods
    JavaScript would find on a prototype are functions, which no JSON value can carry.
    """
    if type(value) is dict:
        return value.get(key, MISSING)
    if isinstance(value, Mapping):
        return value.get(key, MISSING)
    if isinstance(value, str):
        return _text_property(str(value), key)
    if isinstance(value, list | tuple):
        if key == "length":
            return len(value)
        index = _array_index(key)
        return value[index] if index is not None and index < len(value) else MISSING
    return MISSING


def _array_index(key: str) -> int | None:
    """The index a property name stands for (``"0"``, ``"12"``, not ``"01"`` or ``"-1"``)."""
    if len(key) > 10 or not _ARRAY_INDEX.fullmatch(key):
        return None
    index = int(key)
    return index if index <= _MAX_ARRAY_INDEX else None


def _text_property(text: str, key: str) -> Any:
    """``length`` and the code unit at an index, counted in UTF-16 as JavaScript counts text."""
    index = _array_index(key) if key != "length" else None
    if key != "length" and index is None:
        return MISSING
    if text.isascii():
        if index is None:
            return len(text)
        return text[index] if index < len(text) else MISSING
    encoded = text.encode("utf-16-le", "surrogatepass")
    if index is None:
        return len(encoded) // 2
    if index >= len(encoded) // 2:
        return MISSING
    return chr(int.from_bytes(encoded[2 * index : 2 * index + 2], "little"))


_DECIMAL: Final = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")
_NON_DECIMAL: Final = re.compile(r"0(?:[xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)")
_BASES: Final = {"x": 16, "o": 8, "b": 2}


def js_to_number(value: Any) -> float:
    """``Number(value)`` in JavaScript: what an operator or a built-in that wants a number makes
    of any value.

    ``null`` is 0, a missing value (``undefined``) NaN, booleans 1 and 0; text is read as
    JavaScript reads it (surrounding whitespace ignored, empty text is 0, ``0x``/``0o``/``0b``
    prefixes, ``Infinity``; anything else NaN); an array is read as its text (``[]`` is 0,
    ``[2]`` is 2), and other objects (dice included) are NaN.
    """
    if value is None:
        return 0.0
    if value is MISSING:
        return math.nan
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    number = as_number(value)
    if number is not None:
        return number
    if isinstance(value, str):
        return _string_to_number(str(value))
    if isinstance(value, list | tuple):
        return _string_to_number(js_string(value))
    return math.nan


def _string_to_number(text: str) -> float:
    """ECMA-262 StringToNumber (Python's ``float()`` also takes ``1_0``, ``inf`` and ``nan``)."""
    text = js_trim(text)
    if not text:
        return 0.0
    if _DECIMAL.fullmatch(text):
        return float(text.replace("Infinity", "inf"))
    if _NON_DECIMAL.fullmatch(text):
        try:
            return float(int(text[2:], _BASES[text[1].lower()]))
        except OverflowError:
            return math.inf
    return math.nan


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
