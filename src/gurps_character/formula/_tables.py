"""Rule tables (``x-gurps-tables``): exact-key maps, step tables and linear extrapolation.

Tables are prepared before lookups (keys sorted, dice parsed): once for the library's frozen
schema, and per evaluation, on first use, for any other mapping.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from typing import Any

from .._once import once
from ._errors import FormulaError
from ._identity import bundled_tables, is_bundled_tables
from ._jsnum import MAX_SAFE_INTEGER, as_number, js_divide, js_floor
from ._jsvalue import js_string, js_to_number
from ._values import MISSING, Dice, dice_with_more, parse_dice

__all__ = ["TableSet", "prepare_tables"]


class _MapTable:
    """``mode: "map"``: the entry whose key is the text of the lookup key (``4`` finds ``"4"``)."""

    __slots__ = ("entries",)

    def __init__(self, table: Mapping[str, Any]) -> None:
        dice = table.get("valueType") == "dice"
        entries = table.get("entries")
        self.entries: dict[str, Any] = {}
        if isinstance(entries, Mapping):
            for key, value in entries.items():
                if isinstance(key, str):
                    self.entries[str(key)] = _table_value(value, dice)

    def get(self, key: Any) -> Any:
        kind = type(key)
        if kind is str:
            return self.entries.get(key)
        if kind is int and -MAX_SAFE_INTEGER <= key <= MAX_SAFE_INTEGER:
            return self.entries.get(str(key))  # how JavaScript writes it, too
        if kind is float and key.is_integer() and -MAX_SAFE_INTEGER <= key <= MAX_SAFE_INTEGER:
            return self.entries.get(str(int(key)))
        if key is None or key is MISSING:
            return None
        return self.entries.get(js_string(key))


class _StepTable:
    """``mode: "step"``: the value of the largest entry key <= the lookup key (``None`` below the
    first key, for a null key or for one that ``Number()`` reads as NaN). ``extrapolate: {from,
    every, add}`` continues the table beyond ``from``: the value at ``from`` plus ``add`` for
    every full ``every`` above it; dice gain dice."""

    __slots__ = ("base", "extrapolate", "keys", "values")

    def __init__(self, table: Mapping[str, Any]) -> None:
        dice = table.get("valueType") == "dice"
        entries = table.get("entries")
        pairs: list[tuple[float, Any]] = []
        if isinstance(entries, list | tuple):
            for entry in entries:
                if isinstance(entry, list | tuple) and len(entry) >= 2:
                    key = as_number(entry[0])
                    if key is not None and key == key:
                        pairs.append((key, _table_value(entry[1], dice)))
        pairs.sort(key=lambda pair: pair[0])  # stable: of equal keys, the last one listed wins
        self.keys = tuple(pair[0] for pair in pairs)
        self.values = tuple(pair[1] for pair in pairs)
        self.extrapolate: tuple[float, float, float] | None = None
        self.base: Any = None
        spec = table.get("extrapolate")
        if isinstance(spec, Mapping):
            start, every, add = (as_number(spec.get(k)) for k in ("from", "every", "add"))
            if start is not None and every is not None and add is not None:
                self.extrapolate = (start, every, add)
                self.base = self._at(start)

    def _at(self, number: float) -> Any:
        index = bisect_right(self.keys, number) - 1
        return self.values[index] if index >= 0 else None

    def get(self, key: Any) -> Any:
        # null has no step; anything else is compared as JavaScript's <= compares it with a
        # number key: read with Number() (true is 1, '12' is 12, other text NaN: no step)
        if type(key) is float:
            number = key
        elif key is None or key is MISSING:
            return None
        else:
            number = js_to_number(key)
        if number != number:
            return None
        extrapolate = self.extrapolate
        if extrapolate is None or number <= extrapolate[0]:
            index = bisect_right(self.keys, number) - 1  # self._at(number), inline
            return self.values[index] if index >= 0 else None
        start, every, add = extrapolate
        base = self.base
        if base is None:
            return None
        # as JavaScript computes it: an infinite key gives infinitely many steps
        more = js_floor(js_divide(number - start, every)) * add
        if isinstance(base, Dice):
            return dice_with_more(base, more)
        base_number = as_number(base)
        return None if base_number is None else base_number + more


def _table_value(value: Any, dice: bool) -> Any:
    if dice and value is not None:
        return parse_dice(value)
    return value


def _prepare(table: Any) -> _MapTable | _StepTable | None:
    if not isinstance(table, Mapping):
        return None
    return _StepTable(table) if table.get("mode") == "step" else _MapTable(table)


class TableSet:
    """The rule tables of one schema, ready for ``lookup(name, key)``."""

    __slots__ = ("_eager", "_prepared", "_raw", "getters")

    def __init__(self, raw: Any, *, eager: bool = False) -> None:
        self._eager = eager  # shared between threads: never written after construction
        self._raw = raw if isinstance(raw, Mapping) else None
        self._prepared: dict[str, _MapTable | _StepTable | None] = {}
        self.getters: dict[str, Any] = {}
        """For a set prepared eagerly: each table's ``get``, which compiled formulas call
        directly for a ``lookup()`` of a table named in the formula (else they call lookup())."""
        if eager and self._raw is not None:
            for name, table in self._raw.items():
                if isinstance(name, str):
                    prepared = self._prepared[name] = _prepare(table)
                    if prepared is not None:
                        self.getters[name] = prepared.get

    def lookup(self, name: Any, key: Any) -> Any:
        """The value table ``String(name)`` holds for ``key`` (``valueType: "dice"`` gives
        :class:`Dice`): ``['thrust']`` names the table thrust, as in JavaScript.

        Raises:
            FormulaError: There is no table called ``name``.
        """
        if type(name) is not str:
            name = js_string(name)
        try:
            table = self._prepared[name]
        except KeyError:
            table = None if self._eager or self._raw is None else _prepare(self._raw.get(name))
            if not self._eager:
                self._prepared[name] = table
        if table is None:
            raise FormulaError(f"Unknown table '{name}'")
        return table.get(key)


def prepare_tables(tables: Any) -> TableSet:
    """The :class:`TableSet` for a tables mapping (shared and cached for the bundled schema's
    tables, made afresh for any other mapping: only the library's own data cannot change)."""
    if isinstance(tables, TableSet):
        return tables
    if is_bundled_tables(tables):
        return _bundled_tables()
    return TableSet(tables)


@once
def _bundled_tables() -> TableSet:
    # prepared eagerly, so the shared object is never written to afterwards
    return TableSet(bundled_tables(), eager=True)
