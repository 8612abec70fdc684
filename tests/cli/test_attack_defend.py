"""``gurps-character attack`` and ``defend``: the effective value, one line per modifier with its
page, the roll judged, ``--json``, the errors, and no schema loaded (they answer at once)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from gurps_character.cli import main
from tests.support.paths import REPOSITORY


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


# ================================================================ attack


def test_attack_prints_each_modifier_with_its_page(capsys: pytest.CaptureFixture[str]) -> None:
    """14 - 4 (Move and Attack) - 2 (arm) = 8."""
    status, out, err = run(
        capsys, "attack", "14", "--maneuver", "move_and_attack", "--location", "arms", "--no-roll"
    )
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "base skill          14",
        "Move and Attack     -4  B365",
        "hit location (arm)  -2  B398",
        "effective skill      8",
    ]


def test_attack_says_when_move_and_attack_caps_the_skill(capsys: pytest.CaptureFixture[str]) -> None:
    """18 - 4 = 14, at most 9 (B365)."""
    status, out, _ = run(capsys, "attack", "18", "--maneuver", "move_and_attack", "--no-roll")
    assert status == 0
    assert out.splitlines() == [
        "base skill       18",
        "Move and Attack  -4  B365",
        "effective skill   9  (14 capped at 9, B365)",
    ]


def test_attack_with_a_roll(capsys: pytest.CaptureFixture[str]) -> None:
    """13 + 2 (Aim, Acc 2) - 4 (8 yards) + 1 (SM +1) = 12; a 9 makes it by 3."""
    status, out, _ = run(
        capsys,
        "attack",
        "13",
        "--ranged",
        "--distance-yards",
        "8",
        "--aim-turns",
        "1",
        "--acc",
        "2",
        "--target-sm",
        "+1",
        "--roll",
        "9",
    )
    assert status == 0
    assert out.splitlines() == [
        "base skill           13",
        "Aim (1 turn, Acc 2)  +2  B364",
        "target's SM          +1  B19",
        "speed/range          -4  B550",
        "effective skill      12",
        "roll 9 against 12: success, margin +3",
    ]


@pytest.mark.parametrize(
    ("roll", "line"),
    [
        ("4", "roll 4 against 12: critical success, margin +8"),
        ("12", "roll 12 against 12: success, margin +0"),
        ("13", "roll 13 against 12: failure, margin -1"),
        ("17", "roll 17 against 12: critical failure, margin -5"),
    ],
)
def test_attack_roll_lines(capsys: pytest.CaptureFixture[str], roll: str, line: str) -> None:
    status, out, _ = run(capsys, "attack", "12", "--roll", roll)
    assert status == 0 and out.splitlines()[-1] == line


def test_attack_counts_rapid_fire_hits(capsys: pytest.CaptureFixture[str]) -> None:
    """14 + 2 (10 shots) - 6 (20 yards) = 10; a 6 makes it by 4: 1 + 4 // 2 = 3 hits."""
    status, out, _ = run(
        capsys,
        "attack",
        "14",
        "--ranged",
        "--rof",
        "10",
        "--distance-yards",
        "20",
        "--roll",
        "6",
        "--recoil",
        "2",
    )
    assert status == 0
    assert out.splitlines()[-3:] == [
        "effective skill        10",
        "roll 6 against 10: success, margin +4",
        "hits: 3 of 10 shots (Rcl 2)",
    ]
    _, missed, _ = run(capsys, "attack", "14", "--ranged", "--rof", "10", "--roll", "17", "--recoil", "2")
    assert missed.splitlines()[-1] == "hits: 0 of 10 shots (Rcl 2)"


def test_attack_under_3_cannot_be_rolled(capsys: pytest.CaptureFixture[str]) -> None:
    """B344: 8 - 7 (skull) = 1."""
    status, out, _ = run(capsys, "attack", "8", "--location", "skull", "--roll", "3")
    assert status == 0
    assert out.splitlines()[-1] == (
        "roll 3 against 1: no roll, an effective skill under 3 cannot be attempted (B344)"
    )
    _, without_roll, _ = run(capsys, "attack", "8", "--location", "skull")
    assert without_roll.splitlines()[-1] == "an effective skill under 3 cannot be attempted (B344)"


