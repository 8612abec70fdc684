"""The grammar of a weapon's damage text (``sw+2 (2) cut``), parsed by hand.

Each ``_parse_*`` function's docstring holds the rule it reads; errors carry the position of the
offending character. Resolving ``thr``/``sw`` against a character is the caller's business
(:func:`gurps_character.resolve_damage_notation`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Final, Literal, NoReturn

__all__ = ["NotationError", "ParsedNotation", "parse_notation"]

_MAX_DIGITS: Final = 6
"""More digits than any weapon needs; keeps the numbers small whatever the text."""

_TYPES: Final = ("pi++", "pi+", "pi-", "pi", "cr", "cut", "imp", "burn", "tbb", "cor", "tox", "fat")
"""Longest first, so ``pi++`` is not read as ``pi`` followed by ``++``."""

_NOT_A_HIT: Final = {"aff": "affliction", "spec": "special"}

_DIVISORS: Final[dict[str, float]] = {
    "1": 1,
    "2": 2,
    "3": 3,
    "5": 5,
    "10": 10,
    "100": 100,
    "0.5": 0.5,
    "0.2": 0.2,
    "0.1": 0.1,
    "inf": math.inf,
    "∞": math.inf,
    "ignores dr": math.inf,
}

_BASE: Final = re.compile(r"(thr|sw)|([0-9]+)d", re.IGNORECASE)
_ADDS: Final = re.compile(r"[+-]([0-9]+)")
_TIMES: Final = re.compile(r"[x×*]([0-9]+)", re.IGNORECASE)
_DIVISOR: Final = re.compile(r"\(\s*([^()]*?)\s*\)")
_WORD: Final = re.compile(r"[A-Za-z+\-]+")


class NotationError(Exception):
    """Text that is not a damage notation: why, and at which character (0-based)."""

    def __init__(self, reason: str, position: int) -> None:
        super().__init__(f"{reason} (at {position})")
        self.reason = reason
        self.position = position


@dataclass(frozen=True, slots=True)
class ParsedNotation:
    """The parts as written; ``dice`` is 0 and ``adds`` the weapon's own for ``thr``/``sw``."""

    base: Literal["thrust", "swing", "fixed"]
    dice: int
    adds: int
    multiplier: int
    armor_divisor: float
    damage_type: str


class _Reader:
    """The text and a position in it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def skip_spaces(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def match(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        found = pattern.match(self.text, self.at)
        if found is not None:
            self.at = found.end()
        return found

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def fail(self, reason: str, at: int | None = None) -> NoReturn:
        raise NotationError(reason, self.at if at is None else at)


def _number(reader: _Reader, digits: str, start: int) -> int:
    if len(digits) > _MAX_DIGITS:
        reader.fail(f"a number of more than {_MAX_DIGITS} digits", start)
    return int(digits)


def _parse_base(reader: _Reader) -> tuple[Literal["thrust", "swing", "fixed"], int]:
    """base := ("thr" | "sw") | count "d" """
    start = reader.at
    found = reader.match(_BASE)
    if found is None:
        reader.fail("expected 'thr', 'sw' or dice such as '2d'")
    if found.group(1) is not None:
        return ("thrust" if found.group(1).lower() == "thr" else "swing"), 0
    return "fixed", _number(reader, found.group(2), start)


def _parse_adds(reader: _Reader) -> int:
    """adds := [("+" | "-") digits]"""
    start = reader.at
    found = reader.match(_ADDS)
    if found is None:
        if reader.peek() in ("+", "-"):
            reader.fail("expected digits after the sign", start + 1)
        return 0
    value = _number(reader, found.group(1), start + 1)
    return -value if reader.text[start] == "-" else value


def _parse_multiplier(reader: _Reader) -> int:
    """multiplier := [("x" | "×" | "*") digits]    (spaces may come before it)"""
    before = reader.at
    reader.skip_spaces()
    start = reader.at
    found = reader.match(_TIMES)
    if found is None:
        reader.at = before
        return 1
    value = _number(reader, found.group(1), start + 1)
    if value < 1:
        reader.fail("the multiplier must be at least 1", start + 1)
    return value


def _parse_divisor(reader: _Reader) -> float:
    """divisor := "(" (2 | 3 | 5 | 10 | 100 | 0.5 | 0.2 | 0.1 | inf | ∞ | ignores DR) ")" """
    found = reader.match(_DIVISOR)
    if found is None:
        reader.fail("an unclosed '('")
    value = _DIVISORS.get(found.group(1).lower())
    if value is None:
        reader.fail("the armor divisor must be 2, 3, 5, 10, 100, 0.5, 0.2, 0.1 or ∞", found.start(1))
    return value


def _parse_type(reader: _Reader) -> str:
    """type := cr | cut | imp | pi- | pi | pi+ | pi++ | burn | tbb | cor | tox | fat"""
    start = reader.at
    found = _WORD.match(reader.text, start)
    word = found.group(0).lower() if found is not None else ""
    for name in _TYPES:
        if word == name:
            reader.at = start + len(name)
            return name
    if word in _NOT_A_HIT:
        reader.fail(f"{_NOT_A_HIT[word]} damage ({word}) is not resolved as a hit", start)
    if not word:
        reader.fail("expected a damage type (cr, cut, imp, pi-, pi, pi+, pi++, burn, tbb, cor, tox, fat)")
    reader.fail(f"unknown damage type {word!r}", start)


def parse_notation(text: str) -> ParsedNotation:
    """notation := base adds multiplier [divisor] type [divisor], spaces allowed between parts
    (not inside ``base adds``)."""
    reader = _Reader(text)
    reader.skip_spaces()
    base, dice = _parse_base(reader)
    adds = _parse_adds(reader)
    multiplier = _parse_multiplier(reader)
    reader.skip_spaces()
    divisor: float | None = None
    if reader.peek() == "(":
        divisor = _parse_divisor(reader)
        reader.skip_spaces()
    elif reader.at < len(text) and not text[reader.at - 1].isspace() and reader.at > 0:
        reader.fail("expected a space before the damage type")
    damage_type = _parse_type(reader)
    reader.skip_spaces()
    if reader.peek() == "(":
        if divisor is not None:
            reader.fail("a second armor divisor")
        divisor = _parse_divisor(reader)
        reader.skip_spaces()
    if reader.at < len(text):
        reader.fail(f"unexpected {text[reader.at :]!r} after the damage type")
    return ParsedNotation(base, dice, adds, multiplier, 1 if divisor is None else divisor, damage_type)
