"""``gurps-character import`` and ``.gcs`` files in ``check``, ``validate`` and ``stats``.

Driven as a user drives it (arguments in, output and exit status out, never a traceback; ``--jobs``
and Ctrl-C in a new process), on small GCS files of
our own: hand-written ones in ``fixtures/gcs_cli/`` (version 5 and 1, an XML file, a cut-off
file, a GCS list) and ones built by ``gcs_samples.py``; and, when ``../shared/gcs`` is there, on
GCS's own library files.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import gurps_character
from gurps_character import (
    combat_stats,
    import_gcs,
    parse_character,
    validate_character,
    verify_character,
)
from gurps_character.cli import main
from tests.cli.test_cli import cli, json_lines, run_on_a_terminal
from tests.support import gcs_samples
from tests.support.cli_runner import in_a_process
from tests.support.paths import REPOSITORY, TESTS

FIXTURES = TESTS / "fixtures" / "gcs_cli"
SHARED_GCS = REPOSITORY.parent / "shared" / "gcs"
IMPORTED_AT = "/extensions/io.github.gurps-sheet.gcs-import/importedAt"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The fixtures copied to a fresh folder (commands write beside their inputs)."""
    for path in FIXTURES.iterdir():
        shutil.copyfile(path, tmp_path / path.name)
    return tmp_path


def without_import_time(document: dict[str, Any]) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(document))
    copy["extensions"]["io.github.gurps-sheet.gcs-import"].pop("importedAt", None)
    copy.get("meta", {}).pop("updatedAt", None)
    copy.get("meta", {}).pop("createdAt", None)
    return copy


def written(path: Path) -> dict[str, Any]:
    """A written document: it parses (size, JSON, schema, rules) and is claim-consistent."""
    parsed = parse_character(path.read_bytes())
    assert parsed.report.claim_consistent
    return dict(parsed.character)


def leftovers(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.rglob(".*.tmp"))


# ---------------------------------------------------------------- import: one file


def test_import_writes_the_document_beside_the_file(folder: Path) -> None:
    run = cli("import", "hero.gcs", cwd=folder)
    assert run.status == 0, run.err
    expected = import_gcs((folder / "hero.gcs").read_bytes())
    report = verify_character(expected.document)
    compliant = "rules-compliant" if report.rules_compliant else "not rules-compliant"
    assert run.out == (
        f"hero.gcs -> hero.json: valid, {compliant}, "
        f"{len(report.deviations)} deviation{'' if len(report.deviations) == 1 else 's'}, "
        f"{len(expected.notes)} notes\n"
    )
    document = written(folder / "hero.json")
    assert without_import_time(document) == without_import_time(expected.document)
    assert document["profile"]["name"] == "Brenna Quill"
    assert document["secondary"]["hp"]["current"] == 7  # GCS's damage taken is kept
    assert run.err == ""
    assert leftovers(folder) == []


def test_an_existing_file_is_kept_unless_forced(folder: Path) -> None:
    (folder / "hero.json").write_bytes(b"mine")
    run = cli("import", "hero.gcs", cwd=folder)
    assert run.status == 2
    assert run.err == "error: hero.gcs: outputExists: hero.json exists; give --force to replace it.\n"
    assert run.out == ""
    assert (folder / "hero.json").read_bytes() == b"mine"
    forced = cli("import", "--force", "hero.gcs", cwd=folder)
    assert forced.status == 0, forced.out
    assert written(folder / "hero.json")["profile"]["name"] == "Brenna Quill"
    assert leftovers(folder) == []


def test_a_link_in_the_way_is_an_existing_file(folder: Path) -> None:
    (folder / "hero.json").symlink_to(folder / "elsewhere.json")  # dangling: nothing is written through it
    run = cli("import", "hero.gcs", cwd=folder)
    assert run.status == 2
    assert "outputExists" in run.err
    assert not (folder / "elsewhere.json").exists()


