"""Every refusal of every command (issue 29, item 8): its exit status, its one line on stderr
(``error: <file>: <code>: <message>``), nothing on stdout, and nothing written or changed.

The library's own refusals (schema, rules, notation) are its tests'; here are the command line's:
a file it cannot read or that is over the limit, for every command that reads one; the options
that do not fit together; the arguments each command parses itself.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from gurps_character import MAX_DOCUMENT_BYTES
from tests.support.cli_runner import in_a_process, in_process
from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
TOO_LARGE = (
    f"tooLarge: The document is {MAX_DOCUMENT_BYTES + 1} bytes, over the limit of {MAX_DOCUMENT_BYTES}. "
    "--max-bytes N reads more."
)
MISSING = "unreadable: cannot read the file: No such file or directory."


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Documents, a GCS file, a weapon without a damage line, an empty folder and a file one byte
    over the limit."""
    shutil.copyfile(ROOT / "examples" / "rurik.json", tmp_path / "rurik.json")
    shutil.copyfile(ROOT / "examples" / "odile.yaml", tmp_path / "odile.yaml")
    shutil.copyfile(ROOT / "tests" / "fixtures" / "gcs" / "v5_fighter.gcs", tmp_path / "fighter.gcs")
    document = json.loads((tmp_path / "rurik.json").read_text(encoding="utf-8"))
    document["weapons"]["melee"][0].update(name="Bare Hilt", damage=[])
    (tmp_path / "hilt.json").write_text(json.dumps(document), encoding="utf-8")
    (tmp_path / "big.json").write_bytes(b" " * (MAX_DOCUMENT_BYTES + 1))
    (tmp_path / "empty").mkdir()
    return tmp_path


def _contents(folder: Path) -> dict[str, bytes | None]:
    return {
        str(path.relative_to(folder)): path.read_bytes() if path.is_file() else None
        for path in sorted(folder.rglob("*"))
    }


def _refused(folder: Path, args: tuple[str, ...], line: str) -> None:
    before = _contents(folder)
    run = in_process(*args, cwd=folder)
    assert (run.status, run.out) == (2, "")
    assert run.err == f"error: {line}\n"
    assert _contents(folder) == before  # nothing written, nothing left behind


# The commands that read a file, with FILE where the file goes.
READERS = [
    ("check", "FILE"),
    ("validate", "FILE"),
    ("stats", "FILE"),
    ("recompute", "FILE"),
    ("damage", "FILE", "1"),
    ("heal", "FILE", "1"),
    ("fatigue", "FILE", "1"),
    ("recover", "FILE", "1"),
    ("damage", "--in-place", "FILE", "1"),
    ("update", "FILE", "/secondary/hp/current=3"),
    ("hit", "FILE", "3", "cr"),
    ("attack", "FILE"),
    ("defend", "FILE", "dodge"),
    ("convert", "FILE", "-o", "out.yaml"),
    ("export", "FILE"),
    ("sheet", "FILE", "-o", "out.html"),
]


@pytest.mark.parametrize("args", READERS, ids=lambda args: " ".join(args))
@pytest.mark.parametrize(("name", "message"), [("missing.json", MISSING), ("big.json", TOO_LARGE)])
def test_a_file_that_cannot_be_read_is_refused_by_every_command(
    folder: Path, args: tuple[str, ...], name: str, message: str
) -> None:
    _refused(folder, tuple(name if arg == "FILE" else arg for arg in args), f"{name}: {message}")


