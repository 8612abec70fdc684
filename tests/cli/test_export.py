"""``gurps-character export``: documents to new GCS files (beside them, -o, --out-dir, folders,
--jobs, --json, --notes), and ``--onto`` writing play back into the GCS file a document was
imported from: in place, atomically, keeping the file's mode, refused when the file was changed
in GCS since the import unless --force is given.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from gurps_character import apply_damage, export_gcs, import_gcs, serialize_character
from tests.cli.test_cli import cli, json_lines, run_on_a_terminal
from tests.support.gcs_roundtrip import NOW
from tests.support.paths import REPOSITORY, TESTS

ROOT = REPOSITORY
EXAMPLES = ROOT / "examples"
FIXTURES = TESTS / "fixtures" / "gcs"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The examples and a GCS file with the document imported from it, in a fresh folder."""
    for name in ("rurik.json", "jotun.json", "odile.yaml"):
        shutil.copyfile(EXAMPLES / name, tmp_path / name)
    shutil.copyfile(FIXTURES / "v5_fighter.gcs", tmp_path / "fighter.gcs")
    imported = import_gcs((tmp_path / "fighter.gcs").read_bytes(), now=NOW).document
    (tmp_path / "fighter.json").write_text(serialize_character(imported))
    return tmp_path


def hurt(path: Path, points: int) -> None:
    """Play on the document file: ``points`` HP lost."""
    document = json.loads(path.read_text())
    path.write_text(serialize_character(apply_damage(document, points, now=NOW)))


def current_hp(path: Path) -> int:
    """HP now, in a document file or (imported) a GCS file."""
    if path.suffix == ".gcs":
        hp = import_gcs(path.read_bytes()).document["secondary"]["hp"]
    else:
        hp = json.loads(path.read_text())["secondary"]["hp"]
    return int(hp.get("current", hp["value"]))


def leftovers(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.rglob(".*.tmp"))


def test_export_writes_a_new_gcs_file_beside_the_document(folder: Path) -> None:
    run = cli("export", "rurik.json", cwd=folder)
    assert run.status == 0, run.err
    expected = export_gcs(json.loads((folder / "rurik.json").read_text()))
    assert run.out == f"rurik.json -> rurik.gcs: a new GCS character, {len(expected.notes)} notes\n"
    written = json.loads((folder / "rurik.gcs").read_text())
    assert written["version"] == 5 and written["profile"]["name"] == "Tamsin Ashdown"
    assert import_gcs((folder / "rurik.gcs").read_bytes()).document["secondary"]["hp"]["current"] == 11
    assert run.err == "" and leftovers(folder) == []


def test_an_existing_gcs_file_is_kept_unless_forced(folder: Path) -> None:
    (folder / "rurik.gcs").write_bytes(b"mine")
    run = cli("export", "rurik.json", cwd=folder)
    assert (run.status, run.out) == (2, "")
    assert run.err == "error: rurik.json: outputExists: rurik.gcs exists; give --force to replace it.\n"
    assert (folder / "rurik.gcs").read_bytes() == b"mine"
    assert cli("export", "--force", "rurik.json", cwd=folder).status == 0
    assert json.loads((folder / "rurik.gcs").read_text())["version"] == 5


def test_yaml_stdout_out_dir_folders_jobs_and_json(folder: Path) -> None:
    to_stdout = cli("export", "odile.yaml", "-o", "-", cwd=folder)
    assert to_stdout.status == 0, to_stdout.err
    assert json.loads(to_stdout.out)["profile"]["name"] == "Odile Farrow"
    assert to_stdout.err.startswith("odile.yaml -> <stdout>: a new GCS character, ")
    (folder / "party").mkdir()
    for name in ("rurik.json", "odile.yaml"):
        shutil.copyfile(folder / name, folder / "party" / name)
    run = cli("export", "--jobs", "2", "--json", "--out-dir", "gcs", "party", cwd=folder)
    assert run.status == 0, run.err
    records = json_lines(run.out)
    assert [(record["path"], record["output"], record["ok"]) for record in records] == [
        ("party/odile.yaml", "gcs/odile.gcs", True),
        ("party/rurik.json", "gcs/rurik.gcs", True),
    ]
    assert all(record["writtenBack"] is False and record["notes"] for record in records)
    assert sorted(path.name for path in (folder / "gcs").iterdir()) == ["odile.gcs", "rurik.gcs"]


def test_notes_are_listed_under_their_file(folder: Path) -> None:
    run = cli("export", "--notes", "jotun.json", cwd=folder)
    assert run.status == 0, run.err
    notes = export_gcs(json.loads((folder / "jotun.json").read_text())).notes
    shown = [f"  {note.source or '(root)'}: {note.kind}: {note.message}" for note in notes]
    assert run.out.splitlines()[1:] == shown


