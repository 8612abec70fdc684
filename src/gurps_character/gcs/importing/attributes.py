"""Attributes: GCS's attribute list (or a version 1 file's top-level values) to the format's
ST, DX, IQ, HT and secondary characteristics; the rest goes to the extensions.

Why one module of this length: every step (the definitions, each attribute's value and price,
the checks of what an old file saved, the pools' thresholds) reads the same per-attribute
records (:class:`AttributeValue`) and the same standard set; a later split should cut the old
files' checks out first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..format.features import Feature
from ..format.fields import Node, boolean, integer, mapping, node_list, number, text
from ..format.progression import progression_of
from .context import Context
from .expressions import evaluate_base
from .notes import shortened

__all__ = [
    "CORE",
    "AttributeValue",
    "attributes_section",
    "extra_attributes",
    "find_active_thresholds",
    "label",
    "read_attributes",
    "secondary_section",
    "size_modifier",
    "with_defaulted_core",
]

CORE = {
    "st": "/attributes/st",
    "dx": "/attributes/dx",
    "iq": "/attributes/iq",
    "ht": "/attributes/ht",
    "hp": "/secondary/hp",
    "fp": "/secondary/fp",
    "will": "/secondary/will",
    "per": "/secondary/per",
    "basic_speed": "/secondary/basicSpeed",
    "basic_move": "/secondary/basicMove",
}
"""GCS attribute id → where the format keeps it."""

_STANDARD: dict[str, tuple[str, float]] = {
    "st": ("10", 10),
    "dx": ("10", 20),
    "iq": ("10", 20),
    "ht": ("10", 10),
    "will": ("$iq", 5),
    "fright_check": ("$will", 2),
    "per": ("$iq", 5),
    "vision": ("$per", 2),
    "hearing": ("$per", 2),
    "taste_smell": ("$per", 2),
    "touch": ("$per", 2),
    "basic_speed": ("($dx + $ht) / 4", 20),
    "basic_move": ("floor($basic_speed)", 5),
    "fp": ("$ht", 3),
    "hp": ("$st", 2),
}
"""GCS's standard attribute set: base and cost per level (``Standard.attr``)."""

_STANDARD_KINDS = {"hp": "pool", "fp": "pool", "basic_speed": "decimal"}
"""The types of GCS's standard attributes that are not whole numbers (the rest are)."""

_LABELS = {
    "st": "ST",
    "dx": "DX",
    "iq": "IQ",
    "ht": "HT",
    "hp": "HP",
    "fp": "FP",
    "will": "Will",
    "per": "Per",
    "basic_speed": "Basic Speed",
    "basic_move": "Basic Move",
}


@dataclass(slots=True)
class AttributeValue:
    """One GCS attribute as GCS computed it."""

    ident: str
    name: str
    kind: str
    value: float
    points: float
    adj: float
    damage: float
    current: float | None
    pointer: str
    computed_here: bool
    """GCS saved no ``calc`` for it: value and points were computed by the importer."""
    base: str = ""
    """The file's base expression for it."""
    cost: float = 0
    """The file's points per level."""
    todays_points: float | None = None
    """What today's GCS would charge, when a version 1 or 2 file saved other points (kept:
    they are what GCS showed and counted in its points spent)."""
    kept_points_why: str = ""
    """What the kept saved points leave out that today's GCS applies ("" when not known)."""


def label(ident: str) -> str:
    return _LABELS.get(ident, ident)


def read_attributes(ctx: Context) -> dict[str, AttributeValue]:
    """Every attribute with a value, by GCS id (separators left out)."""
    if ctx.version == 1:
        return _version1(ctx)
    definitions = _definitions(ctx.data)
    entries: dict[str, tuple[Node, str]] = {}
    for index, entry in enumerate(node_list(ctx.data, "attributes")):
        if type(entry) is dict:
            ident = text(entry, "attr_id")
            if ident and ident not in entries:
                entries[ident] = (entry, f"/attributes/{index}")
    values: dict[str, AttributeValue] = {}
    pending: set[str] = set()

    def resolve(ident: str) -> float | None:
        if ident in values:
            return values[ident].value
        if ident in pending or len(pending) > 64:
            return None
        pending.add(ident)
        try:
            found = _read_one(ctx, ident, entries.get(ident), definitions, resolve)
        finally:
            pending.discard(ident)
        if found is not None:
            values[ident] = found
            return found.value
        return None

    # A file that lists no attributes at all gets one of each its settings define, and without
    # definitions GCS's standard set (GCS's Entity.UnmarshalJSON); a list, even a short one, is
    # the character's.
    defined = definitions or (_STANDARD if ctx.data.get("attributes") is None else {})
    for ident in list(entries) + [i for i in defined if i not in entries]:
        resolve(ident)
    return values


