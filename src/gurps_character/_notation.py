"""The grammar of a weapon's damage text (``sw+2 (2) cut``, ``1d-1 burn/point``), parsed by hand.

Each ``_parse_*`` function's docstring holds the rule it reads; errors carry the position of the
offending character. Resolving ``thr``/``sw`` against a character, and deciding which damage
words a hit resolves, is the caller's business (:func:`gurps_character.resolve_damage_notation`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal, NoReturn

__all__ = ["HIT_TYPES", "MODIFIERS", "NotationError", "ParsedNotation", "parse_notation"]

_MAX_DIGITS: Final = 6
"""More digits than any weapon needs; keeps the numbers small whatever the text."""

HIT_TYPES: Final = ("pi++", "pi+", "pi-", "pi", "cr", "cut", "imp", "burn", "tbb", "cor", "tox", "fat")
"""The damage types a hit resolves, longest first (so ``pi++`` is not read as ``pi`` followed by
``++``)."""

MODIFIERS: Final = ("ex", "inc", "sur", "dkb", "nkb", "rad")
"""Damage modifiers written after the type (B104-B106, B414): explosive, incendiary, surge,
double knockback, no knockback, radiation. They are kept, not applied."""

_IGNORES_DR: Final = frozenset({"inf", "∞", "ignores dr"})
_LEAST_DIVISOR: Final = Fraction(1, 1000)
_GREATEST_DIVISOR: Final = Fraction(1000)
"""An armor divisor divides DR, or multiplies it, by at most 1000."""

_BASE: Final = re.compile(r"(thr|sw)|([0-9]+)(d?)", re.IGNORECASE)
_ADDS: Final = re.compile(r"[+-]([0-9]+)")
_TIMES: Final = re.compile(r"[x×*]([0-9]+)", re.IGNORECASE)
_DIVISOR: Final = re.compile(r"\(\s*([^()]*?)\s*\)")
_DECIMAL: Final = re.compile(r"([0-9]+)(?:\.([0-9]+))?")
_TYPE_WORD: Final = re.compile(r"[A-Za-z][A-Za-z+\-]*")
_STEP: Final = re.compile(r"\+([0-9]+)d", re.IGNORECASE)
_PER: Final = re.compile(r"(?:/|per\s+)\s*(?:([0-9]+)\s*)?points?(?![A-Za-z])", re.IGNORECASE)
_WORD: Final = re.compile(r"[A-Za-z]+")


class NotationError(Exception):
    """Text that is not a damage notation: why, and at which character (0-based)."""

    def __init__(self, reason: str, position: int) -> None:
        super().__init__(f"{reason} (at {position})")
        self.reason = reason
        self.position = position


@dataclass(frozen=True, slots=True)
class ParsedNotation:
    """The parts as written; ``dice`` is 0 and ``adds`` the weapon's own for ``thr``/``sw``.

    ``damage_type`` is the damage word in lower case: one of :data:`HIT_TYPES`, or another word
    (``ctrl``) that the caller may not resolve as a hit. ``per_points`` is 0, or the points each
    step of damage costs (``/point`` 1, ``/2 points`` 2); ``step_dice``/``step_adds`` are the dice
    each step adds (``+1d/point``), both 0 when the whole roll is per step."""

    base: Literal["thrust", "swing", "fixed"]
    dice: int
    adds: int
    multiplier: int
    armor_divisor: float
    damage_type: str
    per_points: int = 0
    step_dice: int = 0
    step_adds: int = 0
    modifiers: tuple[str, ...] = ()


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


def _parse_base(reader: _Reader) -> tuple[Literal["thrust", "swing", "fixed"], int, bool]:
    """base := ("thr" | "sw") | count "d" | amount

    An ``amount`` alone (``2 burn``) is fixed damage without dice; the flag says so (it takes no
    adds)."""
    start = reader.at
    found = reader.match(_BASE)
    if found is None:
        reader.fail("expected 'thr', 'sw' or dice such as '2d'")
    if found.group(1) is not None:
        return ("thrust" if found.group(1).lower() == "thr" else "swing"), 0, False
    value = _number(reader, found.group(2), start)
    return "fixed", value, not found.group(3)


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
    """divisor := "(" (decimal | inf | ∞ | ignores DR) ")"
    decimal := digits ["." digits]          (from 0.001 to 1000: 2, 4, 1.5, 0.5, 0.25 ...)

    The Basic Set lists (2), (3), (5), (10), (100) and (0.5), (0.2), (0.1); GCS writes any
    decimal (a divisor bonus makes (4) or (1.5)), and so may the notation."""
    found = reader.match(_DIVISOR)
    if found is None:
        reader.fail("an unclosed '('")
    written = found.group(1)
    if written.lower() in _IGNORES_DR:
        return math.inf
    decimal = _DECIMAL.fullmatch(written)
    if decimal is not None:
        whole, fraction = decimal.group(1), decimal.group(2) or ""
        _number(reader, whole, found.start(1))
        if fraction:
            _number(reader, fraction, found.start(1) + decimal.start(2))
        value = Fraction(int(whole + fraction), 10 ** len(fraction))
        if _LEAST_DIVISOR <= value <= _GREATEST_DIVISOR:
            return float(value)
    reader.fail("the armor divisor must be a number from 0.001 to 1000, or ∞", found.start(1))


def _parse_step(reader: _Reader) -> tuple[int, int]:
    """step := "+" count "d" adds        (the dice each step of points adds: ``+1d/point``)"""
    start = reader.at
    found = reader.match(_STEP)
    if found is None:
        reader.fail("expected dice such as '+1d' before '/point'", start)
    return _number(reader, found.group(1), start + 1), _parse_adds(reader)


def _parse_type(reader: _Reader) -> str:
    """type := cr | cut | imp | pi- | pi | pi+ | pi++ | burn | tbb | cor | tox | fat | word
    word := letter {letter} ["."]      (damage no hit resolves: ``ctrl``, ``aff``, ``spec.``)

    A word is kept as written, in lower case, its period too (GCS writes ``spec.``); dice of
    affliction or special damage (``1d aff``, ``2d spec.``) roll like any other word's."""
    start = reader.at
    found = _TYPE_WORD.match(reader.text, start)
    if found is None:
        reader.fail("expected a damage type (cr, cut, imp, pi-, pi, pi+, pi++, burn, tbb, cor, tox, fat)")
    word = found.group(0).lower()
    for name in HIT_TYPES:
        if word == name:
            reader.at = start + len(name)
            return name
    plain = _WORD.match(word)
    word = plain.group(0) if plain is not None else word
    reader.at = start + len(word)
    if word not in HIT_TYPES and reader.peek() == ".":
        reader.at += 1
        word += "."
    return word