def test_output_option_and_stdout(folder: Path) -> None:
    run = cli("import", "hero.gcs", "-o", "out/brenna.json", cwd=folder)
    assert run.status == 2  # the folder of -o must exist: it is not created
    assert "unwritable" in run.err
    (folder / "out").mkdir()
    run = cli("import", "hero.gcs", "-o", "out/brenna.json", cwd=folder)
    assert run.status == 0, run.out
    assert run.out.startswith("hero.gcs -> out/brenna.json: valid, ")
    to_stdout = cli("import", "hero.gcs", "-o", "-", cwd=folder)
    assert to_stdout.status == 0
    assert to_stdout.err.startswith("hero.gcs -> <stdout>: valid, ")  # the line moves to stderr
    assert without_import_time(json.loads(to_stdout.out)) == without_import_time(
        written(folder / "out/brenna.json")
    )
    assert not (folder / "hero.json").exists()


def test_stdin(folder: Path) -> None:
    data = (folder / "hero.gcs").read_bytes()
    to_stdout = cli("import", "-", stdin=data, cwd=folder)
    assert to_stdout.status == 0
    assert json.loads(to_stdout.out)["profile"]["name"] == "Brenna Quill"
    assert to_stdout.err.startswith("<stdin> -> <stdout>: valid, ")
    to_file = cli("import", "-", "-o", "from-stdin.json", stdin=data, cwd=folder)
    assert to_file.status == 0
    assert to_file.out.startswith("<stdin> -> from-stdin.json: valid, ")
    assert written(folder / "from-stdin.json")["profile"]["name"] == "Brenna Quill"
    nameless = cli("import", "-", "--out-dir", "out", stdin=data, cwd=folder)
    assert nameless.status == 2
    assert "stdin has no file name for --out-dir" in nameless.err


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("xml.gcs", "unsupportedGcsVersion"),
        ("broken.gcs", "invalidJson"),
        ("list.gcs", "notGcs"),
        ("missing.gcs", "unreadable"),
    ],
)
def test_files_that_are_not_importable_are_errors_and_write_nothing(
    folder: Path, name: str, code: str
) -> None:
    run = cli("import", name, cwd=folder)
    assert run.status == 2
    assert run.err.startswith(f"error: {name}: {code}: ")
    assert run.out == ""
    assert not (folder / name.replace(".gcs", ".json")).exists()
    assert leftovers(folder) == []


def test_the_output_never_replaces_its_input(folder: Path) -> None:
    shutil.copyfile(folder / "hero.gcs", folder / "gcs-as.json")
    run = cli("import", "--force", "gcs-as.json", cwd=folder)
    assert run.status == 2
    assert "outputConflict: the output would replace the input itself" in run.err
    assert (folder / "gcs-as.json").read_bytes() == (folder / "hero.gcs").read_bytes()


def test_wrong_option_combinations(folder: Path) -> None:
    several = cli("import", "hero.gcs", "old.gcs", "-o", "x.json", cwd=folder)
    assert several.status == 2
    assert (
        several.err
        == "error: invalidArgument: -o names one output: give one file, or use --out-dir for several.\n"
    )
    both = cli("import", "hero.gcs", "-o", "x.json", "--out-dir", "d", cwd=folder)
    assert both.status == 2
    assert "not allowed with argument" in both.err
    assert not (folder / "x.json").exists()


# ---------------------------------------------------------------- import: many files