def _definitions(data: Node) -> dict[str, Node]:
    found: dict[str, Node] = {}
    for definition in node_list(mapping(data, "settings"), "attributes"):
        if type(definition) is dict:
            ident = text(definition, "id")
            if ident and ident not in found:
                found[ident] = definition
    return found


def _read_one(
    ctx: Context,
    ident: str,
    located: tuple[Node, str] | None,
    definitions: dict[str, Node],
    resolve: Any,
) -> AttributeValue | None:
    entry, pointer = located if located is not None else ({}, "")
    definition = definitions.get(ident)
    kind = text(definition, "type") if definition else _STANDARD_KINDS.get(ident, "integer")
    if kind.endswith("separator"):
        return None
    if definitions and definition is None:
        return None  # GCS drops values whose definition is gone
    name = text(definition, "name") if definition else ""
    calc = mapping(entry, "calc")
    adj = number(entry, "adj") or 0
    damage = number(entry, "damage") or 0
    value = number(calc, "value")
    points = number(calc, "points")
    computed_here = value is None
    base_text, cost = _base_and_cost(ident, definition)
    todays_points: float | None = None
    kept_why = ""
    if value is None or ctx.version <= 2:  # GCS 4.x's saved values: today's GCS computes its own
        rules = _by_rules(ctx, ident, kind, (base_text, cost), adj, definition, resolve)
        if rules is None:
            if value is None:
                return None
        elif value is None:
            value, points = rules
        elif _stale(value, points, rules):
            value, points, todays_points, kept_why = _settle_stale(
                ctx,
                (ident, name or label(ident), kind, pointer),
                (value, points),
                rules,
                (adj, cost, definition),
            )
            calc = {}  # the saved current value went with the saved value
    current = number(calc, "current")
    if kind.startswith("pool") and current is None:
        current = value - damage
    return AttributeValue(
        ident,
        name or label(ident),
        kind,
        value,
        points or 0,
        adj,
        damage,
        current,
        pointer,
        computed_here,
        base_text,
        cost,
        todays_points,
        kept_why,
    )


def _settle_stale(
    ctx: Context,
    which: tuple[str, str, str, str],
    saved: tuple[float, float | None],
    rules: tuple[float, float],
    bought: tuple[float, float, Node | None],
) -> tuple[float, float, float | None, str]:
    """A version 1 or 2 attribute whose saved value or points differ from today's GCS's: the
    value today's GCS computes (the rest of the sheet follows it), but the points the file saved
    when it saved some: they are what GCS showed the player who saved it and counted in the points
    spent it saved, GCS's word for the points. A note names both. Returns the value, the points,
    today's points when the kept ones differ, and what the kept points leave out."""
    ident, name, kind, pointer = which
    value, points = saved
    value_why, points_why = _why_stale(ctx, ident, kind, saved, rules, bought)
    kept = points is not None and abs(points - rules[1]) > 1e-9
    causes = [why for why in (value_why, points_why) if why]
    why = f" (GCS 4.x saved it without the traits' features: {'; '.join(causes)}, which GCS applies)"
    if abs(value - rules[0]) <= 1e-9:
        outcome = "the import keeps the file's points, which GCS 4.x showed and counted in its points spent"
    elif kept:
        outcome = (
            "the import uses the current GCS's value and keeps the file's points, which GCS 4.x showed "
            "and counted in its points spent"
        )
    else:
        outcome = "the import uses the current GCS's"
    ctx.note(
        pointer or "/attributes",
        "approximated",
        f"{name} {value:g} ({'no' if points is None else f'{points:g}'} points), as this version "
        f"{ctx.version} file saved it, is not what the current GCS computes from it "
        f"({rules[0]:g}, {rules[1]:g} points): {outcome}{why if causes else ''}.",
    )
    if points is None or not kept:
        return rules[0], rules[1], None, ""
    return rules[0], points, rules[1], points_why


def _stale(value: float, points: float | None, rules: tuple[float, float]) -> bool:
    """Whether a saved value (and its points, when saved) differ from the rules'."""
    return abs(value - rules[0]) > 1e-9 or (points is not None and abs(points - rules[1]) > 1e-9)


