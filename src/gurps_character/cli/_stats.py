"""``stats``: the combat view of a character as a table, with its condition."""

from __future__ import annotations

import argparse
import math
from typing import Final

from .._json import js_number
from ..conditions import Condition, Roll, get_condition
from ..errors import CharacterError
from ..stats import (
    ENCUMBRANCE_NAMES,
    CombatStats,
    MeleeWeaponStats,
    RangedWeaponStats,
    WeaponDamageLine,
    combat_stats,
)
from ._command import Commands, add_command, add_max_bytes_option
from ._common import EXIT_OK, PROG, CommandFailure, label
from ._io import parse_character_file
from ._report import WHEN, json_line, roll_text, say, state_text, table, value_text

__all__ = ["register", "stats_text"]

_EPILOG: Final = f"""\
examples:
  {PROG} stats hero.json
  {PROG} stats --json hero.json | jq .hp
  {PROG} stats --json --condition hero.json | jq .condition.rolls

Below the HP/FP grid, 'Condition:' gives the state of each pool (HP: healthy, wounded,
reeling, collapse, dying (n), dead, destroyed, B419; FP: rested, tiring, tired, collapse,
unconscious, B426), what they halve and the rolls owed each turn. When Move, Dodge or ST
are halved, the effective values are shown beside the stored ones ('Eff. Move',
'Eff. Dodge', 'ST 22 (eff. 11)').

--json prints the combat view; with --condition it prints
  {{"stats": <the combat view>, "condition": {{"hp", "fp", "effects", "move", "dodge", "st", "rolls"}}}}."""


def _defense_text(value: int | None, skill: str | None) -> str:
    if value is None:
        return "-"
    return f"{value} ({skill})" if skill else str(value)


def _field(weapon: MeleeWeaponStats | RangedWeaponStats, key: str) -> str:
    """A stored field of a weapon's entry, as written (``-`` when absent)."""
    return value_text(weapon.entry.get(key))


def _resolved(line: WeaponDamageLine) -> str:
    """``sw+2 (2) cut = 1d+3 (2) cut``: a damage line with the wielder's dice beside it; the
    notation alone when it is not one :func:`~gurps_character.resolve_damage_notation` reads."""
    weapon = line.resolved
    if weapon is None:
        return line.notation
    divisor = weapon.armor_divisor
    divisor_text = "" if divisor == 1 else " (∞)" if divisor == math.inf else f" ({js_number(divisor)})"
    kind = "tbb" if weapon.tight_beam else weapon.damage_type
    return f"{line.notation} = {weapon.dice_notation}{divisor_text} {kind}"


def _damage_field(weapon: MeleeWeaponStats | RangedWeaponStats) -> str:
    """Each damage line of a weapon with the character's dice (``thr+1 cr = 1d cr``)."""
    return ", ".join(_resolved(line) for line in weapon.damage) or "-"


def _skill_field(weapon: MeleeWeaponStats | RangedWeaponStats) -> str:
    """``Broadsword-14`` (the skill and the level with the weapon), ``14``, or ``-``."""
    if weapon.level is None:
        return "-"
    return f"{weapon.skill}-{weapon.level}" if weapon.skill else str(weapon.level)


def _parry_field(weapon: MeleeWeaponStats) -> str:
    """The parry with the weapon, marked as GCS marks it (``9F`` fencing, ``8U`` unbalanced); the
    stored notation when there is no value (``No``)."""
    parry = weapon.parry
    if parry.value is None:
        return parry.notation or "-"
    marks = "".join(mark for mark in "FU" if mark in (parry.notation or "").upper())
    if parry.unbalanced and "U" not in marks:
        marks += "U"
    return f"{parry.value}{marks}"


