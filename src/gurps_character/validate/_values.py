"""JSON values as JavaScript sees them: the type tests, equality, string lengths, ``multipleOf`` and
the asserted formats that the Ajv keywords (:mod:`._keywords`) and the fast check
(:mod:`._closures`, :mod:`._codegen`) share, so both judge a value alike."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from .._datetime import is_date_time
from ..formula._jsnum import js_number_text

__all__ = [
    "FORMATS",
    "JSON_TYPES",
    "code_points",
    "is_array",
    "is_finite_number",
    "is_integer",
    "is_object",
    "json_equal",
    "multiple_of",
    "number_text",
]


def is_finite_number(value: object) -> bool:
    """A JSON number that is a finite double (``bool`` excluded)."""
    if isinstance(value, float):
        return value - value == 0.0  # false for inf and nan
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            float(value)
        except OverflowError:  # JavaScript reads such a literal as Infinity
            return False
        return True
    return False


def is_integer(value: object) -> bool:
    if isinstance(value, float):
        return value - value == 0.0 and value.is_integer()
    return is_finite_number(value)


def is_object(value: object) -> bool:
    return isinstance(value, Mapping) and all(isinstance(key, str) for key in value)


def is_array(value: object) -> bool:
    return isinstance(value, list | tuple)


JSON_TYPES: dict[str, Callable[[object], bool]] = {
    "null": lambda value: value is None,
    "boolean": lambda value: isinstance(value, bool),
    "integer": is_integer,
    "number": is_finite_number,
    "string": lambda value: isinstance(value, str),
    "array": is_array,
    "object": is_object,
}


def json_equal(value: object, expected: object) -> bool:
    """JSON equality (Ajv's ``fast-deep-equal`` on parsed JSON); never calls ``==`` on unknown types."""
    if isinstance(expected, str):
        return isinstance(value, str) and value == expected
    if expected is None or isinstance(expected, bool):
        return value is expected or (isinstance(value, bool) and value == expected)
    if isinstance(expected, int | float):
        return (
            isinstance(value, int | float)
            and is_finite_number(value)
            and float(value) == float(expected)  # doubles, as JavaScript compares them
        )
    if isinstance(expected, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(expected)
            and all(json_equal(a, b) for a, b in zip(value, expected, strict=True))
        )
    if isinstance(expected, Mapping):
        return (
            is_object(value)
            and isinstance(value, Mapping)
            and len(value) == len(expected)
            and all(key in value and json_equal(value[key], item) for key, item in expected.items())
        )
    return False


_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def code_points(text: str) -> str:
    """The text as JavaScript sees it in ``u`` mode: surrogate pairs stored as two Python characters
    become the one character they encode."""
    if text.isascii() or _SURROGATE_PAIR.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def number_text(value: object) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return js_number_text(value)
    return str(value)


def multiple_of(value: int | float, divisor: int | float) -> bool:
    """Ajv's test: ``value / divisor`` must equal ``parseInt`` of itself, so the quotient must be a
    finite whole number below 1e21 (JavaScript writes larger ones with an exponent)."""
    if divisor == 0:
        return False
    quotient = float(value) / float(divisor)
    return quotient - quotient == 0.0 and quotient.is_integer() and abs(quotient) < 1e21


FORMATS: dict[str, Callable[[str], bool]] = {"date-time": is_date_time}
"""The formats that are asserted. Others are annotations only (the bundled schema uses none)."""
