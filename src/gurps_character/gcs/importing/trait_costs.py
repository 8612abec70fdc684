"""GCS's price of one trait (its ``AdjustedPoints``): base and leveled points with the enabled
modifiers of the trait and of every container above it (read as chains, summed once per chain),
the self-control and frequency multipliers, and each modifier's cost as GCS reads it."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..format.fields import (
    MAX_MAGNITUDE,
    Node,
    boolean,
    integer,
    kind_of,
    node_list,
    number,
    number_or_text,
    number_text,
    text,
    walk_nodes,
)

__all__ = ["Chain", "ChainSums", "chain_of", "modifier_cost", "trait_cost"]

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
_COST_ADJ = re.compile(r"([x×])?\s*([+-]?[0-9]+(?:\.[0-9]+)?)(?:\s*/\s*([0-9]+(?:\.[0-9]+)?))?\s*(%)?")


Chain = tuple[list[Node], "Chain"] | None
"""Modifiers handed down by containers: (a container's modifiers, its parent's chain). A chain,
not a concatenated list, so that deep nesting costs one link per level."""


def chain_of(parent: Chain, node: Node) -> Chain:
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


class ChainSums:
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


def trait_cost(node: Node, modifiers: tuple[_Sums, _Sums], multiplicative: bool) -> float:
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
