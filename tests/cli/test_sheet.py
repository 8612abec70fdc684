"""``gurps-character sheet``: sheets and combat cards beside the documents, -o, --out-dir,
folders, --jobs, --json, --card and --format, never over an existing file without --force."""

from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gurps_character import import_gcs
from gurps_character.sheet import render_card, render_sheet
from tests.cli.test_cli import cli, json_lines, leftovers, run_on_a_terminal
from tests.support.paths import EXAMPLES, FIXTURES

pytest.importorskip("jinja2", reason="the sheet extra (Jinja2) is not installed")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The examples and a GCS file, in a fresh folder."""
    for name in ("rurik.json", "jotun.json", "odile.yaml"):
        shutil.copyfile(EXAMPLES / name, tmp_path / name)
    shutil.copyfile(FIXTURES / "gcs" / "v5_fighter.gcs", tmp_path / "fighter.gcs")
    return tmp_path


def test_sheet_writes_the_page_beside_the_document(folder: Path) -> None:
    run = cli("sheet", "rurik.json", cwd=folder)
    assert (run.status, run.out, run.err) == (0, "rurik.json -> rurik.html: sheet\n", "")
    document = json.loads((folder / "rurik.json").read_text())
    assert (folder / "rurik.html").read_text(encoding="utf-8") == render_sheet(document)
    assert leftovers(folder) == []


def test_a_gcs_file_is_imported_and_its_notes_are_on_its_sheet(folder: Path) -> None:
    run = cli("sheet", "fighter.gcs", "-o", "-", cwd=folder)
    assert run.status == 0, run.err
    imported = import_gcs((folder / "fighter.gcs").read_bytes())
    expected = render_sheet(imported.document, import_notes=imported.notes)
    stamp = imported.document["extensions"]["io.github.gurps-sheet.gcs-import"]["importedAt"]
    assert run.out.replace(stamp, "") == expected.replace(stamp, "")
    assert "Import notes" in run.out
    assert run.err == "fighter.gcs -> <stdout>: sheet\n"


def test_cards_in_html_and_svg(folder: Path) -> None:
    run = cli("sheet", "--card", "odile.yaml", cwd=folder)
    assert (run.status, run.out) == (0, "odile.yaml -> odile.card.html: combat card (HTML)\n")
    assert 'class="gc-card"' in (folder / "odile.card.html").read_text(encoding="utf-8")
    run = cli("sheet", "--card", "--format", "svg", "jotun.json", cwd=folder)
    assert (run.status, run.out) == (0, "jotun.json -> jotun.card.svg: combat card (SVG)\n")
    svg = (folder / "jotun.card.svg").read_text(encoding="utf-8")
    assert svg == render_card(json.loads((folder / "jotun.json").read_text()), format="svg")
    assert ET.fromstring(svg).tag == "{http://www.w3.org/2000/svg}svg"


def test_an_existing_page_is_kept_unless_forced(folder: Path) -> None:
    (folder / "rurik.html").write_bytes(b"mine")
    run = cli("sheet", "rurik.json", cwd=folder)
    assert (run.status, run.out) == (2, "")
    assert run.err == "error: rurik.json: outputExists: rurik.html exists; give --force to replace it.\n"
    assert (folder / "rurik.html").read_bytes() == b"mine"
    assert cli("sheet", "--force", "rurik.json", cwd=folder).status == 0
    assert (folder / "rurik.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_options_that_do_not_fit_are_refused(folder: Path) -> None:
    run = cli("sheet", "--format", "svg", "rurik.json", cwd=folder)
    assert (run.status, run.out) == (2, "")
    assert run.err == (
        "error: invalidArgument: --format svg is for the combat card: add --card (the sheet is HTML).\n"
    )
    run = cli("sheet", "-o", "x.html", "rurik.json", "jotun.json", cwd=folder)
    assert run.status == 2
    assert "-o names one output" in run.err
    assert sorted(path.name for path in folder.iterdir() if path.suffix == ".html") == []


def test_folders_jobs_out_dir_and_json(folder: Path) -> None:
    (folder / "party").mkdir()
    for name in ("rurik.json", "odile.yaml", "fighter.gcs"):
        shutil.copyfile(folder / name, folder / "party" / name)
    (folder / "party" / "broken.json").write_text("{")
    run = cli("sheet", "--jobs", "2", "--json", "--out-dir", "pages", "party", cwd=folder)
    assert run.status == 2, run.err
    records = json_lines(run.out)
    assert [(record["path"], record["ok"], record.get("output")) for record in records] == [
        ("party/broken.json", False, None),
        ("party/fighter.gcs", True, "pages/fighter.html"),
        ("party/odile.yaml", True, "pages/odile.html"),
        ("party/rurik.json", True, "pages/rurik.html"),
    ]
    assert records[0]["error"]["code"] == "invalidJson"
    assert sorted(os.listdir(folder / "pages")) == ["fighter.html", "odile.html", "rurik.html"]


def test_two_inputs_never_write_one_page(folder: Path) -> None:
    (folder / "twin").mkdir()
    shutil.copyfile(folder / "rurik.json", folder / "twin" / "rurik.json")
    run = cli("sheet", "--out-dir", "pages", "rurik.json", "twin/rurik.json", cwd=folder)
    assert run.status == 2
    assert "outputConflict" in run.err and "pages/rurik.html is also the output of rurik.json" in run.err
    assert os.listdir(folder / "pages") == ["rurik.html"]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_a_folder_shows_progress_on_a_terminal(folder: Path) -> None:
    done, shown = run_on_a_terminal(["sheet", "--card", "--out-dir", "cards", "."], cwd=folder)
    assert done.returncode == 0, shown
    assert b"rendering: 0/4 files done" in shown
    assert sorted(os.listdir(folder / "cards")) == [
        "fighter.card.html",
        "jotun.card.html",
        "odile.card.html",
        "rurik.card.html",
    ]