@pytest.mark.parametrize(("name", "message"), [("missing.json", MISSING), ("big.json", TOO_LARGE)])
def test_an_attacker_that_cannot_be_read_is_refused(folder: Path, name: str, message: str) -> None:
    _refused(folder, ("hit", "rurik.json", "3", "cr", "--attacker", name), f"{name}: {message}")


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("export", "rurik.json", "--onto", "missing.gcs"),
            f"rurik.json: unreadable: --onto missing.gcs: {MISSING[12:]}",
        ),
        (
            ("export", "rurik.json", "--onto", "missing.gcs", "-o", "out.gcs"),
            f"rurik.json: unreadable: --onto missing.gcs: {MISSING[12:]}",
        ),
        (
            ("export", "rurik.json", "--onto", "big.json"),
            f"rurik.json: tooLarge: --onto big.json: {TOO_LARGE[10:]}",
        ),
        (
            ("export", "rurik.json", "--onto", "empty"),
            "rurik.json: unreadable: --onto empty: cannot read the file: Is a directory.",
        ),
        (
            ("export", "rurik.json", "--onto", os.devnull),
            "rurik.json: invalidArgument: --onto needs a regular file (a FIFO or a device cannot be written "
            "back into).",
        ),
    ],
    ids=["missing", "missing, -o", "too large", "a folder", "a device"],
)
def test_an_onto_file_that_cannot_be_read_is_named(folder: Path, args: tuple[str, ...], line: str) -> None:
    # the report's label is the document; the message names the GCS file that could not be read
    _refused(folder, args, line)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        # hit: the weapon's damage line, the attacker
        (
            ("hit", "hilt.json", "Bare Hilt"),
            "hilt.json: invalidArgument: Bare Hilt has no damage line to roll.",
        ),
        (
            ("hit", "rurik.json", "Broadsword"),
            "rurik.json: invalidArgument: Broadsword has 2 damage lines (1 sw+1 cut; 2 thr+1 cr): "
            "pick one with --line.",
        ),
        (
            ("hit", "rurik.json", "Broadsword", "--line", "3"),
            "rurik.json: invalidArgument: --line 3: Broadsword has 2 damage lines (1 sw+1 cut; 2 thr+1 cr).",
        ),
        (
            ("hit", "rurik.json", "Broadsword", "--line", "0"),
            "rurik.json: invalidArgument: --line must be a whole number of at least 1, not '0'.",
        ),
        (
            ("hit", "-", "5", "cr", "--attacker", "-"),
            "<stdin>: invalidArgument: PATH and --attacker cannot both be stdin.",
        ),
        (
            ("hit", "rurik.json", "5"),
            "rurik.json: invalidArgument: TYPE must follow a rolled number: cr, cut, imp, pi-, pi, pi+, "
            "pi++, burn, cor, tox or fat.",
        ),
        # the pool commands and update: their arguments
        (
            ("update", "rurik.json", "/secondary/hp/current"),
            "rurik.json: invalidArgument: '/secondary/hp/current' is not POINTER=VALUE "
            "(for example /secondary/hp/current=-3).",
        ),
        (
            ("update", "rurik.json", "secondary/hp/current=3"),
            "rurik.json: invalidArgument: 'secondary/hp/current=3' is not POINTER=VALUE "
            "(for example /secondary/hp/current=-3).",
        ),
        (
            ("update", "rurik.json", "/secondary/hp/current=abc"),
            "rurik.json: invalidValue: /secondary/hp/current: 'abc' is not a JSON value (Expecting value); "
            "write text in double quotes.",
        ),
        (
            ("damage", "rurik.json", "3", "--now", "2026-10-05T10:00:00"),
            "rurik.json: invalidArgument: --now '2026-10-05T10:00:00' has no time zone; write it like "
            "2026-10-05T10:00:00Z or 2026-10-05T12:00:00+02:00.",
        ),
        (
            ("heal", "rurik.json", "3", "--now", "yesterday"),
            "rurik.json: invalidArgument: --now 'yesterday' is not an ISO 8601 time; write it like "
            "2026-10-05T10:00:00Z or 2026-10-05T12:00:00+02:00.",
        ),
        (
            ("damage", "rurik.json", "-1"),
            "rurik.json: invalidAmount: The amount must be a non-negative integer, not -1.",
        ),
        (
            ("damage", "--in-place", "empty", "1"),
            "empty: unreadable: cannot read the file: Is a directory.",
        ),
        (
            ("recover", "-", "1", "--in-place"),
            "<stdin>: invalidArgument: --in-place needs a file, not stdin.",
        ),
        # convert: the format and the output
        (
            ("convert", "rurik.json", "-o", "out.txt"),
            "out.txt: invalidArgument: cannot tell the format to write from the suffix of 'out.txt': "
            "use one of .json, .yaml, .yml.",
        ),
        (
            ("convert", "rurik.json", "-o", "odile.yaml"),
            "odile.yaml: outputExists: the file exists; add --force to replace it.",
        ),
        (
            ("convert", "rurik.json", "-o", "nowhere/out.yaml"),
            "nowhere/out.yaml: unwritable: cannot write the file: No such file or directory.",
        ),
        # import and export: the options, stdin, folders, outputs
        (("import", "-", "-"), "invalidArgument: stdin ('-') can be read once."),
        (("export", "-", "-"), "invalidArgument: stdin ('-') can be read once."),
        (
            ("import", "fighter.gcs", "empty", "-o", "out.json"),
            "invalidArgument: -o names one output: give one file, or use --out-dir for several.",
        ),
        (
            ("export", "rurik.json", "odile.yaml", "-o", "out.gcs"),
            "invalidArgument: -o names one output: give one file, or use --out-dir for several.",
        ),
        (
            ("export", "rurik.json", "--onto", "fighter.gcs", "--out-dir", "out"),
            "invalidArgument: --onto writes into the GCS file itself (or -o OUT), not into --out-dir.",
        ),
        (
            ("export", "rurik.json", "odile.yaml", "--onto", "fighter.gcs"),
            "invalidArgument: --onto writes one document's play into its GCS file: give one document.",
        ),
        (("import", "empty"), "empty: noJsonFiles: the folder contains no *.gcs file."),
        (("export", "empty"), "empty: noJsonFiles: the folder contains no *.json or *.yaml or *.yml file."),
        (
            ("import", "fighter.gcs", "-o", "nowhere/out.json"),
            "fighter.gcs: unwritable: cannot write the file: No such file or directory.",
        ),
        (
            ("export", "rurik.json", "-o", "nowhere/out.gcs"),
            "rurik.json: unwritable: cannot write the file: No such file or directory.",
        ),
        (
            ("export", "rurik.json", "-o", "fighter.gcs"),
            "rurik.json: outputExists: fighter.gcs exists; give --force to replace it.",
        ),
        # attack and defend: the arguments they parse themselves
        (("attack", "12", "--recoil", "x"), "invalidArgument: recoil must be a whole number, not 'x'."),
        (("defend", "dodge", "9", "--roll", "x"), "invalidArgument: roll must be a whole number, not 'x'."),
        (
            ("defend", "dodge", "9", "--roll", "2"),
            "invalidArgument: roll must be a whole number from 3 to 18, not 2.",
        ),
        (
            ("defend", "dodge", "9", "--roll", "3", "--hits", "x"),
            "invalidArgument: hits must be a whole number, not 'x'.",
        ),
        (
            ("defend", "block", "9", "--roll", "3", "--hits", "2"),
            "invalidArgument: hits counts the hits a dodge leaves (B375), not a block.",
        ),
        (
            ("defend", "dodge", "9", "--weapon", "Rapier"),
            "invalidArgument: --weapon needs a character file (defend FILE KIND), not the number '9'.",
        ),
        (
            ("attack", "12", "--skill", "Broadsword"),
            "invalidArgument: --skill needs a character file in SKILL's place, not the number '12'.",
        ),
        (
            ("attack", "12", "--mode", "Swung"),
            "invalidArgument: --mode needs a character file in SKILL's place, not the number '12'.",
        ),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, tuple) else "",
)
def test_each_refusal_of_each_command(folder: Path, args: tuple[str, ...], line: str) -> None:
    _refused(folder, args, line)


