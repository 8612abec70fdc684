"""Basic Lift, encumbrance levels, thrust and swing, and Dodge: GCS's computed values (its
``calc`` block), or GCS's rules applied by the importer when the file has none."""

from __future__ import annotations

import math
from typing import Any

from ...constants import SCHEMA
from ..format.fields import Node, integer, mapping, node_list, number, text
from ..format.progression import (
    COMPUTED_PROGRESSIONS,
    basic_lift_pounds,
    progression_of,
    swing,
    thrust,
)
from ..format.units import dice, dice_entry, kilograms
from .context import Context

__all__ = ["damage_section", "dodge_cause", "dodge_value", "encumbrance_section"]

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


def _kilograms(pounds: float) -> float | int:
    """Pounds as kg at GCS's 1 kg = 2 lb, without float noise (GCS keeps 4 decimals)."""
    return _plain(round(pounds / 2, 6))


def encumbrance_section(
    ctx: Context, st: int, basic_move: int, basic_speed: float, dodge: int
) -> dict[str, Any]:
    """Basic Lift and the five load limits exactly as GCS has them (its pounds at 1 kg = 2 lb:
    29 lb is 14.5 kg where the format's formula rounds to 14), with GCS's Move and Dodge per
    level."""
    pounds = _basic_lift(ctx, st)
    lift = _kilograms(pounds)
    _explain_lift(ctx, st, pounds)
    moves = _saved_or_rules(ctx, "move", _moves(ctx, basic_move))
    dodges = _saved_or_rules(ctx, "dodge", _dodges(ctx, basic_speed))
    # GCS's numbers are halved while a pool is low; the condition halves from what it sees now,
    # so the values before any halving are kept beside them (conditions.unhalved_levels). They
    # are kept for every import, hurt or not: they never depend on the pools.
    ctx.unhalved_encumbrance = {
        "move": moves if not _halvings(ctx, "halve_move") else _moves(ctx, basic_move, halve=False),
        "dodge": dodges if not _halvings(ctx, "halve_dodge") else _dodges(ctx, basic_speed, halve=False),
    }
    levels = []
    for level in range(5):
        levels.append(
            {
                "level": level,
                "id": _LEVEL_IDS[level],
                "maxLoad": _kilograms(pounds * _LOAD[level]),
                "move": moves[level],
                "dodge": dodges[level],
            }
        )
        ctx.cause(
            f"/encumbrance/levels/{level}/maxLoad",
            f"GCS's load limit is its Basic Lift × {_LOAD[level]}: {_number(pounds)} lb × {_LOAD[level]} = "
            f"{_number(pounds * _LOAD[level])} lb, {_number(_kilograms(pounds * _LOAD[level]))} kg "
            "at 1 kg = 2 lb (the format rounds to 0.1 kg)",
            "/calc/basic_lift",
        )
    for level in range(1, 5):
        ctx.cause(
            f"/encumbrance/levels/{level}/move",
            _move_cause(ctx, basic_move, moves[level], level),
            f"/calc/move/{level}",
        )
        ctx.cause(
            f"/encumbrance/levels/{level}/dodge",
            _level_dodge_cause(ctx, dodges, level),
            f"/calc/dodge/{level}",
        )
    ctx.cause("/encumbrance/levels/0/move", _move_cause(ctx, basic_move, moves[0], 0), "/calc/move/0")
    return {"basicLift": lift, "levels": levels}


def _number(value: float) -> str:
    return f"{round(value, 4):g}"


