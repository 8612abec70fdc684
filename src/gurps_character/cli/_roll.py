"""``roll``: a 3d success roll (B343-B348) against a number, or a character's skill or attribute.

``roll 12`` rolls against 12; ``roll FILE NAME`` against the skill or attribute NAME of the
character in FILE (any format the other commands read). The roll is given (``--roll N``) or rolled
here (:mod:`._rolling`, ``--seed N`` repeats it) and judged by
:func:`~gurps_character.success_roll` once :func:`~gurps_character.can_attempt` allows it.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..combat import RollResult, can_attempt, success_roll
from ..errors import CharacterError
from ._attack import is_number, parse_whole, read_character, roll_line
from ._command import Commands, add_command, add_max_bytes_option
from ._common import EXIT_OK, INVALID_ARGUMENT, PROG, CommandFailure, label
from ._report import json_line, say, table
from ._rolling import Roll3d, add_roll_options, asked_roll

__all__ = ["register"]

_EPILOG: Final = f"""\
examples:
  {PROG} roll 12                               3d against 12
  {PROG} roll hero.json Broadsword             against the sheet's Broadsword skill
  {PROG} roll hero.gcs DX --modifier -2 --seed 7
  {PROG} roll hero.yaml Will --roll 9          judge a roll made at the table

TARGET is a whole number, or a character file (.json, .yaml, .gcs, or - for stdin) followed by
NAME: an attribute (ST, DX, IQ, HT, Will, Per or Perception) or a skill as the sheet names it
("Guns (Pistol)"), case and spacing aside; an attribute wins over a skill of the same name. ST
is halved (rounding up) while FP is below 1/3 (B426). --modifier adds a bonus or penalty.

The roll is rolled here (--seed N: the same seed gives the same roll) unless --roll N gives
the 3d total rolled at the table. It succeeds at or under the target (3 and 4 always, 17 and
18 never); criticals as B347-B348; a target under 3 cannot be attempted (B344), and nothing is
rolled. --json prints {{"character", "target": {{"kind", "name", "value", "pointer"}},
"adjustments", "modifier", "effective", "canAttempt", "roll"?, "result"?, "rolled"?, "seed"?}}.

exit status: 0 the roll was made (success or failure alike); 2 an argument or file is wrong."""

_ATTRIBUTES: Final[Mapping[str, tuple[str, str]]] = {
    "st": ("ST", "/attributes/st/value"),
    "dx": ("DX", "/attributes/dx/value"),
    "iq": ("IQ", "/attributes/iq/value"),
    "ht": ("HT", "/attributes/ht/value"),
    "will": ("Will", "/secondary/will/value"),
    "per": ("Per", "/secondary/per/value"),
    "perception": ("Per", "/secondary/per/value"),
}
"""An attribute's name as typed (lower case) -> its name as printed and its JSON Pointer."""


@dataclass(frozen=True, slots=True)
class _Target:
    """What is rolled against: its kind, name, the sheet's value and where it is."""

    kind: str
    name: str | None
    value: int
    pointer: str | None
    adjustments: tuple[tuple[str, int, str], ...] = ()

    @property
    def base(self) -> int:
        return self.value + sum(value for _, value, _ in self.adjustments)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "value": self.value, "pointer": self.pointer}


def _spaced(text: str) -> str:
    return " ".join(text.split()).casefold()


def _attribute(character: Mapping[str, Any], key: str) -> _Target:
    """An attribute's value; ST halved while tired or worse (B426), as the condition says."""
    from ..conditions import get_condition

    name, pointer = _ATTRIBUTES[key]
    group, attribute = pointer.split("/")[1:3]
    value = int(character[group][attribute]["value"])
    if key == "st":
        effective = get_condition(character).st
        if effective != value:
            return _Target(
                "attribute", name, value, pointer, (("halved: FP below 1/3", effective - value, "B426"),)
            )
    return _Target("attribute", name, value, pointer)


