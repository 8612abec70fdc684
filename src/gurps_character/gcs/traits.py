"""Traits: GCS's trait tree (``traits``, ``advantages`` before version 4) to the format's
traits, languages, cultural familiarities, tech level and reaction modifiers."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from ._context import Context
from ._fields import (
    MAX_DEPTH,
    MAX_MAGNITUDE,
    Node,
    boolean,
    children,
    fill_placeholders,
    integer,
    is_container,
    kind_of,
    mapping,
    node_list,
    number,
    number_or_text,
    text,
    walk,
)
from .features import display_name, trait_level

__all__ = ["TraitSections", "modifier_cost", "trait_sections"]

_SELF_CONTROL = {1: 2.5, 6: 2.0, 9: 1.5, 12: 1.0, 15: 0.5}
"""Self-control roll → cost multiplier (B121; GCS's 1 is "none required": never resisted)."""
_MAX_PATTERN_TEXT = 300
"""Names longer than this are not matched against the patterns below (no real name is)."""
_COMPREHENSION = ("none", "broken", "accented", "native")
_TL_TRAIT = re.compile(r"^\s*(high|low)\s+tl\b", re.IGNORECASE)
_FAMILIARITY = re.compile(r"^\s*cultural\s+familiarity\s*\((.+)\)\s*$", re.IGNORECASE)
_LANGUAGE = re.compile(r"^\s*language\s*:\s*(.+?)\s*$", re.IGNORECASE)
_REACTION_SOURCES = (
    (
        re.compile(
            r"^(appearance|attractive|handsome|beautiful|very handsome|very beautiful|unattractive|ugly|"
            r"hideous|monstrous|horrific)\b",
            re.IGNORECASE,
        ),
        "appearance",
    ),
    (re.compile(r"^(status|high status|low status)\b", re.IGNORECASE), "status"),
    (re.compile(r"^(reputation|bad reputation|good reputation)\b", re.IGNORECASE), "reputation"),
)


@dataclass(slots=True)
class TraitSections:
    """What the trait tree gives the document."""

    traits: list[dict[str, Any]] = field(default_factory=list)
    languages: list[dict[str, Any]] = field(default_factory=list)
    familiarities: list[dict[str, Any]] = field(default_factory=list)
    tech_level_points: int = 0
    reactions: list[dict[str, Any]] = field(default_factory=list)
    conditional: list[dict[str, Any]] = field(default_factory=list)
    total: float = 0
    """GCS's trait points, as GCS counts them for the points spent."""


def trait_sections(ctx: Context) -> TraitSections:
    """Flattens the trait tree as GCS counts points: group containers are transparent, every
    other node (a trait, or a meta-trait, ancestry, alternative-abilities or attributes container)
    is one entry priced as GCS priced it."""
    out = TraitSections()
    multiplicative = boolean(mapping(ctx.data, "settings"), "use_multiplicative_modifiers")
    for node, pointer, inherited, group in _units(ctx):
        name = display_name(node) or "(unnamed trait)"
        points = _points_of(ctx, node, pointer, inherited, multiplicative)
        out.total += points
        _place(ctx, out, node, pointer, name, points, group)
    _reactions(ctx, out)
    return out


def _units(ctx: Context) -> list[tuple[Node, str, Chain, str]]:
    """The nodes GCS prices as one unit, in file order, with the modifiers their group containers
    pass down and the name of the innermost group; disabled nodes are noted and left out."""
    key = ctx.traits_key
    found: list[tuple[Node, str, Chain, str]] = []
    stack: list[tuple[list[Any], int, str, Chain, str]] = [(node_list(ctx.data, key), 0, f"/{key}", None, "")]
    while stack:
        items, index, base, inherited, group = stack.pop()
        if len(stack) >= MAX_DEPTH:
            continue
        while index < len(items):
            node = items[index]
            pointer = f"{base}/{index}"
            index += 1
            if type(node) is not dict:
                continue
            if boolean(node, "disabled"):
                ctx.note(
                    pointer,
                    "notCarried",
                    f"The disabled trait '{display_name(node)}' costs nothing in GCS "
                    "and is not in the document's traits (it stays in the GCS data).",
                )
                continue
            if is_container(node) and node.get("container_type", "group") == "group":
                stack.append((items, index, base, inherited, group))
                stack.append(
                    (children(node), 0, pointer + "/children", _chain(inherited, node), display_name(node))
                )
                break
            found.append((node, pointer, inherited, group))
    return found


def _points_of(ctx: Context, node: Node, pointer: str, inherited: Chain, multiplicative: bool) -> float:
    points = number(mapping(node, "calc"), "points")
    if points is not None:
        return points
    computed = _compute_points(node, inherited, multiplicative)
    ctx.note(
        pointer,
        "approximated",
        f"GCS saved no points for '{display_name(node)}': computed with GCS's cost rules ({computed:g}).",
    )
    return computed


Chain = tuple[list[Node], "Chain"] | None
"""Modifiers handed down by containers: (a container's modifiers, its parent's chain). A chain,
not a concatenated list, so that deep nesting costs one link per level."""


def _chain(parent: Chain, node: Node) -> Chain:
    own = [m for m in node_list(node, "modifiers") if type(m) is dict]
    return (own, parent) if own else parent


def _chained(chain: Chain) -> list[Node]:
    found: list[Node] = []
    while chain is not None:
        found.extend(chain[0])
        chain = chain[1]
    return found


def _compute_points(node: Node, inherited: Chain, multiplicative: bool) -> float:
    """GCS's adjusted cost of a trait or container (for files saved without ``calc``); a
    container costs the sum of its children (alternative abilities: the dearest, plus a fifth of
    each other, rounded up). Without recursion."""
    costs: dict[int, float] = {}
    stack: list[tuple[Node, Chain, bool, int]] = [(node, inherited, False, 0)]
    while stack:
        current, chain, expanded, depth = stack.pop()
        if boolean(current, "disabled"):
            costs[id(current)] = 0
            continue
        own_chain = _chain(chain, current)
        if not is_container(current):
            costs[id(current)] = _trait_cost(current, _chained(own_chain), multiplicative)
            continue
        kids = [child for child in children(current) if type(child) is dict] if depth < MAX_DEPTH else []
        if not expanded:
            stack.append((current, chain, True, depth))
            stack.extend((child, own_chain, False, depth + 1) for child in kids)
            continue
        parts = [costs.pop(id(child), 0) for child in kids]
        if text(current, "container_type") == "alternative_abilities" and parts:
            best = max(parts)
            parts.remove(best)
            total = best + sum(math.ceil(cost / 5) for cost in parts)
        else:
            total = sum(parts)
        costs[id(current)] = max(-MAX_MAGNITUDE, min(MAX_MAGNITUDE, total))
    return costs.get(id(node), 0)


def modifier_cost(modifier: Node) -> tuple[str, float]:
    """A trait modifier's cost as (kind, value): kind ``percentage``, ``points``, ``multiplier``
    or ``percent_multiplier``; read from ``cost_adj`` (2026 files) or ``cost`` + ``cost_type``."""
    adj = text(modifier, "cost_adj").strip()
    if adj:
        match = re.fullmatch(r"([x×])?\s*([+-]?\d+(?:\.\d+)?)(?:\s*/\s*(\d+(?:\.\d+)?))?\s*(%)?", adj)
        if not match or (match.group(3) and not float(match.group(3))):
            return "points", 0
        value = float(match.group(2)) / (float(match.group(3)) if match.group(3) else 1)
        if match.group(1):
            return ("percent_multiplier", value) if match.group(4) else ("multiplier", value)
        return ("percentage", value) if match.group(4) else ("points", value)
    value = number(modifier, "cost") or 0
    kind = text(modifier, "cost_type") or "percentage"
    return (kind if kind in ("percentage", "points", "multiplier") else "percentage"), value


def _trait_cost(node: Node, modifiers: list[Node], multiplicative: bool) -> float:
    levels = (number_or_text(node, "levels") or 0) if boolean(node, "can_level") or "levels" in node else 0
    base = number(node, "base_points") or 0
    per_level = number(node, "points_per_level") or 0
    base_enh = base_lim = level_enh = level_lim = 0.0
    multiplier = 1.0
    for modifier, _, _ in walk(modifiers, ""):
        if boolean(modifier, "disabled") or kind_of(modifier).endswith("_container"):
            continue
        kind, value = modifier_cost(modifier)
        count = number_or_text(modifier, "levels") or 1
        affects = text(modifier, "affects") or "total"
        if kind == "percentage":
            value *= count
            if affects in ("total", "base_only"):
                base_enh, base_lim = (
                    (base_enh + value, base_lim) if value > 0 else (base_enh, base_lim + value)
                )
            if affects in ("total", "levels_only"):
                level_enh, level_lim = (
                    (level_enh + value, level_lim) if value > 0 else (level_enh, level_lim + value)
                )
        elif kind == "points":
            if affects == "levels_only":
                per_level += value * count
            else:
                base += value * count
        elif kind == "multiplier":
            multiplier *= value
        else:
            multiplier *= value / 100
    leveled = per_level * levels
    if multiplicative:
        base = base * (1 + base_enh / 100) * max(1 + base_lim / 100, 0.2)
        leveled = leveled * (1 + level_enh / 100) * max(1 + level_lim / 100, 0.2)
    else:
        base = base * (1 + max(base_enh + base_lim, -80) / 100)
        leveled = leveled * (1 + max(level_enh + level_lim, -80) / 100)
    roll = integer(number(node, "cr"))
    total = (base + leveled) * multiplier * _SELF_CONTROL.get(roll or 0, 1.0)
    total = max(-MAX_MAGNITUDE, min(MAX_MAGNITUDE, total))
    return math.floor(total + 1e-9) if boolean(node, "round_down") else math.ceil(total - 1e-9)


def _trait_type(node: Node, points: float) -> str:
    if points == -1:
        return "quirk"
    if points < -1:
        return "disadvantage"
    if points == 1:
        return "perk"
    if points > 1:
        return "advantage"
    tags = {tag.lower() for tag in _tags(node)}
    for tag, kind in (("disadvantage", "disadvantage"), ("quirk", "quirk"), ("perk", "perk")):
        if tag in tags:
            return kind
    return "advantage"


def _tags(node: Node) -> list[str]:
    found = [tag for tag in node_list(node, "tags") if type(tag) is str]
    found += [tag for tag in node_list(node, "categories") if type(tag) is str]
    return found


def _whole_points(ctx: Context, points: float, pointer: str, name: str) -> int:
    whole = integer(points)
    if whole is not None:
        return whole
    floored = math.floor(points)
    ctx.add_other("fractional trait points", points - floored)
    ctx.note(
        pointer,
        "approximated",
        f"'{name}' costs {points:g} points in GCS; the format counts whole points: "
        f"{floored} here, the fraction in points.breakdown.other.",
    )
    return floored


def _place(
    ctx: Context, out: TraitSections, node: Node, pointer: str, name: str, points: float, group: str
) -> None:
    whole = _whole_points(ctx, points, pointer, name)
    language = _language(node, name)
    if language is not None:
        language["points"] = whole
        out.languages.append(language)
        return
    short = name if len(name) <= _MAX_PATTERN_TEXT else ""  # patterns on huge text would be slow
    familiarity = _FAMILIARITY.match(short)
    if familiarity and not is_container(node):
        out.familiarities.append({"name": familiarity.group(1).strip() or name, "points": whole})
        return
    if _TL_TRAIT.match(short) and not is_container(node):
        out.tech_level_points += whole
        ctx.note(
            pointer, "approximated", f"'{name}' is counted as the tech level's points (techLevel.points)."
        )
        return
    entry: dict[str, Any] = {"name": name, "type": _trait_type(node, points), "points": whole}
    level = trait_level(node)
    whole_level = integer(level)
    if (boolean(node, "can_level") or number_or_text(node, "levels") is not None) and not is_container(node):
        if whole_level is not None and whole_level >= 1:
            entry["level"] = whole_level
        elif level:
            ctx.note(
                pointer,
                "approximated",
                f"'{name}' has level {level:g}, which the format cannot hold "
                "(whole levels from 1): the level is in the notes.",
            )
    notes = _notes(node, level, group)
    if notes:
        entry["notes"] = notes
    out.traits.append(entry)
    held = [
        f"{count} {what}" if count != 1 else f"1 {what[:-1]}"
        for what, count in (
            ("modifiers", sum(1 for m in node_list(node, "modifiers") if type(m) is dict)),
            ("features", sum(1 for f in node_list(node, "features") if type(f) is dict)),
            ("prerequisites", 1 if mapping(node, "prereqs") else 0),
            ("traits inside", sum(1 for c in children(node) if type(c) is dict)),
        )
        if count
    ]
    if held:
        ctx.note(
            pointer,
            "movedToExtensions",
            f"The format cannot hold the {', '.join(held)} of '{name}': kept in the GCS data (extensions); "
            "the trait's points are GCS's.",
        )


def _notes(node: Node, level: float, group: str) -> str:
    parts = []
    if group:
        parts.append(f"In: {group}")
    if level and integer(level) is None:
        parts.append(f"Level {level:g}")
    roll = integer(number(node, "cr"))
    if roll:
        parts.append(f"Self-control roll {roll}")
    mods = []
    modifiers = node_list(node, "modifiers")
    for modifier, _, _ in walk(modifiers, "") if modifiers else ():
        if boolean(modifier, "disabled") or kind_of(modifier).endswith("_container"):
            continue
        label = display_name(modifier)
        if label:
            kind, value = modifier_cost(modifier)
            cost = {
                "percentage": f"{value:+g}%",
                "points": f"{value:+g}",
                "multiplier": f"x{value:g}",
                "percent_multiplier": f"x{value:g}%",
            }[kind]
            mods.append(f"{label} ({cost})")
    if mods:
        parts.append("Modifiers: " + "; ".join(mods))
    if is_container(node):
        names = [display_name(child) for child in children(node) if type(child) is dict][:30]
        if names:
            parts.append("Includes: " + ", ".join(n for n in names if n))
    for key in ("local_notes", "notes", "userdesc"):
        extra = fill_placeholders(text(node, key), node).strip()
        if extra:
            parts.append(extra)
    reference = text(node, "reference").strip()
    if reference:
        parts.append(f"Ref: {reference}")
    return "\n".join(parts)


def _language(node: Node, name: str) -> dict[str, Any] | None:
    """A language trait with enabled Spoken and Written modifiers, else None."""
    match = _LANGUAGE.match(name) if len(name) <= _MAX_PATTERN_TEXT else None
    is_language = match is not None or "language" in {tag.lower() for tag in _tags(node)}
    if not is_language or is_container(node):
        return None
    levels: dict[str, str] = {}
    native = False
    for modifier in node_list(node, "modifiers"):
        if type(modifier) is not dict or boolean(modifier, "disabled"):
            continue
        label = text(modifier, "name").strip().lower()
        if label == "native":
            native = True
            continue
        detail = (text(modifier, "local_notes") or text(modifier, "notes")).strip().lower()
        for part in ("spoken", "written"):
            if label.startswith(part):
                word = detail or label.removeprefix(part).strip(" ()-:")
                if word in _COMPREHENSION:
                    levels[part] = word
    if native and not levels:
        levels = {"spoken": "native", "written": "native"}
    if set(levels) != {"spoken", "written"}:
        return None
    title = match.group(1) if match else name
    return {"name": title or name, "spoken": levels["spoken"], "written": levels["written"]}


def _reactions(ctx: Context, out: TraitSections) -> None:
    for feature in ctx.features.of_kind("reaction_bonus"):
        amount = integer(feature.amount())
        situation = fill_placeholders(text(feature.data, "situation"), feature.data).strip()
        source = "other"
        for pattern, kind in _REACTION_SOURCES:
            if pattern.match(feature.owner[:_MAX_PATTERN_TEXT]):
                source = kind
                break
        description = f"{feature.owner}: {situation}" if situation else feature.owner or "Reaction bonus"
        entry: dict[str, Any] = {"source": source, "description": description}
        entry["modifier"] = amount
        out.reactions.append(entry)
    for feature in ctx.features.of_kind("conditional_modifier"):
        out.conditional.append(
            {
                "owner": feature.owner,
                "situation": text(feature.data, "situation"),
                "amount": feature.amount(),
                "source": feature.pointer,
            }
        )
