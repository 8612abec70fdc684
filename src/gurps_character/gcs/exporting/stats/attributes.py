"""The attributes the document has, as GCS's: the levels bought (``adj``) above each base that
the document's points pay for, an ``attribute_bonus`` on "Sheet adjustments" for the rest, cost
reductions from the document's limitations and Size's discount, the pools' current values; the
file's ``attributes`` written from them, in its order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final, NamedTuple

from ...format.json_text import RawJson
from ...format.standard_sheet import (
    ATTRIBUTE_DEFINITIONS,
    ATTRIBUTE_NAMES,
    standard_attributes_text,
)
from ..sheet import (
    ADJUSTMENTS,
    LIMIT,
    SheetBase,
    plain,
    signed_number,
    text_of,
)
from .damage_table import _KYOS

__all__ = ["AttributesPart"]

_CORE: Final = {
    "st": ("/attributes/st", 10),
    "dx": ("/attributes/dx", 20),
    "iq": ("/attributes/iq", 20),
    "ht": ("/attributes/ht", 10),
    "will": ("/secondary/will", 5),
    "per": ("/secondary/per", 5),
    "hp": ("/secondary/hp", 2),
    "fp": ("/secondary/fp", 3),
    "basic_speed": ("/secondary/basicSpeed", 20),
    "basic_move": ("/secondary/basicMove", 5),
}
"""GCS attribute id → the document's place and the points per level."""

_SIZE_DISCOUNT: Final = ("st", "hp")


_EXTRA_SOURCES: Final = {
    "fright_check": "will",
    "vision": "per",
    "hearing": "per",
    "taste_smell": "per",
    "touch": "per",
}
"""GCS's attributes the document has no place for → the attribute whose value they take."""


class _Attribute(NamedTuple):
    """What an export needs of one attribute the document has, made once."""

    ident: str
    pointer: str
    cost: int
    label: str
    followers: int
    """How many of GCS's own attributes follow it in the file, taking its value (see
    :data:`_EXTRA_SOURCES`)."""
    current: str | None
    """A pool's key in ``values`` for its current value (None: no pool)."""


def _attributes_in_file_order() -> tuple[_Attribute, ...]:
    found: list[_Attribute] = []
    for ident in ATTRIBUTE_DEFINITIONS:
        if ident in _CORE:
            pointer, cost = _CORE[ident]
            current = f"{ident}_current" if ident in _POOLS else None
            found.append(_Attribute(ident, pointer, cost, ATTRIBUTE_NAMES[ident], 0, current))
        elif found and found[-1].ident == _EXTRA_SOURCES[ident]:
            found[-1] = found[-1]._replace(followers=found[-1].followers + 1)
        else:  # pragma: no cover - the standard set lists each right after its source
            raise AssertionError(f"{ident} does not follow the attribute it takes its value from")
    return tuple(found)


_POOLS: Final = frozenset(("hp", "fp"))

_ATTRIBUTES: Final = _attributes_in_file_order()
"""The attributes the document has, in the file's order (which
:meth:`AttributesPart._read_values` keeps them in too)."""

_VALUE_PLACES: Final = tuple(
    (ident, [attribute.ident for attribute in _ATTRIBUTES].index(ident), f"{_CORE[ident][0]}/value", label)
    for ident, label in (
        ("st", "ST"),
        ("dx", "DX"),
        ("iq", "IQ"),
        ("ht", "HT"),
        ("hp", "HP"),
        ("will", "Will"),
        ("per", "Per"),
        ("fp", "FP"),
        ("basic_move", "Basic Move"),
    )
)
"""The whole-numbered values read from the document, in the order read (their notes' order): id,
place in :attr:`AttributesPart.stored_attributes`, pointer and label."""


_PRIMARY: Final = frozenset(("st", "dx", "iq", "ht"))