def test_a_folder_imports_every_gcs_file_below_it_keeping_the_layout(folder: Path) -> None:
    (folder / "sub").mkdir()
    (folder / "sub" / "deeper").mkdir()
    (folder / "sub" / "deeper" / "mid.gcs").write_text(
        gcs_samples.text_of(gcs_samples.character(units=3, version=4))
    )
    (folder / "sub" / "ignored.json").write_text("{}")
    run = cli("import", "--out-dir", "converted", ".", cwd=folder)
    assert run.status == 2  # the XML, cut-off and list fixtures fail; the others are imported
    lines = run.out.splitlines()
    assert "./hero.gcs -> converted/hero.json: valid, " in run.out
    assert "./sub/deeper/mid.gcs -> converted/sub/deeper/mid.json: valid, " in run.out
    assert "ignored" not in run.out + run.err
    assert [line.split(": ")[1] for line in run.err.splitlines()] == [
        "./broken.gcs",
        "./list.gcs",
        "./xml.gcs",
    ]
    assert lines[-1].startswith("6 files: 3 imported (") and ", 3 failed; " in lines[-1]
    assert written(folder / "converted" / "sub" / "deeper" / "mid.json")["profile"]["name"] == "Ailsa Brand"
    assert sorted(path.name for path in (folder / "converted").rglob("*.json")) == [
        "hero.json",
        "mid.json",
        "old.json",
    ]


def test_an_empty_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "nothing").mkdir()
    (tmp_path / "nothing" / "x.json").write_text("{}")
    run = cli("import", "nothing", cwd=tmp_path)
    assert run.status == 2
    assert run.err == "error: nothing: noJsonFiles: the folder contains no *.gcs file.\n"


def test_two_inputs_never_write_the_same_file(folder: Path) -> None:
    (folder / "a").mkdir()
    (folder / "b").mkdir()
    shutil.copyfile(folder / "hero.gcs", folder / "a" / "hero.gcs")
    shutil.copyfile(folder / "old.gcs", folder / "b" / "hero.gcs")
    run = cli("import", "--force", "--out-dir", "out", "a/hero.gcs", "b/hero.gcs", cwd=folder)
    assert run.status == 2
    assert run.err.splitlines() == [
        "error: b/hero.gcs: outputConflict: the output out/hero.json is also the output of a/hero.gcs; "
        "import them to different places."
    ]
    assert run.out.startswith("a/hero.gcs -> out/hero.json: valid, ")
    assert written(folder / "out" / "hero.json")["profile"]["name"] == "Brenna Quill"


def test_jobs_keep_the_input_order_and_the_same_results(tmp_path: Path) -> None:
    names = []
    for index in range(7):
        name = f"{index:02d}.gcs"
        (tmp_path / name).write_text(
            gcs_samples.text_of(gcs_samples.character(units=index, version=(2, 4, 5)[index % 3]))
        )
        names.append(name)
    names.reverse()
    names[2:2] = ["missing.gcs"]
    parallel = in_a_process("import", "--json", "--jobs", "3", "--out-dir", "parallel", *names, cwd=tmp_path)
    serial = cli("import", "--json", "--out-dir", "serial", *names, cwd=tmp_path)
    assert parallel.status == serial.status == 2
    assert parallel.err == serial.err == ""  # not a terminal: no progress line
    lines, serial_lines = json_lines(parallel.out), json_lines(serial.out)
    assert [line["path"] for line in lines] == names
    for line, other in zip(lines, serial_lines, strict=True):
        assert line["ok"] == other["ok"] == (line["path"] != "missing.gcs")
        if line["ok"]:
            assert line["output"] == f"parallel/{line['path'][:-4]}.json"
            assert line["report"] == other["report"]
            assert line["notes"] == other["notes"]
        else:
            assert line["error"]["code"] == "unreadable"
    for name in names[:2] + names[3:]:
        stem = name[:-4]
        assert without_import_time(written(tmp_path / "parallel" / f"{stem}.json")) == without_import_time(
            written(tmp_path / "serial" / f"{stem}.json")
        )


