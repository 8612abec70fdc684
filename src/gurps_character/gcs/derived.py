"""Basic Lift, encumbrance levels, thrust and swing, and Dodge: GCS's computed values (its
``calc`` block), or GCS's rules applied by the importer when the file has none."""

from __future__ import annotations

import math
from typing import Any

from ..constants import SCHEMA
from ._context import Context
from ._fields import Node, integer, mapping, node_list, number, text
from .units import dice, dice_entry, js_round, kilograms

__all__ = ["damage_section", "dodge_value", "encumbrance_section"]

_LEVEL_IDS = ("none", "light", "medium", "heavy", "extraHeavy")
_LOAD = (1, 2, 3, 6, 10)


def _calc(ctx: Context) -> Node:
    return mapping(ctx.data, "calc")


def _per_level(ctx: Context, key: str) -> list[int] | None:
    values = node_list(_calc(ctx), key)
    whole = [integer(v) if type(v) in (int, float) and not isinstance(v, bool) else None for v in values]
    if len(whole) != 5 or any(v is None for v in whole):
        return None
    return [v for v in whole if v is not None]


def basic_lift_formula(st: int) -> float:
    """The format's Basic Lift in kg for ST (ST²/10, rounded; to 0.1 under 10 kg)."""
    raw = st * st / 10
    return js_round(raw) if raw >= 10 else js_round(raw, 1)


def encumbrance_section(
    ctx: Context, st: int, basic_move: int, basic_speed: float, dodge: int
) -> dict[str, Any]:
    """Basic Lift (the format's formula unless GCS's differs by more than rounding) and the
    five levels with GCS's Move and Dodge."""
    lift = basic_lift_formula(st)
    gcs_lift = kilograms(_calc(ctx).get("basic_lift"), "lb")
    if gcs_lift is not None and abs(2 * lift - 2 * gcs_lift) > 1:
        lift = js_round(gcs_lift, 2)
        _explain_lift(ctx)
    moves = _per_level(ctx, "move") or _moves(basic_move)
    dodges = _per_level(ctx, "dodge") or [max(dodge - level, 1) for level in range(5)]
    if _per_level(ctx, "move") is None:
        ctx.note(
            "/calc/move",
            "approximated",
            "GCS saved no Move per encumbrance level: computed with GCS's rules.",
        )
    levels = []
    for level in range(5):
        levels.append(
            {
                "level": level,
                "id": _LEVEL_IDS[level],
                "maxLoad": js_round(lift * _LOAD[level], 1),
                "move": moves[level],
                "dodge": dodges[level],
            }
        )
        ctx.cause(f"/encumbrance/levels/{level}/move", _move_cause(ctx, basic_move, moves[level], level))
        ctx.cause(f"/encumbrance/levels/{level}/dodge", _dodge_cause(ctx))
    return {"basicLift": _plain(lift), "levels": levels}


def _plain(value: float) -> float | int:
    whole = integer(value)
    return whole if whole is not None else value


def _moves(basic_move: int) -> list[int]:
    """GCS's Move per level: Basic Move × 1, .8, .6, .4, .2 rounded down, at least 1."""
    found = []
    for level in range(5):
        move = math.floor(basic_move * (10 - 2 * level) / 10)
        found.append(max(move, 1) if basic_move > 0 else move)
    return found


def _halving(ctx: Context, op: str) -> str:
    """The pool thresholds with an op (``halve_move``...) that GCS's numbers show are active."""
    names = []
    for definition in node_list(mapping(ctx.data, "settings"), "attributes"):
        if type(definition) is not dict:
            continue
        for threshold in node_list(definition, "thresholds"):
            if type(threshold) is dict and op in node_list(threshold, "ops"):
                names.append(
                    f"{text(definition, 'name') or text(definition, 'id')} '{text(threshold, 'state')}'"
                )
    return ", ".join(names[:6])


