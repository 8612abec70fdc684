"""``gurps-character hit``: the resolution step by step, applying it like ``damage``, its errors;
and ``stats`` showing each weapon's damage resolved for the character."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from gurps_character import apply_hit, resolve_hit, serialize_character
from gurps_character.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
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
        (("x", "cut"), "invalidArgument: basic_damage must be a whole number of at least 0, not 'x'."),
        (("3", "slash"), "invalidArgument: damage_type must be one of 'cr', 'cut', 'imp', 'pi-', 'pi', "),
        (("3", "cut", "--location", "head"), "invalidArgument: location must be one of 'skull', "),
        (("3", "cut", "--armor-divisor", "4"), "invalidArgument: armor_divisor must be one of 1, 2, 3, 5, "),
        (
            ("3", "cut", "--armor-divisor", "two"),
            "invalidArgument: armor_divisor must be one of 1, 2, 3, 5, ",
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