def test_the_first_out_dir_that_cannot_be_made_is_refused(folder: Path) -> None:
    _refused(
        folder,
        ("import", "--out-dir", "rurik.json", "fighter.gcs"),
        "rurik.json: unwritable: cannot write the file: File exists.",
    )


def test_stdin_with_an_out_dir_is_refused(folder: Path) -> None:
    # --out-dir is made before the inputs are planned (each input is refused or written on its
    # own): an empty folder is all that is left
    before = _contents(folder)
    run = in_process("import", "-", "--out-dir", "out", cwd=folder, stdin=b"{}")
    assert (run.status, run.out) == (2, "")
    assert run.err == (
        "error: <stdin>: invalidArgument: stdin has no file name for --out-dir to use; give -o FILE "
        "(or -o - for stdout).\n"
    )
    assert _contents(folder) == {**before, "out": None}


@pytest.mark.parametrize(
    ("at", "past", "line"),
    [
        (
            ("attack", "12", "--roll", "3"),
            ("attack", "12", "--roll", "2"),
            "roll must be a whole number from 3 to 18, not 2.",
        ),
        (
            ("attack", "12", "--roll", "18"),
            ("attack", "12", "--roll", "19"),
            "roll must be a whole number from 3 to 18, not 19.",
        ),
        (
            ("attack", "12", "--ranged", "--rof", "1"),
            ("attack", "12", "--ranged", "--rof", "0"),
            "rof must be a whole number of at least 1, not 0.",
        ),
        (
            ("attack", "12", "--ranged", "--rof", "2", "--roll", "9", "--recoil", "1"),
            ("attack", "12", "--ranged", "--rof", "2", "--roll", "9", "--recoil", "0"),
            "recoil must be a whole number of at least 1, not 0.",
        ),
        (
            ("attack", "12", "--ranged", "--aim-turns", "0"),
            ("attack", "12", "--ranged", "--aim-turns", "-1"),
            "aim_turns must be a whole number of at least 0, not -1.",
        ),
        (
            ("attack", "12", "--deceptive", "1"),
            ("attack", "11", "--deceptive", "1"),
            "deceptive must be at most 0 here, not 1: a Deceptive Attack needs a final effective skill of 10 "
            "or more (B369), and level 1 leaves 9.",
        ),
        (
            ("defend", "dodge", "9", "--encumbrance-level", "4"),
            ("defend", "dodge", "9", "--encumbrance-level", "5"),
            "encumbrance_level must be a whole number from 0 to 4, not 5.",
        ),
        (
            ("defend", "dodge", "9", "--encumbrance-level", "0"),
            ("defend", "dodge", "9", "--encumbrance-level", "-1"),
            "encumbrance_level must be a whole number from 0 to 4, not -1.",
        ),
        (
            ("defend", "dodge", "9", "--roll", "9", "--hits", "0"),
            ("defend", "dodge", "9", "--roll", "9", "--hits", "-1"),
            "hits must be a whole number of at least 0, not -1.",
        ),
        (
            ("defend", "parry", "9", "--parries-so-far", "0"),
            ("defend", "parry", "9", "--parries-so-far", "-1"),
            "parries_so_far must be a whole number of at least 0, not -1.",
        ),
        (
            ("defend", "block", "9", "--shield-db", "0"),
            ("defend", "block", "9", "--shield-db", "-1"),
            "shield_db must be a whole number of at least 0, not -1.",
        ),
        (
            ("defend", "dodge", "9", "--feint", "0"),
            ("defend", "dodge", "9", "--feint", "-1"),
            "feint must be a whole number of at least 0, not -1.",
        ),
        (
            ("hit", "rurik.json", "3", "cr", "--dr", "0"),
            ("hit", "rurik.json", "3", "cr", "--dr", "-1"),
            "rurik.json: invalidArgument: dr must be a whole number of at least 0, not -1.",
        ),
        (
            ("hit", "rurik.json", "0", "cr"),
            ("hit", "rurik.json", "-1", "cr"),
            "rurik.json: invalidArgument: basic_damage must be a whole number of at least 0, not -1.",
        ),
        (
            ("hit", "rurik.json", "3", "cr", "--armor-divisor", "0.001"),
            ("hit", "rurik.json", "3", "cr", "--armor-divisor", "0.0009"),
            "rurik.json: invalidArgument: armor_divisor must be a number from 0.001 to 1000 (1 for none), or "
            "math.inf for 'ignores DR', not 0.0009.",
        ),
        (
            ("hit", "rurik.json", "3", "cr", "--armor-divisor", "1000"),
            ("hit", "rurik.json", "3", "cr", "--armor-divisor", "1001"),
            "rurik.json: invalidArgument: armor_divisor must be a number from 0.001 to 1000 (1 for none), or "
            "math.inf for 'ignores DR', not 1001.",
        ),
        (
            ("hit", "rurik.json", "Broadsword", "--line", "2"),
            ("hit", "rurik.json", "Broadsword", "--line", "3"),
            "rurik.json: invalidArgument: --line 3: Broadsword has 2 damage lines (1 sw+1 cut; 2 thr+1 cr).",
        ),
        (
            ("damage", "rurik.json", "0"),
            ("damage", "rurik.json", "-1"),
            "rurik.json: invalidAmount: The amount must be a non-negative integer, not -1.",
        ),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, tuple) else "",
)
def test_each_limit_holds_its_last_value_and_refuses_the_next(
    folder: Path, at: tuple[str, ...], past: tuple[str, ...], line: str
) -> None:
    run = in_process(*at, cwd=folder)
    assert run.status == 0, run.err
    _refused(folder, past, line if ": invalid" in line else f"invalidArgument: {line}")


