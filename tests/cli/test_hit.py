"""``gurps-character hit``: the resolution step by step, applying it like ``damage``, its errors;
and ``stats`` showing each weapon's damage resolved for the character."""

from __future__ import annotations

import json
import random
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from gurps_character import apply_hit, resolve_damage_notation, resolve_hit, serialize_character
from gurps_character.cli import main
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
RURIK = EXAMPLES / "rurik.json"
NOW = "2026-10-05T10:00:00Z"
NOW_DT = datetime(2026, 10, 5, 10, tzinfo=UTC)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


@pytest.fixture
def rurik(tmp_path: Path) -> Path:
    path = tmp_path / "rurik.json"
    shutil.copyfile(RURIK, path)
    return path


def test_hit_prints_the_resolution_step_by_step_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], rurik: Path
) -> None:
    """Rurik's pot helm DR 4 + 2 = 6, (2): 3; 8 imp: 5 x4 = 20."""
    before = rurik.read_bytes()
    status, out, err = run(
        capsys, "hit", str(rurik), "8", "imp", "--location", "skull", "--armor-divisor", "2"
    )
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        f"{rurik}: 8 imp to the skull",
        "DR 6 (4 listed + 2 skull), armor divisor (2): effective DR 6 / 2 = 3 (rounded down)",
        "penetrating 8 - 3 = 5",
        "multiplier x4",
        "injury 5 x4 = 20",
        "shock -4 to DX and IQ on the next turn",
        "major wound: yes",
        "crippled: no",
        "knockback: none",
        "roll: knockdown, HT-10, immediately (B420)",
    ]
    assert rurik.read_bytes() == before


def test_hit_shows_rounding_the_limb_cap_and_knockback(
    capsys: pytest.CaptureFixture[str], rurik: Path
) -> None:
    """Rurik (HP 13, ST 11) 9 cut to the arm, DR 1: 8 x1.5 = 12, 7 suffered."""
    status, out, _ = run(capsys, "hit", str(rurik), "9", "cut", "--location", "arm")
    assert status == 0
    assert "injury 8 x1.5 = 12, 7 suffered (the excess on the arm is lost)" in out.splitlines()
    assert "crippled: yes" in out.splitlines()
    status, out, _ = run(capsys, "hit", str(rurik), "7", "cut", "--dr", "0")
    assert "injury 7 x1.5 = 10.5 -> 10 (rounded down)" in out.splitlines()
    status, out, _ = run(capsys, "hit", str(rurik), "18", "cr", "--dr", "30")
    assert "knockback: 2 yards" in out.splitlines()  # 18 // (11 - 2) = 2
    assert "roll: keep one's feet, DX-1, immediately (B378)" in out.splitlines()


@pytest.mark.parametrize(
    ("divisor", "line"),
    [
        ("0.5", "DR 2, armor divisor (0.5): effective DR 2 x2 = 4"),
        ("inf", "DR 2, armor divisor ignores DR: effective DR 0"),
        ("(10)", "DR 2, armor divisor (10): effective DR 2 / 10 = 0 (rounded down)"),
        ("4", "DR 2, armor divisor (4): effective DR 2 / 4 = 0 (rounded down)"),
        ("1.5", "DR 2, armor divisor (1.5): effective DR 2 / 1.5 = 1 (rounded down)"),
        ("0.25", "DR 2, armor divisor (0.25): effective DR 2 x4 = 8"),
        ("0.3", "DR 2, armor divisor (0.3): effective DR 2 / 0.3 = 6 (rounded down)"),
    ],
)
def test_hit_reads_the_armor_divisor(
    capsys: pytest.CaptureFixture[str], rurik: Path, divisor: str, line: str
) -> None:
    status, out, _ = run(capsys, "hit", str(rurik), "5", "pi", "--armor-divisor", divisor)
    assert status == 0 and out.splitlines()[1] == line