def _named(character: Mapping[str, Any], name: str) -> _Target:
    """The attribute or skill called ``name`` (case and spacing aside); refused with the names
    the character has."""
    from ..stats import combat_stats

    wanted = _spaced(name)
    if wanted in _ATTRIBUTES:
        return _attribute(character, wanted)
    skills = combat_stats(character).skills
    for index, skill in enumerate(skills):
        if _spaced(skill.name) == wanted:
            return _Target("skill", skill.name, skill.level, f"/skills/{index}/level")
    names = ["ST", "DX", "IQ", "HT", "Will", "Per", *dict.fromkeys(skill.name for skill in skills)]
    raise CharacterError(
        INVALID_ARGUMENT,
        f"NAME must be an attribute or a skill of the character ({', '.join(names)}), not {name!r}.",
        {"name": "NAME", "value": name, "allowed": names},
    )


def _target(args: argparse.Namespace) -> tuple[_Target, str | None, str | None]:
    """``(target, the character's name, the label errors name)`` from TARGET and NAME."""
    if is_number(args.target):
        if args.name is not None:
            raise CommandFailure(
                None,
                CharacterError(
                    INVALID_ARGUMENT,
                    f"NAME needs a character file in TARGET's place, not the number {args.target!r}.",
                    {"name": "NAME", "value": args.name},
                ),
            )
        try:
            return _Target("number", None, parse_whole(args.target, "target"), None), None, None
        except CharacterError as err:
            raise CommandFailure(None, err) from None
    where = label(args.target)
    if args.name is None:
        raise CommandFailure(
            where,
            CharacterError(
                INVALID_ARGUMENT,
                "a character file needs NAME: the skill or attribute (ST, DX, IQ, HT, Will, Per) "
                "to roll against.",
                {"name": "NAME"},
            ),
        )
    character = read_character(args.target, args.max_bytes)
    try:
        return _named(character, args.name), str(character["profile"]["name"]), where
    except CharacterError as err:
        raise CommandFailure(where, err) from None


def _rows(target: _Target, modifier: int, effective: int) -> list[list[str]]:
    """The sheet's number and where it is, what the rules and --modifier add, the target."""
    if target.kind == "number" and not modifier:
        return [["target", str(effective), ""]]
    rows = [[target.name or "base", str(target.value), target.pointer or ""]]
    rows += [[why, f"{value:+d}", page] for why, value, page in target.adjustments]
    if modifier:
        rows.append(["modifier", f"{modifier:+d}", ""])
    rows.append(["target", str(effective), ""])
    return rows


def _outcome_line(roll: Roll3d | None, effective: int, result: RollResult | None) -> str:
    if roll is None:
        return "no roll: a target under 3 cannot be attempted (B344)"
    return roll_line(roll, effective, result)


def _cmd_roll(args: argparse.Namespace) -> int:
    target, character, where = _target(args)
    try:
        modifier = parse_whole(args.modifier, "modifier")
        effective = target.base + modifier
        allowed = can_attempt(effective)
        roll = asked_roll(args, allowed=allowed)
        result = None if roll is None else success_roll(effective, roll.total)
    except CharacterError as err:
        raise CommandFailure(where, err) from None
    if not allowed:
        result = None  # a given roll is checked (3-18) but judges nothing (B344)
    if args.json:
        report: dict[str, Any] = {
            "character": character,
            "target": target.to_dict(),
            "adjustments": [list(row) for row in target.adjustments],
            "modifier": modifier,
            "effective": effective,
            "canAttempt": allowed,
        }
        if roll is not None:
            report.update({"roll": roll.total, "result": None if result is None else result.to_dict()})
            report.update(roll.to_dict())
        say([json_line(report)])
        return EXIT_OK
    lines = [] if character is None else [f"{character}: the {target.kind} {target.name}"]
    lines += table(_rows(target, modifier, effective), right=(1,))
    lines.append(_outcome_line(roll, effective, result))
    say(lines)
    return EXIT_OK


def register(commands: Commands) -> None:
    """Adds ``roll``."""
    parser = add_command(
        commands,
        "roll",
        "a 3d success roll against a number, or a character's skill or attribute",
        _cmd_roll,
        _EPILOG,
    )
    parser.add_argument(
        "target", metavar="TARGET", help="the number to roll against, or a character file (then NAME)"
    )
    parser.add_argument(
        "name", metavar="NAME", nargs="?", help="after a file: a skill, or ST, DX, IQ, HT, Will or Per"
    )
    parser.add_argument(
        "-m", "--modifier", default="0", metavar="N", help="a bonus or penalty to the target, e.g. -2"
    )
    add_roll_options(parser, no_roll=False)
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    add_max_bytes_option(parser)