class AttributesPart(SheetBase):
    """The attributes, read from the document and written as GCS's."""

    stored_attributes: tuple[Mapping[str, Any], ...]
    """The document's entries of :data:`_ATTRIBUTES`, in that order (read once)."""

    def _read_values(self) -> None:
        doc = self.doc
        values = self.values
        attributes, secondary = doc["attributes"], doc["secondary"]
        stored = self.stored_attributes = (  # in the order of _ATTRIBUTES
            attributes["st"],
            attributes["dx"],
            attributes["iq"],
            attributes["ht"],
            secondary["will"],
            secondary["per"],
            secondary["basicSpeed"],
            secondary["basicMove"],
            secondary["fp"],
            secondary["hp"],
        )
        floor = math.floor
        for ident, index, pointer, label in _VALUE_PLACES:
            value = stored[index].get("value")
            kind = type(value)
            if kind is int and -LIMIT <= value <= LIMIT:
                values[ident] = value  # the usual: a whole number, its own floor
                continue
            if not (kind is float and -LIMIT <= value <= LIMIT):
                value = self.bounded(value, pointer, label)
            values[ident] = floor(value)
        speed = stored[6].get("value")
        kind = type(speed)
        if not ((kind is float or kind is int) and -LIMIT <= speed <= LIMIT):
            speed = self.bounded(speed, "/secondary/basicSpeed/value", "Basic Speed")
        values["basic_speed"] = floor(speed * 4) / 4

    def _attributes(self, progression: str) -> RawJson:
        values = self.values
        stored_size = self.doc.get("profile", {}).get("sizeModifier")
        size = (
            stored_size
            if type(stored_size) is int and -LIMIT <= stored_size <= LIMIT
            else self.bounded(stored_size, "/profile/sizeModifier", "Size modifier")
        )
        st, dx, iq, ht, speed = values["st"], values["dx"], values["iq"], values["ht"], values["basic_speed"]
        bases = (10, 10, 10, 10, iq, iq, (dx + ht) / 4, math.floor(speed), ht, st)  # as _ATTRIBUTES
        spent = self.attribute_points
        discounted = _SIZE_DISCOUNT if size > 0 else ()
        low, high = -LIMIT, LIMIT
        numbers: list[float] = []  # the entries' numbers in the order they are written
        damaged_fp = damaged_hp = False
        # the entries are mappings: _read_values has read them
        for (ident, pointer, cost, label, followers, current_key), stored, base in zip(
            _ATTRIBUTES, self.stored_attributes, bases, strict=True
        ):
            points: Any = stored.get("points")
            if type(points) is not int or not low <= points <= high:  # else within the bounds
                points = self.bounded(points, f"{pointer}/points", "Points")
            value = values[ident]
            adj = value - base  # every level bought, when the points pay for them (see _levels)
            if "costModifiers" in stored or ident in discounted:
                reduction = self._reductions(ident, stored, pointer, size, progression)
                gcs_points = _attribute_cost(adj, cost, reduction)
            else:  # no reduction: what _reductions gives without modifiers or size discount
                reduction = 0.0
                gcs_points = adj * cost if type(adj) is int else _attribute_cost(adj, cost, 0.0)
            if gcs_points != points:
                adj, gcs_points = self._bought(ident, pointer, label, value, base, points, cost, reduction)
            spent[ident] = gcs_points
            if current_key is None:
                if type(value) is int:
                    numbers += (adj, value, gcs_points)
                else:  # Basic Speed, in quarters
                    numbers += (_quarters(adj), _quarters(value), gcs_points)
            else:  # a pool: whole numbers
                current = stored.get("current", stored.get("value"))
                if not (type(current) is int and 0 <= current <= value):  # else within all bounds
                    current = self._current(ident, current, value, pointer, label)
                values[current_key] = current
                if current == value:
                    numbers += (adj, value, current, gcs_points)
                else:
                    if ident == "hp":
                        damaged_hp = True
                    else:
                        damaged_fp = True
                    numbers += (adj, value - current, value, current, gcs_points)
            if followers:
                numbers += (value,) * followers  # GCS's own attributes' values (their base)
            if value < 0 and ident in _PRIMARY:
                self.note(
                    f"{pointer}/value",
                    "differs",
                    f"{label} {plain(value)} is below 0; an import of the file reads it as 0.",
                )
        return standard_attributes_text(numbers, damaged_fp, damaged_hp)

    def _bought(
        self,
        ident: str,
        pointer: str,
        label: str,
        value: float,
        base: float,
        points: float,
        cost: int,
        reduction: float,
    ) -> tuple[float, int]:
        """The levels bought and GCS's points for them, for an attribute whose levels above its
        base the document's points do not pay for (noted; a bonus for levels beyond them)."""
        adj, bonus = _levels(value, base, points, cost, reduction, ident == "basic_speed")
        gcs_points = _attribute_cost(adj, cost, reduction)
        if bonus:
            self.adjust(
                {"type": "attribute_bonus", "attribute": ident, "amount": plain(bonus)},
                f"{signed_number(bonus)} {label}: the document's {label} is beyond the levels its points buy",
            )
            self.note(
                f"{pointer}/value",
                "deviation",
                f"{label} {plain(value)} with {plain(points)} "
                f"points{self.why(pointer + '/points')}: "
                f"GCS charges {plain(gcs_points)} points for {signed_number(adj)} levels and adds "
                f"{signed_number(bonus)} from '{ADJUSTMENTS}'.",
            )
        elif gcs_points != points:
            self.note(
                f"{pointer}/points",
                "approximated",
                f"GCS charges {plain(gcs_points)} points for {label} "
                f"{plain(value)}, the "
                f"document {plain(points)}: the difference is counted on '{ADJUSTMENTS}', so the points "
                "spent agree.",
            )
        return adj, gcs_points

    def _current(self, ident: str, stored: object, value: float, pointer: str, label: str) -> int:
        """A pool's current value as written (``stored``: the document's, or its maximum when it
        has none), noted when it is outside the format's bounds."""
        if type(stored) is int and -LIMIT <= stored <= LIMIT:
            current = stored
        else:
            current = math.floor(self.bounded(stored, f"{pointer}/current", "Current"))
        low = -10 * value if ident == "hp" else -value
        if not min(low, value) <= current <= max(low, value):
            self.note(
                f"{pointer}/current",
                "differs",
                f"{label} {plain(current)} of {plain(value)} is "
                "outside the format's "
                f"bounds; GCS keeps it (damage {plain(value - current)}), an import reads it back within "
                "them.",
            )
        return current

    def _reductions(
        self, ident: str, stored: Mapping[str, Any], pointer: str, size: float, progression: str
    ) -> float:
        """GCS's cost reduction for an attribute in percent: the document's limitations as
        ``cost_reduction`` features, plus the size discount (capped at 80 as GCS caps it)."""
        total = 0.0
        for position, modifier in enumerate(stored.get("costModifiers", [])):
            percent = modifier.get("percent")
            where = f"{pointer}/costModifiers/{position}"
            if isinstance(percent, int) and not isinstance(percent, bool) and -99 <= percent <= -1:
                holder = self.holder(self.name(modifier["name"], f"{where}/name", "cost modifier"), where)
                holder["features"].append(
                    {"type": "cost_reduction", "attribute": ident, "percentage": -percent}
                )
                total -= percent
            else:
                self.note(
                    where,
                    "approximated",
                    f"GCS reduces attribute costs only (1 to 99 %): '{text_of(modifier.get('name'))[:60]}' "
                    f"({percent}%) is not written; the points it makes are counted on '{ADJUSTMENTS}'.",
                )
        if ident in _SIZE_DISCOUNT and size > 0 and not (ident == "hp" and progression == _KYOS):
            total += 10 * size  # GCS gives HP no size discount under Knowing Your Own Strength
        return min(max(total, 0), 80)


