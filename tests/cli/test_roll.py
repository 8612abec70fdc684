"""``gurps-character roll`` (3d against a number, a skill or an attribute), and ``attack`` and
``defend`` rolling for the GM when no ``--roll`` is given: ``--seed``, ``--no-roll``, ``--json``
and every refusal."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import (
    can_attempt,
    hit_location,
    hits_after_dodge,
    load_character,
    rapid_fire_hits,
    resolve_damage_notation,
    roll_3d,
    success_roll,
)
from gurps_character.locations import BODY_EXTENSION
from tests.support.cli_runner import Run, in_process
from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
RURIK = str(ROOT / "examples" / "rurik.json")
HERO_GCS = str(ROOT / "tests" / "fixtures" / "gcs_cli" / "hero.gcs")


def seeded(seed: int) -> int:
    """The 3d total ``--seed seed`` rolls: the library's roll with ``random.Random(seed)``."""
    return roll_3d(random.Random(seed))


def ok(*args: str) -> Run:
    run = in_process(*args)
    assert (run.status, run.err) == (0, ""), run.err
    return run


def refused(*args: str) -> str:
    """The one error line of a refused command (exit status 2, nothing on stdout)."""
    run = in_process(*args)
    assert (run.status, run.out) == (2, "")
    return run.err


def outcome(effective: int, total: int) -> str:
    result = success_roll(effective, total)
    word = ("critical " if result.critical else "") + ("success" if result.success else "failure")
    return f"{word}, margin {result.margin:+d}"


def tamsin(tmp_path: Path, change: Any) -> str:
    document = json.loads(Path(RURIK).read_text(encoding="utf-8"))
    change(document)
    path = tmp_path / "tamsin.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


# ================================================================ roll


def test_roll_against_a_number_with_a_seed() -> None:
    total = seeded(7)
    assert ok("roll", "12", "--seed", "7").out.splitlines() == [
        "target  12",
        f"rolled {total} (seed 7) against 12: {outcome(12, total)}",
    ]


def test_the_same_seed_rolls_the_same_and_seeds_differ() -> None:
    rolls = {json.loads(ok("roll", "10", "--seed", str(seed), "--json").out)["roll"] for seed in range(40)}
    assert rolls == {seeded(seed) for seed in range(40)}
    assert len(rolls) > 5  # really rolled: forty seeds do not all give one total
    again = json.loads(ok("roll", "10", "--seed", "3", "--json").out)
    assert again == json.loads(ok("roll", "10", "--seed", "3", "--json").out)


def test_roll_without_a_seed_rolls_3d() -> None:
    report = json.loads(ok("roll", "10", "--json").out)
    assert 3 <= report["roll"] <= 18
    assert (report["rolled"], report["seed"]) == (True, None)
    assert report["result"] == success_roll(10, report["roll"]).to_dict()


@pytest.mark.parametrize(
    ("target", "total", "said"),
    [
        ("12", "3", "critical success, margin +9"),
        ("12", "12", "success, margin +0"),
        ("12", "13", "failure, margin -1"),
        ("12", "17", "critical failure, margin -5"),
        ("16", "6", "critical success, margin +10"),
        ("16", "17", "failure, margin -1"),
        ("5", "15", "critical failure, margin -10"),
    ],
)
def test_a_given_roll_is_judged(target: str, total: str, said: str) -> None:
    assert (
        ok("roll", target, "--roll", total).out.splitlines()[-1] == f"roll {total} against {target}: {said}"
    )


def test_the_modifier_is_shown_and_added() -> None:
    assert ok("roll", "12", "--modifier", "-2", "--roll", "9").out.splitlines() == [
        "base      12",
        "modifier  -2",
        "target    10",
        "roll 9 against 10: success, margin +1",
    ]
    assert json.loads(ok("roll", "12", "-m", "+3", "--roll", "9", "--json").out)["effective"] == 15


