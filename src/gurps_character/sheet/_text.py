"""How the sheet writes numbers and text: one place, used by the views and the templates."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["clean", "fit", "number", "signed", "weight_unit"]

_NOT_TEXT: Final = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff\ud800-\udfff]"
    "|[\U0001fffe\U0001ffff\U0002fffe\U0002ffff\U0003fffe\U0003ffff\U0004fffe\U0004ffff"
    "\U0005fffe\U0005ffff\U0006fffe\U0006ffff\U0007fffe\U0007ffff\U0008fffe\U0008ffff"
    "\U0009fffe\U0009ffff\U000afffe\U000affff\U000bfffe\U000bffff\U000cfffe\U000cffff"
    "\U000dfffe\U000dffff\U000efffe\U000effff\U000ffffe\U000fffff\U0010fffe\U0010ffff]"
)
"""Characters neither XML 1.0 (the SVG card) nor HTML (a parse error) can carry, even escaped:
control characters other than tab and line breaks, noncharacters, and lone surrogates (a JSON
string may hold one, and it cannot be written as UTF-8)."""


def clean(value: object) -> object:
    """Every text the templates write, before escaping: characters no page can carry become
    U+FFFD (the document is never changed; the sheet shows where they were)."""
    if isinstance(value, str):
        cleaned = _NOT_TEXT.sub("\ufffd", value)
        # Markup (a macro's output, a joined list) stays Markup: it is escaped already, and no
        # replaced character is part of its tags.
        return cleaned if type(value) is str else type(value)(cleaned)
    return value


def number(value: float | None, places: int = 3) -> str:
    """``12``, ``5.75``, ``0.125``: a whole number without ``.0``, others with at most ``places``
    decimals and no trailing zeros; ``—`` for None."""
    if value is None:
        return "—"
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def signed(value: float) -> str:
    """``+2``, ``-1``, ``0``."""
    text = number(value)
    return text if value <= 0 else f"+{text}"


def weight_unit(units: object) -> str:
    """The weight unit of a document's ruleset units (``metric``: kg, else lb)."""
    return "kg" if units == "metric" else "lb"


def fit(value: object, size: int) -> str:
    """Text of at most ``size`` characters, cut with ``…`` (the SVG card cannot wrap a line); a
    list is joined with commas first. Plain text: it is escaped after."""
    text = ", ".join(str(each) for each in value) if isinstance(value, tuple | list) else str(value)
    return text if len(text) <= size else text[: size - 1] + "…"