def _move_cause(ctx: Context, basic_move: int, move: int, level: int) -> str:
    expected = math.floor(basic_move * (10 - 2 * level) / 10)
    if basic_move > 0 and expected < 1 <= move:
        return "GCS keeps Move at least 1 at every encumbrance level while Basic Move is above 0"
    if move < expected:
        halving = _halving(ctx, "halve_move")
        return (
            "GCS halves Move while a pool threshold that halves it is active"
            + (f" ({halving})" if halving else "")
            + ", as GCS computed and saved it"
        )
    return "GCS computed this Move (a 'move' attribute or Move bonuses in the file)"


def _dodge_cause(ctx: Context) -> str:
    parts = []
    bonus = ctx.features.attribute_bonuses("dodge")
    if bonus:
        who = ", ".join(sorted({f"'{f.owner}'" for f in bonus}))
        parts.append(f"GCS adds Dodge bonuses from {who}")
    halving = _halving(ctx, "halve_dodge")
    if halving:
        parts.append(f"GCS halves Dodge while a pool threshold that halves it is active ({halving})")
    parts.append("GCS keeps Dodge at least 1")
    return "; ".join(parts)


def _explain_lift(ctx: Context) -> None:
    parts = []
    lifting = number(_calc(ctx), "lifting_st_bonus")
    if lifting:
        parts.append(f"GCS adds Lifting ST {lifting:+g}")
    halving = _halving(ctx, "halve_st")
    if halving:
        parts.append(f"GCS halves ST for lifting while a pool threshold is active ({halving})")
    parts.append(f"GCS's Basic Lift is {text(_calc(ctx), 'basic_lift') or 'its own'}, in kg at 1 kg = 2 lb")
    ctx.cause("/encumbrance/basicLift", "; ".join(parts))


def dodge_value(ctx: Context, basic_speed: float) -> int:
    """GCS's unencumbered Dodge, or Basic Speed + 3 + Dodge bonuses when GCS saved none."""
    dodges = _per_level(ctx, "dodge")
    if dodges is not None:
        return dodges[0]
    return max(math.floor(basic_speed + 3 + ctx.features.attribute_bonus("dodge")), 1)


def damage_section(ctx: Context, st: int) -> dict[str, Any]:
    """Thrust and swing as GCS computed them (its damage progression, Striking ST), or the
    Basic Set table at ST plus Striking ST bonuses when GCS saved none."""
    striking = number(_calc(ctx), "striking_st_bonus")
    if striking is None:
        striking = ctx.features.attribute_bonus("st", "striking_only")
    out: dict[str, Any] = {}
    for key in ("thrust", "swing"):
        parsed = dice(text(_calc(ctx), key))
        if parsed is None:
            if text(_calc(ctx), key):
                ctx.note(
                    f"/calc/{key}",
                    "approximated",
                    f"GCS's {key} '{text(_calc(ctx), key)[:40]}' is not six-sided dice: "
                    "the Basic Set table is used.",
                )
            parsed = _table(key, math.floor(st + striking))
        out[key] = dice_entry(*parsed)
    causes = []
    if striking:
        causes.append(f"GCS adds Striking ST {striking:+g}")
    progression = text(mapping(ctx.data, "settings"), "damage_progression")
    if progression and progression != "basic_set":
        causes.append(f"the file uses GCS's damage progression '{progression}'")
    if st > 40:
        causes.append("GCS interpolates the damage table between its rows above ST 40")
    causes.append("GCS computed this damage")
    for key in ("thrust", "swing"):
        ctx.cause(f"/damage/{key}", "; ".join(causes))
    return out


def _table(key: str, st: int) -> tuple[int, int]:
    """The schema's thrust or swing table (step lookup, extrapolated above its last row)."""
    table = SCHEMA["x-gurps-tables"][key]
    entries = table["entries"]
    notation = entries[0][1]
    for threshold, value in entries:
        if st >= threshold:
            notation = value
    last = entries[-1][0]
    extra = 0
    extrapolate = table.get("extrapolate")
    if extrapolate and st > last:
        extra = (st - extrapolate["from"]) // extrapolate["every"] * extrapolate["add"]
    parsed = dice(notation) or (1, 0)
    return parsed[0] + extra, parsed[1]
