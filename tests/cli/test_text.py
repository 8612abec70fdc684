"""The command line's text builders (``cli/_report.py``, ``cli/_stats.py``) called directly, every
branch, with the text each gives (the command-line tests run them in subprocesses, where no
branch is measured; issue 22 item 14)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from gurps_character import combat_stats, get_condition
from gurps_character.cli import main
from gurps_character.cli._report import (
    error_lines,
    json_line,
    plural,
    printable,
    roll_text,
    say,
    state_text,
    table,
    value_text,
)
from gurps_character.cli._stats import stats_text
from gurps_character.conditions import PoolState
from tests.support.paths import REPOSITORY

RURIK = json.loads((REPOSITORY / "examples" / "rurik.json").read_text())


# ---------------------------------------------------------------- _report


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("plain", "plain"),
        ("a\nb", "a\\nb"),
        ("\x1b[2J", "\\x1b[2J"),
        ("x\u2028y", "x\\u2028y"),
        ("\u202eevil", "\\u202eevil"),
        ("\x85", "\\x85"),
        ("tab\there", "tab\\there"),
    ],
)
def test_printable_escapes_what_could_forge_a_line_or_drive_a_terminal(raw: str, shown: str) -> None:
    assert printable(raw) == shown


def test_say_prints_each_line_escaped_to_stdout_or_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    say(["one", "two\nthree"])
    say(["to stderr"], err=True)
    say([])
    captured = capsys.readouterr()
    assert captured.out == "one\ntwo\\nthree\n"
    assert captured.err == "to stderr\n"
    with pytest.raises(TypeError, match="a list of lines, not one string"):
        say("one string")


@pytest.mark.parametrize(("count", "text"), [(0, "0 files"), (1, "1 file"), (2, "2 files"), (10, "10 files")])
def test_plural(count: int, text: str) -> None:
    assert plural(count, "file") == text


def test_json_line_is_ascii_and_indents_on_request() -> None:
    assert json_line({"name": "Æ\n"}) == '{"name": "\\u00c6\\n"}'
    assert json_line([1], indent=2) == "[\n  1\n]"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "-"),
        (True, "true"),
        (False, "false"),
        (3, "3"),
        (2.5, "2.5"),
        (1e21, "1e+21"),  # as JavaScript prints it
        ("text", "text"),
        ([1, "a", None], "1, a, -"),
        ({"notation": "1d+2"}, "1d+2"),
        ({"a": 1}, '{"a": 1}'),
        ({"a": MappingProxyType({"b": 1})}, '{"a": {"b": 1}}'),  # a read-only view, as a mapping
        ({"a": {1}}, '{"a": "{1}"}'),  # what JSON cannot write, as Python writes it
    ],
)
def test_value_text(value: Any, text: str) -> None:
    assert value_text(value) == text


def test_table_aligns_columns_left_or_right_with_an_indent_and_no_trailing_space() -> None:
    rows = [["Name", "N", "Note"], ["Sword", "12", ""], ["X", "3", "x\ny"]]
    assert table(rows, right=(1,), indent="  ") == [
        "  Name    N  Note",
        "  Sword  12",
        "  X       3  x\\ny",
    ]


def test_error_lines_of_a_schema_failure_list_each_error_with_its_place() -> None:
    error = {
        "code": "schema",
        "message": "ignored",
        "details": {
            "errors": [
                {"pointer": "/skills/0/level", "message": "/skills/0/level: must be integer"},
                {"pointer": "", "message": "must have required property 'format'", "line": 3, "column": 5},
                {"pointer": "/name", "message": "must be string"},
            ]
        },
    }
    assert error_lines(error, "  ", "hero.yaml") == [
        "  error: hero.yaml: schema: the document does not match the schema (3 errors):",
        "    /skills/0/level: must be integer",
        "    (root): must have required property 'format' (line 3, column 5)",
        "    /name: must be string",
    ]
    one = {"code": "schema", "message": "", "details": {"errors": [{"pointer": "/a", "message": "bad"}]}}
    assert error_lines(one, "")[0] == "error: schema: the document does not match the schema (1 error):"


def test_error_lines_of_other_failures_are_one_line() -> None:
    error = {"code": "invalidJson", "message": "The document is not JSON."}
    assert error_lines(error, "", "x.json") == ["error: x.json: invalidJson: The document is not JSON."]
    assert error_lines(error, "  ") == ["  error: invalidJson: The document is not JSON."]


def test_state_and_roll_texts() -> None:
    assert state_text(PoolState("reeling", None, 3, 13)) == "reeling"
    assert state_text(PoolState("dying", 2, -26, 13)) == "dying (2)"
    assert roll_text("ht", -2) == "HT-2"
    assert roll_text("will", 0) == "Will"
    assert roll_text("iq", 3) == "IQ+3"
    assert roll_text(None, None) == ""


# ---------------------------------------------------------------- _stats


def _character(**changes: Any) -> dict[str, Any]:
    character: dict[str, Any] = copy.deepcopy(RURIK)
    for pointer, value in changes.items():
        target: Any = character
        keys = pointer.split("__")
        for key in keys[:-1]:
            target = target[int(key) if key.isdigit() else key]
        target[keys[-1]] = value
    return character


def test_stats_text_of_a_healthy_character_has_no_effective_columns() -> None:
    character = _character()
    lines = stats_text(combat_stats(character), get_condition(character))
    assert lines[0] == "Tamsin Ashdown" and lines[1] == ""
    # HP 11 of 13 is wounded (below full, above a third), FP 9 of 12 tiring: nothing halved
    assert "Condition: HP wounded, FP tiring" in lines
    assert "Encumbrance      Max load  Move  Dodge" in lines
    assert "Parry   10 (Broadsword)" in lines and "Block   9 (Shield)" in lines
    assert "Damage  thrust 1d-1, swing 1d+1" in lines
    assert any(line.startswith("Location  DR  Notes") for line in lines)
    assert any(line.startswith("Skill ") for line in lines)
    assert any(line.startswith("Ranged weapon  Skill   Damage") for line in lines)
    # 27 kg carried, Basic Lift 12 kg (ST 11): more than 2 × and at most 3 × is Medium (B17)
    assert "Carrying 27 kg: Medium (2), Move 3, Dodge 7 now" in lines


def test_stats_text_shows_halved_values_and_the_rolls_owed() -> None:
    # HP 3 of 13: reeling (a third or less), halves Move and Dodge; FP 2 of 12: tired, also ST
    character = _character(secondary__hp__current=3, secondary__fp__current=2)
    lines = stats_text(combat_stats(character), get_condition(character))
    assert "Condition: HP reeling, FP tired | halve Move, Dodge, ST" in lines
    assert any(line.startswith("ST           11 (eff. 6)") for line in lines)  # 11 halved, rounded up
    assert "Encumbrance      Max load  Move  Eff. Move  Dodge  Eff. Dodge" in lines
    # reeling and tired each halve Move and Dodge: a quarter, rounded up (6 → 2, 9 → 3)
    assert "None (0)               12     6          2      9           3" in lines
    # Medium's Move 3 and Dodge 7 halved, rounded up... twice: reeling and tired
    assert "Carrying 27 kg: Medium (2), Move 1, Dodge 2 now (halved by the condition)" in lines
    # HP -1: collapse, an HT roll each turn to stay conscious (B419)
    collapsed = _character(secondary__hp__current=-1)
    condition_line = next(
        line
        for line in stats_text(combat_stats(collapsed), get_condition(collapsed))
        if line.startswith("Condition:")
    )
    assert condition_line.startswith("Condition: HP collapse, FP tiring | halve Move, Dodge | rolls: HT")


def test_stats_text_without_a_condition_has_no_condition_line() -> None:
    lines = stats_text(combat_stats(_character()))
    assert not any(line.startswith("Condition:") for line in lines)
    assert "Encumbrance      Max load  Move  Dodge" in lines


def test_stats_text_marks_experimental_characters_and_shows_the_size_modifier() -> None:
    character = _character(profile__sizeModifier=2)
    character["integrity"]["experimental"] = True
    lines = stats_text(combat_stats(character))
    assert lines[0] == "Tamsin Ashdown  [experimental]"
    assert any(line.rstrip().endswith("SM   +2") for line in lines)


def test_stats_text_of_damage_lines_the_rules_resolve_or_not() -> None:
    character = _character()
    character["weapons"]["melee"] = [
        {"name": "Blaster", "damage": [{"notation": "3d (2) cut"}, {"notation": "2d (∞) cr"}]},
        {"name": "Beam", "damage": [{"notation": "1d tbb"}]},
        {
            "name": "Gas",
            "damage": [{"notation": "HT-3 aff"}],
            "reach": "C",
            "notes": "cloud",
            "parry": {"notation": "No", "modifier": None, "unbalanced": False},
        },
        {
            "name": "Axe",
            "damage": [{"notation": "sw+2 cut"}],
            "parry": {"notation": "0U", "modifier": 0, "unbalanced": True},
        },
    ]
    character["weapons"]["ranged"] = []
    character["defenses"]["parry"] = {"skill": None, "value": None}
    character["defenses"]["block"] = {"skill": None, "value": 8}
    character["damageResistance"] = []
    character["skills"] = []
    character["points"]["breakdown"]["skills"] = 0
    character["points"]["spent"] -= sum(skill["points"] for skill in RURIK["skills"])
    character["points"]["unspent"] += sum(skill["points"] for skill in RURIK["skills"])
    lines = stats_text(combat_stats(character))
    assert "Parry   -" in lines and "Block   8" in lines
    assert not any(line.startswith(("Location", "Skill", "Ranged weapon")) for line in lines)
    weapons = lines[lines.index(next(line for line in lines if line.startswith("Melee weapon"))) :]
    assert weapons[0].split() == ["Melee", "weapon", "Skill", "Damage", "Reach", "Parry", "Block", "Notes"]
    assert weapons[1].split("  ")[0] == "Blaster"
    assert "3d (2) cut = 3d (2) cut, 2d (∞) cr = 2d (∞) cr" in weapons[1]
    assert "1d tbb = 1d tbb" in weapons[2]  # a tight beam keeps its type
    # not dice: as written; no skill: no level and no parry value, the notation shown
    assert weapons[3].split() == ["Gas", "-", "HT-3", "aff", "C", "No", "-", "cloud"]
    assert weapons[4].split() == ["Axe", "-", "sw+2", "cut", "=", "1d+3", "cut", "-", "0U", "-", "-"]


def test_stats_text_of_an_overloaded_character_says_it_cannot_move() -> None:
    character = _character()
    character["equipment"].append({"name": "Anvil", "cost": 1, "weight": 500})
    character["possessionsTotal"] = {
        "cost": character["possessionsTotal"]["cost"] + 1,
        "weight": character["possessionsTotal"]["weight"] + 500,
    }
    lines = stats_text(combat_stats(character), get_condition(character))
    # 527 kg is over 10 × Basic Lift (120 kg): no Move; Dodge at Extra-Heavy, 5
    assert "Carrying 527 kg: over Extra-Heavy (120 kg): cannot move, Dodge 5 now" in lines


def test_the_stats_command_prints_text_json_or_json_with_the_condition(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hero.json"
    path.write_text(json.dumps(_character(secondary__hp__current=3)), encoding="utf-8")
    assert main(["stats", str(path)]) == 0
    text = capsys.readouterr().out
    assert (
        text.startswith("Tamsin Ashdown\n") and "Condition: HP reeling, FP tiring | halve Move, Dodge" in text
    )
    assert main(["stats", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == combat_stats(_character(secondary__hp__current=3)).to_dict()
    assert main(["stats", "--json", "--condition", str(path)]) == 0
    both = json.loads(capsys.readouterr().out)
    assert set(both) == {"stats", "condition"} and both["condition"]["hp"]["state"] == "reeling"


def test_the_stats_command_notes_a_character_that_departs_from_the_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    character = _character()
    character["attributes"]["st"]["points"] += 10
    character["points"]["breakdown"]["attributes"] += 10
    character["points"]["spent"] += 10
    character["points"]["unspent"] -= 10
    character["integrity"]["rulesCompliant"] = False
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(character), encoding="utf-8")
    assert main(["stats", str(path)]) == 0
    err = capsys.readouterr().err
    assert err.endswith("is not rules-compliant (see: gurps-character check)\n")