def _basic_lift(ctx: Context, st: int) -> float:
    """GCS's Basic Lift in lb: the one it saved, or its rules' when it saved none (or nothing
    readable), or when the file is a version 1 or 2 one whose saved value the current GCS
    computes otherwise (noted)."""
    calc = _calc(ctx)
    raw = calc.get("basic_lift")
    saved = kilograms(raw, "lb")
    if saved is not None and saved >= 0 and ctx.version >= 4:
        return round(saved * 2, 4)
    rules = _lift_by_rules(ctx, st)
    if saved is not None and saved >= 0:
        if abs(saved * 2 - rules) > 0.001:
            ctx.note(
                "/calc/basic_lift",
                "approximated",
                f"The Basic Lift this version {ctx.version} file saved ({text(calc, 'basic_lift')[:40]}) "
                f"is not what the current GCS computes from it ({_number(rules)} lb): the import uses "
                "the current GCS's.",
            )
        return rules
    if raw is not None:
        ctx.note(
            "/calc/basic_lift",
            "approximated",
            f"GCS's Basic Lift {str(raw)[:40]!r} is not a weight: computed with GCS's rules "
            f"({_number(rules)} lb).",
        )
    elif calc:
        ctx.note(
            "/calc",
            "approximated",
            f"GCS saved no Basic Lift: computed with GCS's rules ({_number(rules)} lb).",
        )
    return rules


def _saved_or_rules(ctx: Context, key: str, rules: list[int]) -> list[int]:
    """GCS's Move or Dodge per level: the saved ones, or its rules' (the saved ones of a version
    1 or 2 file only when the current GCS computes the same)."""
    saved = _per_level(ctx, key)
    if saved is None:
        if key == "move":
            ctx.note(
                "/calc/move",
                "approximated",
                "GCS saved no Move per encumbrance level: computed with GCS's rules.",
            )
        return rules
    if ctx.version <= 2 and saved != rules:
        name = "Move" if key == "move" else "Dodge"
        ctx.note(
            f"/calc/{key}",
            "approximated",
            f"The {name} per encumbrance level this version {ctx.version} file saved ({saved}) is not what "
            f"the current GCS computes from it ({rules}): the import uses the current GCS's.",
        )
        return rules
    return saved


def _lift_by_rules(ctx: Context, st: int) -> float:
    """GCS's Basic Lift in lb: lifting ST (the file's ``lifting_st`` attribute, or ST) plus
    Lifting ST bonuses, truncated, halved (rounded up) while a threshold that halves ST is
    active, by the progression's rule; 0 below ST 1."""
    lifting = ctx.attribute_values.get("lifting_st")
    base = st if lifting is None else lifting
    bonus = number(_calc(ctx), "lifting_st_bonus")
    base += ctx.features.attribute_bonus("st", "lifting_only") if bonus is None else bonus
    base = _halved(math.trunc(base), min(_halvings(ctx, "halve_st"), 1))
    return basic_lift_pounds(math.trunc(base), progression_of(mapping(ctx.data, "settings")))


def _plain(value: float) -> float | int:
    whole = integer(value)
    return whole if whole is not None else value


def _halvings(ctx: Context, op: str) -> int:
    """How many times GCS halves a value: once per pool whose active threshold has the op, at
    most twice."""
    return min(len(ctx.active_ops.get(op, [])), 2)


def _halved(value: float, times: int) -> float:
    """GCS's halving: divided by 2 (once) or 4 (twice), rounded up."""
    return math.ceil(value / (2 * times)) if times else value


def _moves(ctx: Context, basic_move: int, *, halve: bool = True) -> list[int]:
    """GCS's Move per level: the file's ``move`` attribute or Basic Move (at least 0), halved
    per active threshold that halves Move (unless ``halve`` is False), × 1, .8, .6, .4, .2
    rounded down; at least 1 while the halved base is above 0."""
    start = ctx.attribute_values.get("move")
    times = _halvings(ctx, "halve_move") if halve else 0
    base = _halved(max(basic_move, 0) if start is None else start, times)
    found = []
    for level in range(5):
        move = math.floor(base * (10 - 2 * level) / 10)
        found.append(max(move, 1) if base > 0 else max(move, 0))
    return found