def test_hit_in_place_applies_it_like_the_library(capsys: pytest.CaptureFixture[str], rurik: Path) -> None:
    """18 cr to the torso (DR 2): 16 injury, HP 11 -> -5; knockback 18 // 9 = 2 yards."""
    document = json.loads(RURIK.read_text(encoding="utf-8"))
    expected = apply_hit(document, resolve_hit(document, 18, "cr"), now=NOW_DT).document
    status, out, err = run(capsys, "hit", str(rurik), "18", "cr", "--in-place", "--now", NOW)
    assert (status, err) == (0, "")
    assert rurik.read_text(encoding="utf-8") == serialize_character(expected)
    assert out.splitlines()[-4:] == [
        f"{rurik}: HP 11 -> -5 (max 13): collapse",
        "owed: knockdown check, HT, immediately (B420)",
        "owed: keep one's feet after 2 yards of knockback, DX-1, immediately (B378)",
        "owed: consciousness check, HT, at the start of the next turn (B419)",
    ]
    assert not any(line.startswith("roll:") for line in out.splitlines())


def test_hit_to_stdout_reports_on_stderr(capsys: pytest.CaptureFixture[str], rurik: Path) -> None:
    status, out, err = run(capsys, "hit", str(rurik), "4", "cut", "-o", "-", "--now", NOW)
    assert status == 0
    assert json.loads(out)["secondary"]["hp"]["current"] == 8  # (4 - 2) x1.5 = 3
    assert f"{rurik}: HP 11 -> 8 (max 13): wounded" in err.splitlines()


def test_hit_json(capsys: pytest.CaptureFixture[str], rurik: Path) -> None:
    status, out, _ = run(capsys, "hit", str(rurik), "5", "fat", "--json")
    report: dict[str, Any] = json.loads(out)
    assert status == 0 and set(report) == {"hit"}
    assert (report["hit"]["pool"], report["hit"]["injury"]) == ("fp", 3)
    status, out, _ = run(capsys, "hit", str(rurik), "5", "fat", "--json", "-i", "--now", NOW)
    report = json.loads(out)
    assert set(report) == {"hit", "change"} and report["change"]["after"]["current"] == 6


def test_hit_options_reach_the_library(capsys: pytest.CaptureFixture[str], rurik: Path) -> None:
    status, out, _ = run(
        capsys, "hit", str(rurik), "4", "burn", "--location", "vitals", "--tight-beam", "--json"
    )
    assert status == 0 and json.loads(out)["hit"]["injury"] == 4  # (4 - 2) x2
    status, out, _ = run(capsys, "hit", str(rurik), "5", "cr", "--location", "groin", "--json")
    assert json.loads(out)["hit"]["shock"] == -6  # 3 injury, doubled
    status, out, _ = run(
        capsys, "hit", str(rurik), "5", "cr", "--location", "groin", "--no-vulnerable-groin", "--json"
    )
    assert json.loads(out)["hit"]["shock"] == -3
    status, out, _ = run(capsys, "hit", str(rurik), "5", "cr", "--pain-threshold", "high", "--json")
    assert json.loads(out)["hit"]["shock"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("-3", "cut"), "invalidArgument: basic_damage must be a whole number of at least 0, not -3."),
        (
            ("x", "cut"),
            "invalidArgument: DAMAGE TYPE is not a damage notation: expected 'thr', 'sw' or dice such as "
            "'2d' (at character 1 of 'x cut').",
        ),
        (("5",), "invalidArgument: TYPE must follow a rolled number: cr, cut, imp, pi-, pi, pi+, pi++, "),
        (
            ("Broadsword",),
            "invalidArgument: Broadsword has 2 damage lines (1 sw+1 cut; 2 thr+1 cr): pick one",
        ),
        (
            ("Broadsword", "--line", "3"),
            "invalidArgument: --line 3: Broadsword has 2 damage lines (1 sw+1 cut; ",
        ),
        (
            ("Broadsword", "--line", "0"),
            "invalidArgument: --line must be a whole number of at least 1, not '0'.",
        ),
        (("2d cut", "--seed", "x"), "invalidArgument: --seed must be a whole number, not 'x'."),
        (
            ("xyz",),
            "invalidArgument: DAMAGE must be a whole number (with TYPE), a damage notation or a weapon "
            "of the wielder (Broadsword, Large Knife, Regular Bow), not 'xyz'; as a notation: expected "
            "'thr', 'sw' or dice such as '2d' (at character 1 of 'xyz').",
        ),
        (("3", "slash"), "invalidArgument: damage_type must be one of 'cr', 'cut', 'imp', 'pi-', 'pi', "),
        (("3", "cut", "--location", "head"), "invalidArgument: location must be one of 'skull', "),
        (
            ("3", "cut", "--armor-divisor", "4000"),
            "invalidArgument: armor_divisor must be a number from 0.001 to 1000 (1 for none), or "
            "math.inf for 'ignores DR', not 4000.",
        ),
        (
            ("3", "cut", "--armor-divisor", "two"),
            "invalidArgument: armor_divisor must be a number from 0.001 to 1000 (1 for none), or inf "
            "for 'ignores DR', not 'two'.",
        ),
        (("3", "cut", "--dr", "-1"), "invalidArgument: dr must be a whole number of at least 0, not -1."),
        (("3", "cut", "--location", "eye"), "invalidArgument: cut damage cannot hit the eye: only imp, "),
        (("3", "cut", "--now", "yesterday"), "invalidArgument: --now 'yesterday' is not an ISO 8601 time"),
    ],
)
def test_hit_refuses_bad_arguments_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], rurik: Path, args: tuple[str, ...], message: str
) -> None:
    before = rurik.read_bytes()
    status, out, err = run(capsys, "hit", str(rurik), *args, "--in-place")
    assert (status, out) == (2, "")
    assert err.startswith(f"error: {rurik}: {message}")
    assert rurik.read_bytes() == before


