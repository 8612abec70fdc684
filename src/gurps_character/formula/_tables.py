"""Rule tables (``x-gurps-tables``): exact-key maps, step tables and linear extrapolation."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ._errors import FormulaError
from ._jsnum import as_number
from ._jsvalue import js_string
from ._values import MISSING, Dice, dice_with_more, parse_dice

__all__ = ["lookup"]


def lookup(tables: Any, name: Any, key: Any) -> Any:
    """``lookup(name, key)``: the value table ``name`` holds for ``key``.

    * ``mode: "map"`` (the default): the entry whose key is the text of ``key`` (``4`` finds
      ``"4"``), or ``None``.
    * ``mode: "step"``: the value of the largest entry key <= ``key``, ``None`` below the first
      key or when ``key`` is not a number. ``extrapolate: {from, every, add}`` continues the table
      beyond ``from``: the value at ``from`` plus ``add`` for every full ``every`` above it.
    * ``valueType: "dice"``: values are dice notation and come back as :class:`Dice`; an
      extrapolated step adds dice.

    Raises:
        FormulaError: There is no table called ``name``.
    """
    table = tables.get(name) if isinstance(tables, Mapping) and isinstance(name, str) else None
    if not isinstance(table, Mapping):
        shown = name if isinstance(name, str) else js_string(name)
        raise FormulaError(f"Unknown table '{shown}'")
    dice = table.get("valueType") == "dice"
    if table.get("mode") == "step":
        return _step_lookup(table, key, dice)
    entries = table.get("entries")
    if key is None or key is MISSING or not isinstance(entries, Mapping):
        return None
    value = entries.get(js_string(key), None)
    return _table_value(value, dice)


def _table_value(value: Any, dice: bool) -> Any:
    if value is None:
        return None
    if dice:
        return parse_dice(value)
    return value


def _step_lookup(table: Mapping[str, Any], key: Any, dice: bool) -> Any:
    number = as_number(key)
    if number is None or math.isnan(number):
        return None
    entries = table.get("entries")
    if not isinstance(entries, list | tuple):
        return None
    extrapolate = table.get("extrapolate")
    if isinstance(extrapolate, Mapping):
        start = as_number(extrapolate.get("from"))
        every = as_number(extrapolate.get("every"))
        add = as_number(extrapolate.get("add"))
        if start is not None and every is not None and add is not None and number > start:
            base = _table_value(_step_value(entries, start), dice)
            if base is None:
                return None
            steps = math.floor((number - start) / every) if every > 0 and math.isfinite(number) else None
            if steps is None:
                return None
            more = steps * add
            if isinstance(base, Dice):
                return dice_with_more(base, more)
            base_number = as_number(base)
            return None if base_number is None else base_number + more
    return _table_value(_step_value(entries, number), dice)


def _step_value(entries: list[Any] | tuple[Any, ...], number: float) -> Any:
    """The value of the largest entry key <= ``number`` (``None`` below the first key)."""
    best_key: float | None = None
    best: Any = None
    for entry in entries:
        if not isinstance(entry, list | tuple) or len(entry) < 2:
            continue
        entry_key = as_number(entry[0])
        if entry_key is None or entry_key > number:
            continue
        if best_key is None or entry_key >= best_key:
            best_key, best = entry_key, entry[1]
    return best