def test_json_lines_and_notes(folder: Path) -> None:
    expected = import_gcs((folder / "old.gcs").read_bytes())
    run = cli("import", "--json", "old.gcs", "xml.gcs", cwd=folder)
    assert run.status == 2
    good, bad = json_lines(run.out)
    assert good["path"] == "old.gcs" and good["ok"] is True and good["output"] == "old.json"
    assert good["notes"] == [note.to_dict() for note in expected.notes]
    assert good["report"] == verify_character(expected.document).to_dict()
    assert set(good["notes"][0]) == {"source", "kind", "message"}
    assert bad == {
        "path": "xml.gcs",
        "ok": False,
        "error": {
            "code": "unsupportedGcsVersion",
            "message": bad["error"]["message"],
            "details": {"version": "4", "format": "xml"},
        },
    }
    listed = cli("import", "--force", "--notes", "old.gcs", cwd=folder)
    assert listed.status == 0
    note_lines = listed.out.splitlines()[1:]
    assert note_lines == [
        f"  {note.source or '(root)'}: {note.kind}: {note.message}" for note in expected.notes
    ]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_progress_on_a_terminal(folder: Path) -> None:
    done, shown = run_on_a_terminal(["import", "hero.gcs", "old.gcs"], cwd=folder)
    assert done.returncode == 0
    assert b"importing: 0/2 files done" in shown
    assert b"importing" not in done.stdout


