"""The states of HP and FP as GCS's standard sheet defines them (Reeling, Tired and worse) and
what GCS halves in each: Move, Dodge, ST for Basic Lift.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from ...format.standard_sheet import ATTRIBUTE_NAMES, POOL_THRESHOLDS
from ..sheet import Derived

__all__: list[str] = []  # its rules serve the stats package's parts only (see .derived)


def _halving_causes(derived: Derived, op: str) -> str:
    found = [f"{pool} is '{state}'" for pool, state, ops in derived.halving if op in ops]
    return " and ".join(found) or "a pool is low"


def _threshold(script: str) -> Callable[[float], float]:
    """One of :data:`POOL_THRESHOLDS`' scripts as a function of the pool's maximum."""
    if script == "0":
        return lambda maximum: 0
    if script.startswith("Math.round(-$"):
        factor = int(script.rsplit("*", 1)[1].rstrip(")").strip())
        return lambda maximum: math.floor(-maximum * factor + 0.5)
    if script.startswith("-$"):
        return lambda maximum: -maximum
    if script.startswith("Math.ceil"):
        return lambda maximum: math.ceil(maximum / 3) - 1
    if script.endswith("- 1"):
        return lambda maximum: maximum - 1
    return lambda maximum: maximum


def _halving(
    thresholds: tuple[tuple[str, Callable[[float], float], tuple[str, ...]], ...],
    maximum: float,
    current: float,
) -> tuple[str, tuple[str, ...]] | None:
    """The state a pool is in and what GCS halves in it, when it halves anything (``thresholds``
    from :data:`_POOL_RULES`)."""
    if maximum >= 0 and current > 0 and current > math.ceil(maximum / 3) - 1:
        # The states that halve come first, and with a maximum not below 0 none reaches above 0 but
        # Reeling's or Tired's, a third of it less 1: a pool above both is in none of them.
        return None
    for state, limit, ops in thresholds:
        if current <= limit(maximum):
            return (state, ops) if ops else None
    return None


_POOL_RULES: Final = tuple(
    (
        ident,
        ATTRIBUTE_NAMES[ident],
        tuple((state, _threshold(script), ops) for state, script, _, ops in POOL_THRESHOLDS[ident]),
    )
    for ident in ("hp", "fp")
)
"""Each pool's id, label and states (worst first): the name, the highest current value still in
it as a function of the maximum, and what GCS halves meanwhile."""
_POOLS_READ: Final = tuple(
    (ident, f"{ident}_current", label, thresholds) for ident, label, thresholds in _POOL_RULES
)
""":data:`_POOL_RULES` with the keys of the pools' current values in ``values``."""
