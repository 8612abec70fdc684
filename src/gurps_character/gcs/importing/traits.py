"""Traits: GCS's trait tree (``traits``, ``advantages`` before version 4) to the format's
traits, languages, cultural familiarities, tech level and reaction modifiers.

The parts: :mod:`.trait_tree` (the tree, each node's points and the shares of containers),
:mod:`.trait_costs` (GCS's price of one trait and its modifiers) and :mod:`.trait_notes` (what an
entry's notes say); this module places each enabled trait in the document."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from ..format.features import display_name, trait_level
from ..format.fields import (
    Node,
    boolean,
    filled_text,
    integer,
    is_container,
    mapping,
    node_list,
    number,
    number_or_text,
    plain,
    text,
)
from .context import Context
from .trait_notes import details_note, shown_name, trait_notes
from .trait_tree import ALTERNATIVE_ABILITIES, TraitItem, ancestors, price_tree, share_children, trait_tree

__all__ = ["TraitSections", "trait_sections"]

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
    shares: list[dict[str, Any]] = field(default_factory=list)
    """Traits whose entry holds a share of their own cost (alternative abilities), with GCS's
    reason, for the extensions."""
    total: float = 0
    """GCS's trait points, as GCS counts them for the points spent."""


def trait_sections(ctx: Context) -> TraitSections:
    """Every enabled trait as its own entry, at any depth of groups, meta-traits, ancestries,
    alternative-abilities and attributes containers, priced as GCS prices it: a leaf with its
    own modifiers and those of every container above it; an alternative-abilities container
    charges its dearest child in full and each other at a fifth (rounded up). The entries' points
    add up to GCS's total, which counts each top-level unit (groups are transparent) at the
    points GCS saved for it."""
    out = TraitSections()
    multiplicative = boolean(mapping(ctx.data, "settings"), "use_multiplicative_modifiers")
    items = trait_tree(ctx)
    price_tree(items, multiplicative)
    _share(ctx, out, items)
    saved_any = any(not item.computed for item in items if not item.container and not item.disabled)
    for index, item in enumerate(items):
        if item.container or item.disabled:
            continue
        name = display_name(item.node) or "(unnamed trait)"
        if item.computed and saved_any:
            ctx.note(
                item.pointer,
                "approximated",
                f"GCS saved no points for '{name}': they are computed with GCS's cost rules "
                f"({item.value:g}).",
            )
        _place(ctx, out, items, index, name)
    if items and not saved_any and any(not i.container and not i.disabled for i in items):
        ctx.note(
            f"/{ctx.traits_key}",
            "approximated",
            "GCS saved no trait points in this file: every trait's points are computed with GCS's "
            "cost rules.",
        )
    details_note(ctx, items)
    _reactions(ctx, out)
    return out


def _share(ctx: Context, out: TraitSections, items: list[TraitItem]) -> None:
    """Each node's share of what GCS charges, parents first. A top-level unit (a trait, or a
    container other than a group: groups are transparent at the top) counts in GCS's total at
    the points GCS saved for it; its children share its price."""
    transparent = [False] * len(items)
    for index, item in enumerate(items):
        if item.disabled:
            continue
        at_top = item.parent < 0 or transparent[item.parent]
        if at_top:
            item.share = item.value
            if _is_group(item):
                transparent[index] = True
            else:
                _count_unit(ctx, out, item)
        if item.container:
            share_children(items, item)


def _is_group(item: TraitItem) -> bool:
    return item.container and (text(item.node, "container_type") or "group") == "group"


def _count_unit(ctx: Context, out: TraitSections, item: TraitItem) -> None:
    """Adds a unit to GCS's total: the points GCS saved for it, or its price by GCS's rules."""
    saved = number(mapping(item.node, "calc"), "points") if item.container else None
    total = item.value if saved is None else saved
    out.total += total
    difference = total - item.value
    if difference:
        ctx.add_other("trait containers' saved points beyond their traits", difference)
        ctx.note(
            item.pointer,
            "approximated",
            f"GCS saved {total:g} points for '{display_name(item.node)}', but its traits add up to "
            f"{item.value:g} by GCS's rules: the difference ({difference:+g}) is in points.breakdown.other.",
        )


# ---------------------------------------------------------------- entries


def _place(ctx: Context, out: TraitSections, items: list[TraitItem], index: int, name: str) -> None:
    """One enabled trait as a language, cultural familiarity, tech-level points or a trait entry."""
    item = items[index]
    node, pointer, points = item.node, item.pointer, item.share
    above = ancestors(items, index)
    whole = _whole_points(ctx, points, pointer, name)
    short = name if len(name) <= _MAX_PATTERN_TEXT else ""  # patterns on huge text would be slow
    if _TL_TRAIT.match(short) and not is_container(node):
        out.tech_level_points += whole
        ctx.note(
            pointer, "approximated", f"'{name}' is counted as the tech level's points (techLevel.points)."
        )
        _record_share(out, item, above, name)
        return
    familiarity = _FAMILIARITY.match(short)
    if familiarity and not is_container(node):
        out.familiarities.append({"name": familiarity.group(1).strip() or name, "points": whole})
        _record_share(out, item, above, name)
        return
    language = _language(node, name)
    if language is not None:
        language["points"] = whole
        out.languages.append(language)
        _record_share(out, item, above, name)
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
    notes = trait_notes(item, above, _record_share(out, item, above, name), level)
    if notes:
        entry["notes"] = notes
    out.traits.append(entry)


def _record_share(out: TraitSections, item: TraitItem, above: list[TraitItem], name: str) -> str:
    """When GCS charges a trait less (or more) than its own cost, the reason, recorded for the
    extensions; "" otherwise."""
    if abs(item.share - item.value) < 1e-9:
        return ""
    alternatives = [a for a in above if text(a.node, "container_type") == ALTERNATIVE_ABILITIES]
    where = shown_name(alternatives[-1]) if alternatives else ""
    reason = (
        f"GCS charges {item.share:g} of its own {item.value:g} points: in the alternative abilities "
        f"'{where}' the dearest ability costs in full and each other a fifth of its cost, rounded up (B61)"
    )
    out.shares.append(
        {
            "name": name,
            "source": item.pointer,
            "ownPoints": plain(item.value),
            "points": plain(item.share),
            "reason": reason,
        }
    )
    return reason


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
        situation = filled_text(feature.data, "situation").strip()
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