def test_attack_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "attack", "14", "--location", "skull", "--roll", "5", "--json")
    assert status == 0
    assert json.loads(out) == {
        "attack": {
            "effective": 7,
            "modifiers": [{"id": "hit_location", "value": -7, "page": "B398"}],
            "capped": False,
        },
        "canAttempt": True,
        "roll": 5,
        "result": {"success": True, "critical": False, "margin": 2, "roll": 5},
    }
    _, plain, _ = run(capsys, "attack", "2", "--json")
    assert json.loads(plain) == {
        "attack": {"effective": 2, "modifiers": [], "capped": False},
        "canAttempt": False,
    }
    _, hits, _ = run(
        capsys, "attack", "1", "--ranged", "--rof", "5", "--roll", "4", "--recoil", "1", "--json"
    )
    assert json.loads(hits)["result"] is None and json.loads(hits)["hits"] == 0


# ================================================================ defend


def test_defend_prints_each_modifier_with_its_page(capsys: pytest.CaptureFixture[str]) -> None:
    """A fencing parry of 11, retreating (+3), after one parry (-2): 12; a 4 is critical."""
    status, out, err = run(
        capsys,
        "defend",
        "parry",
        "11",
        "--parry-style",
        "fencing",
        "--retreat",
        "--parries-so-far",
        "1",
        "--roll",
        "4",
    )
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "base parry           11",
        "retreat              +3  B377",
        "earlier parries (1)  -2  B376",
        "effective parry      12",
        "roll 4 against 12: critical success, margin +8",
    ]


def test_defend_without_a_defense(capsys: pytest.CaptureFixture[str]) -> None:
    for maneuver, line in (
        ("all_out_attack_double", "parry 10: no active defense after an All-Out Attack (B365)"),
        ("move_and_attack", "parry 10: no parry after a Move and Attack: dodge or block only (B365)"),
    ):
        status, out, _ = run(
            capsys, "defend", "parry", "10", "--maneuver-of-defender", maneuver, "--roll", "3"
        )
        assert (status, out.splitlines()) == (0, [line])
    _, behind, _ = run(
        capsys, "defend", "dodge", "10", "--attack-direction", "behind", "--json", "--roll", "3"
    )
    assert json.loads(behind) == {
        "defense": {"value": None, "modifiers": [], "reason": "attack_from_behind"},
        "roll": 3,
        "result": None,
    }


def test_defend_counts_the_hits_a_dodge_leaves(capsys: pytest.CaptureFixture[str]) -> None:
    """Dodge 8 against 3 hits: a 7 makes it by 1, avoiding 2 (B375)."""
    status, out, _ = run(capsys, "defend", "dodge", "8", "--vs-ranged", "--roll", "7", "--hits", "3")
    assert status == 0
    assert out.splitlines() == [
        "base dodge       8",
        "effective dodge  8",
        "roll 7 against 8: success, margin +1",
        "hits: 1 of 3 still land",
    ]
    _, as_json, _ = run(capsys, "defend", "dodge", "8", "--roll", "3", "--hits", "5", "--json")
    assert json.loads(as_json) == {
        "defense": {"value": 8, "modifiers": [], "reason": None},
        "roll": 3,
        "result": {"success": True, "critical": True, "margin": 5, "roll": 3},
        "hitsLeft": 0,
    }


def test_defend_every_label(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "defend",
        "parry",
        "9",
        "--shield-db",
        "1",
        "--maneuver-of-defender",
        "all_out_defense_parry",
        "--parry-style",
        "boxing",
        "--unarmed-vs-weapon",
        "--attack-direction",
        "side",
        "--posture",
        "lying",
        "--stunned",
        "--deceptive",
        "1",
        "--feint",
        "2",
        "--dual-weapon-attack",
        "--no-roll",
    )
    assert status == 0
    assert out.splitlines() == [
        "base parry                    9",
        "shield DB                    +1  B374",
        "All-Out Defense              +2  B366",
        "bare hands against a weapon  -3  B376",
        "attack from the side         -2  B390",
        "posture (lying)              -3  B551",
        "stunned                      -4  B420",
        "Deceptive Attack (level 1)   -1  B369",
        "feint                        -2  B365",
        "Dual-Weapon Attack           -1  B417",
        "effective parry              -4",
    ]