def test_roll_against_a_skill_of_the_sheet() -> None:
    total = seeded(1)
    assert ok("roll", RURIK, "broadSWORD", "--seed", "1").out.splitlines() == [
        "Tamsin Ashdown: the skill Broadsword",
        "Broadsword  14  /skills/0/level",
        "target      14",
        f"rolled {total} (seed 1) against 14: {outcome(14, total)}",
    ]


def test_roll_against_an_attribute_of_a_gcs_file_as_json() -> None:
    report = json.loads(ok("roll", HERO_GCS, "dx", "--modifier", "-4", "--roll", "8", "--json").out)
    assert report == {
        "character": "Brenna Quill",
        "target": {"kind": "attribute", "name": "DX", "value": 12, "pointer": "/attributes/dx/value"},
        "adjustments": [],
        "modifier": -4,
        "effective": 8,
        "canAttempt": True,
        "roll": 8,
        "result": {"success": True, "critical": False, "margin": 0, "roll": 8},
    }


@pytest.mark.parametrize(
    ("name", "shown", "value", "pointer"),
    [
        ("Will", "Will", 11, "/secondary/will/value"),
        ("per", "Per", 13, "/secondary/per/value"),
        ("Perception", "Per", 13, "/secondary/per/value"),
        ("HT", "HT", 12, "/attributes/ht/value"),
        ("st", "ST", 11, "/attributes/st/value"),
        ("iq", "IQ", 11, "/attributes/iq/value"),
    ],
)
def test_every_attribute_by_name(name: str, shown: str, value: int, pointer: str) -> None:
    report = json.loads(ok("roll", RURIK, name, "--roll", "10", "--json").out)
    assert report["target"] == {"kind": "attribute", "name": shown, "value": value, "pointer": pointer}
    assert report["effective"] == value


def test_st_is_halved_while_tired(tmp_path: Path) -> None:
    """FP 3 of 12 is below 1/3: ST 11 halved, rounding up, is 6 (B426)."""
    path = tamsin(tmp_path, lambda doc: doc["secondary"]["fp"].update(current=3))
    assert ok("roll", path, "ST", "--roll", "6").out.splitlines() == [
        "Tamsin Ashdown: the attribute ST",
        "ST                    11  /attributes/st/value",
        "halved: FP below 1/3  -5  B426",
        "target                 6",
        "roll 6 against 6: success, margin +0",
    ]
    report = json.loads(ok("roll", path, "DX", "--roll", "6", "--json").out)
    assert (report["adjustments"], report["effective"]) == ([], 12)  # only ST is halved


def test_a_target_under_3_rolls_nothing() -> None:
    assert ok("roll", "5", "--modifier", "-3", "--seed", "1").out.splitlines()[-1] == (
        "no roll: a target under 3 cannot be attempted (B344)"
    )
    report = json.loads(ok("roll", "2", "--json").out)
    assert report["canAttempt"] is False and "roll" not in report
    given = json.loads(ok("roll", "2", "--roll", "3", "--json").out)
    assert (given["roll"], given["result"]) == (3, None)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("roll", "12", "DX"), "NAME needs a character file in TARGET's place, not the number '12'."),
        (("roll", "12.5"), "target must be a whole number, not '12.5'."),
        (("roll", "12", "--modifier", "x"), "modifier must be a whole number, not 'x'."),
        (("roll", "12", "--roll", "19"), "roll must be a whole number from 3 to 18, not 19."),
        (("roll", "12", "--roll", "nine"), "roll must be a whole number, not 'nine'."),
        (("roll", "12", "--seed", "abc"), "--seed must be a whole number, not 'abc'."),
    ],
)
def test_roll_refusals(args: tuple[str, ...], message: str) -> None:
    assert refused(*args) == f"error: invalidArgument: {message}\n"


