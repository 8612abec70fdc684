"""What a trait entry's notes say: the containers it is part of, the modifiers it has and those
its containers hand down, self-control and frequency, the containers' own notes (with their
first trait), and the one note for what no trait entry can hold."""

from __future__ import annotations

from typing import Any

from ..format.features import display_name
from ..format.fields import (
    filled_text,
    integer,
    kind_of,
    mapping,
    node_list,
    number,
    text,
    walk_nodes,
)
from .context import Context
from .notes import shortened
from .trait_costs import modifier_cost
from .trait_tree import TraitItem

__all__ = ["details_note", "shown_name", "trait_notes"]

_CONTAINER_LABELS = {
    "ancestry": "ancestry",
    "race": "ancestry",
    "meta_trait": "meta-trait",
    "alternative_abilities": "alternative abilities",
    "attributes": "attributes",
}
"""How an entry's notes name the kind of container it is part of (groups are named plainly)."""
_MAX_SHOWN_NAME = 100
"""Characters of a container's name in its traits' notes (each trait repeats it)."""
_MAX_PATH = 300
"""Characters of a trait's "Part of" path; a longer one keeps the outermost and innermost."""
_MAX_HANDED_DOWN = 300
"""Characters of the modifiers a trait's notes list from its containers (each trait repeats them)."""


def shown_name(container: TraitItem) -> str:
    if container.shown is None:
        container.shown = shortened(display_name(container.node) or "(unnamed)", _MAX_SHOWN_NAME)
    return container.shown


def _path(above: list[TraitItem]) -> str:
    """``Ogre (ancestry) > Advantages``: the containers an entry is part of (each container's
    worked out once; a path too long to repeat in every trait keeps its two ends)."""
    if not above:
        return ""
    inner = above[-1]
    if inner.path is None:
        label = _CONTAINER_LABELS.get(text(inner.node, "container_type"), "")
        part = f"{shown_name(inner)} ({label})" if label else shown_name(inner)
        outer = _path(above[:-1]) if len(above) > 1 else ""
        joined = f"{outer} > {part}" if outer else part
        if len(joined) > _MAX_PATH:
            joined = f"{shortened(outer.split(' > ')[0], _MAX_PATH // 3)} > … > {part}"
        inner.path = joined
    return inner.path


def _container_texts(above: list[TraitItem], index: int) -> list[str]:
    """The notes and references of the containers above a trait, given with the first trait of
    each container (so that they are on the sheet once)."""
    found = []
    for container in above:
        if container.first_leaf != index:
            continue
        body = " ".join(
            part
            for part in (
                filled_text(container.node, key).strip() for key in ("local_notes", "notes", "userdesc")
            )
            if part
        )
        name = shown_name(container)
        reference = text(container.node, "reference").strip()
        cited = f" (Ref: {reference})" if reference else ""
        if body:
            found.append(f"{name}: {body}{cited}")
        elif cited:
            found.append(f"{name}{cited}")
    return found


def trait_notes(item: TraitItem, above: list[TraitItem], share_reason: str, level: float = 0) -> str:
    node = item.node
    parts = []
    path = _path(above)
    if path:
        parts.append(f"Part of: {path}")
    if share_reason:
        parts.append(share_reason[0].upper() + share_reason[1:] + ".")
    if level and integer(level) is None:
        parts.append(f"Level {level:g}")
    roll = integer(number(node, "cr"))
    if roll:
        parts.append("Self-control roll: never resisted" if roll == 1 else f"Self-control roll {roll}")
    frequency = integer(number(node, "frequency"))
    if frequency:
        parts.append("Frequency: constantly" if frequency == 18 else f"Frequency of appearance {frequency}")
    mods = _modifier_texts(node_list(node, "modifiers"), "") + _handed_down(above)
    if mods:
        parts.append("Modifiers: " + "; ".join(mods))
    parts.extend(_container_texts(above, item.index))
    for key in ("local_notes", "notes", "userdesc"):
        extra = filled_text(node, key).strip()
        if extra:
            parts.append(extra)
    reference = text(node, "reference").strip()
    if reference:
        parts.append(f"Ref: {reference}")
    return "\n".join(parts)


def _handed_down(above: list[TraitItem]) -> list[str]:
    """The texts of the enabled modifiers of the containers above a trait, the nearest first,
    worked out once per container and at most :data:`_MAX_HANDED_DOWN` characters (the rest
    counted)."""
    if not above:
        return []
    inner = above[-1]
    if inner.handed_down is None:
        found = _modifier_texts(node_list(inner.node, "modifiers"), shown_name(inner))
        found += _handed_down(above[:-1]) if len(above) > 1 else []
        kept: list[str] = []
        used = 0
        for part in found:
            if used + len(part) > _MAX_HANDED_DOWN:
                left = len(found) - len(kept)
                kept.append(f"… ({left} more from the containers)")
                break
            kept.append(part)
            used += len(part) + 2
        inner.handed_down = kept
    return inner.handed_down


_COST_FORMATS = {
    "percentage": "{:+g}%",
    "points": "{:+g}",
    "multiplier": "x{:g}",
    "percent_multiplier": "x{:g}%",
}
"""A modifier's cost as its notes show it, by the kind of cost (only the one needed is written)."""


def _modifier_texts(modifiers: list[Any], owner: str) -> list[str]:
    """``Name (+50%)`` for each enabled modifier (unselected library options are left out), with
    the container it comes from."""
    found = []
    for modifier in walk_nodes(modifiers, skip_disabled=True) if modifiers else ():
        if kind_of(modifier).endswith("_container"):
            continue
        label = display_name(modifier)
        if not label:
            continue
        kind, value = modifier_cost(modifier)
        cost = _COST_FORMATS[kind].format(value)
        found.append(f"{label} ({cost}, from {owner})" if owner else f"{label} ({cost})")
    return found


def details_note(ctx: Context, items: list[TraitItem]) -> None:
    """One note for what no trait entry can hold: modifiers as data, features, prerequisites."""
    held = {"modifiers": 0, "features": 0, "prerequisites": 0}
    for item in items:
        if item.disabled:
            continue
        modifiers = node_list(item.node, "modifiers")
        if modifiers and any(
            not kind_of(m).endswith("_container") for m in walk_nodes(modifiers, skip_disabled=True)
        ):
            held["modifiers"] += 1
        if any(type(f) is dict for f in node_list(item.node, "features")):
            held["features"] += 1
        if node_list(mapping(item.node, "prereqs"), "prereqs"):
            held["prerequisites"] += 1
    if not any(held.values()):
        return
    what = ", ".join(f"{count} with {kind}" for kind, count in held.items() if count)
    ctx.note(
        f"/{ctx.traits_key}",
        "movedToExtensions",
        f"Traits keep GCS's points and list their enabled modifiers in their notes; the modifiers as data, "
        f"the features (whose effects are in the attributes, skills, DR and reactions) and the prerequisites "
        f"of the traits ({what}) are kept in the GCS data.",
    )