def _why_stale(
    ctx: Context,
    ident: str,
    kind: str,
    saved: tuple[float, float | None],
    rules: tuple[float, float],
    bought: tuple[float, float, Node | None],
) -> tuple[str, str]:
    """What a version 2 file's saved value and points left out, when they are exactly GCS 4.x's
    numbers without the traits' features: GCS 4.x saved some files (the GCS library's Basic Set
    animals among them) without applying their attribute bonuses and cost reductions, which
    today's GCS applies (its own later saves of those files have them). The value's cause and
    the points', each "" for any other cause."""
    value, points = saved
    adj, cost, definition = bought
    value_why = points_why = ""
    bonuses = ctx.features.attribute_bonuses(ident)
    bonus = ctx.features.attribute_bonus(ident)
    if not kind.startswith("decimal"):
        bonus = math.trunc(bonus)
    if bonus and abs(value - (rules[0] - bonus)) < 1e-9:
        value_why = f"its value leaves out the {bonus:+g} of {_owners(bonuses)}"
    reductions = ctx.features.cost_reductions(ident)
    if reductions and points is not None and abs(points - rules[1]) > 1e-9:
        bare = _gcs4_cost_without_features(ctx, ident, adj, cost, definition)
        if points == bare:
            points_why = f"its points leave out the cost reductions of {_owners(reductions)}"
    return value_why, points_why


def _owners(features: list[Feature]) -> str:
    return ", ".join(sorted({f"'{feature.owner}'" for feature in features}))


def _gcs4_cost_without_features(
    ctx: Context, ident: str, adj: float, cost: float, definition: Node | None
) -> int:
    """What GCS 4.x (``AttributeDef.computeCost``, 2021) charged for ``adj`` levels with no
    feature in force: the whole part of the cost per level × the levels, truncated, less the
    size discount of the profile's own SM (capped at 80 %), rounded half up in whole numbers."""
    per_sm = number(definition or {}, "cost_adj_percent_per_sm")
    if per_sm is None and ident in ("st", "hp"):
        per_sm = 10
    size = math.trunc(number(mapping(ctx.data, "profile"), "SM") or 0)
    kyos = progression_of(mapping(ctx.data, "settings")) == "knowing_your_own_strength"
    reduction = 0
    if size > 0 and per_sm and per_sm > 0 and not (ident == "hp" and kyos):
        reduction = min(max(size * math.trunc(per_sm), 0), 80)
    total = math.trunc(math.trunc(cost) * adj)
    if not reduction:
        return total
    scaled = total * (100 - reduction)
    whole = math.trunc(Fraction(scaled, 100))
    rest = scaled - whole * 100
    return whole + (1 if rest > 49 else -1 if rest < -50 else 0)


def _by_rules(
    ctx: Context,
    ident: str,
    kind: str,
    base_and_cost: tuple[str, float],
    adj: float,
    definition: Node | None,
    resolve: Any,
) -> tuple[float, float] | None:
    """GCS's value and points for an attribute by its rules (base + adj + bonuses, whole unless
    decimal; the cost rules), or None when its base cannot be read."""
    base_text, cost = base_and_cost
    base = evaluate_base(base_text, resolve)
    if base is None:
        standard = _STANDARD.get(ident)
        base = evaluate_base(standard[0], resolve) if standard else None
        if definition and base_text != (standard[0] if standard else ""):
            shown = shortened(base_text, 60)
            ctx.note(
                "/settings/attributes",
                "approximated",
                f"The base '{shown}' of {text(definition, 'name') or label(ident)} could not be read "
                "(an expression beyond numbers, attributes, + - * / and GCS's rounding functions, or a "
                "number beyond ±10^9): "
                + (
                    f"GCS's standard base '{standard[0]}' is used."
                    if base is not None and standard
                    else "it is left out."
                ),
            )
    if base is None:
        return None
    bonus = ctx.features.attribute_bonus(ident)
    if not kind.startswith("decimal"):  # GCS adds the whole part of a bonus to a whole attribute
        return math.floor(base + adj + math.trunc(bonus)), _cost(ctx, ident, adj, cost, definition)
    return base + adj + bonus, _cost(ctx, ident, adj, cost, definition)