def _levels(
    value: float, base: float, points: float, cost: int, reduction: float, decimal: bool
) -> tuple[float, float]:
    """Levels bought (``adj``) and the bonus that give an attribute ``value`` for ``points``:
    every level above the base bought when the points pay for them, else the levels the points
    buy and a bonus for the rest."""
    bought = value - base
    if _attribute_cost(bought, cost, reduction) == points:
        return bought, 0
    rate = cost * (100 - reduction) / 100
    if rate > 0:
        step = 0.25 if decimal else 1
        guess = round(points / rate / step) * step
        for adj in (guess, guess - step, guess + step, guess - 2 * step, guess + 2 * step):
            if abs(adj) <= 2 * LIMIT and _attribute_cost(adj, cost, reduction) == points:
                return adj, value - base - adj
    return bought, 0


def _quarters(value: float) -> int | float:
    """:func:`plain` of a multiple of 0.25 (Basic Speed's values; a test checks it): whole
    numbers as ``int``, others as they are (4 decimals hold them)."""
    if type(value) is int:
        return value
    return int(value) if value.is_integer() else value


def _attribute_cost(adj: float, cost: int, reduction: float) -> int:
    """GCS's points for levels bought: reduced by the cost reductions in force, rounded up."""
    return math.ceil(adj * cost * (100 - reduction) / 100 - 1e-9)