def test_play_is_written_back_onto_the_gcs_file_in_place(folder: Path) -> None:
    gcs = folder / "fighter.gcs"
    original = gcs.read_text()
    os.chmod(gcs, 0o640)
    hurt(folder / "fighter.json", 2)
    run = cli("export", "fighter.json", "--onto", "fighter.gcs", cwd=folder)
    assert run.status == 0, run.err
    assert run.out == "fighter.json -> fighter.gcs: play written back, 1 note\n"
    document = json.loads((folder / "fighter.json").read_text())
    stamp = json.loads(gcs.read_text())["modified_date"]
    expected = export_gcs(document, base=original.encode(), now=NOW).text
    assert gcs.read_text() == expected.replace('"2026-10-05T10:00:00Z"', json.dumps(stamp))
    assert current_hp(gcs) == current_hp(folder / "fighter.json") < current_hp(FIXTURES / "v5_fighter.gcs")
    assert stat.S_IMODE(gcs.stat().st_mode) == 0o640 and leftovers(folder) == []


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file to another owner needs root"
)
def test_play_written_back_keeps_the_gcs_files_owner_and_group(folder: Path) -> None:
    gcs = folder / "fighter.gcs"
    os.chown(gcs, 4321, 8765)
    hurt(folder / "fighter.json", 2)
    run = cli("export", "fighter.json", "--onto", "fighter.gcs", cwd=folder)
    assert run.status == 0, run.err
    info = gcs.stat()
    assert (info.st_uid, info.st_gid) == (4321, 8765)
    assert current_hp(gcs) == current_hp(folder / "fighter.json")


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_folder_shows_progress_on_a_terminal(folder: Path) -> None:
    (folder / "fighter.json").unlink()  # a document of GCS would be exported anew: not needed here
    done, shown = run_on_a_terminal(["export", "--out-dir", "gcs", "."], cwd=folder)
    assert done.returncode == 0, shown
    assert b"exporting: 0/3 files done" in shown
    assert b"exporting" not in done.stdout
    assert sorted(path.name for path in (folder / "gcs").iterdir()) == ["jotun.gcs", "odile.gcs", "rurik.gcs"]


def test_a_second_write_back_from_the_same_document_is_no_change(folder: Path) -> None:
    hurt(folder / "fighter.json", 2)
    assert cli("export", "fighter.json", "--onto", "fighter.gcs", cwd=folder).status == 0
    hurt(folder / "fighter.json", 1)
    run = cli("export", "fighter.json", "--onto", "fighter.gcs", cwd=folder)
    assert run.status == 0, run.err
    assert current_hp(folder / "fighter.gcs") == current_hp(folder / "fighter.json")


def test_a_gcs_file_changed_since_the_import_is_refused_unless_forced(folder: Path) -> None:
    gcs = folder / "fighter.gcs"
    gcs.write_text(gcs.read_text().replace('"total_points": 150', '"total_points": 160'))
    changed = gcs.read_bytes()
    hurt(folder / "fighter.json", 2)
    run = cli("export", "fighter.json", "--onto", "fighter.gcs", cwd=folder)
    assert (run.status, run.out) == (2, "")
    assert run.err == (
        "error: fighter.json: gcsChanged: fighter.gcs was changed in GCS since the document was imported "
        "from it; import it again, or give --force to write play into it all the same.\n"
    )
    assert gcs.read_bytes() == changed
    forced = cli("export", "--force", "fighter.json", "--onto", "fighter.gcs", cwd=folder)
    assert forced.status == 0, forced.err
    assert json.loads(gcs.read_text())["total_points"] == 160
    assert current_hp(gcs) == current_hp(folder / "fighter.json")


def test_a_gcs_file_only_saved_again_in_gcs_is_refused_too(folder: Path) -> None:
    gcs = folder / "fighter.gcs"
    stamp = json.dumps(json.loads(gcs.read_text())["modified_date"])
    gcs.write_text(gcs.read_text().replace(stamp, '"2026-11-01T18:00:00-07:00"'))
    saved = gcs.read_bytes()
    hurt(folder / "fighter.json", 2)
    run = cli("export", "fighter.json", "--onto", "fighter.gcs", cwd=folder)
    assert (run.status, run.out) == (2, "")
    assert run.err.startswith("error: fighter.json: gcsChanged: fighter.gcs was changed in GCS")
    assert gcs.read_bytes() == saved


def test_onto_with_an_output_leaves_the_gcs_file_alone(folder: Path) -> None:
    original = (folder / "fighter.gcs").read_bytes()
    hurt(folder / "fighter.json", 3)
    run = cli("export", "fighter.json", "--onto", "fighter.gcs", "-o", "after.gcs", cwd=folder)
    assert run.status == 0, run.err
    assert (folder / "fighter.gcs").read_bytes() == original
    assert current_hp(folder / "after.gcs") == current_hp(folder / "fighter.json")