def _base_and_cost(ident: str, definition: Node | None) -> tuple[str, float]:
    standard = _STANDARD.get(ident, ("10", 0))
    if not definition:
        return standard
    base = text(definition, "base") or text(definition, "attribute_base") or standard[0]
    cost = number(definition, "cost_per_point")
    return base, standard[1] if cost is None else cost


def _cost(ctx: Context, ident: str, adj: float, cost: float, definition: Node | None) -> int:
    """GCS's attribute cost (``AttributeDef.ComputeCost``): adj × cost per point, less the cost
    reductions and the size discount (capped at 80 %, for levels bought down too), in GCS's fixed
    point (4 decimals, each product and quotient truncated), then rounded toward +∞
    (``fxp.ApplyRounding``: 5.4 is 6, -5.4 is -5)."""
    reduction = sum(
        (_fixed(number(f.data, "percentage") or 0) for f in ctx.features.cost_reductions(ident)),
        Fraction(0),
    )
    size = size_modifier(ctx)
    per_sm = number(definition or {}, "cost_adj_percent_per_sm")
    if per_sm is None and ident in ("st", "hp"):
        per_sm = 10
    kyos = progression_of(mapping(ctx.data, "settings")) == "knowing_your_own_strength"
    if size > 0 and per_sm and not (ident == "hp" and kyos):  # GCS: no size discount on HP under KYOS
        reduction += _fixed(per_sm) * size
    total = _truncated(_fixed(adj) * _fixed(cost))
    if reduction > 0:
        total = _truncated(_truncated(total * (100 - min(reduction, Fraction(80)))) / 100)
    return math.ceil(total)


def _fixed(value: float) -> Fraction:
    """A number as GCS reads it into its fixed point: the decimal written, truncated to 4 places
    (2.00001 is 2)."""
    exact = Fraction(float.__repr__(float(value))) if math.isfinite(value) else Fraction(0)
    return _truncated(exact)


def _truncated(value: Fraction) -> Fraction:
    """A product or quotient in GCS's fixed point: truncated toward zero to 4 decimals."""
    return Fraction(math.trunc(value * 10_000), 10_000)


def size_modifier(ctx: Context) -> int:
    """The size modifier GCS counts (``AdjustedSizeModifier``): the profile's ``SM`` plus the whole
    part of the trait bonuses to ``sm`` (SM 1 with a bonus of +0.5 or -0.5 is 1)."""
    base = number(mapping(ctx.data, "profile"), "SM") or 0
    return math.trunc(base) + math.trunc(ctx.features.attribute_bonus("sm"))


_HALVE_ALL = ["halve_move", "halve_dodge", "halve_st"]
_HALVED = {"halve_move": "Move", "halve_dodge": "Dodge", "halve_st": "ST"}
_HALVE_MOVE = ["halve_move", "halve_dodge"]
_STANDARD_POOLS: dict[str, Node] = {
    "fp": {
        "thresholds": [
            {"state": "Unconscious", "value": "-$fp", "ops": _HALVE_ALL},
            {"state": "Collapse", "value": "0", "ops": _HALVE_ALL},
            {"state": "Tired", "value": "Math.ceil($fp / 3) - 1", "ops": _HALVE_ALL},
            {"state": "Tiring", "value": "$fp - 1"},
            {"state": "Rested", "value": "$fp"},
        ]
    },
    "hp": {
        "thresholds": [
            *(
                {"state": state, "value": f"Math.round(-$hp * {times})", "ops": _HALVE_MOVE}
                for state, times in (("Dead", 5), ("Dying #4", 4), ("Dying #3", 3), ("Dying #2", 2))
            ),
            {"state": "Dying #1", "value": "-$hp", "ops": _HALVE_MOVE},
            {"state": "Collapse", "value": "0", "ops": _HALVE_MOVE},
            {"state": "Reeling", "value": "Math.ceil($hp / 3) - 1", "ops": _HALVE_MOVE},
            {"state": "Wounded", "value": "$hp - 1"},
            {"state": "Healthy", "value": "$hp"},
        ]
    },
}
"""GCS's standard HP and FP states (B419, B426: Reeling halves Move and Dodge; Tired and
Collapse also ST), for files that define no attributes (version 1): GCS gives them its
standard set."""