def _carrying_line(stats: CombatStats) -> str:
    """``Carrying 27 kg: Medium (2), Move 3, Dodge 7 now``; halved values say so."""
    level = stats.current_encumbrance
    weight = js_number(stats.carried_weight)
    if stats.overloaded:
        return (
            f"Carrying {weight} kg: over {ENCUMBRANCE_NAMES.get(level.id, level.id)} "
            f"({js_number(level.max_load)} kg): cannot move, Dodge {stats.current_dodge} now"
        )
    halved = (
        " (halved by the condition)"
        if (stats.current_move, stats.current_dodge) != (level.move, level.dodge)
        else ""
    )
    return (
        f"Carrying {weight} kg: {ENCUMBRANCE_NAMES.get(level.id, level.id)} ({level.level}), "
        f"Move {stats.current_move}, Dodge {stats.current_dodge} now{halved}"
    )


def _roll_line(roll: Roll) -> str:
    """``HT-2 each turn (B419)``, ``Will before each maneuver (B426)``."""
    return f"{roll_text(roll.attribute, roll.modifier)} {WHEN.get(roll.when, roll.when)} ({roll.reference})"


def _condition_line(condition: Condition) -> str:
    """``Condition: HP reeling, FP tired | halve Move, Dodge, ST | rolls: HT-2 each turn (B419)``.

    The states always; what halves and the rolls owed each turn only when there are any.
    """
    parts = [f"HP {state_text(condition.hp)}, FP {state_text(condition.fp)}"]
    effects = condition.effects
    halved = [
        name
        for name, on in (
            ("Move", effects.halve_move),
            ("Dodge", effects.halve_dodge),
            ("ST", effects.halve_st),
        )
        if on
    ]
    if halved:
        parts.append("halve " + ", ".join(halved))
    if condition.rolls:
        parts.append("rolls: " + "; ".join(_roll_line(roll) for roll in condition.rolls))
    return "Condition: " + " | ".join(parts)


def _encumbrance_rows(stats: CombatStats, condition: Condition | None) -> list[list[str]]:
    """The encumbrance table; ``Eff. Move``/``Eff. Dodge`` only where the condition changes them."""
    moves = condition.move if condition is not None else tuple(row.move for row in stats.encumbrance)
    dodges = condition.dodge if condition is not None else tuple(row.dodge for row in stats.encumbrance)
    eff_move = any(row.move != move for row, move in zip(stats.encumbrance, moves, strict=False))
    eff_dodge = any(row.dodge != dodge for row, dodge in zip(stats.encumbrance, dodges, strict=False))
    header = ["Encumbrance", "Max load", "Move"]
    header += ["Eff. Move"] if eff_move else []
    header += ["Dodge"]
    header += ["Eff. Dodge"] if eff_dodge else []
    rows = [header]
    for index, row in enumerate(stats.encumbrance):
        cells = [
            f"{ENCUMBRANCE_NAMES.get(row.id, row.id)} ({row.level})",
            js_number(row.max_load),
            str(row.move),
        ]
        cells += [str(moves[index]) if index < len(moves) else "-"] if eff_move else []
        cells += [str(row.dodge)]
        cells += [str(dodges[index]) if index < len(dodges) else "-"] if eff_dodge else []
        rows.append(cells)
    return rows


