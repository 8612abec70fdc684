"""``attack``: the effective skill of one attack, modifier by modifier, and (``--roll``) the roll.

The arithmetic is :func:`~gurps_character.attack_skill`; a roll is judged by
:func:`~gurps_character.success_roll` once :func:`~gurps_character.can_attempt` allows it, and
rapid-fire hits are :func:`~gurps_character.rapid_fire_hits`. Nothing is read or written: the
command never loads the schema, so it answers at once.

``SKILL`` is a number today. A character file and a weapon name in its place (``attack hero.json
Broadsword``) are planned: a first argument that is not a whole number will name a file, so
every command line that works now keeps its meaning.

The helpers the ``defend`` command shares (parsing numbers, the modifier table, the roll line)
live here.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Mapping
from typing import Any, Final

from ..combat import (
    AttackSkill,
    CombatModifier,
    RollResult,
    attack_skill,
    can_attempt,
    rapid_fire_hits,
    success_roll,
)
from ..errors import CharacterError
from ..locations import rule_location
from ._command import Commands, add_command, integer_text
from ._common import EXIT_OK, INVALID_ARGUMENT, PROG, CommandFailure
from ._report import json_line, plural, say, table

__all__ = ["modifier_rows", "parse_whole", "parse_yards", "register", "roll_line", "roll_outcome"]

_EPILOG: Final = f"""\
examples:
  {PROG} attack 14 --location skull                 a called shot: 14 - 7 = 7
  {PROG} attack 14 --maneuver move_and_attack       14 - 4 = 10, at most 9
  {PROG} attack 13 --ranged --distance-yards 8 --aim-turns 1 --acc 2 --roll 9
  {PROG} attack 14 --ranged --rof 10 --distance-yards 20 --roll 6 --recoil 2

SKILL is the skill with the weapon, a whole number. The options are those of the library's
attack_skill(): --maneuver attack, all_out_attack_determined, all_out_attack_double,
all_out_attack_feint, all_out_attack_strong or move_and_attack; --location torso, vitals,
groin, arm, leg, hand, foot, face, neck, skull or eye (arms, legs, ... too); --posture
standing, crouching, kneeling, sitting, crawling or lying. --bulk, --shock and --visibility
are penalties as printed (0 or less). Aim, Acc, bracing, Bulk, RoF, distance and speed are
for --ranged attacks; Deceptive Attack, Rapid Strike and Evaluate for melee ones.