def test_roll_refusals_name_the_file() -> None:
    assert refused("roll", RURIK) == (
        f"error: {RURIK}: invalidArgument: a character file needs NAME: the skill or attribute "
        "(ST, DX, IQ, HT, Will, Per) to roll against.\n"
    )
    assert refused("roll", RURIK, "Axe") == (
        f"error: {RURIK}: invalidArgument: NAME must be an attribute or a skill of the character "
        "(ST, DX, IQ, HT, Will, Per, Broadsword, Shield, Bow, Knife, Stealth, Riding (Horse), Tracking, "
        "Survival (Woodlands), Tactics, Leadership, First Aid), not 'Axe'.\n"
    )


def test_roll_refuses_a_roll_and_a_seed_together() -> None:
    assert "argument --seed: not allowed with argument --roll" in refused(
        "roll", "12", "--roll", "9", "--seed", "1"
    )


def test_roll_names_an_unreadable_file(tmp_path: Path) -> None:
    missing = str(tmp_path / "nobody.json")
    assert refused("roll", missing, "DX").startswith(f"error: {missing}: unreadable: ")


# ================================================================ attack and defend roll for the GM


def test_attack_rolls_when_no_roll_is_given() -> None:
    total = seeded(7)
    assert ok("attack", "14", "--location", "skull", "--seed", "7").out.splitlines() == [
        "base skill            14",
        "hit location (skull)  -7  B398",
        "effective skill        7",
        f"rolled {total} (seed 7) against 7: {outcome(7, total)}",
    ]
    report = json.loads(ok("attack", "14", "--seed", "7", "--json").out)
    assert (report["roll"], report["rolled"], report["seed"]) == (total, True, 7)
    assert report["result"] == success_roll(14, total).to_dict()
    unseeded = json.loads(ok("attack", "14", "--json").out)
    assert 3 <= unseeded["roll"] <= 18 and unseeded["seed"] is None


def test_attack_with_a_given_roll_or_none_as_before() -> None:
    report = json.loads(ok("attack", "14", "--roll", "9", "--json").out)
    assert report == {
        "attack": {"effective": 14, "modifiers": [], "capped": False},
        "canAttempt": True,
        "roll": 9,
        "result": {"success": True, "critical": False, "margin": 5, "roll": 9},
    }
    assert json.loads(ok("attack", "14", "--no-roll", "--json").out) == {
        "attack": {"effective": 14, "modifiers": [], "capped": False},
        "canAttempt": True,
    }
    assert ok("attack", "14", "--no-roll").out.splitlines() == ["base skill       14", "effective skill  14"]


def test_attack_rolls_nothing_under_3() -> None:
    run = ok("attack", "9", "--location", "eye", "--seed", "1")
    assert run.out.splitlines()[-1] == "an effective skill under 3 cannot be attempted (B344)"
    assert "roll" not in json.loads(ok("attack", "9", "--location", "eye", "--json").out)


def test_a_characters_attack_rolls() -> None:
    total = seeded(3)
    lines = ok("attack", RURIK, "--weapon", "Broadsword", "--seed", "3").out.splitlines()
    assert lines[-1] == f"rolled {total} (seed 3) against 14: {outcome(14, total)}"


def test_rapid_fire_hits_of_a_rolled_attack() -> None:
    report = json.loads(
        ok("attack", "16", "--ranged", "--rof", "10", "--recoil", "2", "--seed", "5", "--json").out
    )
    result = success_roll(report["attack"]["effective"], seeded(5))
    assert report["roll"] == seeded(5)
    assert report["hits"] == rapid_fire_hits(10, 2, max(0, result.margin) if result.success else -1)


def test_defend_rolls_when_no_roll_is_given() -> None:
    total = seeded(4)
    assert ok("defend", "dodge", "9", "--retreat", "--seed", "4").out.splitlines() == [
        "base dodge        9",
        "retreat          +3  B377",
        "effective dodge  12",
        f"rolled {total} (seed 4) against 12: {outcome(12, total)}",
    ]
    assert ok("defend", "dodge", "9", "--no-roll").out.splitlines() == [
        "base dodge       9",
        "effective dodge  9",
    ]


