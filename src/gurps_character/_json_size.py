"""How many bytes :func:`~gurps_character._json.dumps` writes for JSON data, bounded from above
without writing it: for a check of a size limit that the data is usually far within, where
writing the text only to measure it took as long as reading the file it came from.

The bound (``B``) of the indented text (two spaces a level, as ``JSON.stringify(value, null, 2)``
writes) is the sum of what each part can take in UTF-8:

* a non-empty object or array at depth ``k`` (the whole value at 0) with ``n`` entries writes its
  two brackets, before each entry a newline and ``2(k + 1)`` spaces, ``n - 1`` commas, and a
  newline and ``2k`` spaces before its closing bracket: at most ``n(2k + 4) + 2k + 3`` bytes
  besides its entries; an object's entry adds its key's literal and ``": "`` (2 bytes);
* an empty object or array writes 2 bytes; ``true``, ``false`` and ``null`` at most 5;
* a number at most 25 (:func:`~gurps_character._json.js_number`: a sign, 17 significant digits
  and ``0.00000`` before them, or a point and an exponent of 3 digits: ``-0.0000012345678901234567``
  is the longest);
* a string's literal at most 6 bytes a character plus its 2 quotes (an escape takes 2 or 6 bytes,
  a character's UTF-8 at most 4, a surrogate pair 4 for its 2); and, for a string without
  surrogates, at most its UTF-8 bytes plus 5 for each quote, backslash and control character
  (the only characters written escaped, each one byte of UTF-8) plus the quotes: long strings are
  bounded that way, by counting in C (the bound is exact without those three), short ones per
  character.

So ``B >= len(utf8(dumps(value, 2)))`` for all JSON data, whatever it holds. The walk goes level
by level without recursion, and stops once its sum is over the caller's limit (or at anything
but JSON data, which the exact writer refuses): then the caller measures the text itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

__all__ = ["indented_size_bound", "string_literal_bound"]

_NUMBER_BYTES: Final = 25
"""The longest number :func:`~gurps_character._json.dumps` writes (``-0.0000012345678901234567``)."""

_LONG_STRING: Final = 64
"""Strings of at least this many characters are measured by counting; shorter ones are bounded
at 6 bytes a character (counting costs more than a short string's bound saves)."""

_INT_LIMIT: Final = 2**1023
"""Integers within are numbers :func:`dumps` writes (beyond, some are not: no double holds them)."""

_SAFE_INT: Final = 2**53
"""Integers within are written as their digits (the usual number, told apart first)."""

_ESCAPED_BYTES: Final = bytes(range(0x20)) + b'"\\'
"""The UTF-8 bytes of the characters written escaped: control characters, the quote and the
backslash (no byte of a longer character's UTF-8 is below 0x80)."""


def string_literal_bound(text: str) -> int:
    """At least the bytes (UTF-8) of ``text``'s string literal as :func:`dumps` writes it: for a
    long string without surrogates its UTF-8 and 5 more for each character written escaped, else
    6 a character (see the module's docstring); plus the quotes."""
    if len(text) >= _LONG_STRING:
        try:
            encoded = text.encode("utf-8")  # a surrogate (lone or paired) is refused here
        except UnicodeEncodeError:
            return 6 * len(text) + 2
        size = len(encoded)
        # each byte of a quote, a backslash or a control character: 6 bytes at most
        return size + 5 * (size - len(encoded.translate(None, _ESCAPED_BYTES))) + 2
    return 6 * len(text) + 2


def indented_size_bound(value: Any, stop: int) -> int:
    """At least the bytes (UTF-8) of ``dumps(value, 2)`` for JSON data, proven in the module's
    docstring; the sum so far, already over ``stop``, once it passes ``stop`` or meets anything
    but JSON data (a key that is not text, a tuple ...).

    Args:
        value: The data (read only).
        stop: Where counting may end: the caller's limit.

    Returns:
        The bound, or a number over ``stop``.
    """
    over = stop + 1
    kind = type(value)
    if kind is not dict and kind is not list:
        return _scalar_bound(value, over)
    if not value:
        return 2
    long = _LONG_STRING
    measured = string_literal_bound
    number = _NUMBER_BYTES
    safe = _SAFE_INT
    total = 0
    level: list[Any] = [value]
    depth = 0
    while level:
        below: list[Any] = []
        push = below.append
        entry = 2 * depth + 4
        close = 2 * depth + 3
        for item in level:
            if type(item) is dict:
                try:  # each key: its literal (6 bytes a character and 2 quotes) and ": "
                    total += len(item) * (entry + 4) + close + 6 * sum(map(len, item))
                except TypeError:  # a key without a length (a number ...): not JSON data
                    return max(total, over)
                children: Iterable[Any] = item.values()
            else:
                total += len(item) * entry + close
                children = item
            for child in children:
                kind = type(child)
                if kind is str:
                    size = len(child)
                    total += 6 * size + 2 if size < long else measured(child)
                elif kind is int and -safe <= child <= safe:
                    total += number
                elif kind is dict or kind is list:
                    if child:
                        push(child)
                    else:
                        total += 2
                else:
                    total += _scalar_bound(child, over)
            if total > stop:
                return total
        level = below
        depth += 1
    return total


def _scalar_bound(value: Any, over: int) -> int:
    kind = type(value)
    if kind is str:
        return string_literal_bound(value)
    if (kind is int and -_INT_LIMIT < value < _INT_LIMIT) or (kind is float and value - value == 0.0):
        return _NUMBER_BYTES  # (an infinity, a NaN or an integer no double holds is not JSON data)
    if value is None or kind is bool:
        return 5
    return over  # not JSON data: the exact writer decides (and refuses it)