def test_a_library_failure_is_an_error_line_not_a_traceback(
    folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise OverflowError("int too large to convert to float")

    monkeypatch.setattr(gurps_character.gcs, "import_gcs", broken)
    monkeypatch.chdir(folder)
    assert main(["import", "hero.gcs", "old.gcs"]) == 2
    assert main(["check", "hero.gcs"]) == 2
    err = capsys.readouterr().err
    message = (
        "importFailed: the GCS import failed on this file "
        "(OverflowError: int too large to convert to float); please report it with the file."
    )
    assert err.splitlines() == [  # import's two files, then check's one
        f"error: hero.gcs: {message}",
        f"error: old.gcs: {message}",
        f"error: hero.gcs: {message}",
    ]
    assert not (folder / "hero.json").exists()


# ---------------------------------------------------------------- .gcs in check, validate and stats


def test_check_and_validate_read_gcs_files_and_find_them_in_folders(folder: Path) -> None:
    shutil.copyfile(REPOSITORY / "examples" / "rurik.json", folder / "rurik.json")
    check = cli("check", "--json", ".", cwd=folder)
    lines = {line["path"]: line for line in json_lines(check.out)}
    assert sorted(lines) == [
        "./broken.gcs",
        "./hero.gcs",
        "./list.gcs",
        "./old.gcs",
        "./rurik.json",
        "./xml.gcs",
    ]
    hero = import_gcs((folder / "hero.gcs").read_bytes()).document
    assert lines["./hero.gcs"]["report"] == verify_character(hero).to_dict()
    assert lines["./xml.gcs"]["error"]["code"] == "unsupportedGcsVersion"
    assert lines["./broken.gcs"]["error"]["code"] == "invalidJson"
    assert check.status == 2
    validate = cli("validate", "hero.gcs", "old.gcs", cwd=folder)
    assert validate.status == 0
    assert validate.out == "hero.gcs: valid\nold.gcs: valid\n"


def test_stats_shows_a_gcs_characters_combat_view(folder: Path) -> None:
    text = cli("stats", "hero.gcs", cwd=folder)
    assert text.status == 0
    assert text.out.startswith("Brenna Quill\n")
    assert re.search(r"^HP +7/11 ", text.out, re.MULTILINE)  # GCS's damage taken
    as_json = cli("stats", "--json", "hero.gcs", cwd=folder)
    document = import_gcs((folder / "hero.gcs").read_bytes()).document
    assert json.loads(as_json.out) == combat_stats(document).to_dict()
    refused = cli("stats", "xml.gcs", cwd=folder)
    assert refused.status == 2
    assert refused.err.startswith("error: xml.gcs: unsupportedGcsVersion: This is an XML GCS file")


def test_in_place_updates_write_play_into_a_gcs_file_never_a_document(folder: Path) -> None:
    run = cli("damage", "--in-place", "hero.gcs", "3", cwd=folder)
    assert run.status == 0, run.err
    assert import_gcs((folder / "hero.gcs").read_bytes()).document["secondary"]["hp"]["current"] == 4
    elsewhere = cli("damage", "hero.gcs", "3", "-o", "hurt.json", "--now", "2026-10-05T10:00:00Z", cwd=folder)
    assert elsewhere.status == 0, elsewhere.err
    assert written(folder / "hurt.json")["secondary"]["hp"]["current"] == 1  # 4 - 3: a document


# ---------------------------------------------------------------- GCS's own files


def test_every_shared_gcs_file_imports_or_is_refused_as_xml(tmp_path: Path) -> None:
    if not SHARED_GCS.is_dir():
        pytest.skip("../shared/gcs is not present")
    files = sorted(SHARED_GCS.glob("*.gcs"))
    run = in_a_process("import", "--json", "--jobs", "2", "--out-dir", str(tmp_path), str(SHARED_GCS))
    lines = json_lines(run.out)
    assert [line["path"] for line in lines] == [str(path) for path in files]
    for line in lines:
        if ".xml." in line["path"]:
            assert line["error"]["code"] == "unsupportedGcsVersion"
            continue
        assert line["ok"], line
        assert line["report"]["claimConsistent"], line["path"]
        document = json.loads(Path(line["output"]).read_text(encoding="utf-8"))
        assert validate_character(document).valid, line["path"]
    assert run.status == 2  # the XML file


@pytest.mark.skipif(os.name != "posix", reason="POSIX signals and process groups")
@pytest.mark.parametrize("finished", [1, 2, 4, 7, 11, 15])
def test_ctrl_c_during_jobs_leaves_only_complete_documents(tmp_path: Path, finished: int) -> None:
    # Ctrl-C after `finished` files were reported (the first report: the interpreter is surely up
    # and handles Ctrl-C): the workers are stopped wherever they are, some in the middle of
    # writing; what is left in the output folder is whole (issue 22, item 10).
    source = tmp_path / "gcs"
    source.mkdir()
    for index in range(16):
        character = gcs_samples.character(units=20 + index, version=(4, 5)[index % 2], name=f"Hero {index}")
        (source / f"{index:02d}.gcs").write_text(gcs_samples.text_of(character), encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "gurps_character", "import", "--jobs", "2", "--out-dir", "out", "gcs"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        assert process.stdout is not None
        for _ in range(finished):
            process.stdout.readline()
        time.sleep(finished % 4 / 40)  # and a moment more: some worker is then in the middle of a file
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C sends: to every process of the group
        _out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    # 130, or 0 when the work was done first; or death by SIGINT when Ctrl-C comes as Python
    # exits, after its own handler is gone (a shell shows 130 for that too)
    assert process.returncode in (0, 130, -signal.SIGINT), err
    assert b"Traceback" not in err
    out = tmp_path / "out"
    assert out.is_dir()  # a file was reported written
    assert leftovers(out) == []
    for path in out.rglob("*"):
        assert path.suffix == ".json", path
        assert written(path)["profile"]["name"].startswith("Hero ")


@pytest.mark.parametrize("count", [1, 2, 3])
def test_a_summary_follows_the_lines_of_two_files_or_more(tmp_path: Path, count: int) -> None:
    names = []
    for index in range(count):
        name = f"hero{index}.gcs"
        (tmp_path / name).write_text(gcs_samples.text_of(gcs_samples.character(units=2)), encoding="utf-8")
        names.append(name)
    if count == 3:
        (tmp_path / names[-1]).write_text("{", encoding="utf-8")  # one that fails
    run = cli("import", *names, cwd=tmp_path)
    lines = run.out.splitlines()
    imported = count - (count == 3)
    assert len(lines) == imported + (count > 1)
    if count == 1:
        assert lines[0].startswith("hero0.gcs -> hero0.json: valid, ")
        return
    per_file = [re.search(r", (\d+) deviations?, (\d+) notes?$", line) for line in lines[:-1]]
    deviations = sum(int(found.group(1)) for found in per_file if found)
    notes = sum(int(found.group(2)) for found in per_file if found)
    assert lines[-1] == (
        f"{count} files: {imported} imported (0 rules-compliant), {count - imported} failed; "
        f"{deviations} deviations and {notes} notes in all"
    )
