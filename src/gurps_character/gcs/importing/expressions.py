"""GCS attribute bases (``$dx``, ``($dx + $ht) / 4``, ``Math.floor($basic_speed)``): a small,
bounded evaluator, needed only for files saved without GCS's computed values."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from ..format.fields import MAX_MAGNITUDE

__all__ = ["evaluate_base"]

_TOKEN = re.compile(
    r"\s*(?:([0-9]+(?:\.[0-9]+)?|\.[0-9]+)|\$([A-Za-z_][A-Za-z0-9_]*)(?:\.current)?|([A-Za-z_.]+)|(.))"
)
_FUNCTIONS: dict[str, Callable[[float], float]] = {
    "floor": math.floor,
    "ceil": math.ceil,
    "round": lambda value: math.floor(value + 0.5),
    "abs": abs,
    "trunc": math.trunc,
}
_LIST_FUNCTIONS: dict[str, Callable[[list[float]], float]] = {"max": max, "min": min}
"""Functions of one or more arguments (``max($st, $ht)``, ``Math.min(...)``)."""
_MAX_LENGTH = 200
_MAX_DEPTH = 20


class _Unreadable(Exception):
    pass


def evaluate_base(expression: str, lookup: Callable[[str], float | None]) -> float | None:
    """The value of a GCS base expression, or None when it uses anything beyond numbers,
    attribute references, ``+ - * /``, parentheses, floor/ceil/round/abs/trunc and max/min (old
    or script form), or when a number in it or its value is beyond ±10^9 (the bounds of every
    number the importer reads: no attribute comes near)."""
    if len(expression) > _MAX_LENGTH:
        return None
    tokens: list[tuple[str, str]] = []
    position = 0
    stripped = expression.strip()
    while position < len(stripped):
        match = _TOKEN.match(stripped, position)
        if match is None or match.end() == position:
            return None
        position = match.end()
        literal, reference, word, symbol = match.groups()
        if literal is not None:
            tokens.append(("number", literal))
        elif reference is not None:
            tokens.append(("ref", reference))
        elif word is not None:
            tokens.append(("word", word.removeprefix("Math.").lower()))
        elif symbol is not None and symbol.strip():
            tokens.append(("op", symbol))
    try:
        value, rest = _sum(tokens, 0, lookup, 0)
    except (_Unreadable, ZeroDivisionError, OverflowError, ValueError):
        return None
    if rest != len(tokens) or not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:  # NaN fails too
        return None
    return value


def _sum(
    tokens: list[tuple[str, str]], at: int, lookup: Callable[[str], float | None], depth: int
) -> tuple[float, int]:
    """sum := product (("+" | "-") product)*"""
    value, at = _product(tokens, at, lookup, depth)
    while at < len(tokens) and tokens[at] in (("op", "+"), ("op", "-")):
        right, next_at = _product(tokens, at + 1, lookup, depth)
        value = value + right if tokens[at][1] == "+" else value - right
        at = next_at
    return value, at


def _product(
    tokens: list[tuple[str, str]], at: int, lookup: Callable[[str], float | None], depth: int
) -> tuple[float, int]:
    """product := unary (("*" | "/") unary)*"""
    value, at = _unary(tokens, at, lookup, depth)
    while at < len(tokens) and tokens[at] in (("op", "*"), ("op", "/")):
        right, next_at = _unary(tokens, at + 1, lookup, depth)
        value = value * right if tokens[at][1] == "*" else value / right
        at = next_at
    return value, at


def _unary(
    tokens: list[tuple[str, str]], at: int, lookup: Callable[[str], float | None], depth: int
) -> tuple[float, int]:
    """unary := "-" unary | number | $id | function "(" sum ")" | max/min arguments | "(" sum ")" """
    if depth > _MAX_DEPTH or at >= len(tokens):
        raise _Unreadable
    kind, value = tokens[at]
    if (kind, value) == ("op", "-"):
        inner, at = _unary(tokens, at + 1, lookup, depth + 1)
        return -inner, at
    if kind == "number":
        literal = float(value)
        if literal > MAX_MAGNITUDE:
            raise _Unreadable
        return literal, at + 1
    if kind == "ref":
        found = lookup(value)
        if found is None:
            raise _Unreadable
        return found, at + 1
    if kind == "word" and value in _FUNCTIONS:
        inner, at = _group(tokens, at + 1, lookup, depth)
        return float(_FUNCTIONS[value](inner)), at
    if kind == "word" and value in _LIST_FUNCTIONS:
        values, at = _arguments(tokens, at + 1, lookup, depth)
        return float(_LIST_FUNCTIONS[value](values)), at
    if (kind, value) == ("op", "("):
        return _group(tokens, at, lookup, depth)
    raise _Unreadable


def _arguments(
    tokens: list[tuple[str, str]], at: int, lookup: Callable[[str], float | None], depth: int
) -> tuple[list[float], int]:
    """arguments := "(" sum ("," sum)* ")" """
    if at >= len(tokens) or tokens[at] != ("op", "("):
        raise _Unreadable
    values = []
    while True:
        value, at = _sum(tokens, at + 1, lookup, depth + 1)
        values.append(value)
        if at < len(tokens) and tokens[at] == ("op", ","):
            continue
        if at >= len(tokens) or tokens[at] != ("op", ")"):
            raise _Unreadable
        return values, at + 1


def _group(
    tokens: list[tuple[str, str]], at: int, lookup: Callable[[str], float | None], depth: int
) -> tuple[float, int]:
    if at >= len(tokens) or tokens[at] != ("op", "("):
        raise _Unreadable
    value, at = _sum(tokens, at + 1, lookup, depth + 1)
    if at >= len(tokens) or tokens[at] != ("op", ")"):
        raise _Unreadable
    return value, at + 1
