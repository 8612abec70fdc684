"""The ``date-time`` format, checked as ajv-formats checks it (full mode, strict time zone).

The reference library validates ``format: "date-time"`` with ajv-formats, whose rules are a little
wider than RFC 3339 in places and this module follows them exactly:

* the text splits into exactly two parts at a separator that is ``T``, ``t`` or any JavaScript
  whitespace character (``\\s``: the ASCII spaces, NBSP, the Unicode space separators, the line and
  paragraph separators and the BOM);
* the date is ``YYYY-MM-DD`` with real month lengths (February 29 only in leap years);
* the time is ``HH:MM:SS`` with an optional fraction (``.`` and one or more digits) and a required
  zone: ``Z``/``z`` or ``±HH``, ``±HHMM``, ``±HH:MM`` (hours at most 23, minutes at most 59);
* second 60 (a leap second) is accepted only where the time, shifted to UTC by the offset, is 23:59;
* digits are ASCII digits only.

Seconds are read as a JavaScript number (a double), so ``59.99999999999999999`` counts as 60.
"""

from __future__ import annotations

import re

__all__ = ["JS_WHITESPACE", "is_date_time"]

JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""The characters JavaScript's ``\\s`` matches: WhiteSpace and LineTerminator of ECMA-262."""

_SEPARATOR = re.compile("[Tt" + "".join(f"\\u{ord(char):04x}" for char in JS_WHITESPACE) + "]")
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_TIME = re.compile(r"([0-9]{2}):([0-9]{2}):([0-9]{2}(?:\.[0-9]+)?)([zZ]|([+-])([0-9]{2})(?::?([0-9]{2}))?)?")
_DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


_USUAL = re.compile(
    r"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:"
    r"(?:(?:[0-5][0-8]|[0-4]9)(?:\.[0-9]+)?|59(?:\.[0-9]{1,3})?)Z"
)
"""The usual date-time (``2026-10-05T10:00:00.000Z``), valid whatever its numbers: days up to the
28th, hours and minutes within their ranges, seconds below 60 even as a double (a long fraction
after 59 may round to 60), in UTC. Anything else takes the full check."""


def is_date_time(text: str) -> bool:
    """Whether ``text`` is a ``date-time`` by ajv-formats' full, strict-time-zone rules."""
    if _USUAL.fullmatch(text) is not None:
        return True
    parts = _SEPARATOR.split(text)
    return len(parts) == 2 and _is_date(parts[0]) and _is_time(parts[1])


def _is_leap_year(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _is_date(text: str) -> bool:
    match = _DATE.fullmatch(text)
    if match is None:
        return False
    year, month, day = (int(group) for group in match.groups())
    if not 1 <= month <= 12:
        return False
    last = 29 if month == 2 and _is_leap_year(year) else _DAYS[month]
    return 1 <= day <= last


def _is_time(text: str) -> bool:
    match = _TIME.fullmatch(text)
    if match is None:
        return False
    hour, minute = int(match[1]), int(match[2])
    second = float(match[3])
    zone, sign = match[4], -1 if match[5] == "-" else 1
    zone_hours, zone_minutes = int(match[6] or 0), int(match[7] or 0)
    if zone_hours > 23 or zone_minutes > 59 or not zone:
        return False
    if hour <= 23 and minute <= 59 and second < 60:
        return True
    # A leap second: only at 23:59 UTC (-1 stands for the previous hour or minute, as in ajv-formats).
    utc_minute = minute - zone_minutes * sign
    utc_hour = hour - zone_hours * sign - (1 if utc_minute < 0 else 0)
    return utc_hour in (23, -1) and utc_minute in (59, -1) and second < 61