def test_jobs_takes_one_and_refuses_zero(folder: Path) -> None:
    assert in_process("check", "--jobs", "1", "rurik.json", cwd=folder).status == 0
    run = in_process("check", "--jobs", "0", "rurik.json", cwd=folder)
    assert (run.status, run.out) == (2, "")
    assert run.err.endswith(
        "gurps-character check: error: argument -j/--jobs: must be a whole number of at least 1, not '0'\n"
    )


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("heal", "--in-place", "hero.fifo", "1"),
            "hero.fifo: invalidArgument: --in-place needs a regular file (a FIFO or a device cannot be "
            "replaced).",
        ),
        (
            ("export", "rurik.json", "--onto", "hero.fifo"),
            "rurik.json: invalidArgument: --onto needs a regular file (a FIFO or a device cannot be written "
            "back into).",
        ),
    ],
    ids=["--in-place", "--onto"],
)
def test_a_fifo_without_a_writer_is_refused_not_waited_for(
    folder: Path, args: tuple[str, ...], line: str
) -> None:
    # opening a FIFO waits for a writer: the file is looked at first (a real process, whose run
    # is bounded: a wait would fail the test, not hang it)
    os.mkfifo(folder / "hero.fifo")
    run = in_a_process(*args, cwd=folder)
    assert (run.status, run.out, run.err) == (2, "", f"error: {line}\n")