def stats_text(stats: CombatStats, condition: Condition | None = None) -> list[str]:
    """The text view: the grid, the condition line, defenses, encumbrance, DR, skills, weapons."""
    n = js_number
    lines = [stats.name + ("  [experimental]" if stats.experimental else ""), ""]
    # (an integer too big for a double is a float: printed as JavaScript prints it)
    sm = ("+" if stats.size_modifier > 0 else "") + n(stats.size_modifier) if stats.size_modifier else "0"
    hp, fp, attributes = stats.hp, stats.fp, stats.attributes
    st = str(attributes.st)
    if condition is not None and condition.st != attributes.st:
        st += f" (eff. {condition.st})"
    grid = [
        [("HP", f"{n(hp.current)}/{n(hp.max)}"), ("FP", f"{n(fp.current)}/{n(fp.max)}")],
        [("ST", st), ("DX", str(attributes.dx))],
        [("Basic Speed", n(stats.basic_speed)), ("Basic Move", str(stats.basic_move))],
    ]
    grid[0] += [("Will", str(stats.will)), ("Per", str(stats.perception))]
    grid[1] += [("IQ", str(attributes.iq)), ("HT", str(attributes.ht))]
    grid[2] += [("Dodge", str(stats.dodge)), ("SM", sm)]
    lines += table([[cell for pair in row for cell in pair] for row in grid], right=(1, 3, 5, 7))
    if condition is not None:
        lines.append(_condition_line(condition))
    lines.append("")
    lines += table(
        [
            ["Parry", _defense_text(stats.parry.value, stats.parry.skill)],
            ["Block", _defense_text(stats.block.value, stats.block.skill)],
            ["Damage", f"thrust {stats.damage.thrust.notation}, swing {stats.damage.swing.notation}"],
        ]
    )
    lines.append("")
    encumbrance = _encumbrance_rows(stats, condition)
    lines += table(encumbrance, right=range(1, len(encumbrance[0])))
    lines.append(_carrying_line(stats))
    if stats.damage_resistance:
        lines.append("")
        lines += table(
            [
                ["Location", "DR", "Notes"],
                *([entry.location, str(entry.dr), entry.notes or ""] for entry in stats.damage_resistance),
            ],
            right=(1,),
        )
    if stats.skills:
        lines.append("")
        lines += table(
            [
                ["Skill", "Level", "Attribute", "Difficulty"],
                *(
                    [skill.name, str(skill.level), skill.attribute.upper(), skill.difficulty]
                    for skill in stats.skills
                ),
            ],
            right=(1,),
        )
    if stats.weapons.melee:
        lines.append("")
        lines += table(
            [
                ["Melee weapon", "Skill", "Damage", "Reach", "Parry", "Block", "Notes"],
                *(
                    [
                        w.name,
                        _skill_field(w),
                        _damage_field(w),
                        _field(w, "reach"),
                        _parry_field(w),
                        "-" if w.block.value is None else str(w.block.value),
                        _field(w, "notes"),
                    ]
                    for w in stats.weapons.melee
                ),
            ]
        )
    if stats.weapons.ranged:
        lines.append("")
        keys = ("accuracy", "range", "rateOfFire", "shots", "minST", "bulk", "notes")
        lines += table(
            [
                ["Ranged weapon", "Skill", "Damage", "Acc", "Range", "RoF", "Shots", "ST", "Bulk", "Notes"],
                *(
                    [w.name, _skill_field(w), _damage_field(w), *(_field(w, key) for key in keys)]
                    for w in stats.weapons.ranged
                ),
            ]
        )
    return lines


def _cmd_stats(args: argparse.Namespace) -> int:
    parsed = parse_character_file(args.path, max_bytes=args.max_bytes)
    as_json: bool = args.json
    with_condition: bool = args.condition or not as_json  # --json alone: combat_stats exactly
    try:
        stats = combat_stats(parsed.character)
        condition = get_condition(parsed.character) if with_condition else None
    except CharacterError as err:
        raise CommandFailure(label(args.path), err) from None
    if as_json and condition is not None:
        print(json_line({"stats": stats.to_dict(), "condition": condition.to_dict()}, indent=2))
    elif as_json:
        print(json_line(stats.to_dict(), indent=2))
    else:
        say(stats_text(stats, condition))
    if not parsed.report.rules_compliant:
        say([f"note: {label(args.path)} is not rules-compliant (see: {PROG} check)"], err=True)
    return EXIT_OK


def register(commands: Commands) -> None:
    """Adds ``stats``."""
    stats = add_command(
        commands, "stats", "show the combat view of a character and its condition", _cmd_stats, _EPILOG
    )
    stats.add_argument("path", metavar="PATH", help="a character file, or - for stdin")
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.add_argument(
        "--condition",
        action="store_true",
        help='with --json: print {"stats": ..., "condition": ...} (the text view always shows it)',
    )
    add_max_bytes_option(stats)