def find_active_thresholds(ctx: Context, values: dict[str, AttributeValue]) -> None:
    """Finds each pool's active threshold state (the first, worst to best, whose value the pool's
    current value does not exceed) and records the ops in force (GCS halves Move, Dodge or ST).
    A file that defines no attributes has GCS's standard HP and FP states."""
    definitions = _definitions(ctx.data) or _STANDARD_POOLS
    for ident, definition in definitions.items():
        found = values.get(ident)
        thresholds = [t for t in node_list(definition, "thresholds") if type(t) is dict]
        if found is None or found.current is None or not thresholds:
            continue

        def lookup(name: str) -> float | None:
            other = values.get(name)
            return other.value if other is not None else None

        for threshold in thresholds:
            limit = _threshold_value(threshold, found.value, lookup)
            if limit is None:
                break  # an expression this importer cannot read: no guess
            if found.current <= limit:
                state = text(threshold, "state") or "unnamed state"
                label_text = f"{found.name} '{state}' ({found.name} {found.current:g} of {found.value:g})"
                if definitions is _STANDARD_POOLS and node_list(threshold, "ops"):
                    halved = ", ".join(_HALVED.get(op, str(op)) for op in node_list(threshold, "ops"))
                    ctx.note(
                        found.pointer,
                        "approximated",
                        f"The file defines no attributes (version {ctx.version}): GCS's standard states "
                        f"apply, and {label_text} halves {halved}.",
                    )
                for op in node_list(threshold, "ops"):
                    if type(op) is str:
                        ctx.active_ops.setdefault(op, []).append(label_text)
                break


def _threshold_value(threshold: Node, maximum: float, lookup: Any) -> float | None:
    script = text(threshold, "value") or text(threshold, "expression")
    if script:
        return evaluate_base(script, lookup)
    multiplier = number(threshold, "multiplier")
    divisor = number(threshold, "divisor") or 1
    if multiplier is None:
        return None
    return maximum * multiplier / divisor + (number(threshold, "addition") or 0)


def _version1(ctx: Context) -> dict[str, AttributeValue]:
    """Version 1 kept ST, DX, IQ, HT as top-level values and the rest as adjustments."""
    data = ctx.data
    settings = mapping(data, "settings")
    found: dict[str, AttributeValue] = {}

    def bonus(*idents: str) -> float:
        """The whole part of the bonuses, as GCS adds them to whole attributes (Basic Speed's
        whole)."""
        total = sum(ctx.features.attribute_bonus(ident) for ident in idents)
        return total if "speed" in idents else math.trunc(total)

    def put(ident: str, value: float, adj: float, cost: float, key: str, damage_key: str = "") -> None:
        damage = number(data, damage_key) or 0 if damage_key else 0
        points = _cost(ctx, ident, adj, cost, None)
        current = value - damage if ident in ("hp", "fp") else None
        found[ident] = AttributeValue(
            ident,
            label(ident),
            "integer",
            value,
            points,
            adj,
            damage,
            current,
            f"/{key}" if key in data else "",
            True,
        )

    for ident in ("st", "dx", "iq", "ht"):
        stored = number(data, ident.upper())
        stored = 10 if stored is None else stored
        put(ident, math.floor(stored + bonus(ident)), stored - 10, _STANDARD[ident][1], ident.upper())
    st, dx, iq, ht = (found[i].value for i in ("st", "dx", "iq", "ht"))
    will_adj, per_adj = number(data, "will_adj") or 0, number(data, "per_adj") or 0
    will_base = 10 if boolean(settings, "base_will_on_10") else iq
    per_base = 10 if boolean(settings, "base_per_on_10") else iq
    put("will", math.floor(will_base + will_adj + bonus("will")), will_adj, 5, "will_adj")
    put("per", math.floor(per_base + per_adj + bonus("per", "perception")), per_adj, 5, "per_adj")
    hp_adj, fp_adj = number(data, "HP_adj") or 0, number(data, "FP_adj") or 0
    put("hp", math.floor(st + hp_adj + bonus("hp")), hp_adj, 2, "HP_adj", "hp_damage")
    put("fp", math.floor(ht + fp_adj + bonus("fp")), fp_adj, 3, "FP_adj", "fp_damage")
    speed_adj = number(data, "speed_adj") or 0
    speed = (dx + ht) / 4 + speed_adj + bonus("speed", "basic_speed")
    put("basic_speed", speed, speed_adj, 20, "speed_adj")
    move_adj = number(data, "move_adj") or 0
    put(
        "basic_move",
        math.floor(math.floor(speed) + move_adj + bonus("move", "basic_move")),
        move_adj,
        5,
        "move_adj",
    )
    return found