# ================================================================ errors


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("attack", "3.5"), "base_skill must be a whole number, not '3.5'."),
        (
            ("attack", "14", "--weapon", "Broadsword"),
            "--weapon needs a character file in SKILL's place, not the number '14'.",
        ),
        (
            ("defend", "parry", "9", "--combat-reflexes"),
            "--combat-reflexes needs a character file (defend FILE KIND), not the number '9'.",
        ),
        (("attack", "12", "--roll", "19"), "roll must be a whole number from 3 to 18, not 19."),
        (("attack", "12", "--roll", "3.5"), "roll must be a whole number, not '3.5'."),
        (
            ("attack", "12", "--ranged", "--distance-yards", "-3"),
            "distance_yards must be a number of at least 0, not '-3'.",
        ),
        (
            ("attack", "12", "--ranged", "--distance-yards", "far"),
            "distance_yards must be a number of at least 0, not 'far'.",
        ),
        (("attack", "12", "--distance-yards", "5"), "distance_yards must be None on a melee attack, not 5."),
        (
            ("attack", "11", "--deceptive", "1"),
            "deceptive must be at most 0 here, not 1: a Deceptive Attack needs a final effective skill of "
            "10 or more (B369), and level 1 leaves 9.",
        ),
        (
            ("attack", "12", "--posture", "prone"),
            "posture must be one of 'standing', 'crouching', 'kneeling', 'sitting', 'crawling', 'lying', "
            "not 'prone'.",
        ),
        (("defend", "shield", "9"), "kind must be one of 'dodge', 'parry', 'block', not 'shield'."),
        (("defend", "dodge", "nine"), "base must be a whole number, not 'nine'."),
        (
            ("defend", "dodge", "9", "--retreat", "--stunned"),
            "retreat must be False while stunned, not True.",
        ),
        (
            ("defend", "parry", "9", "--roll", "3", "--hits", "2"),
            "hits counts the hits a dodge leaves (B375), not a parry.",
        ),
        (
            ("defend", "dodge", "9", "--encumbrance-level", "5"),
            "encumbrance_level must be a whole number from 0 to 4, not 5.",
        ),
    ],
)
def test_errors_go_to_stderr_with_status_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    status, out, err = run(capsys, *args)
    assert (status, out) == (2, "")
    assert err == f"error: invalidArgument: {message}\n"