def test_defend_rolls_nothing_when_no_defense_is_allowed() -> None:
    run = ok(
        "defend", "parry", "10", "--maneuver-of-defender", "all_out_attack_double", "--seed", "1", "--json"
    )
    assert "roll" not in json.loads(run.out)


def test_hits_a_rolled_dodge_leaves() -> None:
    report = json.loads(ok("defend", "dodge", "8", "--vs-ranged", "--hits", "3", "--seed", "5", "--json").out)
    result = success_roll(8, seeded(5))
    left = hits_after_dodge(3, result.success, result.margin, result.critical)
    assert (report["roll"], report["rolled"], report["hitsLeft"]) == (seeded(5), True, left)


def test_a_characters_defense_rolls() -> None:
    report = json.loads(ok("defend", RURIK, "block", "--seed", "2", "--json").out)
    assert (report["roll"], report["seed"]) == (seeded(2), 2)
    assert report["result"] == success_roll(report["defense"]["value"], seeded(2)).to_dict()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("attack", "14", "--roll", "9", "--seed", "1"), "--seed: not allowed with argument --roll"),
        (("attack", "14", "--seed", "1", "--no-roll"), "--no-roll: not allowed with argument --seed"),
        (("defend", "dodge", "9", "--roll", "9", "--no-roll"), "--no-roll: not allowed with argument --roll"),
    ],
)
def test_one_of_roll_seed_and_no_roll(args: tuple[str, ...], message: str) -> None:
    assert f"error: argument {message}" in refused(*args)


@pytest.mark.parametrize("command", [("attack", "14"), ("defend", "dodge", "9")])
def test_a_seed_must_be_a_whole_number(command: tuple[str, ...]) -> None:
    assert (
        refused(*command, "--seed", "1.5")
        == "error: invalidArgument: --seed must be a whole number, not '1.5'.\n"
    )


# ================================================================ hit: a random location


BODIES = ROOT / "tests" / "fixtures" / "gcs" / "bodies"


def hit_report(*args: str) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(ok("hit", *args, "--json").out)
    return report


def test_a_random_location_is_rolled_on_the_table() -> None:
    """A number rolled at the table: the seed's first 3d is the location (B552)."""
    seen = set()
    for seed in range(30):
        report = hit_report(RURIK, "9", "cut", "--location", "random", "--seed", str(seed))
        total = seeded(seed)
        expected = hit_location(total)
        assert report["location"] == {
            "roll": total, "location": expected, "table": "B552's table", "row": None, "seed": seed
        }  # fmt: skip
        assert report["hit"]["location"] == expected  # the side rolled is kept (issue 30)
        seen.add(expected)
    assert len(seen) > 4


def test_a_rolled_damage_is_rolled_before_the_location() -> None:
    """The same seed gives the same damage with or without a random location."""
    rng = random.Random(11)
    damage = resolve_damage_notation(json.loads(Path(RURIK).read_text("utf-8")), "2d+1 cut").roll(rng)
    where = hit_location(roll_3d(rng))
    report = hit_report(RURIK, "2d+1", "cut", "--location", "random", "--seed", "11")
    assert (report["roll"]["total"], report["location"]["location"]) == (damage, where)
    assert hit_report(RURIK, "2d+1", "cut", "--seed", "11")["roll"]["total"] == damage


def test_the_location_is_shown_with_its_roll() -> None:
    total = seeded(1)
    lines = ok("hit", RURIK, "9", "cut", "--location", "RANDOM", "--seed", "1").out.splitlines()
    assert (
        lines[0]
        == f"location: rolled {total} on B552's table: {hit_location(total).replace('_', ' ')} (seed 1)"
    )
    assert lines[1].startswith(f"{RURIK}: 9 cut")


def test_without_a_location_the_hit_is_on_the_torso() -> None:
    """B398: a blow aimed nowhere in particular strikes the torso; nothing is rolled."""
    report = hit_report(RURIK, "9", "cut", "--seed", "1")
    assert "location" not in report and report["hit"]["location"] == "torso"


