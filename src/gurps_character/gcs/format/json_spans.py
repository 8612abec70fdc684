"""Where values sit in a JSON text: the members of an object and the items of a list, each with
the exact span of its text, so that a value can be replaced without touching another byte.

Only the containers asked about are walked; every other value is skipped by the C scanner of
:mod:`json` (which parses it on the way: the cost of one :func:`json.loads` of the text at most),
reading numbers as the library reads JSON text (:func:`~gurps_character._json.decoder_for`), and
a value nested too deeply for that scanner by the library's parser with its own stack, so that
any text the importer reads can be written into. Text that is not JSON where a value should be
raises :class:`SpanError`.
"""

from __future__ import annotations

import json.decoder
import re
from collections.abc import Callable
from dataclasses import dataclass
from json import JSONDecodeError, JSONDecoder
from typing import Any, Final

from ..._json import raw_decode

__all__ = ["Member", "SpanError", "items", "members", "only_space_after", "root"]

_SCAN_STRING: Final[Callable[[str, int], tuple[str, int]]] = json.decoder.scanstring  # type: ignore[attr-defined]
"""The JSON string reader of :mod:`json` (its C one when built): text from after the opening quote."""
_SPACE: Final = re.compile(r"[ \t\n\r]*")


class SpanError(ValueError):
    """The text is not the JSON the caller expected at that place."""


@dataclass(frozen=True, slots=True)
class Member:
    """One member of a JSON object (or item of a list, with ``key`` None) and where it is.

    Attributes:
        key: The member's name (None for a list item).
        start: Where the member begins: its key's opening quote (a list item: its value).
        value_start: Where its value's text begins.
        value_end: Just after its value's text.
        value: The value, parsed.
    """

    key: str | None
    start: int
    value_start: int
    value_end: int
    value: Any


def _skip_space(text: str, at: int) -> int:
    match = _SPACE.match(text, at)
    return match.end() if match else at


def _value(text: str, at: int, decoder: JSONDecoder) -> tuple[Any, int]:
    try:
        value, end = raw_decode(text, at, decoder)
    except ValueError as err:  # not JSON, NaN or Infinity, a number beyond doubles
        raise SpanError(f"no JSON value at {at}") from err
    return value, end


def root(text: str) -> int:
    """Where the text's top-level object begins."""
    at = _skip_space(text, 0)
    if not text.startswith("{", at):
        raise SpanError("the text is not a JSON object")
    return at


def members(text: str, at: int, decoder: JSONDecoder) -> tuple[list[Member], int]:
    """The members of the object whose ``{`` is at ``at``, in text order, and where the object
    ends (just after its ``}``)."""
    if not text.startswith("{", at):
        raise SpanError(f"no object at {at}")
    found: list[Member] = []
    at = _skip_space(text, at + 1)
    if text.startswith("}", at):
        return found, at + 1
    while True:
        if not text.startswith('"', at):
            raise SpanError(f"no member name at {at}")
        start = at
        try:
            key, at = _SCAN_STRING(text, at + 1)
        except (JSONDecodeError, ValueError) as err:
            raise SpanError(f"no member name at {start}") from err
        at = _skip_space(text, at)
        if not text.startswith(":", at):
            raise SpanError(f"no ':' at {at}")
        value_start = _skip_space(text, at + 1)
        value, value_end = _value(text, value_start, decoder)
        found.append(Member(key, start, value_start, value_end, value))
        at = _skip_space(text, value_end)
        if text.startswith(",", at):
            at = _skip_space(text, at + 1)
            continue
        if text.startswith("}", at):
            return found, at + 1
        raise SpanError(f"no ',' or '}}' at {at}")


def items(text: str, at: int, decoder: JSONDecoder) -> tuple[list[Member], int]:
    """The items of the list whose ``[`` is at ``at``, in order, and where the list ends."""
    if not text.startswith("[", at):
        raise SpanError(f"no list at {at}")
    found: list[Member] = []
    at = _skip_space(text, at + 1)
    if text.startswith("]", at):
        return found, at + 1
    while True:
        value, end = _value(text, at, decoder)
        found.append(Member(None, at, at, end, value))
        at = _skip_space(text, end)
        if text.startswith(",", at):
            at = _skip_space(text, at + 1)
            continue
        if text.startswith("]", at):
            return found, at + 1
        raise SpanError(f"no ',' or ']' at {at}")


def only_space_after(text: str, at: int) -> bool:
    """Whether nothing but white space follows ``at``."""
    return _skip_space(text, at) == len(text)