def _dodges(ctx: Context, basic_speed: float, *, halve: bool = True) -> list[int]:
    """GCS's Dodge per level: the file's ``dodge`` attribute (its value has the Dodge bonuses),
    or Basic Speed (at least 0) + 3 (not rounded first) plus the whole part of the Dodge
    bonuses; halved per active threshold that halves Dodge (unless ``halve`` is False), less
    the level, truncated, at least 1."""
    start = ctx.attribute_values.get("dodge")
    if start is None:
        bonus = number(_calc(ctx), "dodge_bonus")
        start = max(ctx.attribute_values.get("basic_speed", basic_speed), 0) + 3
        start += math.trunc(ctx.features.attribute_bonus("dodge")) if bonus is None else bonus
    base = _halved(start, _halvings(ctx, "halve_dodge") if halve else 0)
    return [max(math.trunc(base - level), 1) for level in range(5)]


def _halving(ctx: Context, op: str) -> str:
    """The active pool states whose op (``halve_move``...) explains a halved value."""
    return ", ".join(ctx.active_ops.get(op, [])[:4])


def _move_cause(ctx: Context, basic_move: int, move: int, level: int) -> str:
    expected = math.floor(basic_move * (10 - 2 * level) / 10)
    parts = []
    halving = _halving(ctx, "halve_move")
    if halving:
        parts.append(f"GCS halves Move while a pool threshold that halves it is active ({halving})")
    if basic_move > 0 and move == 1 and expected < 1:
        parts.append("GCS keeps Move at least 1 at every encumbrance level while Basic Move is above 0")
    if "move" in ctx.attribute_values:
        parts.append("GCS takes Move from the file's 'move' attribute")
    return "; ".join(parts) or "GCS computed and saved this Move"


def _level_dodge_cause(ctx: Context, dodges: list[int], level: int) -> str:
    parts = []
    halving = _halving(ctx, "halve_dodge")
    if halving:
        parts.append(
            f"GCS halves Dodge, encumbrance penalty included, while a pool threshold that halves it "
            f"is active ({halving})"
        )
    if dodges[level] == 1 and dodges[0] - level < 1:
        parts.append(
            f"GCS keeps Dodge at least 1 (Dodge {dodges[0]} less {level} for encumbrance would be below 1)"
        )
    return "; ".join(parts) or "GCS computed and saved this Dodge"


def dodge_cause(ctx: Context, basic_speed: float, dodge: int) -> str:
    """Why GCS's Dodge is not Basic Speed + 3."""
    parts = []
    bonus = ctx.features.attribute_bonuses("dodge")
    if bonus:
        who = ", ".join(sorted({f"'{f.owner}'" for f in bonus}))
        total = sum(f.amount() for f in bonus)
        parts.append(f"GCS adds Dodge {total:+g} from {who}")
    expected = math.floor(basic_speed) + 3 + sum(f.amount() for f in bonus)
    if dodge < expected:
        halving = _halving(ctx, "halve_dodge")
        parts.append(
            "GCS halves Dodge while a pool threshold that halves it is active"
            + (f" ({halving})" if halving else "")
        )
    if "dodge" in ctx.attribute_values:
        parts.append("GCS takes Dodge from the file's 'dodge' attribute")
    if not parts:
        parts.append("GCS computed and saved this Dodge (Dodge bonuses in force)")
    return "; ".join(parts)


