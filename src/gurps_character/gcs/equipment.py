"""Equipment: carried equipment to the format's equipment list, with GCS's extended cost and
weight (contents, modifiers and contained-weight reductions counted as GCS counts them)."""

from __future__ import annotations

from typing import Any

from ._context import Context
from ._fields import (
    MAX_DEPTH,
    MAX_MAGNITUDE,
    Node,
    boolean,
    children,
    fill_placeholders,
    mapping,
    node_list,
    number,
    number_or_text,
    plain,
    text,
)
from .features import display_name
from .gear_values import adjusted_value, adjusted_weight, contained_weight
from .units import kilograms

__all__ = ["equipment_section"]


def equipment_section(ctx: Context) -> list[dict[str, Any]]:
    """The format's equipment list: one entry per top-level carried item."""
    default_unit = text(mapping(ctx.data, "settings"), "default_weight_units") or "lb"
    equipment = [
        _item(ctx, item, f"/equipment/{index}", default_unit)
        for index, item in enumerate(node_list(ctx.data, "equipment"))
        if type(item) is dict
    ]
    if any(type(item) is dict for item in node_list(ctx.data, "other_equipment")):
        ctx.note(
            "/other_equipment",
            "notCarried",
            "Equipment GCS lists as not carried (other equipment) is not in the document's equipment "
            "and counts for nothing; it stays in the GCS data.",
        )
    return equipment


def _item(ctx: Context, item: Node, pointer: str, default_unit: str) -> dict[str, Any]:
    name = display_name(item) or "(unnamed item)"
    quantity = number(item, "quantity")
    if quantity is not None and quantity != 1:
        name = f"{name} ×{quantity:g}"
    entry: dict[str, Any] = {"name": name}
    cost, weight = _extended(item, default_unit)
    entry["cost"] = plain(max(round(cost, 4), 0))
    entry["weight"] = plain(max(round(weight, 4), 0))
    notes = []
    if boolean(item, "equipped"):
        notes.append("equipped")
    elif "equipped" in item or ctx.version >= 4:
        notes.append("not equipped")
    contents = [display_name(child) for child in children(item) if type(child) is dict]
    if contents:
        notes.append("contains " + ", ".join(n for n in contents[:40] if n))
    for key in ("local_notes", "notes"):
        extra = fill_placeholders(text(item, key), item).strip()
        if extra:
            notes.append(extra)
    if notes:
        entry["notes"] = "; ".join(notes)
    return entry


def _extended(item: Node, default_unit: str) -> tuple[float, float]:
    """GCS's extended cost and weight (kg) of an item with its contents, times its quantity:
    ``calc.extended_value`` and ``calc.extended_weight``, or GCS's rules when it saved none
    (modifiers, contained-weight reductions; nothing for a quantity of 0 or less). Without
    recursion."""
    totals: dict[int, tuple[float, float]] = {}
    stack: list[tuple[Node, bool, int]] = [(item, False, 0)]
    while stack:
        current, expanded, depth = stack.pop()
        calc = mapping(current, "calc")
        cost = number_or_text(calc, "extended_value")  # some GCS versions saved it as text
        weight = kilograms(calc.get("extended_weight"), "lb")
        kids = [child for child in children(current) if type(child) is dict] if depth < MAX_DEPTH else []
        if (cost is None or weight is None) and kids and not expanded:
            stack.append((current, True, depth))
            stack.extend((child, False, depth + 1) for child in kids)
            continue
        inner = [totals.pop(id(child), (0.0, 0.0)) for child in kids] if expanded else []
        quantity = number(current, "quantity")
        quantity = 1 if quantity is None else max(quantity, 0)
        if cost is None or weight is None:
            own_cost, own_weight = _own(current, default_unit)
            if cost is None:
                cost = (adjusted_value(own_cost, current) + sum(c for c, _ in inner)) * quantity
            if weight is None:
                contents = contained_weight(sum(w for _, w in inner), current, default_unit)
                weight = (adjusted_weight(own_weight, current, default_unit) + contents) * quantity
        totals[id(current)] = (_bounded(cost), _bounded(weight))
    return totals.get(id(item), (0.0, 0.0))


def _bounded(value: float) -> float:
    return max(-MAX_MAGNITUDE, min(MAX_MAGNITUDE, value))


def _own(item: Node, default_unit: str) -> tuple[float, float]:
    value = number_or_text(item, "base_value")
    if value is None:
        value = number_or_text(item, "value")
    raw_weight = item.get("base_weight", item.get("weight"))
    weight = kilograms(raw_weight, default_unit)
    return (value or 0), (weight or 0)