QUADRUPED = {
    **dict.fromkeys((3, 4), "Skull"), 5: "Face", 6: "Neck", **dict.fromkeys((7, 8), "Foreleg"),
    **dict.fromkeys((9, 10, 11), "Torso"), 12: "Groin", **dict.fromkeys((13, 14), "Hindleg"),
    **dict.fromkeys((15, 16), "Foot"), **dict.fromkeys((17, 18), "Tail"),
}  # fmt: skip


def test_a_gcs_body_rolls_on_its_own_table() -> None:
    """A quadruped's table (GCS's Quadruped body): a 17 or 18 is its tail."""
    path = str(BODIES / "quadruped.gcs")
    for seed in range(40):
        found = hit_report(path, "3", "cr", "--location", "random", "--seed", str(seed))["location"]
        assert (found["roll"], found["row"], found["table"]) == (
            seeded(seed),
            QUADRUPED[seeded(seed)],
            "the Quadruped table",
        )


def test_a_gcs_humanoid_keeps_the_side_and_never_a_sub_tables_row() -> None:
    """The expanded humanoid lists the Chinks (2-6) and Spine (1) of a sub-table after its own
    rows: a 5 is the Face, a 6 the Right Leg."""
    rows = {}
    for seed in range(60):
        found = hit_report(str(BODIES / "humanoid_expanded.gcs"), "1", "cr", "--location", "random",
                           "--seed", str(seed))["location"]  # fmt: skip
        rows[found["roll"]] = (found["row"], found["location"])
    assert rows[6] == ("Right Leg", "right_leg") and rows[13] == ("Left Leg", "left_leg")
    assert rows[5] == ("Face", "face") and rows[11] == ("Abdomen", "abdomen")


def _with_body(tmp_path: Path, change: Any) -> str:
    document = load_character(BODIES / "quadruped.gcs").character
    document = json.loads(json.dumps(document))
    change(document["extensions"][BODY_EXTENSION]["body"])
    path = tmp_path / "beast.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_a_body_table_that_cannot_be_rolled_is_refused(tmp_path: Path) -> None:
    other_dice = _with_body(tmp_path, lambda body: body.update(roll="2d"))
    assert refused("hit", other_dice, "3", "cr", "--location", "random") == (
        f"error: {other_dice}: invalidArgument: The Quadruped table rolls '2d', not 3d: give --location.\n"
    )

    def gap(body: dict[str, Any]) -> None:
        for row in body["locations"]:
            row["rollRange"] = "-"

    no_rows = _with_body(tmp_path, gap)
    message = refused("hit", no_rows, "3", "cr", "--location", "random", "--seed", "1")
    assert message == (
        f"error: {no_rows}: invalidArgument: The Quadruped table has no location for a roll of "
        f"{seeded(1)}: give --location.\n"
    )


@settings(max_examples=60, deadline=None)
@given(target=st.integers(-5, 25), modifier=st.integers(-12, 12), seed=st.integers(-(2**70), 2**70))
def test_roll_is_success_roll_of_the_seeded_3d(target: int, modifier: int, seed: int) -> None:
    """Any target, modifier and seed: the roll is roll_3d(Random(seed)), judged by success_roll,
    and nothing is rolled under 3 (B344)."""
    args = ("roll", str(target), "--modifier", str(modifier), "--seed", str(seed), "--json")
    report = json.loads(ok(*args).out)
    effective = target + modifier
    assert (report["effective"], report["canAttempt"]) == (effective, can_attempt(effective))
    if can_attempt(effective):
        assert report["roll"] == seeded(seed)
        assert report["result"] == success_roll(effective, seeded(seed)).to_dict()
    else:
        assert "roll" not in report and "result" not in report


def test_roll_reads_a_character_from_stdin() -> None:
    run = in_process("roll", "-", "Shield", "--roll", "13", "--json", stdin=Path(RURIK).read_bytes())
    assert run.status == 0, run.err
    report = json.loads(run.out)
    assert (report["target"]["pointer"], report["result"]["margin"]) == ("/skills/1/level", 0)
