"""GCS's trait tree as a flat list (a parent before its children, read without recursion), each
node's own points (saved, else by GCS's rules, children first) and how a container's price is
shared among its children (alternative abilities: the dearest in full, each other a fifth)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..format.features import display_name
from ..format.fields import (
    MAX_DEPTH,
    MAX_MAGNITUDE,
    Node,
    boolean,
    children,
    integer,
    is_container,
    mapping,
    node_list,
    number,
    text,
)
from .context import Context
from .trait_costs import Chain, ChainSums, chain_of, trait_cost

__all__ = ["ALTERNATIVE_ABILITIES", "TraitItem", "ancestors", "price_tree", "share_children", "trait_tree"]

ALTERNATIVE_ABILITIES = "alternative_abilities"


@dataclass(slots=True)
class TraitItem:
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


def trait_tree(ctx: Context) -> list[TraitItem]:
    """The trait tree in file order (a parent before its children), without recursion; a
    disabled node is noted once (its children are disabled with it)."""
    key = ctx.traits_key
    items: list[TraitItem] = []
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
            item = TraitItem(node, pointer, parent, chain_of(chain, node), container and not deep, disabled)
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


def ancestors(items: list[TraitItem], index: int) -> list[TraitItem]:
    """The containers above an item, outermost first."""
    found: list[TraitItem] = []
    parent = items[index].parent
    if parent < 0:
        return found
    while parent >= 0:
        found.append(items[parent])
        parent = items[parent].parent
    found.reverse()
    return found


def price_tree(items: list[TraitItem], multiplicative: bool) -> None:
    """Each node's own GCS points, children first: a leaf's saved points (GCS's rules when it
    has none), a container's from its children."""
    sums = ChainSums()
    for item in reversed(items):
        if item.disabled:
            item.value = 0
        elif item.container:
            values = [items[k].value for k in item.kids]
            if text(item.node, "container_type") == ALTERNATIVE_ABILITIES:
                value = sum(_alternative_shares(values))
            else:
                value = sum(values)
            item.value = max(-MAX_MAGNITUDE, min(MAX_MAGNITUDE, value))
        else:
            saved = number(mapping(item.node, "calc"), "points")
            if saved is None:
                item.value = trait_cost(item.node, sums.of(item.chain), multiplicative)
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


def share_children(items: list[TraitItem], item: TraitItem) -> None:
    """Splits a container's share among its enabled children: each child's own price (an
    alternative ability: GCS's fifth), scaled when the container itself is charged less than its
    children cost (an alternative ability that is a container)."""
    kids = [items[k] for k in item.kids]
    values = [kid.value for kid in kids]
    natural = (
        _alternative_shares(values) if text(item.node, "container_type") == ALTERNATIVE_ABILITIES else values
    )
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
