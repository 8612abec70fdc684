"""Equipment: carried equipment to the format's equipment list, with GCS's extended cost and
weight (contents, modifiers and contained-weight reductions counted as GCS counts them)."""

from __future__ import annotations

import re
from typing import Any

from ..format.features import display_name
from ..format.fields import (
    MAX_DEPTH,
    MAX_MAGNITUDE,
    Node,
    boolean,
    children,
    filled_text,
    mapping,
    node_list,
    number,
    number_or_text,
    plain,
    text,
    walk_nodes,
)
from ..format.units import kilograms
from .context import Context
from .gear_values import adjusted_value, adjusted_weight, contained_weight
from .notes import listing, shortened

__all__ = ["carried_weight_for_skills", "equipment_section"]

_MAX_SHOWN_NAME = 100
"""Characters of a container's name in the location of each item inside it."""
_MAX_LOCATION = 300
"""Characters of an item's location; a longer one keeps its outermost and innermost container."""
_CONTENTS_TEXT = 300
"""Characters of a container's "contains ..." list (its items have entries of their own)."""
_QUANTITY_SUFFIX = re.compile(r"\s*×\s*[0-9.,]+\s*$")
"""How the importer's quantity ends a name (``Arrows ×20``): the last such suffix of an entry's
name is always the quantity, so taking it off gives GCS's name (``Arrows × 20 ×1``)."""


def equipment_section(ctx: Context) -> list[dict[str, Any]]:
    """The format's equipment list: every carried item at any depth, in file order. A top-level
    item holds GCS's extended cost and weight (its contents and contained-weight reductions
    included), so the list adds up to GCS's carried totals; an item inside a container names the
    container as its location and leaves cost and weight to it."""
    default_unit = text(mapping(ctx.data, "settings"), "default_weight_units") or "lb"
    equipment: list[dict[str, Any]] = []
    stack: list[tuple[list[Any], int, str, tuple[str, ...]]] = [
        (node_list(ctx.data, "equipment"), 0, "/equipment", ())
    ]
    while stack:
        items, index, base, inside = stack.pop()
        while index < len(items):
            item = items[index]
            pointer = f"{base}/{index}"
            index += 1
            if type(item) is not dict:
                continue
            equipment.append(_item(ctx, item, pointer, default_unit, inside))
            kids = children(item)
            if not kids:
                continue
            if len(inside) + 1 >= MAX_DEPTH:
                ctx.note(
                    pointer,
                    "notCarried",
                    f"The items inside '{display_name(item) or '(unnamed item)'}' are nested more than "
                    f"{MAX_DEPTH} levels deep: their cost and weight are counted in its entry, and they "
                    "stay in the GCS data.",
                )
                continue
            stack.append((items, index, base, inside))
            shown = shortened(display_name(item) or "(unnamed item)", _MAX_SHOWN_NAME)
            stack.append((kids, 0, pointer + "/children", (*inside, shown)))
            break
    if any(type(item) is dict for item in node_list(ctx.data, "other_equipment")):
        ctx.note(
            "/other_equipment",
            "notCarried",
            "Equipment GCS lists as not carried (other equipment) is not in the document's equipment "
            "and counts for nothing; it stays in the GCS data.",
        )
    return equipment


def _item(
    ctx: Context, item: Node, pointer: str, default_unit: str, inside: tuple[str, ...]
) -> dict[str, Any]:
    name = display_name(item) or "(unnamed item)"
    quantity = number(item, "quantity")
    if (quantity is not None and quantity != 1) or _QUANTITY_SUFFIX.search(name):
        # the last " ×N" of a name is its quantity: a name that ends so itself gets one, 1 too
        name = f"{name} ×{_decimal(1 if quantity is None else quantity)}"
    entry: dict[str, Any] = {"name": name}
    cost, weight = _extended(item, default_unit)
    _note_below_zero(ctx, item, pointer, default_unit)
    notes = []
    if inside:
        location = " > ".join(inside)
        if len(location) > _MAX_LOCATION:  # every item inside repeats it: its two ends
            location = f"{inside[0]} > … > {inside[-1]}"
        entry["location"] = location
        notes.append(
            f"in {inside[-1]}: its cost (${_decimal(max(cost, 0))}) and weight "
            f"({_decimal(max(weight, 0))} kg) are counted in {inside[0]}'s"
        )
    else:
        entry["cost"] = plain(max(round(cost, 4), 0))
        entry["weight"] = plain(max(round(weight, 4), 0))
    if boolean(item, "equipped"):
        notes.append("equipped")
    elif "equipped" in item or ctx.version >= 4:
        notes.append("not equipped")
    contents = [display_name(child) or "(unnamed item)" for child in children(item) if type(child) is dict]
    if contents:
        notes.append("contains " + listing(contents, _CONTENTS_TEXT))
    for key in ("local_notes", "notes"):
        extra = filled_text(item, key).strip()
        if extra:
            notes.append(extra)
    if notes:
        entry["notes"] = "; ".join(notes)
    return entry