def test_onto_refuses_a_document_from_elsewhere_and_bad_combinations(folder: Path) -> None:
    run = cli("export", "rurik.json", "--onto", "fighter.gcs", cwd=folder)
    assert run.status == 2 and run.err.startswith(
        "error: rurik.json: baseMismatch: The document was not imported"
    )
    several = cli("export", "rurik.json", "jotun.json", "--onto", "fighter.gcs", cwd=folder)
    assert several.status == 2
    assert several.err == (
        "error: invalidArgument: --onto writes one document's play into its GCS file: give one document.\n"
    )
    other = folder / "other.gcs"
    shutil.copyfile(FIXTURES / "v4_wizard.gcs", other)
    mismatch = cli("export", "fighter.json", "--onto", "other.gcs", cwd=folder)
    assert mismatch.status == 2 and "baseMismatch: The GCS file given is another character" in mismatch.err
    assert other.read_bytes() == (FIXTURES / "v4_wizard.gcs").read_bytes()


def test_an_output_that_would_replace_its_input_is_refused(folder: Path) -> None:
    run = cli("export", "rurik.json", "-o", "rurik.json", cwd=folder)
    assert run.status == 2
    assert "outputConflict: the output would replace the input itself" in run.err
    assert json.loads((folder / "rurik.json").read_text())["format"] == "gurps-character"


@pytest.mark.parametrize("force", [False, True], ids=["plain", "forced"])
def test_onto_with_an_output_that_is_the_document_itself_is_refused(folder: Path, force: bool) -> None:
    # issue 29, item 4: -o names a new file; the document it exports is never that file, forced or not
    hurt(folder / "fighter.json", 2)
    document, gcs = (folder / "fighter.json").read_bytes(), (folder / "fighter.gcs").read_bytes()
    forced = ("--force",) if force else ()
    for output in ("fighter.json", "./fighter.json", str(folder / "fighter.json")):
        run = cli("export", *forced, "fighter.json", "--onto", "fighter.gcs", "-o", output, cwd=folder)
        assert (run.status, run.out) == (2, "")
        assert run.err == (
            "error: fighter.json: outputConflict: the output would replace the input itself; "
            "give another name with -o or --out-dir.\n"
        )
        assert (folder / "fighter.json").read_bytes() == document
        assert (folder / "fighter.gcs").read_bytes() == gcs
    assert leftovers(folder) == []


def test_onto_with_an_output_refuses_a_changed_gcs_file_unless_forced(folder: Path) -> None:
    # issue 29, item 8: the refusal holds when play goes to -o OUT too, and OUT is not written
    gcs = folder / "fighter.gcs"
    gcs.write_text(gcs.read_text().replace('"total_points": 150', '"total_points": 160'))
    changed = gcs.read_bytes()
    hurt(folder / "fighter.json", 2)
    run = cli("export", "fighter.json", "--onto", "fighter.gcs", "-o", "after.gcs", cwd=folder)
    assert (run.status, run.out) == (2, "")
    assert run.err == (
        "error: fighter.json: gcsChanged: fighter.gcs was changed in GCS since the document was imported "
        "from it; import it again, or give --force to write play into it all the same.\n"
    )
    assert not (folder / "after.gcs").exists() and gcs.read_bytes() == changed
    as_json = cli("export", "--json", "fighter.json", "--onto", "fighter.gcs", "-o", "-", cwd=folder)
    assert (as_json.status, as_json.out) == (2, "")
    assert json_lines(as_json.err)[0]["error"]["code"] == "gcsChanged"
    forced = cli("export", "--force", "fighter.json", "--onto", "fighter.gcs", "-o", "after.gcs", cwd=folder)
    assert forced.status == 0, forced.err
    assert json.loads((folder / "after.gcs").read_text())["total_points"] == 160
    assert current_hp(folder / "after.gcs") == current_hp(folder / "fighter.json")
    assert gcs.read_bytes() == changed


def test_onto_with_an_output_naming_the_gcs_file_writes_it_in_place(folder: Path) -> None:
    # another spelling of the --onto file is that file: play written into it, as without -o
    hurt(folder / "fighter.json", 2)
    run = cli("export", "fighter.json", "--onto", "fighter.gcs", "-o", "./fighter.gcs", cwd=folder)
    assert run.status == 0, run.err
    assert run.out == "fighter.json -> ./fighter.gcs: play written back, 1 note\n"
    assert current_hp(folder / "fighter.gcs") == current_hp(folder / "fighter.json")
    assert leftovers(folder) == []
