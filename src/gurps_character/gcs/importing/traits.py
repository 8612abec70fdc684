"""Traits: GCS's trait tree (``traits``, ``advantages`` before version 4) to the format's
traits, languages, cultural familiarities, tech level and reaction modifiers."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..format.features import display_name, trait_level
from ..format.fields import (
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
    number_text,
    plain,
    text,
    walk_nodes,
)
from .context import Context
from .notes import shortened

__all__ = ["TraitSections", "modifier_cost", "trait_sections"]

_SELF_CONTROL = {
    1: 2.5,
    6: 2.0,
    7: 1.83,
    8: 1.67,
    9: 1.5,
    10: 1.33,
    11: 1.17,
    12: 1.0,
    13: 0.83,
    14: 0.67,
    15: 0.5,
}
"""Self-control roll → cost multiplier (B121, and GCS's in-between rolls; GCS's 1 is "never
resisted", 0 "none required")."""
_FREQUENCY = {6: 0.5, 9: 1.0, 12: 2.0, 15: 3.0, 18: 4.0}
"""Frequency-of-appearance roll → cost multiplier (B36; GCS's 18 is "constantly")."""
_MAX_PATTERN_TEXT = 300
"""Names longer than this are not matched against the patterns below (no real name is)."""
_COST_ADJ = re.compile(r"([x×])?\s*([+-]?[0-9]+(?:\.[0-9]+)?)(?:\s*/\s*([0-9]+(?:\.[0-9]+)?))?\s*(%)?")
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


_CONTAINER_LABELS = {
    "ancestry": "ancestry",
    "race": "ancestry",
    "meta_trait": "meta-trait",
    "alternative_abilities": "alternative abilities",
    "attributes": "attributes",
}
"""How an entry's notes name the kind of container it is part of (groups are named plainly)."""
_ALTERNATIVE = "alternative_abilities"


@dataclass(slots=True)
class _Item:
    """One node of the trait tree, with what GCS's pricing needs."""

    node: Node
    pointer: str
    parent: int
    """Index of the parent item, -1 at the top level."""
    chain: Chain
    """The enabled-or-not modifiers of the node and of every container above it (GCS's
    ``AllModifiers``)."""
    container: bool
    disabled: bool
    """Disabled here or above: GCS prices it at 0."""
    kids: list[int] = field(default_factory=list)
    value: float = 0
    """GCS's adjusted points of the node on its own (a container: of its children)."""
    share: float = 0
    """What the node costs inside the unit GCS prices (an alternative ability: a fifth)."""
    computed: bool = False
    """Its value comes from GCS's rules (the file saved none)."""
    first_leaf: int = -1
    """A container's first enabled trait (the entry that carries the container's notes)."""
    index: int = -1
    """Its place in the tree's list."""
    shown: str | None = None
    """A container's name as its traits' notes show it (shortened), once worked out."""
    path: str | None = None
    """A container's "Part of" path as its traits' notes show it, once worked out."""
    handed_down: list[str] | None = None
    """The texts of a container's enabled modifiers and those above it, once worked out."""


def trait_sections(ctx: Context) -> TraitSections:
    """Every enabled trait as its own entry, at any depth of groups, meta-traits, ancestries,
    alternative-abilities and attributes containers, priced as GCS prices it: a leaf with its
    own modifiers and those of every container above it; an alternative-abilities container
    charges its dearest child in full and each other at a fifth (rounded up). The entries' points
    add up to GCS's total, which counts each top-level unit (groups are transparent) at the
    points GCS saved for it."""
    out = TraitSections()
    multiplicative = boolean(mapping(ctx.data, "settings"), "use_multiplicative_modifiers")
    items = _tree(ctx)
    _price(items, multiplicative)
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
    _details_note(ctx, items)
    _reactions(ctx, out)
    return out


def _tree(ctx: Context) -> list[_Item]:
    """The trait tree in file order (a parent before its children), without recursion; a
    disabled node is noted once (its children are disabled with it)."""
    key = ctx.traits_key
    items: list[_Item] = []
    stack: list[tuple[list[Any], int, str, int, Chain, bool, int]] = [
        (node_list(ctx.data, key), 0, f"/{key}", -1, None, False, 0)
    ]
    while stack:
        nodes, index, base, parent, chain, off, depth = stack.pop()
        while index < len(nodes):
            node = nodes[index]
            pointer = f"{base}/{index}"
            index += 1
            if type(node) is not dict:
                continue
            disabled = off or boolean(node, "disabled")
            if disabled and not off:
                ctx.note(
                    pointer,
                    "notCarried",
                    f"The disabled trait '{display_name(node)}' costs nothing in GCS and is not among the "
                    "document's traits; it stays in the GCS data.",
                )
            container = is_container(node)
            kids = children(node) if container else []
            deep = depth + 1 >= MAX_DEPTH and any(type(c) is dict for c in kids)
            if deep and not disabled:
                ctx.note(
                    pointer,
                    "notCarried",
                    f"The traits inside '{display_name(node)}' are nested more than {MAX_DEPTH} levels deep: "
                    "it is one entry with the points GCS saved for it, and they stay in the GCS data.",
                )
            item = _Item(node, pointer, parent, _chain(chain, node), container and not deep, disabled)
            item.index = len(items)
            if parent >= 0:
                items[parent].kids.append(len(items))
            if not item.container and not disabled:
                above = parent
                while above >= 0 and items[above].first_leaf < 0:
                    items[above].first_leaf = len(items)
                    above = items[above].parent
            items.append(item)
            if item.container and kids:
                stack.append((nodes, index, base, parent, chain, off, depth))
                below = pointer + "/children"
                stack.append((kids, 0, below, len(items) - 1, item.chain, disabled, depth + 1))
                break
    return items


def _price(items: list[_Item], multiplicative: bool) -> None:
    """Each node's own GCS points, children first: a leaf's saved points (GCS's rules when it
    has none), a container's from its children."""
    sums = _ChainSums()
    for item in reversed(items):
        if item.disabled:
            item.value = 0
        elif item.container:
            values = [items[k].value for k in item.kids]
            if text(item.node, "container_type") == _ALTERNATIVE:
                value = sum(_alternative_shares(values))
            else:
                value = sum(values)
            item.value = max(-MAX_MAGNITUDE, min(MAX_MAGNITUDE, value))
        else:
            saved = number(mapping(item.node, "calc"), "points")
            if saved is None:
                item.value = _trait_cost(item.node, sums.of(item.chain), multiplicative)
                item.computed = True
            else:
                item.value = saved


def _alternative_shares(values: list[float]) -> list[float]:
    """GCS's prices of alternative abilities: the first of the dearest in full, every other at a
    fifth of its cost rounded up (toward +∞, as GCS rounds)."""
    if not values:
        return []
    dearest = max(values)
    found = False
    shares = []
    for value in values:
        if not found and value == dearest:
            found = True
            shares.append(value)
        else:
            shares.append(math.ceil(round(value / 5, 6)))
    return shares


def _share(ctx: Context, out: TraitSections, items: list[_Item]) -> None:
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
            _share_children(items, item)


def _is_group(item: _Item) -> bool:
    return item.container and (text(item.node, "container_type") or "group") == "group"


def _count_unit(ctx: Context, out: TraitSections, item: _Item) -> None:
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


def _share_children(items: list[_Item], item: _Item) -> None:
    """Splits a container's share among its enabled children: each child's own price (an
    alternative ability: GCS's fifth), scaled when the container itself is charged less than its
    children cost (an alternative ability that is a container)."""
    kids = [items[k] for k in item.kids]
    values = [kid.value for kid in kids]
    natural = _alternative_shares(values) if text(item.node, "container_type") == _ALTERNATIVE else values
    fits = abs(sum(natural) - item.share) < 1e-9
    first = next((i for i, kid in enumerate(kids) if not kid.disabled), 0)
    shares = natural if fits else _apportion(item.share, natural, first)
    for kid, share in zip(kids, shares, strict=True):
        kid.share = 0 if kid.disabled else share


def _apportion(total: float, weights: list[float], first: int = 0) -> list[float]:
    """``total`` split in proportion to ``weights`` into whole numbers that add up to it (the
    largest remainders get the units left; a weight of 0 gets nothing); all of it at ``first``
    when the weights add up to nothing or the total is not whole."""
    if not weights:
        return []
    whole = integer(total)
    weight_sum = sum(weights)
    if whole is None or not weight_sum:
        return [total if i == first else 0 for i in range(len(weights))]
    exact = [Fraction(whole) * Fraction(w) / Fraction(weight_sum) for w in weights]
    floors = [math.floor(part) for part in exact]
    left = whole - sum(floors)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[:left]:
        floors[i] += 1
    return list(floors)


Chain = tuple[list[Node], "Chain"] | None
"""Modifiers handed down by containers: (a container's modifiers, its parent's chain). A chain,
not a concatenated list, so that deep nesting costs one link per level."""


def _chain(parent: Chain, node: Node) -> Chain:
    own = [m for m in node_list(node, "modifiers") if type(m) is dict]
    return (own, parent) if own else parent


@dataclass(slots=True)
class _Sums:
    """Trait modifiers added up as GCS applies them: percentages (enhancements and limitations,
    on the base and on the levels), points (on the base and per level) and the product of the
    multipliers (``factors`` of them)."""

    base_enh: float = 0
    base_lim: float = 0
    level_enh: float = 0
    level_lim: float = 0
    base_points: float = 0
    level_points: float = 0
    product: float = 1
    factors: int = 0

    def add(self, kind: str, value: float, affects: str) -> None:
        if kind == "percentage":
            if affects in ("total", "base_only"):
                if value > 0:
                    self.base_enh += value
                else:
                    self.base_lim += value
            if affects in ("total", "levels_only"):
                if value > 0:
                    self.level_enh += value
                else:
                    self.level_lim += value
        elif kind == "points":
            if affects != "levels_only":
                self.base_points += value
            else:
                self.level_points += value
        else:
            self.product *= value if kind == "multiplier" else value / 100
            self.factors += 1

    def plus(self, other: _Sums) -> _Sums:
        return _Sums(
            self.base_enh + other.base_enh,
            self.base_lim + other.base_lim,
            self.level_enh + other.level_enh,
            self.level_lim + other.level_lim,
            self.base_points + other.base_points,
            self.level_points + other.level_points,
            self.product * other.product,
            self.factors + other.factors,
        )


_NONE = (_Sums(), _Sums())


class _ChainSums:
    """The enabled modifiers of each chain (a trait's and its containers'), added up once per
    chain: those whose count is their own, and those counted per level of the trait they price
    (``use_level_from_trait``), apart. A container's modifiers are read once however many traits
    it holds."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[_Sums, _Sums]] = {}
        self._chains: list[Chain] = []  # keeps every chain summed alive, so its id stays its own

    def of(self, chain: Chain) -> tuple[_Sums, _Sums]:
        links: list[tuple[list[Node], Chain]] = []
        current = chain
        while current is not None and id(current) not in self._known:
            links.append(current)
            current = current[1]
        found = self._known[id(current)] if current is not None else _NONE
        for link in reversed(links):
            own = _link_sums(link[0])
            found = (own[0].plus(found[0]), own[1].plus(found[1]))
            self._known[id(link)] = found
            self._chains.append(link)
        return found


def _link_sums(modifiers: list[Node]) -> tuple[_Sums, _Sums]:
    own, per_level = _Sums(), _Sums()
    for modifier in walk_nodes(modifiers, skip_disabled=True):
        if kind_of(modifier).endswith("_container"):
            continue
        kind, value = modifier_cost(modifier)
        affects = text(modifier, "affects") or "total"
        if boolean(modifier, "use_level_from_trait") and not boolean(modifier, "cost_ignores_level"):
            per_level.add(kind, value, affects)
        else:
            own.add(kind, value * _modifier_levels(modifier, 0, False), affects)
    return own, per_level


def modifier_cost(modifier: Node) -> tuple[str, float]:
    """A trait modifier's cost as (kind, value): kind ``percentage``, ``points``, ``multiplier``
    or ``percent_multiplier``; read from ``cost_adj`` (2026 files) or ``cost`` + ``cost_type``."""
    adj = text(modifier, "cost_adj").strip()
    if adj:
        match = _COST_ADJ.fullmatch(adj)
        amount = number_text(match.group(2)) if match else None
        divisor = number_text(match.group(3)) if match and match.group(3) else 1
        if match is None or amount is None or not divisor:  # not a cost, or beyond ±10^9: none
            return "points", 0
        value = amount / divisor
        if match.group(1):
            return ("percent_multiplier", value) if match.group(4) else ("multiplier", value)
        return ("percentage", value) if match.group(4) else ("points", value)
    value = number(modifier, "cost") or 0
    kind = text(modifier, "cost_type") or "percentage"
    return (kind if kind in ("percentage", "points", "multiplier") else "percentage"), value


def _modifier_levels(modifier: Node, trait_levels: float, leveled: bool) -> float:
    """How many times a modifier's cost counts (GCS): the trait's levels for a "use the trait's
    level" modifier of a leveled trait, else its own levels; at least 1; once when its cost
    ignores levels."""
    if boolean(modifier, "cost_ignores_level"):
        return 1
    if boolean(modifier, "use_level_from_trait"):
        count = trait_levels if leveled else 0
    else:
        count = number_or_text(modifier, "levels") or 0
    return count if count > 0 else 1


def _trait_cost(node: Node, modifiers: tuple[_Sums, _Sums], multiplicative: bool) -> float:
    """GCS's adjusted points of one trait (``AdjustedPoints``) from its and its containers'
    modifiers, added up: base and leveled points, point additions, enhancements and limitations
    (net limitation at most −80 %), multipliers, the self-control and frequency multipliers;
    rounded up (down with ``round_down``). A modifier counted per level of the trait counts its
    levels (once when it has none)."""
    levels = max(number_or_text(node, "levels") or 0, 0)
    base = number(node, "base_points") or 0
    per_level = number(node, "points_per_level") or 0
    leveled = boolean(node, "can_level") or bool(levels) or bool(per_level)
    if not leveled:
        levels = per_level = 0
    multiplier = _SELF_CONTROL.get(integer(number(node, "cr")) or 0, 1.0)
    multiplier *= _FREQUENCY.get(integer(number(node, "frequency")) or 0, 1.0)
    own, by_level = modifiers
    times = levels if leveled and levels > 0 else 1  # a per-level modifier's count
    base_enh = own.base_enh + by_level.base_enh * times
    base_lim = own.base_lim + by_level.base_lim * times
    level_enh = own.level_enh + by_level.level_enh * times
    level_lim = own.level_lim + by_level.level_lim * times
    base += own.base_points + by_level.base_points * times
    if leveled:
        per_level += own.level_points + by_level.level_points * times
    multiplier *= own.product * by_level.product * _power(times, by_level.factors)
    leveled_points = per_level * levels
    if multiplicative:
        base = base * (1 + base_enh / 100) * max(1 + base_lim / 100, 0.2)
        leveled_points = leveled_points * (1 + level_enh / 100) * max(1 + level_lim / 100, 0.2)
    else:
        base = base * (1 + max(base_enh + base_lim, -80) / 100)
        leveled_points = leveled_points * (1 + max(level_enh + level_lim, -80) / 100)
    total = (base + leveled_points) * multiplier
    total = max(-MAX_MAGNITUDE, min(MAX_MAGNITUDE, round(total, 4)))
    return math.floor(total) if boolean(node, "round_down") else math.ceil(total)


def _power(base: float, exponent: int) -> float:
    """``base ** exponent`` without an overflow error (infinity beyond doubles)."""
    try:
        return float(base) ** exponent
    except OverflowError:
        return math.inf


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


def _place(ctx: Context, out: TraitSections, items: list[_Item], index: int, name: str) -> None:
    """One enabled trait as a language, cultural familiarity, tech-level points or a trait entry."""
    item = items[index]
    node, pointer, points = item.node, item.pointer, item.share
    above = _ancestors(items, index)
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
    notes = _notes(item, above, _record_share(out, item, above, name), level)
    if notes:
        entry["notes"] = notes
    out.traits.append(entry)


def _ancestors(items: list[_Item], index: int) -> list[_Item]:
    """The containers above an item, outermost first."""
    found: list[_Item] = []
    parent = items[index].parent
    if parent < 0:
        return found
    while parent >= 0:
        found.append(items[parent])
        parent = items[parent].parent
    found.reverse()
    return found


def _record_share(out: TraitSections, item: _Item, above: list[_Item], name: str) -> str:
    """When GCS charges a trait less (or more) than its own cost, the reason, recorded for the
    extensions; "" otherwise."""
    if abs(item.share - item.value) < 1e-9:
        return ""
    alternatives = [a for a in above if text(a.node, "container_type") == _ALTERNATIVE]
    where = _shown(alternatives[-1]) if alternatives else ""
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


_MAX_SHOWN_NAME = 100
"""Characters of a container's name in its traits' notes (each trait repeats it)."""
_MAX_PATH = 300
"""Characters of a trait's "Part of" path; a longer one keeps the outermost and innermost."""
_MAX_HANDED_DOWN = 300
"""Characters of the modifiers a trait's notes list from its containers (each trait repeats them)."""


def _shown(container: _Item) -> str:
    if container.shown is None:
        container.shown = shortened(display_name(container.node) or "(unnamed)", _MAX_SHOWN_NAME)
    return container.shown


def _path(above: list[_Item]) -> str:
    """``Ogre (ancestry) > Advantages``: the containers an entry is part of (each container's
    worked out once; a path too long to repeat in every trait keeps its two ends)."""
    if not above:
        return ""
    inner = above[-1]
    if inner.path is None:
        label = _CONTAINER_LABELS.get(text(inner.node, "container_type"), "")
        part = f"{_shown(inner)} ({label})" if label else _shown(inner)
        outer = _path(above[:-1]) if len(above) > 1 else ""
        joined = f"{outer} > {part}" if outer else part
        if len(joined) > _MAX_PATH:
            joined = f"{shortened(outer.split(' > ')[0], _MAX_PATH // 3)} > … > {part}"
        inner.path = joined
    return inner.path


def _container_texts(above: list[_Item], index: int) -> list[str]:
    """The notes and references of the containers above a trait, given with the first trait of
    each container (so that they are on the sheet once)."""
    found = []
    for container in above:
        if container.first_leaf != index:
            continue
        body = " ".join(
            part
            for part in (
                fill_placeholders(text(container.node, key), container.node).strip()
                for key in ("local_notes", "notes", "userdesc")
            )
            if part
        )
        name = _shown(container)
        reference = text(container.node, "reference").strip()
        cited = f" (Ref: {reference})" if reference else ""
        if body:
            found.append(f"{name}: {body}{cited}")
        elif cited:
            found.append(f"{name}{cited}")
    return found


def _notes(item: _Item, above: list[_Item], share_reason: str, level: float = 0) -> str:
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
        extra = fill_placeholders(text(node, key), node).strip()
        if extra:
            parts.append(extra)
    reference = text(node, "reference").strip()
    if reference:
        parts.append(f"Ref: {reference}")
    return "\n".join(parts)


def _handed_down(above: list[_Item]) -> list[str]:
    """The texts of the enabled modifiers of the containers above a trait, the nearest first,
    worked out once per container and at most :data:`_MAX_HANDED_DOWN` characters (the rest
    counted)."""
    if not above:
        return []
    inner = above[-1]
    if inner.handed_down is None:
        found = _modifier_texts(node_list(inner.node, "modifiers"), _shown(inner))
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
        cost = {
            "percentage": f"{value:+g}%",
            "points": f"{value:+g}",
            "multiplier": f"x{value:g}",
            "percent_multiplier": f"x{value:g}%",
        }[kind]
        found.append(f"{label} ({cost}, from {owner})" if owner else f"{label} ({cost})")
    return found


def _details_note(ctx: Context, items: list[_Item]) -> None:
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