Each modifier is printed on its own line with its page, then the effective skill. --roll N
(the 3d total) says whether the attack hits, by how much, and whether it is a critical; with
--recoil (the weapon's Rcl) it also counts the rapid-fire hits. --json prints
{{"attack": {{"effective", "modifiers", "capped"}}, "canAttempt", "roll"?, "result"?, "hits"?}}."""

_ATTACK_LABELS: Final[Mapping[str, Callable[[argparse.Namespace], str]]] = {
    "all_out_attack_determined": lambda _: "All-Out Attack (Determined)",
    "move_and_attack": lambda _: "Move and Attack",
    "evaluate": lambda args: f"Evaluate ({plural(int(args.evaluate_turns), 'turn')})",
    "aim": lambda args: f"Aim ({plural(int(args.aim_turns), 'turn')}, Acc {int(args.acc)})",
    "braced": lambda _: "braced",
    "rapid_fire": lambda args: f"rapid fire ({int(args.rof)} shots)",
    "hit_location": lambda args: f"hit location ({rule_location(args.location)})",
    "size": lambda _: "target's SM",
    "speed_range": lambda _: "speed/range",
    "deceptive": lambda args: f"Deceptive Attack (level {int(args.deceptive)})",
    "rapid_strike": lambda _: "Rapid Strike",
    "dual_weapon": lambda _: "Dual-Weapon Attack",
    "off_hand": lambda _: "off hand",
    "posture": lambda args: f"posture ({args.posture})",
    "shock": lambda _: "shock",
    "visibility": lambda _: "visibility",
}
"""How each modifier of :func:`~gurps_character.attack_skill` reads in the table."""

_DECIMAL: Final = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


# ================================================================ arguments (shared with defend)


def parse_whole(text: str, name: str) -> int:
    """A whole number written in ASCII digits (a sign allowed); ``invalidArgument`` naming the
    library's argument otherwise (the library checks the range)."""
    value = integer_text(text)
    if value is not None:
        return value
    raise CharacterError(
        INVALID_ARGUMENT, f"{name} must be a whole number, not {text!r}.", {"name": name, "value": text}
    )


def parse_yards(text: str, name: str) -> int | float:
    """A number of yards of at least 0 (``8``, ``2.5``); a whole number stays an ``int``."""
    if _DECIMAL.fullmatch(text):
        value = integer_text(text)
        number: int | float = value if value is not None else float(text)
        if number >= 0:
            return number
    raise CharacterError(
        INVALID_ARGUMENT,
        f"{name} must be a number of at least 0, not {text!r}.",
        {"name": name, "value": text},
    )


# ================================================================ the report (shared with defend)


def modifier_rows(
    base_label: str, base: int, modifiers: tuple[CombatModifier, ...], label_of: Callable[[str], str]
) -> list[list[str]]:
    """``base``, then one row per modifier: its label, its signed value and its page."""
    rows = [[base_label, str(base), ""]]
    rows += [[label_of(name), f"{value:+d}", page] for name, value, page in modifiers]
    return rows


def roll_outcome(effective: int, roll: int, *, defense: bool) -> RollResult | None:
    """The roll judged, or None when the rules allow no roll (an effective skill under 3,
    B344); a roll outside 3-18 is refused either way."""
    result = success_roll(effective, roll)
    return result if can_attempt(effective, defense=defense) else None


def roll_line(roll: int, effective: int, result: RollResult | None) -> str:
    """``roll 9 against 12: success, margin +3`` (or why no roll may be made)."""
    if result is None:
        return (
            f"roll {roll} against {effective}: no roll, an effective skill under 3 cannot be attempted (B344)"
        )
    outcome = "success" if result.success else "failure"
    if result.critical:
        outcome = f"critical {outcome}"
    return f"roll {roll} against {effective}: {outcome}, margin {result.margin:+d}"


# ================================================================ the command


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`~gurps_character.attack_skill` from the command line."""
    distance = None if args.distance_yards is None else parse_yards(args.distance_yards, "distance_yards")
    return {
        "ranged": args.ranged,
        "maneuver": args.maneuver,
        "location": args.location,
        "target_sm": parse_whole(args.target_sm, "target_sm"),
        "distance_yards": distance,
        "target_speed_yards": parse_yards(args.target_speed_yards, "target_speed_yards"),
        "aim_turns": parse_whole(args.aim_turns, "aim_turns"),
        "acc": parse_whole(args.acc, "acc"),
        "braced": args.braced,
        "bulk": parse_whole(args.bulk, "bulk"),
        "rof": parse_whole(args.rof, "rof"),
        "deceptive": parse_whole(args.deceptive, "deceptive"),
        "rapid_strike": args.rapid_strike,
        "master": args.master,
        "dual_weapon": args.dual_weapon,
        "off_hand": args.off_hand,
        "ambidextrous": args.ambidextrous,
        "evaluate_turns": parse_whole(args.evaluate_turns, "evaluate_turns"),
        "posture": args.posture,
        "shock": parse_whole(args.shock, "shock"),
        "visibility": parse_whole(args.visibility, "visibility"),
    }


def _lines(args: argparse.Namespace, base: int, result: AttackSkill) -> list[str]:
    rows = modifier_rows("base skill", base, result.modifiers, lambda name: _ATTACK_LABELS[name](args))
    total = base + sum(value for _, value, _ in result.modifiers)
    note = f"({total} capped at {result.effective}, B365)" if result.capped else ""
    rows.append(["effective skill", str(result.effective), note])
    return table(rows, right=(1,))


def _cmd_attack(args: argparse.Namespace) -> int:
    try:
        base = parse_whole(args.skill, "base_skill")
        options = _options(args)
        result = attack_skill(base, **options)
        roll = None if args.roll is None else parse_whole(args.roll, "roll")
        recoil = None if args.recoil is None else parse_whole(args.recoil, "recoil")
        outcome = None if roll is None else roll_outcome(result.effective, roll, defense=False)
        hits = None
        if roll is not None and recoil is not None:
            # a 3 or 4 that succeeds under skill 4 has a margin below 0: it scores one hit
            margin = max(0, outcome.margin) if outcome is not None and outcome.success else -1
            hits = rapid_fire_hits(options["rof"], recoil, margin)
    except CharacterError as err:
        raise CommandFailure(None, err) from None
    if args.json:
        report: dict[str, Any] = {"attack": result.to_dict(), "canAttempt": can_attempt(result.effective)}
        if roll is not None:
            report["roll"] = roll
            report["result"] = None if outcome is None else outcome.to_dict()
        if hits is not None:
            report["hits"] = hits
        say([json_line(report)])
        return EXIT_OK
    lines = _lines(args, base, result)
    if roll is not None:
        lines.append(roll_line(roll, result.effective, outcome))
    elif not can_attempt(result.effective):
        lines.append("an effective skill under 3 cannot be attempted (B344)")
    if hits is not None:
        lines.append(f"hits: {hits} of {args.rof} shots (Rcl {recoil})")
    say(lines)
    return EXIT_OK


def register(commands: Commands) -> None:
    """Adds ``attack``."""
    attack = add_command(
        commands,
        "attack",
        "the effective skill of one attack by the Basic Set (and its roll)",
        _cmd_attack,
        _EPILOG,
    )
    attack.add_argument("skill", metavar="SKILL", help="the skill with the weapon, a whole number")
    attack.add_argument("--ranged", action="store_true", help="a ranged attack (default: melee)")
    attack.add_argument(
        "--maneuver", default="attack", metavar="M", help="the attacker's maneuver (default: attack)"
    )
    attack.add_argument(
        "--location", default="torso", metavar="L", help="the location aimed at (default: torso)"
    )
    attack.add_argument("--target-sm", default="0", metavar="N", help="the target's Size Modifier")
    attack.add_argument("--distance-yards", metavar="Y", help="ranged: the range in yards")
    attack.add_argument(
        "--target-speed-yards", default="0", metavar="Y", help="ranged: the target's speed (yd/s)"
    )
    attack.add_argument("--aim-turns", default="0", metavar="N", help="ranged: turns of Aim just before")
    attack.add_argument("--acc", default="0", metavar="N", help="ranged: the weapon's Accuracy (with an Aim)")
    attack.add_argument("--braced", action="store_true", help="ranged: the weapon is braced (+1 with an Aim)")
    attack.add_argument("--bulk", default="0", metavar="N", help="ranged: the weapon's Bulk, e.g. -4")
    attack.add_argument("--rof", default="1", metavar="N", help="ranged: the shots fired (default: 1)")
    attack.add_argument("--deceptive", default="0", metavar="N", help="melee: the level of Deceptive Attack")
    attack.add_argument("--rapid-strike", action="store_true", help="melee: one attack of a Rapid Strike")
    attack.add_argument("--master", action="store_true", help="Trained by a Master or Weapon Master")
    attack.add_argument("--dual-weapon", action="store_true", help="one attack of a Dual-Weapon Attack")
    attack.add_argument("--off-hand", action="store_true", help="an attack with the off hand")
    attack.add_argument("--ambidextrous", action="store_true", help="the attacker is Ambidextrous")
    attack.add_argument(
        "--evaluate-turns", default="0", metavar="N", help="melee: turns of Evaluate on this foe"
    )
    attack.add_argument("--posture", default="standing", metavar="P", help="the attacker's posture")
    attack.add_argument("--shock", default="0", metavar="N", help="the shock penalty from last turn, e.g. -2")
    attack.add_argument("--visibility", default="0", metavar="N", help="the darkness penalty, -10 to 0")
    attack.add_argument("--roll", metavar="N", help="the 3d roll: says hit or miss, margin and criticals")
    attack.add_argument(
        "--recoil", metavar="N", help="with --roll: the weapon's Rcl, to count rapid-fire hits"
    )
    attack.add_argument("--json", action="store_true", help="print the result as one JSON object")