def _whole(value: float) -> int:
    return math.floor(value)


def _points(value: float) -> int:
    whole = integer(value)
    return whole if whole is not None else math.ceil(value)


def _explain(ctx: Context, values: dict[str, AttributeValue], ident: str, pointer: str) -> None:
    """Why GCS's points (and values) for an attribute may differ from the format's formula."""
    found = values[ident]
    name = label(ident)
    target = pointer + "/points"
    owners = ctx.features.attribute_bonuses(ident)
    if owners:
        total = sum(f.amount() for f in owners)
        who = ", ".join(sorted({f"'{f.owner}'" for f in owners}))
        ctx.cause(
            target,
            f"GCS adds {total:+g} {name} from {who}; GCS counts those points with the trait, "
            f"and charges the attribute only for the {found.adj:+g} levels bought",
            found.pointer,
        )
    reductions = ctx.features.cost_reductions(ident)
    if found.todays_points is not None:
        # The file's own points are kept: today's rules (the reductions among them) did not make them.
        left_out = f"; {found.kept_points_why}, which it applies" if found.kept_points_why else ""
        ctx.cause(
            target,
            f"this version {ctx.version} file saved {found.points:g} points for {name}, which GCS 4.x showed "
            f"and counted in its points spent (the current GCS would charge {found.todays_points:g}"
            f"{left_out})",
            found.pointer,
        )
    elif reductions:
        who = ", ".join(sorted({f"'{f.owner}'" for f in reductions}))
        ctx.cause(
            target,
            f"GCS reduces the cost of {name} by the cost reductions of {who}, also for levels bought down",
            found.pointer,
        )
    if found.adj < 0 and size_modifier(ctx) > 0 and ident in ("st", "hp"):
        ctx.cause(
            target,
            f"GCS applies the size discount (SM {size_modifier(ctx):+d}) to levels of {name} bought down too",
            found.pointer,
        )
    standard = _STANDARD.get(ident)
    if (
        standard is not None
        and found.base
        and (found.base.replace(" ", "") != standard[0].replace(" ", "") or found.cost != standard[1])
    ):
        ctx.cause(
            target,
            f"the file defines {name} with base '{found.base}' and {found.cost:g} points per level "
            f"(GCS's standard: '{standard[0]}', {standard[1]:g})",
            found.pointer,
        )
    if found.computed_here:
        ctx.cause(
            target, f"GCS saved no computed {name}: the importer applied GCS's cost rules", found.pointer
        )
    ctx.cause(
        target,
        f"GCS charges {name} {found.adj:+g} levels bought at {found.cost:g} points each",
        found.pointer,
    )


def attributes_section(ctx: Context, values: dict[str, AttributeValue]) -> dict[str, Any]:
    """The format's ``attributes``: ST, DX, IQ, HT with GCS's values and points."""
    section: dict[str, Any] = {}
    for ident in ("st", "dx", "iq", "ht"):
        found = values.get(ident)
        pointer = CORE[ident]
        if found is None:
            ctx.note("/attributes", "defaulted", f"The file has no {label(ident)}: the import uses 10.")
            section[ident] = {"value": 10, "points": 0}
            continue
        value = _whole(found.value)
        if value < 0:
            ctx.note(found.pointer, "approximated", f"{label(ident)} {value} is below 0: the import uses 0.")
            value = 0
        entry: dict[str, Any] = {"value": value, "points": _points(found.points)}
        modifiers = _cost_modifiers(ctx, ident)
        if modifiers:
            entry["costModifiers"] = modifiers
        section[ident] = entry
        _explain(ctx, values, ident, pointer)
    return section


def with_defaulted_core(values: dict[str, AttributeValue]) -> dict[str, AttributeValue]:
    """``values`` with ST, DX, IQ and HT at 10 where the file has none, as
    :func:`attributes_section` stores them, so skills and weapons count what the document says."""
    missing = [ident for ident in ("st", "dx", "iq", "ht") if ident not in values]
    if not missing:
        return values
    defaulted = dict(values)
    for ident in missing:
        defaulted[ident] = AttributeValue(
            ident, label(ident), "integer", 10, 0, 0, 0, None, "", True, "10", 0
        )
    return defaulted


def _cost_modifiers(ctx: Context, ident: str) -> list[dict[str, Any]]:
    modifiers = []
    for feature in ctx.features.cost_reductions(ident):
        percent = integer(number(feature.data, "percentage"))
        if percent and 1 <= percent <= 99 and feature.owner:
            modifiers.append({"name": feature.owner, "percent": -percent})
    return modifiers


