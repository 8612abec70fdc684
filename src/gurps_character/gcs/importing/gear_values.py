"""GCS's equipment cost and weight rules, for items saved without GCS's computed values: the
enabled equipment modifiers in GCS's four steps (original, base, final base, final), the
contents of containers less their contained-weight reductions, all times the quantity."""

from __future__ import annotations

import re

from ..format.fields import MAX_MAGNITUDE, Node, kind_of, node_list, number_text, text, walk_nodes
from ..format.units import kilograms

__all__ = ["adjusted_value", "adjusted_weight", "contained_weight"]

_AMOUNT = re.compile(
    r"\s*([x×])?\s*([+-]?(?:[0-9][0-9,]*)?\.?[0-9]+)(?:\s*/\s*([0-9]+(?:\.[0-9]+)?))?\s*(%|cf)?\s*",
    re.IGNORECASE,
)
_COST_STEPS = ("to_original_cost", "to_final_base_cost", "to_final_cost")
_WEIGHT_STEPS = ("to_base_weight", "to_final_base_weight", "to_final_weight")


def _bounded(value: float) -> float:
    return max(-MAX_MAGNITUDE, min(MAX_MAGNITUDE, value))


def _enabled(item: Node) -> list[Node]:
    """The item's enabled modifiers (inside enabled modifier containers)."""
    modifiers = node_list(item, "modifiers")
    if not modifiers:
        return []
    return [
        modifier
        for modifier in walk_nodes(modifiers, skip_disabled=True)
        if not kind_of(modifier).endswith("_container")
    ]


def _amount(raw: str) -> tuple[str, float] | None:
    """A modifier amount as (kind, value): kind ``multiplier`` (``x2``, ``x1/2``), ``percent``
    (``+15%``; ``x150%`` is a multiplier of 1.5), ``cf`` (``+3 CF``) or ``addition``."""
    match = _AMOUNT.fullmatch(raw) if len(raw) < 40 else None
    if match is None:
        return None
    read = number_text(match.group(2))
    if read is None:
        return None
    value = float(read)
    if match.group(3):
        denominator = number_text(match.group(3))
        if not denominator:
            return None
        value /= denominator
    suffix = (match.group(4) or "").lower()
    if match.group(1):
        return "multiplier", value / 100 if suffix == "%" else value
    if suffix == "%":
        return "percent", value
    return ("cf", value) if suffix == "cf" else ("addition", value)


def _cost_step(step: str, value: float, modifiers: list[Node]) -> float:
    """One of GCS's non-CF cost steps: multipliers, then additions, then percentages of the
    value the step started with."""
    cost, additions, percent = value, 0.0, 0.0
    for modifier in modifiers:
        if (text(modifier, "cost_type") or "to_original_cost") != step:
            continue
        found = _amount(text(modifier, "cost"))
        if found is None:
            continue
        kind, amount = found
        if kind == "multiplier":
            cost *= amount
        elif kind == "percent":
            percent += amount
        else:
            additions += amount
    return cost + additions + value * percent / 100


def adjusted_value(value: float, item: Node) -> float:
    """One unit's value after its enabled modifiers (never below 0)."""
    modifiers = _enabled(item)
    if not modifiers:
        return max(value, 0)
    cost = _cost_step("to_original_cost", value, modifiers)
    factor = 0.0
    for modifier in modifiers:
        if text(modifier, "cost_type") != "to_base_cost":
            continue
        found = _amount(text(modifier, "cost"))
        if found is not None:
            kind, amount = found
            factor += amount - 1 if kind == "multiplier" else amount
    if factor:
        cost *= max(factor, -0.8) + 1
    cost = _cost_step("to_final_base_cost", cost, modifiers)
    cost = _cost_step("to_final_cost", cost, modifiers)
    return _bounded(max(cost, 0))


def adjusted_weight(weight: float, item: Node, default_unit: str) -> float:
    """One unit's weight (kg) after its enabled modifiers (never below 0): additions and
    percentages of the original weight, then GCS's base, final base and final steps."""
    modifiers = _enabled(item)
    if not modifiers:
        return max(weight, 0)
    adjusted, percent = weight, 0.0
    for modifier in modifiers:
        if (text(modifier, "weight_type") or "to_original_weight") != "to_original_weight":
            continue
        raw = text(modifier, "weight")
        found = _amount(raw)
        if found is not None and found[0] == "percent":
            percent += found[1]
        else:
            adjusted += kilograms(raw, default_unit) or 0
    adjusted += weight * percent / 100
    for step in _WEIGHT_STEPS:
        additions = 0.0
        for modifier in modifiers:
            if text(modifier, "weight_type") != step:
                continue
            raw = text(modifier, "weight")
            found = _amount(raw)
            if found is not None and found[0] == "multiplier":
                adjusted *= found[1]
            elif found is not None and found[0] == "percent":
                adjusted *= found[1] / 100
            else:
                additions += kilograms(raw, default_unit) or 0
        adjusted += additions
    return _bounded(max(adjusted, 0))


def contained_weight(contents: float, item: Node, default_unit: str) -> float:
    """The contents' weight (kg) after the container's contained-weight reductions (its own
    features and those of its enabled modifiers): percentages first, then fixed weights."""
    features = [f for f in node_list(item, "features") if type(f) is dict]
    for modifier in _enabled(item):
        features += [f for f in node_list(modifier, "features") if type(f) is dict]
    percent, fixed = 0.0, 0.0
    for feature in features:
        if text(feature, "type") != "contained_weight_reduction":
            continue
        raw = text(feature, "reduction")
        found = _amount(raw)
        if found is not None and found[0] == "percent":
            percent += found[1]
        else:
            fixed += kilograms(raw, default_unit) or 0
    if percent >= 100:
        contents = 0
    elif percent > 0:
        contents -= contents * percent / 100
    return max(contents - fixed, 0)
