"""A weapon's damage for GCS: a damage notation as GCS's damage fields (``st``, ``base``,
``type``, ``armor_divisor``), with a fast path for the common forms (``sw+1 cut``, ``2d-1 pi+``),
and the resolved text GCS shows for them (``2d+1 cut``) with the wielder's thrust and swing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from ..._notation import HIT_TYPES, NotationError, parse_notation
from .sheet import dice_text, plain

__all__: list[str] = []


_Recipe = tuple[str | None, int, str]
"""How a mode's damage resolves, read when it was made (:func:`_common_damage`): ``thr`` or
``sw`` with its adds and the damage word, or None, 0 and the resolved text (fixed dice)."""


_COMMON_DAMAGE: Final = re.compile(r"(?:(thr|sw)|([0-9]{1,6})d)([+-][0-9]{1,6})? ([a-z]+|pi\+\+|pi\+|pi-)")
"""The damage most weapons have (``sw+1 cut``, ``thr imp``, ``2d-1 pi+``): ``thr``, ``sw`` or dice,
adds, one space and the damage word, read without :func:`parse_notation` (a sixth of its time)."""


def _common_heads() -> Mapping[str, tuple[str | None, int, str | None]]:
    """The usual first parts of a common damage (``thr``, ``sw-2``, ``2d+1``) as
    :func:`_matched_damage` reads them: ``thr`` or ``sw`` with its adds and their text (None for
    no adds), or None, 0 and the dice's text."""
    heads: dict[str, tuple[str | None, int, str | None]] = {}
    for strength in ("thr", "sw"):
        heads[strength] = (strength, 0, None)
        for adds in range(1, 21):
            heads[f"{strength}+{adds}"] = (strength, adds, str(adds))
            heads[f"{strength}-{adds}"] = (strength, -adds, str(-adds))
    for dice in range(1, 13):
        heads[f"{dice}d"] = (None, 0, dice_text(dice, 0))
        for adds in range(1, 7):
            heads[f"{dice}d+{adds}"] = (None, 0, dice_text(dice, adds))
            heads[f"{dice}d-{adds}"] = (None, 0, dice_text(dice, -adds))
    return MappingProxyType(heads)


_COMMON_HEADS: Final = _common_heads()
_HIT_TYPES: Final = frozenset(HIT_TYPES)


def _common_damage(notation: str) -> tuple[dict[str, Any], _Recipe] | None:
    """:func:`_damage_fields` of a notation of :data:`_COMMON_DAMAGE`'s form, with how they
    resolve (:func:`_resolved_damage`'s text of them, thrust and swing left to fill in); None for
    any other notation. The usual ones (:data:`_COMMON_HEADS` and a hit type) are looked up."""
    head, _, kind = notation.partition(" ")
    known = _COMMON_HEADS.get(head) if kind in _HIT_TYPES else None
    if known is None:
        return _matched_damage(notation)
    strength, amount, base = known
    if strength is None:
        return {"type": kind, "base": base}, (None, 0, f"{base} {kind}")
    if base is None:
        return {"type": kind, "st": strength}, (strength, 0, kind)
    return {"type": kind, "st": strength, "base": base}, (strength, amount, kind)


def _matched_damage(notation: str) -> tuple[dict[str, Any], _Recipe] | None:
    """:func:`_common_damage` by :data:`_COMMON_DAMAGE`."""
    match = _COMMON_DAMAGE.fullmatch(notation)
    if match is None:
        return None
    strength, dice, adds, kind = match.groups()
    amount = int(adds) if adds else 0
    if strength is None:
        base = dice_text(int(dice), amount)
        return {"type": kind, "base": base}, (None, 0, f"{base} {kind}")
    if strength == "thr":
        if amount:
            return {"type": kind, "st": "thr", "base": str(amount)}, ("thr", amount, kind)
        return {"type": kind, "st": "thr"}, ("thr", 0, kind)
    if amount:
        return {"type": kind, "st": "sw", "base": str(amount)}, ("sw", amount, kind)
    return {"type": kind, "st": "sw"}, ("sw", 0, kind)


def _recipe_text(recipe: _Recipe, thrust: tuple[int, int], swing: tuple[int, int]) -> str:
    """:func:`_resolved_damage`'s text of a common damage (:func:`_common_damage`'s recipe of it),
    with thrust and swing as dice and adds."""
    strength, adds, text = recipe
    if strength is None:
        return text
    count, more = thrust if strength == "thr" else swing
    more += adds
    if count > 0:  # dice_text's dice inline
        return f"{count}d{more:+d} {text}" if more else f"{count}d {text}"
    return f"{dice_text(count, more)} {text}"


def _damage_fields(notation: str) -> dict[str, Any] | None:
    """GCS's damage fields for a damage notation; None when GCS has none for it (a text that is
    no notation, an armor divisor of infinity, ``thr`` or ``sw`` multiplied)."""
    try:
        parsed = parse_notation(notation)
    except NotationError:
        return None
    if math.isinf(parsed.armor_divisor) or (parsed.base != "fixed" and parsed.multiplier != 1):
        return None
    out: dict[str, Any] = {"type": parsed.damage_type}
    if parsed.base == "fixed":
        out["base"] = dice_text(parsed.dice, parsed.adds, parsed.multiplier)
    else:
        out["st"] = "thr" if parsed.base == "thrust" else "sw"
        if parsed.adds:
            out["base"] = str(parsed.adds)
    if parsed.armor_divisor != 1:
        out["armor_divisor"] = plain(parsed.armor_divisor)
    return out


_DICE: Final = re.compile(r"(\d+)d([+-]\d+)?(?:x(\d+))?|([+-]?\d+)")


def _resolved_damage(damage: Mapping[str, Any], tables: Mapping[str, tuple[int, int]]) -> str:
    """GCS's resolved damage text for a weapon (``2d+1 cut``), with thrust and swing from
    ``tables`` (by ``thr`` and ``sw``)."""
    kind = damage.get("type")
    kind = kind.strip() if type(kind) is str or isinstance(kind, str) else ""
    base = damage.get("base")
    if type(base) is not str and not isinstance(base, str):
        base = ""
    strength = damage.get("st")
    table = tables.get(strength) if strength == "thr" or strength == "sw" else None
    if table is not None:
        count, adds = table
        if base:
            adds += int(base)
        # dice_text's dice inline (the rest through it)
        text = (f"{count}d{adds:+d}" if adds else f"{count}d") if count > 0 else dice_text(count, adds)
    elif base and (match := _DICE.fullmatch(base)) is not None:
        if match.group(4) is not None:  # a fixed amount, as GCS shows it (``2``)
            text = dice_text(0, int(match.group(4)))
        else:
            text = dice_text(int(match.group(1)), int(match.group(2) or 0), int(match.group(3) or 1))
    else:
        text = ""
    divisor = damage.get("armor_divisor")
    if divisor is not None:
        text += f"({plain(divisor)})"
    if not kind:
        return text
    return f"{text} {kind}" if text else kind