def secondary_section(
    ctx: Context, values: dict[str, AttributeValue], primary: dict[str, Any]
) -> dict[str, Any]:
    """The format's ``secondary``: HP, Will, Per, FP, Basic Speed and Move with GCS's values."""
    st, dx, iq, ht = (primary[i]["value"] for i in ("st", "dx", "iq", "ht"))
    section: dict[str, Any] = {}
    for ident, key, base in (("hp", "hp", st), ("will", "will", iq), ("per", "per", iq), ("fp", "fp", ht)):
        found = values.get(ident)
        if found is None:
            what = "FP" if ident == "fp" else label(ident)
            ctx.note(
                "/settings/attributes",
                "defaulted",
                f"The file defines no {what} (GCS leaves it out for some creatures): "
                f"the import uses its base, {base}, at no cost.",
            )
            section[key] = {"value": base, "base": base, "points": 0}
            continue
        entry: dict[str, Any] = {"value": _whole(found.value), "base": base, "points": _points(found.points)}
        modifiers = _cost_modifiers(ctx, ident)
        if modifiers:
            entry["costModifiers"] = modifiers
        if ident in ("hp", "fp") and found.damage and found.current is not None:
            entry["current"] = _pool_current(ctx, found, entry["value"], ident)
        section[key] = entry
        _explain(ctx, values, ident, CORE[ident])
    section["basicSpeed"] = _speed(ctx, values, dx, ht)
    move = values.get("basic_move")
    move_base = math.floor(section["basicSpeed"]["value"])
    if move is None:
        section["basicMove"] = {"value": move_base, "base": move_base, "points": 0}
    else:
        section["basicMove"] = {
            "value": _whole(move.value),
            "base": move_base,
            "points": _points(move.points),
        }
        _explain(ctx, values, "basic_move", CORE["basic_move"])
    return {key: section[key] for key in ("hp", "will", "per", "fp", "basicSpeed", "basicMove")}


def _pool_current(ctx: Context, found: AttributeValue, value: int, ident: str) -> int:
    current = math.floor(found.current if found.current is not None else value)
    low = -10 * value if ident == "hp" else -value
    if not min(low, value) <= current <= max(low, value):
        ctx.note(
            found.pointer,
            "approximated",
            f"{label(ident)} current {current} is outside what the format allows: kept within bounds.",
        )
        current = max(min(current, max(low, value)), min(low, value))
    return current


def _speed(ctx: Context, values: dict[str, AttributeValue], dx: int, ht: int) -> dict[str, Any]:
    base = (dx + ht) / 4
    found = values.get("basic_speed")
    if found is None:
        return {"value": base, "base": base, "points": 0}
    value = found.value
    quarters = math.floor(value * 4 + 1e-9) / 4
    if abs(quarters - value) > 1e-9:
        ctx.note(
            found.pointer,
            "approximated",
            f"Basic Speed {value:g} is not a multiple of 0.25 as the format requires: "
            f"stored as {quarters:g}.",
        )
    _explain(ctx, values, "basic_speed", CORE["basic_speed"])
    points = found.points
    whole = integer(points)
    return {"value": _plain(quarters), "base": _plain(base), "points": whole if whole is not None else points}


def _plain(value: float) -> float | int:
    whole = integer(value)
    return whole if whole is not None else value


def extra_attributes(ctx: Context, values: dict[str, AttributeValue]) -> list[dict[str, Any]]:
    """The attributes beyond the ten: their values for the extensions, their points to ``other``."""
    extra = []
    for ident, found in values.items():
        if ident in CORE:
            continue
        item: dict[str, Any] = {
            "id": ident,
            "name": found.name,
            "value": _plain(found.value),
            "points": _plain(found.points),
        }
        if found.current is not None and found.kind.startswith("pool"):
            item["current"] = _plain(found.current)
        extra.append(item)
        ctx.add_other("attributes beyond the ten", found.points)
    if extra:
        ctx.note(
            "/attributes",
            "movedToExtensions",
            f"{len(extra)} attributes the format has no place for ({', '.join(i['id'] for i in extra[:8])}"
            f"{', ...' if len(extra) > 8 else ''}) are in extensions (attributes); their points are in "
            "points.breakdown.other.",
        )
    return extra