def test_hit_in_place_needs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "hit", "-", "3", "cut", "--in-place")
    assert status == 2 and "--in-place needs a file, not stdin." in err


def test_hit_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hit", "--help"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "--armor-divisor" in out and "--pain-threshold" in out


def test_stats_shows_each_weapons_damage_resolved(capsys: pytest.CaptureFixture[str]) -> None:
    """Rurik: thrust 1d-1, swing 1d+1."""
    status, out, _ = run(capsys, "stats", str(RURIK))
    assert status == 0
    assert "sw+1 cut = 1d+2 cut, thr+1 cr = 1d cr" in out
    assert "sw-2 cut = 1d-1 cut, thr imp = 1d-1 imp" in out
    assert "thr+2 imp = 1d+1 imp" in out


def test_stats_shows_a_notation_it_cannot_read_as_written(
    capsys: pytest.CaptureFixture[str], rurik: Path
) -> None:
    document = json.loads(rurik.read_text(encoding="utf-8"))
    document["weapons"]["melee"][0]["damage"] = [{"notation": "HT-3 aff"}, {"notation": "sw+2 (2) cut"}]
    rurik.write_text(json.dumps(document), encoding="utf-8")
    status, out, _ = run(capsys, "stats", str(rurik))
    assert status == 0 and "HT-3 aff, sw+2 (2) cut = 1d+3 (2) cut" in out


# ---------------------------------------------------------------- damage rolled by the command


def rolled(notation: str, seed: int, wielder: Path = RURIK) -> int:
    """What the library rolls for the notation with ``random.Random(seed)``."""
    document = json.loads(wielder.read_text(encoding="utf-8"))
    return resolve_damage_notation(document, notation).roll(random.Random(seed))


def test_hit_rolls_a_notation_and_prints_the_roll_first(
    capsys: pytest.CaptureFixture[str], rurik: Path
) -> None:
    total = rolled("2d+1 cut", 7)
    status, out, err = run(capsys, "hit", str(rurik), "2d+1", "cut", "--seed", "7")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"rolled 2d+1 cut: {total}"
    document = json.loads(rurik.read_text(encoding="utf-8"))
    status, plain, _ = run(capsys, "hit", str(rurik), str(total), "cut")
    assert lines[1:] == plain.splitlines()  # the rest is the hit of that number
    assert run(capsys, "hit", str(rurik), "2d+1 cut", "--seed", "7")[1] == out  # TYPE inside DAMAGE
    assert 3 <= total <= 13 and resolve_hit(document, total, "cut").basic_damage == total


