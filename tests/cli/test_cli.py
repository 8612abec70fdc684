"""The ``gurps-character`` command line, driven as a user drives it: arguments, stdin and a working
folder in, stdout, stderr and the exit status out (in this process, :mod:`cli_runner`; in a new
one where only a process shows it: ``python -m``, ``--jobs``, a terminal).

Every command, every exit status (0 all good, 1 valid but not rules-compliant, 2 unreadable,
invalid or a wrong argument), the ``--json`` shapes, stdin, folders, ``--jobs``, the help texts,
the conditions (``stats``' Condition line, the pool commands' follow-ups, ``--spill``,
``--follow-ups-json``) and the writing guarantees: a written file is complete and valid, a
failed command leaves the original byte-identical, and no temporary file is left behind.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from gurps_character import (
    SCHEMA,
    __version__,
    apply_damage,
    change_pool,
    combat_stats,
    get_condition,
    get_updatable_fields,
    heal,
    parse_character,
    recover_fatigue,
    serialize_character,
    spend_fatigue,
    update_character,
)
from gurps_character.formula import recompute
from tests.support.cli_runner import Run, in_a_process, in_process
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
NOW = "2026-10-05T10:00:00Z"
NOW_DT = datetime(2026, 10, 5, 10, tzinfo=UTC)
COMMANDS = (
    "check",
    "validate",
    "stats",
    "recompute",
    "fields",
    "damage",
    "heal",
    "fatigue",
    "recover",
    "update",
)


def cli(*args: str, cwd: Path | None = None, stdin: bytes | None = None) -> Run:
    """Runs ``gurps-character ARGS`` (in this process) and checks it never shows a traceback."""
    return in_process(*args, cwd=cwd, stdin=stdin)


def cli_many(commands: Sequence[Sequence[str]]) -> list[Run]:
    """Runs several independent commands, in order of ``commands``."""
    return [in_process(*args) for args in commands]


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def document(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = parse_character(path.read_bytes()).character  # type: ignore[assignment]
    return loaded


def leftovers(folder: Path) -> list[str]:
    """Temporary files a writer might have left."""
    return sorted(
        path.name for path in folder.iterdir() if path.name.startswith(".") or path.suffix == ".tmp"
    )


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    """The examples and two broken files, copied into a fresh folder."""
    paths = {name: tmp_path / f"{name}.json" for name in ("rurik", "jotun")}
    for name, path in paths.items():
        shutil.copyfile(EXAMPLES / f"{name}.json", path)
    invalid = json.loads((EXAMPLES / "rurik.json").read_text("utf-8"))
    invalid["profile"]["name"] = 3
    del invalid["skills"]
    paths["invalid"] = tmp_path / "invalid.json"
    paths["invalid"].write_text(json.dumps(invalid), "utf-8")
    paths["broken"] = tmp_path / "broken.json"
    paths["broken"].write_text('{"format": "gurps-character",', "utf-8")
    return paths


# ---------------------------------------------------------------- version, help, usage


def test_version() -> None:
    run = in_a_process("--version")  # the module entry point, python -m gurps_character
    assert run.status == 0
    assert run.out.strip() == f"gurps-character {__version__}"


def test_help_of_every_command_has_examples() -> None:
    commands: list[tuple[str, ...]] = [(), *((command,) for command in COMMANDS)]
    runs = cli_many([(*command, "--help") for command in commands])
    for command, run in zip(commands, runs, strict=True):
        assert run.status == 0, command
        assert run.out.startswith("usage: gurps-character"), command
        assert "examples:\n" in run.out, command
        if command:
            assert f"gurps-character {command[0]} " in run.out.split("examples:")[1]
    helps = {command[0]: run.out for command, run in zip(commands, runs, strict=True) if command}
    assert "--condition" in helps["stats"]
    assert "Condition:" in helps["stats"]
    for name in ("damage", "heal", "fatigue", "recover"):
        assert "--follow-ups-json" in helps[name], name
        assert ("--spill" in helps[name].split("examples:")[0]) == (name == "fatigue"), name
    assert "owed: death check" in helps["damage"]


def test_usage_errors_exit_2() -> None:
    commands = [(), ("frobnicate",), ("check",), ("check", "--jobs", "0", "x.json")]
    for args, run in zip(commands, cli_many(commands), strict=True):
        assert run.status == 2, args
        assert "usage: gurps-character" in run.err


def test_console_script_is_installed() -> None:
    script = Path(sys.executable).parent / ("gurps-character.exe" if os.name == "nt" else "gurps-character")
    if not script.exists():
        pytest.skip("the console script is not installed next to this interpreter")
    done = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0
    assert done.stdout.strip() == f"gurps-character {__version__}"


# ---------------------------------------------------------------- check


def test_check_compliant_file_exits_0(files: dict[str, Path]) -> None:
    run = cli("check", str(files["rurik"]))
    assert run.status == 0
    assert run.out.splitlines()[0] == str(files["rurik"])
    assert "  valid: yes" in run.out
    assert "  rules-compliant: yes" in run.out
    assert "  deviations: none" in run.out


def test_check_deviation_exits_1_and_shows_the_justification(files: dict[str, Path]) -> None:
    run = cli("check", str(files["jotun"]))
    assert run.status == 1
    assert "  valid: yes" in run.out
    assert "  rules-compliant: no" in run.out
    assert "/damage/swing: 4d+2 (the rules give 4d)" in run.out
    assert "justification: Long-armed leverage" in run.out
    assert "inconsistencies: none" in run.out
    assert "issues: none" in run.out


def test_check_invalid_file_exits_2_with_each_schema_error(files: dict[str, Path]) -> None:
    run = cli("check", str(files["rurik"]), str(files["jotun"]), str(files["invalid"]))
    assert run.status == 2
    assert str(files["invalid"]) not in run.out  # errors go to stderr, as every command's do
    assert run.err.splitlines() == [
        f"error: {files['invalid']}: schema: the document does not match the schema (2 errors):",
        "  (root): must have required property 'skills'",
        "  /profile/name: must be string",
    ]
    assert (
        "3 files: 1 valid and rules-compliant, 1 valid but not rules-compliant, 1 unreadable or invalid"
        in run.out
    )


def test_check_json_lines(files: dict[str, Path]) -> None:
    names = ("rurik", "jotun", "invalid", "broken")
    run = cli("check", "--json", *(str(files[name]) for name in names))
    assert run.status == 2
    lines = json_lines(run.out)
    assert [line["path"] for line in lines] == [str(files[name]) for name in names]
    rurik, jotun, invalid, broken = lines
    assert set(rurik) == {"path", "ok", "report"}
    assert rurik["ok"] is True
    assert rurik["report"] == parse_character(files["rurik"].read_bytes()).report.to_dict()
    assert jotun["ok"] is False
    assert jotun["report"]["rulesCompliant"] is False
    assert jotun["report"]["deviations"][0]["pointer"] == "/damage/swing"
    assert jotun["report"]["deviations"][0]["justification"].startswith("Long-armed")
    for line, code in ((invalid, "schema"), (broken, "invalidJson")):
        assert set(line) == {"path", "ok", "error"}
        assert line["ok"] is False
        assert set(line["error"]) == {"code", "message", "details"}
        assert line["error"]["code"] == code
    pointers = {error["pointer"] for error in invalid["error"]["details"]["errors"]}
    assert pointers == {"", "/profile/name"}
    assert broken["error"]["details"] == {"truncated": True}


def test_check_stdin(files: dict[str, Path]) -> None:
    run = cli("check", "-", stdin=files["rurik"].read_bytes())
    assert run.status == 0
    assert run.out.startswith("<stdin>\n")
    run = cli("check", "--json", "-", stdin=files["jotun"].read_bytes())
    assert run.status == 1
    assert json_lines(run.out)[0]["path"] == "-"


def test_check_folders_recursively_sorted(tmp_path: Path) -> None:
    root = tmp_path / "campaign"
    (root / "b-party" / "npcs").mkdir(parents=True)
    (root / "a").mkdir()
    shutil.copyfile(EXAMPLES / "rurik.json", root / "z.json")
    shutil.copyfile(EXAMPLES / "jotun.json", root / "b-party" / "npcs" / "troll.json")
    shutil.copyfile(EXAMPLES / "rurik.json", root / "a" / "hero.json")
    (root / "a" / "notes.txt").write_text("not a character", "utf-8")
    run = cli("check", "--json", "campaign", cwd=tmp_path)
    assert run.status == 1
    expected = [
        os.path.join("campaign", "a", "hero.json"),
        os.path.join("campaign", "b-party", "npcs", "troll.json"),
        os.path.join("campaign", "z.json"),
    ]
    assert [line["path"] for line in json_lines(run.out)] == expected


def test_check_folder_without_json_exits_2(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    run = cli("check", "--json", "empty", cwd=tmp_path)
    assert run.status == 2
    [line] = json_lines(run.out)
    assert line["path"] == "empty"
    assert line["error"]["code"] == "noJsonFiles"


def test_check_unreadable_not_utf8_and_too_large(tmp_path: Path) -> None:
    (tmp_path / "latin1.json").write_bytes('{"name": "Jos\xe9"}'.encode("latin-1"))
    (tmp_path / "huge.json").write_bytes(b" " * 2_000_001)
    run = cli("check", "--json", "missing.json", "latin1.json", "huge.json", cwd=tmp_path)
    assert run.status == 2
    missing, latin1, huge = json_lines(run.out)
    assert missing["error"]["code"] == "unreadable"
    assert latin1["error"]["code"] == "invalidJson"
    assert "not UTF-8" in latin1["error"]["message"]
    assert huge["error"] == {
        "code": "tooLarge",
        "message": "The document is 2000001 bytes, over the limit of 2000000. --max-bytes N reads more.",
        "details": {"size": 2_000_001, "limit": 2_000_000},
    }
    text = cli("check", "missing.json", cwd=tmp_path)
    assert text.status == 2
    assert text.out == ""
    assert text.err.startswith("error: missing.json: unreadable: cannot read the file")


def test_check_jobs_keeps_input_order(tmp_path: Path) -> None:
    names = []
    for index in range(8):
        name = f"{index:02d}-{'jotun' if index % 3 == 0 else 'rurik'}.json"
        shutil.copyfile(EXAMPLES / name.split("-")[1], tmp_path / name)
        names.append(name)
    (tmp_path / "empty").mkdir()
    names.reverse()  # not the sorted order: results must follow the command line
    names[3:3] = ["missing.json", "empty", "-"]  # failures found up front travel to workers too
    stdin = (EXAMPLES / "rurik.json").read_bytes()
    parallel = in_a_process("check", "--json", "--jobs", "2", *names, cwd=tmp_path, stdin=stdin)
    serial = cli("check", "--json", *names, cwd=tmp_path, stdin=stdin)
    assert parallel.status == serial.status == 2
    assert parallel.out == serial.out
    lines = json_lines(parallel.out)
    assert [line["path"] for line in lines] == names
    assert [line.get("error", {}).get("code") for line in lines[3:6]] == ["unreadable", "noJsonFiles", None]
    assert parallel.err == ""  # stderr is not a terminal: no progress line


def run_on_a_terminal(
    args: Sequence[str], cwd: Path | None = None
) -> tuple[subprocess.CompletedProcess[bytes], bytes]:
    """Runs the command line with stderr on a pseudo-terminal; the process and what the terminal
    showed."""
    master, slave = os.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gurps_character", *args],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=slave,
            timeout=120,
            check=False,
        )
    finally:
        os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the terminal's other side is closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    return done, shown


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_progress_line_only_on_a_terminal(files: dict[str, Path]) -> None:
    done, shown = run_on_a_terminal(["check", str(files["rurik"]), str(files["jotun"])])
    assert done.returncode == 1
    assert b"checking: 0/2 files done" in shown
    assert b"checking" not in done.stdout


# ---------------------------------------------------------------- validate


def test_validate(files: dict[str, Path]) -> None:
    run = cli("validate", str(files["rurik"]), str(files["jotun"]))
    assert run.status == 0  # not rules-compliant is still valid
    assert run.out.splitlines() == [f"{files['rurik']}: valid", f"{files['jotun']}: valid"]
    run = cli("validate", str(files["invalid"]))
    assert run.status == 2
    assert run.out == ""
    assert run.err.startswith(f"error: {files['invalid']}: schema: ")
    assert "  /profile/name: must be string" in run.err.splitlines()


def test_validate_json(files: dict[str, Path]) -> None:
    run = cli("validate", "--json", str(files["jotun"]), "-", str(files["broken"]), stdin=b"[]")
    assert run.status == 2
    jotun, stdin, broken = json_lines(run.out)
    assert jotun == {"path": str(files["jotun"]), "ok": True}
    assert stdin["path"] == "-"
    assert stdin["error"]["code"] == "notAnObject"
    assert broken["error"]["code"] == "invalidJson"


# ---------------------------------------------------------------- stats, recompute, fields


def test_stats_table(files: dict[str, Path]) -> None:
    run = cli("stats", str(files["jotun"]))
    assert run.status == 0
    lines = run.out.splitlines()
    assert lines[0] == "Mossgrim Underbridge"
    assert any(line.startswith("HP") and "21/28" in line and "13/13" in line for line in lines)
    assert "Damage  thrust 2d, swing 4d+2" in lines
    header = next(line for line in lines if line.startswith("Encumbrance"))
    heavy = next(line for line in lines if line.startswith("Extra-Heavy"))
    assert header.index("Dodge") + len("Dodge") == len(heavy)  # right-aligned numbers
    assert any(line.startswith("Two-Handed Axe/Mace") for line in lines)
    assert "not rules-compliant" in run.err


def test_stats_prints_any_size_modifier_the_schema_accepts(tmp_path: Path) -> None:
    """An integer JSON writes as 1e20 is a float in Python (fuzz seed 13, case 810): the grid
    prints it as JavaScript does, signed, where `{:+d}` raised ValueError."""
    hero = json.loads((EXAMPLES / "rurik.json").read_text(encoding="utf-8"))
    hero["profile"]["sizeModifier"] = 1e20
    path = tmp_path / "big.json"
    path.write_text(json.dumps(hero), encoding="utf-8")
    run = cli("stats", str(path))
    assert run.status == 0, run.err
    assert any(line.endswith("SM   +100000000000000000000") for line in run.out.splitlines()), run.out


def test_stats_json(files: dict[str, Path]) -> None:
    run = cli("stats", "--json", "-", stdin=files["rurik"].read_bytes())
    assert run.status == 0
    assert json.loads(run.out) == combat_stats(document(files["rurik"])).to_dict()
    assert run.err == ""


def test_stats_errors_name_the_file_and_code(files: dict[str, Path], tmp_path: Path) -> None:
    run = cli("stats", str(files["invalid"]))
    assert run.status == 2
    assert run.out == ""
    assert run.err.startswith(f"error: {files['invalid']}: schema: ")
    assert "  /profile/name: must be string" in run.err
    run = cli("stats", str(tmp_path))
    assert run.status == 2
    assert run.err.startswith(f"error: {tmp_path}: unreadable: ")


def test_control_characters_from_a_file_are_shown_escaped(tmp_path: Path) -> None:
    hostile = json.loads((EXAMPLES / "rurik.json").read_text("utf-8"))
    hostile["profile"]["name"] = "Evil\x1b[2J\x07 Twin"
    (tmp_path / "hostile.json").write_text(json.dumps(hostile), "utf-8")
    run = cli("stats", "hostile.json", cwd=tmp_path)
    assert run.status == 0
    assert run.out.splitlines()[0] == "Evil\\x1b[2J\\x07 Twin"
    assert "\x1b" not in run.out


def test_recompute(files: dict[str, Path]) -> None:
    run = cli("recompute", str(files["jotun"]))
    assert run.status == 0
    swing = next(line for line in run.out.splitlines() if "/damage/swing" in line)
    assert swing.startswith("*")
    assert swing.split()[-2:] == ["4d+2", "4d"]
    spent = next(line for line in run.out.splitlines() if "/points/spent " in line)
    assert not spent.startswith("*")
    results = recompute(SCHEMA, document(files["jotun"]))
    assert f"{len(results)} formula-backed values" in run.out


def test_recompute_json(files: dict[str, Path]) -> None:
    run = cli("recompute", "--json", str(files["jotun"]))
    assert run.status == 0
    rows = json.loads(run.out)
    expected = [result.to_dict() for result in recompute(SCHEMA, document(files["jotun"]))]
    assert [{key: value for key, value in row.items() if key != "differs"} for row in rows] == expected
    differing = {row["pointer"] for row in rows if row["differs"]}
    assert "/damage/swing" in differing
    assert "/damage/thrust" not in differing


def test_fields() -> None:
    run = cli("fields")
    assert run.status == 0
    assert "/secondary/hp/current" in run.out
    assert "bounds: min -10 * value, max value" in run.out
    run = cli("fields", "--json")
    assert json.loads(run.out) == [field.to_dict() for field in get_updatable_fields()]


# ---------------------------------------------------------------- writing commands

POOL_ACTIONS = {"damage": apply_damage, "heal": heal, "fatigue": spend_fatigue, "recover": recover_fatigue}


@pytest.mark.parametrize("command", sorted(POOL_ACTIONS))
def test_pool_commands_write_what_the_library_writes(files: dict[str, Path], command: str) -> None:
    run = cli(command, str(files["rurik"]), "3", "--now", NOW)
    assert run.status == 0
    expected = serialize_character(POOL_ACTIONS[command](document(files["rurik"]), 3, now=NOW_DT))
    assert run.raw == expected.encode("utf-8")
    pool = "HP" if command in ("damage", "heal") else "FP"
    assert run.err.startswith(f"{files['rurik']}: {pool} ")


def test_update_to_stdout(files: dict[str, Path]) -> None:
    run = cli(
        "update",
        "-",
        "/secondary/hp/current=-3",
        "/secondary/fp/current=2.0",
        "--now",
        NOW,
        "-q",
        stdin=files["jotun"].read_bytes(),
    )
    assert run.status == 0
    assert run.err == ""
    changes = {"/secondary/hp/current": -3, "/secondary/fp/current": 2}
    assert (
        run.raw
        == serialize_character(update_character(document(files["jotun"]), changes, now=NOW_DT)).encode()
    )


def test_in_place_writes_a_valid_file_atomically(files: dict[str, Path], tmp_path: Path) -> None:
    target = files["rurik"]
    target.chmod(0o640)
    run = cli("damage", "--in-place", target.name, "5", "--now", "2026-10-05T12:00:00+02:00", cwd=tmp_path)
    assert run.status == 0
    assert run.out == ""
    changed = document(target)
    assert changed["secondary"]["hp"]["current"] == 6
    assert changed["meta"]["updatedAt"] == "2026-10-05T10:00:00.000Z"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 or os.name == "nt"
    assert leftovers(tmp_path) == []


def test_output_file(files: dict[str, Path], tmp_path: Path) -> None:
    before = files["jotun"].read_bytes()
    run = cli("update", str(files["jotun"]), "/secondary/fp/current=-13", "-o", "out.json", cwd=tmp_path)
    assert run.status == 0
    assert document(tmp_path / "out.json")["secondary"]["fp"]["current"] == -13
    assert files["jotun"].read_bytes() == before
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("update", "{path}", "/secondary/hp/current=999"), "outOfBounds"),
        (("update", "{path}", '/profile/name="Bob"'), "notUpdatable"),
        (("update", "{path}", "/secondary/hp/current=abc"), "invalidValue"),
        (("update", "{path}", "hp=3"), "invalidArgument"),
        (("damage", "{path}", "-5"), "invalidAmount"),
        (("heal", "{path}", "many"), "invalidAmount"),
        (("fatigue", "{path}", "1", "--now", "2026-10-05T10:00:00"), "invalidArgument"),
        (("recover", "{path}", "1", "--now", "tomorrow"), "invalidArgument"),
    ],
)
def test_in_place_errors_leave_the_file_untouched(
    files: dict[str, Path], tmp_path: Path, args: Sequence[str], code: str
) -> None:
    path = files["rurik"]
    before = path.read_bytes()
    run = cli(*(arg.format(path=path.name) for arg in args), "--in-place", cwd=tmp_path)
    assert run.status == 2
    assert run.err.startswith(f"error: {path.name}: {code}: ")
    assert path.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_in_place_refuses_invalid_input_and_stdin(files: dict[str, Path], tmp_path: Path) -> None:
    before = files["invalid"].read_bytes()
    run = cli("heal", "--in-place", "invalid.json", "1", cwd=tmp_path)
    assert run.status == 2
    assert run.err.startswith("error: invalid.json: schema: ")
    assert files["invalid"].read_bytes() == before
    run = cli("heal", "--in-place", "-", "1", stdin=files["rurik"].read_bytes())
    assert run.status == 2
    assert run.err.startswith("error: <stdin>: invalidArgument: --in-place needs a file")
    assert run.out == ""


def test_unwritable_output_exits_2(files: dict[str, Path], tmp_path: Path) -> None:
    run = cli("damage", "rurik.json", "1", "-o", os.path.join("no", "such", "dir.json"), cwd=tmp_path)
    assert run.status == 2
    assert "unwritable" in run.err
    run = cli("damage", "rurik.json", "1", "-o", ".", cwd=tmp_path)
    assert run.status == 2
    assert leftovers(tmp_path) == []


# ---------------------------------------------------------------- conditions and follow-ups


def wounded(tmp_path: Path, name: str, hp: int, fp: int) -> Path:
    """A copy of an example with its pools set (as ``update`` would set them)."""
    path = tmp_path / f"{name}-wounded.json"
    changes = {"/secondary/hp/current": hp, "/secondary/fp/current": fp}
    path.write_text(
        serialize_character(update_character(document(EXAMPLES / f"{name}.json"), changes)), "utf-8"
    )
    return path


def test_pool_commands_report_state_clamp_and_follow_ups(files: dict[str, Path]) -> None:
    rurik = str(files["rurik"])  # HP 11/13, FP 9/12
    commands = [
        ("damage", rurik, "30", "--now", NOW),
        ("damage", rurik, "1000", "--now", NOW),
        ("heal", rurik, "1000", "--now", NOW),
        ("fatigue", rurik, "12", "--now", NOW),
    ]
    damage, fatal, healed, tired = cli_many(commands)
    assert damage.err.splitlines() == [
        f"{rurik}: HP 11 -> -19 (max 13): dying (1)",
        "owed: consciousness check, HT-1, at the start of the next turn (B419)",
        "owed: death check at -13 HP, HT (B419)",
    ]
    assert fatal.err.splitlines() == [
        f"{rurik}: HP 11 -> -130 (max 13): destroyed; clamped: took -141 of -1000",
        "owed: death (B419)",
    ]
    assert healed.err.splitlines() == [f"{rurik}: HP 11 -> 13 (max 13): healthy; clamped: took +2 of +1000"]
    assert tired.err.splitlines() == [
        f"{rurik}: FP 9 -> -3 (max 12): collapse",
        "owed: 3 HP injury from fatigue below 0 FP (B426), not applied; use --spill",
    ]
    # The written documents are still exactly what the library's helpers write, clamped or not.
    source = document(files["rurik"])
    for run, action, amount in (
        (damage, apply_damage, 30),
        (fatal, apply_damage, 1000),
        (healed, heal, 1000),
        (tired, spend_fatigue, 12),
    ):
        assert run.status == 0
        assert run.raw == serialize_character(action(source, amount, now=NOW_DT)).encode("utf-8")


def test_fatigue_spill_applies_the_injury_to_hp(files: dict[str, Path], tmp_path: Path) -> None:
    spilled, kept = tmp_path / "spilled.json", tmp_path / "kept.json"
    for path in (spilled, kept):
        shutil.copyfile(files["rurik"], path)
    runs = cli_many(
        [
            ("fatigue", "--in-place", "--spill", str(spilled), "40", "--now", NOW),
            ("fatigue", "--in-place", str(kept), "40", "--now", NOW),
            ("damage", "--spill", str(kept), "1"),  # --spill is fatigue's alone
        ]
    )
    with_spill, without, misused = runs
    assert with_spill.status == without.status == 0
    assert misused.status == 2
    assert "unrecognized arguments: --spill" in misused.err
    expected = change_pool(document(files["rurik"]), "fp", -40, now=NOW_DT, spill_to_hp=True)
    assert spilled.read_bytes() == serialize_character(expected.document).encode("utf-8")
    assert document(spilled)["secondary"]["hp"]["current"] == -20  # 11 - 31 (FP spent below 0)
    assert document(kept)["secondary"]["hp"]["current"] == 11
    assert (
        document(spilled)["secondary"]["fp"]["current"] == document(kept)["secondary"]["fp"]["current"] == -12
    )
    assert with_spill.err.splitlines() == [
        f"{spilled}: FP 9 -> -12 (max 12): unconscious; clamped: took -21 of -40",
        f"{spilled}: HP 11 -> -20 (max 13): dying (1)",
        "owed: unconsciousness (B426)",
        "owed: 31 HP injury from fatigue below 0 FP (B426), applied",
        "owed: death check at -13 HP, HT (B419)",
    ]
    assert "not applied; use --spill" in without.err
    assert leftovers(tmp_path) == []


def test_follow_ups_json(files: dict[str, Path]) -> None:
    runs = cli_many(
        [
            ("damage", "--follow-ups-json", str(files["rurik"]), "30", "--now", NOW),
            ("fatigue", "--follow-ups-json", "--spill", str(files["rurik"]), "40", "--now", NOW),
            ("damage", "--follow-ups-json", "-q", str(files["rurik"]), "1"),
        ]
    )
    damage, fatigue, conflicting = runs
    source = document(files["rurik"])
    [line] = json_lines(damage.err)
    assert line == change_pool(source, "hp", -30, now=NOW_DT).to_dict()
    assert [item["kind"] for item in line["followUps"]] == ["consciousnessCheck", "deathCheck"]
    [line] = json_lines(fatigue.err)
    assert line["spill"]["after"] == {"state": "dying", "n": 1, "current": -20, "max": 13}
    assert line["followUps"][1] == {
        "kind": "fatigueInjury",
        "amount": 31,
        "applied": True,
        "reference": "B426",
    }
    assert damage.raw == serialize_character(apply_damage(source, 30, now=NOW_DT)).encode("utf-8")
    assert conflicting.status == 2
    assert "not allowed with argument" in conflicting.err


def test_stats_shows_the_condition(files: dict[str, Path], tmp_path: Path) -> None:
    hurt = wounded(tmp_path, "jotun", hp=-30, fp=3)  # HP 28: dying (1); FP 13: tired
    runs = cli_many(
        [
            ("stats", str(files["rurik"])),
            ("stats", str(hurt)),
            ("stats", "--json", "--condition", str(hurt)),
            ("stats", "--json", str(hurt)),
        ]
    )
    healthy, text, both, plain = runs
    assert all(run.status == 0 for run in runs)
    assert "Condition: HP wounded, FP tiring" in healthy.out.splitlines()
    assert "Eff." not in healthy.out
    assert "(eff." not in healthy.out
    lines = text.out.splitlines()
    grid_end = next(index for index, line in enumerate(lines) if line.startswith("Basic Speed"))
    assert lines[grid_end + 1] == (
        "Condition: HP dying (1), FP tired | halve Move, Dodge, ST | rolls: HT-1 each turn (B419)"
    )
    assert any(line.startswith("ST") and "22 (eff. 11)" in line for line in lines)
    header = next(line for line in lines if line.startswith("Encumbrance"))
    assert re.split(r"\s{2,}", header) == [
        "Encumbrance",
        "Max load",
        "Move",
        "Eff. Move",
        "Dodge",
        "Eff. Dodge",
    ]
    none_row = next(line for line in lines if line.startswith("None (0)"))
    assert none_row.split()[-4:] == ["7", "2", "8", "2"]  # each halved twice, rounding up
    expected = document(hurt)
    assert json.loads(both.out) == {
        "stats": combat_stats(expected).to_dict(),
        "condition": get_condition(expected).to_dict(),
    }
    assert json.loads(plain.out) == combat_stats(expected).to_dict()