def test_the_commands_are_listed(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert "attack" in out and "defend" in out
    for command in ("attack", "defend"):
        code, text, _ = run(capsys, command, "--help")
        assert code == 0 and "--json" in text and "--roll" in text


def test_attack_and_defend_never_load_the_schema() -> None:
    """Both answer at once: nothing imports jsonschema or referencing (an import of either would
    fail here, and the command with it)."""
    script = textwrap.dedent(
        """
        import sys
        sys.modules["jsonschema"] = None
        sys.modules["referencing"] = None
        from gurps_character.cli import main
        assert main(["attack", "14", "--ranged", "--distance-yards", "8", "--roll", "9"]) == 0
        assert main(["defend", "parry", "10", "--retreat", "--roll", "9", "--json"]) == 0
        assert main(["attack", "x"]) == 2
        assert main(["attack", "14", "--weapon", "Broadsword"]) == 2
        assert sys.modules["jsonschema"] is None and sys.modules["referencing"] is None
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok")


# ================================================================ from a character file

EXAMPLES = REPOSITORY / "examples"
RURIK = str(EXAMPLES / "rurik.json")
SHARED = REPOSITORY.parent / "shared" / "gcs"


def rurik_file(tmp_path: Path, change: Any) -> str:
    """examples/rurik.json with ``change`` applied, written to a file of its own."""
    document = json.loads(Path(RURIK).read_text(encoding="utf-8"))
    change(document)
    path = tmp_path / "tamsin.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_attack_with_a_characters_weapon(capsys: pytest.CaptureFixture[str]) -> None:
    """Tamsin's Broadsword 14 (her skill of that name): -4 Move and Attack, -2 arm = 8."""
    status, out, err = run(
        capsys, "attack", RURIK, "--weapon", "broadsword", "--maneuver", "move_and_attack",
        "--location", "arm", "--roll", "8",
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "Tamsin Ashdown: Broadsword, used with the skill Broadsword",
        "base skill          14  /skills/0/level",
        "Move and Attack     -4  B365",
        "hit location (arm)  -2  B398",
        "effective skill      8",
        "roll 8 against 8: success, margin +0",
    ]


def test_attack_shows_what_the_sheet_did_to_the_base(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Tired (3 of 12 FP): ST 11 halved is 6, 4 short of the bow's 10 (B270, B426): Bow 13 - 4 = 9;
    Acc 2 from the bow after one Aim, 8 yards -4."""
    path = rurik_file(tmp_path, lambda doc: doc["secondary"]["fp"].update(current=3))
    status, out, _ = run(
        capsys,
        "attack",
        path,
        "--weapon",
        "Regular Bow",
        "--aim-turns",
        "1",
        "--distance-yards",
        "8",
        "--no-roll",
    )
    assert status == 0
    assert out.splitlines() == [
        "Tamsin Ashdown: Regular Bow, used with the skill Bow",
        "from the sheet                 13  /skills/2/level",
        "under the weapon's minimum ST  -4  B270",
        "base skill                      9",
        "Aim (1 turn, Acc 2)            +2  B364",
        "speed/range                    -4  B550",
        "effective skill                 7",
    ]


def test_attack_counts_hits_with_the_weapons_recoil(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A pistol (Guns 14, Rcl 2), 3 shots at 10 yards: 14 - 4 = 10; a 7 makes it by 3: 2 hits (B374)."""

    def armed(document: dict[str, Any]) -> None:
        skill = copy.deepcopy(document["skills"][0])
        document["skills"].append({**skill, "name": "Guns (Pistol)", "level": 14})
        document["weapons"]["ranged"].append(
            {"name": "Pistol", "accuracy": "2", "bulk": -2, "recoil": 2, "notes": "Guns (Pistol)"}
        )

    path = rurik_file(tmp_path, armed)
    status, out, _ = run(
        capsys, "attack", path, "--weapon", "pistol", "--rof", "3", "--distance-yards", "10", "--roll", "7"
    )
    assert status == 0
    assert out.splitlines()[-3:] == [
        "effective skill  10",
        "roll 7 against 10: success, margin +3",
        "hits: 2 of 3 shots (Rcl 2)",
    ]


def test_attack_with_a_named_skill_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "attack", RURIK, "--skill", "Knife", "--shock", "-2", "--roll", "10", "--json"
    )
    assert status == 0
    assert json.loads(out) == {
        "attack": {
            "effective": 10,
            "modifiers": [{"id": "shock", "value": -2, "page": "B419"}],
            "capped": False,
        },
        "base": 12,
        "sheetValue": 12,
        "source": "the skill Knife",
        "pointer": "/skills/3/level",
        "weapon": None,
        "skill": "Knife",
        "adjustments": [],
        "options": {"shock": -2},
        "canAttempt": True,
        "roll": 10,
        "result": {"success": True, "critical": False, "margin": 0, "roll": 10},
    }


def test_defend_with_a_characters_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    """Her Dodge 9, unencumbered; she carries 27 kg, a medium load (B17): -2."""
    status, out, _ = run(capsys, "defend", RURIK, "dodge", "--retreat", "--roll", "10")
    assert status == 0
    assert out.splitlines() == [
        "Tamsin Ashdown: the sheet's Dodge",
        "base dodge              9  /defenses/dodge/value",
        "retreat                +3  B377",
        "encumbrance (level 2)  -2  B17",
        "effective dodge        10",
        "roll 10 against 10: success, margin +0",
    ]


def test_defend_halved_and_with_combat_reflexes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Reeling at 4 of 13 HP: Dodge 9, +1 Combat Reflexes (the sheet's 9 is the bare formula),
    -2 medium load, halved: 4."""
    path = rurik_file(tmp_path, lambda doc: doc["secondary"]["hp"].update(current=4))
    status, out, _ = run(capsys, "defend", path, "dodge", "--combat-reflexes", "--no-roll")
    assert status == 0
    assert out.splitlines() == [
        "Tamsin Ashdown: the sheet's Dodge",
        "from the sheet                       9  /defenses/dodge/value",
        "Combat Reflexes (not on the sheet)  +1  B43",
        "encumbrance                         -2  B17",
        "halved: HP below 1/3                -4  B419",
        "base dodge                           4",
        "effective dodge                      4",
    ]
    _, plain, _ = run(capsys, "defend", path, "dodge", "--no-combat-reflexes", "--no-roll")
    assert "Combat Reflexes" not in plain and plain.splitlines()[-1].split() == ["effective", "dodge", "4"]


def test_defend_a_yaml_characters_weapon_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    """Odile's Large Knife parries at 8 (Knife 13: 6 + 3, -1 for a large knife; her sheet's Parry 9
    is the format's formula, which leaves the knife's modifier out); an earlier parry -4 (B376)."""
    status, out, _ = run(
        capsys, "defend", str(EXAMPLES / "odile.yaml"), "parry", "--weapon", "Large Knife",
        "--parries-so-far", "1", "--json",
    )  # fmt: skip
    assert status == 0
    report = json.loads(out)
    assert report["defense"] == {
        "value": 4,
        "modifiers": [{"id": "multiple_parries", "value": -4, "page": "B376"}],
        "reason": None,
    }
    assert (report["kind"], report["base"], report["weapon"], report["pointer"]) == (
        "parry",
        8,
        "Large Knife",
        "/weapons/melee/0/parry",
    )
    assert report["options"] == {"parriesSoFar": 1, "encumbranceLevel": 0, "parryStyle": "weapon"}


def test_defend_reads_a_character_from_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gurps_character", "defend", "-", "block", "--json"],
        input=Path(RURIK).read_bytes(),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["defense"]["value"] == 9


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/gcs (GCS's own files) is absent")
def test_attack_and_defend_with_a_gcs_file(capsys: pytest.CaptureFixture[str]) -> None:
    """GCS's own level and parry for Louis d'Antares' punch (14, parry 11)."""
    path = str(SHARED / "Basic_Set-Characters__Louis_d_Antares.gcs")
    status, out, _ = run(
        capsys, "attack", path, "--weapon", "Natural Attacks", "--mode", "punch", "--no-roll"
    )
    assert status == 0
    assert out.splitlines() == [
        "Haut-Cornet \"Louis\" d'Antares: Natural Attacks (Punch), at GCS's level",
        "base skill       14  /extensions/io.github.gurps-sheet.gcs-import/weapons/melee/1/level",
        "effective skill  14",
    ]
    status, out, _ = run(capsys, "defend", path, "parry", "--weapon", "Natural Attacks", "--json")
    assert status == 0 and json.loads(out)["defense"]["value"] == 11


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("attack", RURIK), "invalidArgument: An attack needs a weapon or a skill: pass weapon or skill."),
        (
            ("attack", RURIK, "--weapon", "Axe"),
            "invalidArgument: weapon must be one of the character's weapons ('Broadsword', 'Large Knife', "
            "'Regular Bow'), not 'Axe'.",
        ),
        (
            ("defend", RURIK, "shield"),
            "invalidArgument: kind must be one of 'dodge', 'parry', 'block', not 'shield'.",
        ),
        (
            ("defend", RURIK, "block", "--weapon", "Broadsword"),
            "invalidArgument: weapon 'Broadsword' gives no block: only a weapon used with the skill of the "
            "sheet's Block (Shield) blocks.",
        ),
        (
            ("defend", RURIK, "dodge", "--retreat", "--vs-ranged"),
            "invalidArgument: retreat must be False against a ranged attack, not True.",
        ),
    ],
)
def test_character_errors_name_the_file(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    status, out, err = run(capsys, *args)
    assert (status, out) == (2, "")
    assert err == f"error: {RURIK}: {message}\n"


def test_a_file_that_cannot_be_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "nobody.json")
    for args in (("attack", missing, "--skill", "Knife"), ("defend", missing, "dodge")):
        status, out, err = run(capsys, *args)
        assert (status, out) == (2, "")
        assert err.startswith(f"error: {missing}: unreadable: ")