def test_the_same_seed_rolls_the_same_and_no_seed_rolls_anew(
    capsys: pytest.CaptureFixture[str], rurik: Path
) -> None:
    first = run(capsys, "hit", str(rurik), "3d", "cr", "--seed", "11")[1]
    assert run(capsys, "hit", str(rurik), "3d", "cr", "--seed", "11")[1] == first
    totals = {run(capsys, "hit", str(rurik), "3d", "cr")[1].splitlines()[0] for _ in range(40)}
    assert len(totals) > 1 and all(line.startswith("rolled 3d cr: ") for line in totals)


def test_hit_rolls_a_weapon_of_the_attacker(capsys: pytest.CaptureFixture[str], rurik: Path) -> None:
    """Jotun's bridge-post club, sw+4 cr with his swing 4d+2: 4d+6 (B271)."""
    jotun = EXAMPLES / "jotun.json"
    total = rolled("sw+4 cr", 3, wielder=jotun)
    status, out, _ = run(
        capsys, "hit", str(rurik), "bridge-post CLUB", "--attacker", str(jotun), "--seed", "3"
    )
    assert status == 0
    assert out.splitlines()[:2] == [
        f"rolled sw+4 cr = 4d+6 cr (Bridge-post club): {total}",
        f"{rurik}: {total} cr",
    ]
    assert run(capsys, "hit", str(rurik), "sw+4", "cr", "--attacker", str(jotun), "--seed", "3")[
        1
    ] == out.replace(" (Bridge-post club)", "")


def test_hit_rolls_the_characters_own_weapon_line(capsys: pytest.CaptureFixture[str], rurik: Path) -> None:
    """Without --attacker the wielder is the character hit: Rurik's broadsword thrust, thr+1 cr = 1d cr."""
    total = rolled("thr+1 cr", 5)
    status, out, _ = run(capsys, "hit", str(rurik), "Broadsword", "--line", "2", "--seed", "5", "--json")
    assert status == 0
    printed = json.loads(out)
    assert printed["roll"] == {
        "asked": "Broadsword",
        "weapon": "Broadsword",
        "damage": resolve_damage_notation(
            json.loads(RURIK.read_text(encoding="utf-8")), "thr+1 cr"
        ).to_dict(),
        "total": total,
        "seed": 5,
    }
    assert printed["hit"]["basicDamage"] == total and printed["hit"]["damageType"] == "cr"


def test_a_rolled_hit_is_applied_as_rolled(capsys: pytest.CaptureFixture[str], rurik: Path) -> None:
    total = rolled("sw+9 cut", 2)
    document = json.loads(rurik.read_text(encoding="utf-8"))
    expected = apply_hit(document, resolve_hit(document, total, "cut"), now=NOW_DT).document
    status, out, _ = run(capsys, "hit", "--in-place", str(rurik), "sw+9 cut", "--seed", "2", "--now", NOW)
    assert status == 0
    assert out.splitlines()[0] == f"rolled sw+9 cut = 1d+10 cut: {total}"
    assert rurik.read_text(encoding="utf-8") == serialize_character(expected)


def test_a_notations_divisor_and_beam_are_the_hits(capsys: pytest.CaptureFixture[str], rurik: Path) -> None:
    status, out, _ = run(capsys, "hit", str(rurik), "1d tbb", "--location", "vitals", "--seed", "1", "--json")
    assert status == 0 and json.loads(out)["hit"]["tightBeam"] is True
    status, out, _ = run(capsys, "hit", str(rurik), "3d (2) pi", "--seed", "1", "--json")
    assert json.loads(out)["hit"]["armorDivisor"] == 2
    status, out, _ = run(
        capsys, "hit", str(rurik), "3d (2) pi", "--seed", "1", "--armor-divisor", "5", "--json"
    )
    assert json.loads(out)["hit"]["armorDivisor"] == 5  # given on the command line: it wins


def test_an_affliction_is_no_roll(capsys: pytest.CaptureFixture[str], rurik: Path) -> None:
    document = json.loads(rurik.read_text(encoding="utf-8"))
    document["weapons"]["melee"][0]["damage"] = [{"notation": "HT-3 aff", "type": "aff"}]
    rurik.write_text(json.dumps(document), encoding="utf-8")
    status, _, err = run(capsys, "hit", str(rurik), "Broadsword")
    assert status == 2
    assert err.startswith(
        f"error: {rurik}: invalidArgument: Broadsword: HT-3 aff is no damage roll: notation: "
    )