def _explain_lift(ctx: Context, st: int, pounds: float) -> None:
    """Why GCS's Basic Lift is not the format's ST²/10 kg, rounded."""
    parts = []
    lifting = number(_calc(ctx), "lifting_st_bonus")
    if lifting is None:
        lifting = ctx.features.attribute_bonus("st", "lifting_only")
    if lifting:
        parts.append(f"GCS adds Lifting ST {lifting:+g}")
    if "lifting_st" in ctx.attribute_values:
        parts.append(
            f"GCS lifts with the file's 'lifting_st' attribute ({ctx.attribute_values['lifting_st']:g})"
        )
    kyos = progression_of(mapping(ctx.data, "settings")) == "knowing_your_own_strength"
    if kyos:
        parts.append("the file uses GCS's 'Knowing Your Own Strength' rules (Basic Lift 2 × 10^(ST/10) lb)")
    halving = _halving(ctx, "halve_st")
    if halving:
        parts.append(f"GCS halves ST for lifting while a pool threshold is active ({halving})")
    if not parts:
        parts.append(
            f"GCS rounds Basic Lift in pounds, not kilograms: ST {st} × {st} / 5 = {_number(st * st / 5)} lb "
            f"→ {_number(pounds)} lb, which is {_number(_kilograms(pounds))} kg at 1 kg = 2 lb"
        )
    else:
        parts.append(
            f"GCS's Basic Lift is {_number(pounds)} lb, {_number(_kilograms(pounds))} kg at 1 kg = 2 lb"
        )
    ctx.cause("/encumbrance/basicLift", "; ".join(parts), "/calc/basic_lift")


def dodge_value(ctx: Context, basic_speed: float) -> int:
    """GCS's unencumbered Dodge (its rules applied when GCS saved none, or for a version 1 or 2
    file whose saved Dodge the current GCS computes otherwise)."""
    dodges = _per_level(ctx, "dodge")
    rules = _dodges(ctx, basic_speed)
    if dodges is None or (ctx.version <= 2 and dodges != rules):
        return rules[0]
    return dodges[0]


def damage_section(ctx: Context, st: int) -> dict[str, Any]:
    """Thrust and swing as GCS computed them, or by GCS's rules when it saved none: the file's
    damage progression at striking ST (the ``striking_st`` attribute, or ST, plus Striking ST
    bonuses)."""
    calc = _calc(ctx)
    striking = number(calc, "striking_st_bonus")
    if striking is None:
        striking = ctx.features.attribute_bonus("st", "striking_only")
    base = ctx.attribute_values.get("striking_st")
    striking_st = math.floor((st if base is None else max(base, 0)) + striking)
    progression = progression_of(mapping(ctx.data, "settings"))
    out: dict[str, Any] = {}
    for key, rule in (("thrust", thrust), ("swing", swing)):
        parsed = dice(text(calc, key))
        if parsed is None:
            if text(calc, key):
                ctx.note(
                    f"/calc/{key}",
                    "approximated",
                    f"GCS's {key} '{text(calc, key)[:40]}' is not six-sided dice: "
                    "the Basic Set table is used.",
                )
                parsed = _table(key, striking_st)
            else:
                parsed = rule(striking_st, progression) or rule(striking_st, "basic_set") or (1, 0)
                if progression not in COMPUTED_PROGRESSIONS:
                    ctx.note(
                        "/settings/damage_progression",
                        "approximated",
                        f"GCS saved no {key}, and the file's damage progression '{progression[:40]}' "
                        "is not one the importer computes: the Basic Set's is used.",
                    )
        elif ctx.version <= 2 and (rules := rule(striking_st, progression)) is not None and rules != parsed:
            ctx.note(
                f"/calc/{key}",
                "approximated",
                f"The {key} this version {ctx.version} file saved ({text(calc, key)[:40]}) is not what the "
                f"current GCS computes from it ({dice_entry(*rules)['notation']}): the import uses the "
                "current GCS's.",
            )
            parsed = rules
        out[key] = dice_entry(max(parsed[0], 0), parsed[1])
    causes = []
    if striking:
        causes.append(f"GCS adds Striking ST {striking:+g}")
    if base is not None:
        causes.append(f"GCS strikes with the file's 'striking_st' attribute ({base:g})")
    if progression != "basic_set":
        causes.append(f"the file uses GCS's damage progression '{progression}'")
    if striking_st > 40:
        causes.append("GCS interpolates the damage table between its rows above ST 40")
    causes.append("GCS computed this damage" if calc else "GCS's damage rules give this damage")
    for key in ("thrust", "swing"):
        ctx.cause(f"/damage/{key}", "; ".join(causes), f"/calc/{key}")
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