def _parse_per(reader: _Reader) -> int:
    """per := ("/" | "per") [digits] ("point" | "points")      (``/point``, ``/2 points``)"""
    start = reader.at
    found = reader.match(_PER)
    if found is None:
        reader.fail("expected '/point' or '/2 points'", start)
    if found.group(1) is None:
        return 1
    value = _number(reader, found.group(1), found.start(1))
    if value < 1:
        reader.fail("the points per step must be at least 1", found.start(1))
    return value


@dataclass(slots=True)
class _Suffixes:
    divisor: float | None
    per_points: int = 0
    step: tuple[int, int] | None = None
    modifiers: tuple[str, ...] = ()


def _parse_suffixes(reader: _Reader, found: _Suffixes) -> None:
    """suffixes := {divisor | modifier | step | per}      (each at most once, spaces between)
    modifier := ex | inc | sur | dkb | nkb | rad

    A ``per`` may follow the type, a modifier or a step without a space (``burn/point``,
    ``ex/2 points``, ``+1d/point``); a step needs a ``per``."""
    while True:
        reader.skip_spaces()
        start = reader.at
        char = reader.peek()
        if not char:
            break
        if char == "(":
            if found.divisor is not None:
                reader.fail("a second armor divisor")
            found.divisor = _parse_divisor(reader)
        elif char == "+" and found.step is None:
            found.step = _parse_step(reader)
            if reader.peek() == "/" and not found.per_points:
                found.per_points = _parse_per(reader)
        elif _PER.match(reader.text, start) and not found.per_points:
            found.per_points = _parse_per(reader)
        else:
            word = _WORD.match(reader.text, start)
            name = word.group(0).lower() if word is not None else ""
            if name not in MODIFIERS or name in found.modifiers:
                reader.fail(f"unexpected {reader.text[start:]!r} after the damage type")
            reader.at = word.end() if word is not None else start
            found.modifiers += (name,)
            if reader.peek() == "/" and not found.per_points:
                found.per_points = _parse_per(reader)
    if found.step is not None and not found.per_points:
        reader.fail("a step of dice such as '+1d' needs '/point' or '/2 points'")


def parse_notation(text: str) -> ParsedNotation:
    """notation := base adds multiplier [divisor] [step] type [per] suffixes, spaces allowed
    between parts (not inside ``base adds``); a plain amount (``2 burn``) takes no adds."""
    reader = _Reader(text)
    reader.skip_spaces()
    base, dice, amount_only = _parse_base(reader)
    adds = 0 if amount_only else _parse_adds(reader)
    if amount_only:
        dice, adds = 0, dice
    multiplier = _parse_multiplier(reader)
    reader.skip_spaces()
    found = _Suffixes(None)
    if reader.peek() == "(":
        found.divisor = _parse_divisor(reader)
        reader.skip_spaces()
    elif reader.at < len(text) and not text[reader.at - 1].isspace() and reader.at > 0:
        reader.fail("expected a space before the damage type")
    if reader.peek() == "+":
        found.step = _parse_step(reader)
        reader.skip_spaces()
    damage_type = _parse_type(reader)
    if reader.peek() == "/":
        found.per_points = _parse_per(reader)
    _parse_suffixes(reader, found)
    step_dice, step_adds = found.step if found.step is not None else (0, 0)
    return ParsedNotation(
        base,
        dice,
        adds,
        multiplier,
        1 if found.divisor is None else found.divisor,
        damage_type,
        found.per_points,
        step_dice,
        step_adds,
        found.modifiers,
    )