def _note_below_zero(ctx: Context, item: Node, pointer: str, default_unit: str) -> None:
    """A note for an item the file weighs below 0 (its saved extended weight, or the weight
    written for it), which GCS counts at 0."""
    for raw in (mapping(item, "calc").get("extended_weight"), item.get("base_weight", item.get("weight"))):
        weight = kilograms(raw, default_unit)
        if weight is not None and weight < 0:
            shown = raw.strip() if isinstance(raw, str) else f"{raw} {default_unit}"
            name = shortened(display_name(item) or "(unnamed item)", _MAX_SHOWN_NAME)
            ctx.note(
                pointer,
                "approximated",
                f"'{name}' weighs {shortened(shown, 40)} in the file; GCS counts no item below 0 lb "
                "(its weight after modifiers is at least 0), so it is counted at 0 lb.",
            )
            return


def _decimal(value: float) -> str:
    """A GCS number as GCS shows it: digits only, at most 4 decimals (``1000000``, ``0.5``)."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def carried_weight_for_skills(ctx: Context) -> float:
    """GCS's weight carried for skill penalties, in kg: the carried equipment's extended weight
    without the own weight of equipped items marked "ignore weight for skills" (GCS's
    ``extended_weight_for_skills`` when it saved one)."""
    default_unit = text(mapping(ctx.data, "settings"), "default_weight_units") or "lb"
    return sum(
        _extended(item, default_unit, for_skills=True)[1]
        for item in node_list(ctx.data, "equipment")
        if type(item) is dict
    )


def _extended(item: Node, default_unit: str, for_skills: bool = False) -> tuple[float, float]:
    """GCS's extended cost and weight (kg) of an item with its contents, times its quantity:
    ``calc.extended_value`` and ``calc.extended_weight``, or GCS's rules when it saved none
    (modifiers, contained-weight reductions; nothing for a quantity of 0 or less). For skills,
    the own weight of an equipped item (below equipped containers) marked "ignore weight for
    skills" does not count. Without recursion."""
    totals: dict[int, tuple[float, float]] = {}
    stack: list[tuple[Node, bool, int, bool]] = [(item, False, 0, True)]
    while stack:
        current, expanded, depth, worn = stack.pop()
        worn = worn and boolean(current, "equipped")
        calc = mapping(current, "calc")
        cost = number_or_text(calc, "extended_value")  # some GCS versions saved it as text
        weight = kilograms(calc.get("extended_weight"), "lb")
        if for_skills:
            saved = kilograms(calc.get("extended_weight_for_skills"), "lb")
            weight = saved if saved is not None else weight if not _ignores_weight(current, worn) else None
        kids = [child for child in children(current) if type(child) is dict] if depth < MAX_DEPTH else []
        if (cost is None or weight is None) and kids and not expanded:
            stack.append((current, True, depth, worn))
            stack.extend((child, False, depth + 1, worn) for child in kids)
            continue
        inner = [totals.pop(id(child), (0.0, 0.0)) for child in kids] if expanded else []
        quantity = number(current, "quantity")
        quantity = 1 if quantity is None else max(quantity, 0)
        if cost is None or weight is None:
            own_cost, own_weight = _own(current, default_unit)
            if for_skills and worn and boolean(current, "ignore_weight_for_skills"):
                own_weight = 0
            if cost is None:
                cost = (adjusted_value(own_cost, current) + sum(c for c, _ in inner)) * quantity
            if weight is None:
                contents = contained_weight(sum(w for _, w in inner), current, default_unit)
                weight = (adjusted_weight(own_weight, current, default_unit) + contents) * quantity
        # GCS counts no item's value or weight below 0 (``ValueAdjustedForModifiers``,
        # ``WeightAdjustedForModifiers`` and the contents are at least 0): neither does a container
        totals[id(current)] = (_bounded(max(cost, 0)), _bounded(max(weight, 0)))
    return totals.get(id(item), (0.0, 0.0))


def _ignores_weight(item: Node, worn: bool) -> bool:
    """Whether an item or anything inside it is equipped and marked "ignore weight for skills"."""
    if worn and boolean(item, "ignore_weight_for_skills"):
        return True
    for child in walk_nodes(children(item)):
        if boolean(child, "ignore_weight_for_skills") and boolean(child, "equipped"):
            return True
    return False


def _bounded(value: float) -> float:
    return max(-MAX_MAGNITUDE, min(MAX_MAGNITUDE, value))


def _own(item: Node, default_unit: str) -> tuple[float, float]:
    value = number_or_text(item, "base_value")
    if value is None:
        value = number_or_text(item, "value")
    raw_weight = item.get("base_weight", item.get("weight"))
    weight = kilograms(raw_weight, default_unit)
    return (value or 0), (weight or 0)
