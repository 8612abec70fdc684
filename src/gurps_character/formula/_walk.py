"""Paths (``$.skills[level=99].name``): the reference's walk through a document, as JavaScript
runs it (see :func:`walk`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, TypeAlias

from ._jsvalue import js_get, js_string
from ._values import MISSING

__all__ = ["FilterStep", "PathStep", "Walked", "is_array", "make_walker", "walk"]


class FilterStep:
    """The path step ``[field=a|b]`` (``[field!=a|b]`` when ``negate``): the items whose
    ``field``, as JavaScript's ``String()`` writes it, is (not) one of ``values``."""

    __slots__ = ("field", "negate", "values")

    def __init__(self, field: str, negate: bool, values: frozenset[str]) -> None:
        self.field = field
        self.negate = negate
        self.values = values


PathStep: TypeAlias = "str | FilterStep"
"""A field name, or a filter."""


class Walked:
    """The value of a path that :func:`walk` finished (generated code skips the steps left)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def walk(value: Any, steps: Sequence[PathStep]) -> Any:
    """The reference's path walk from ``value`` through ``steps``, as JavaScript runs it.

    The walk keeps a list of current values (at first ``value`` alone); null and missing values
    drop out of it. A field step takes each value's property (:func:`js_get`: an object's own
    property, the ``length`` or an element of text and arrays), and over an array each item's
    (the path is then *projected*); a filter step keeps the items of an array, or the value
    itself when it is not one, whose field matches (also projecting). A projected path gives a
    list, its arrays spread one level and missing values dropped (nulls kept); otherwise the one
    value, or null. Nothing recurses: nesting costs no stack.
    """
    current: list[Any] = [value]
    projected = False
    missing = MISSING
    for step in steps:
        following: list[Any] = []
        append = following.append
        if isinstance(step, str):
            for item in current:
                kind = type(item)
                if kind is dict:
                    append(item.get(step, missing))
                elif item is None or item is missing:
                    continue
                elif kind is list or (kind not in _NOT_ARRAYS and isinstance(item, list | tuple)):
                    projected = True
                    for element in item:
                        append(element.get(step, missing) if type(element) is dict else js_get(element, step))
                else:
                    append(js_get(item, step))
        else:
            field, negate, values = step.field, step.negate, step.values
            for item in current:
                if item is None or item is missing:
                    continue
                projected = True  # only once a value meets the filter: a filter of null is null
                for element in item if is_array(item) else (item,):
                    found = element.get(field, missing) if type(element) is dict else js_get(element, field)
                    text = found if type(found) is str else js_string(found)
                    if (text in values) != negate:
                        append(element)
        current = following
    if not projected:
        first = current[0] if current else None
        return None if first is missing else first
    flat: list[Any] = []
    extend, append = flat.extend, flat.append
    for item in current:  # Array.prototype.flat(): one level (document arrays hold no missing value)
        kind = type(item)
        if kind in _NOT_ARRAYS:
            append(item)
        elif item is missing:
            continue
        elif kind is list or isinstance(item, list | tuple):
            extend(item)
        else:
            append(item)
    return flat


_NOT_ARRAYS: Final = frozenset({dict, str, int, float, bool, type(None)})
"""The kinds of value most paths meet, none of them an array (a quick test before isinstance)."""


def make_walker(steps: Sequence[PathStep]) -> Callable[[Any], Walked]:
    """The rest of a path from some step on: what generated code calls once a value is not a
    plain object (an array, text, null ...) or a filter comes."""
    rest = tuple(steps)
    return lambda value: Walked(walk(value, rest))


def is_array(value: Any) -> bool:
    """``Array.isArray``: a list or tuple."""
    kind = type(value)
    return kind is list or kind is tuple or isinstance(value, list | tuple)
