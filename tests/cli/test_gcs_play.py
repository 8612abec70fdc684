"""Damage written straight into a ``.gcs`` character: the pool commands, ``update`` and ``hit``
with ``--in-place`` (or ``-o OUT.gcs``) write play back into the GCS file as ``export --onto``
does (HP and FP damage and the date, every other byte kept), locked and atomic."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from gurps_character import (
    apply_damage,
    apply_hit,
    change_pool,
    export_gcs,
    heal,
    hit_location,
    import_gcs,
    resolve_hit,
    roll_3d,
    update_character,
)
from tests.support.cli_runner import Run, in_process
from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
HERO = ROOT / "tests" / "fixtures" / "gcs_cli" / "hero.gcs"
BROKEN = ROOT / "tests" / "fixtures" / "gcs_cli" / "broken.gcs"
RURIK = ROOT / "examples" / "rurik.json"
NOW = "2026-10-05T10:00:00Z"
NOW_DT = datetime(2026, 10, 5, 10, tzinfo=UTC)


@pytest.fixture
def hero(tmp_path: Path) -> Path:
    path = tmp_path / "hero.gcs"
    shutil.copyfile(HERO, path)
    return path


def cli(folder: Path, *args: str) -> Run:
    return in_process(*args, cwd=folder)


def played(original: bytes, document: Any) -> bytes:
    """``original`` with the document's play written in, as ``export --onto`` writes it."""
    return export_gcs(document, base=original, now=NOW_DT).text.encode("utf-8")


def hp_of(path: Path) -> int:
    return int(import_gcs(path.read_bytes()).document["secondary"]["hp"]["current"])


def test_damage_in_place_writes_play_into_the_gcs_file(hero: Path) -> None:
    original = hero.read_bytes()
    run = cli(hero.parent, "damage", "--in-place", "hero.gcs", "3", "--now", NOW)
    assert (run.status, run.out, run.err) == (0, "", "hero.gcs: HP 7 -> 4 (max 11): wounded\n")
    expected = played(original, apply_damage(import_gcs(original).document, 3, now=NOW_DT))
    assert hero.read_bytes() == expected
    changed = [
        (old, new)
        for old, new in zip(original.splitlines(), expected.splitlines(), strict=True)
        if old != new
    ]
    hp_line = (
        b'\t\t{"attr_id": "hp", "adj": 0, "damage": %d, "calc": {"value": 11, "current": %d, "points": 0}},'
    )
    assert changed == [
        (hp_line % (4, 7), hp_line % (7, 4)),
        (b'\t"modified_date": "2025-01-11T09:00:00Z",', b'\t"modified_date": "2026-10-05T10:00:00Z",'),
    ]
    assert hp_of(hero) == 4
    assert sorted(path.name for path in hero.parent.iterdir()) == ["hero.gcs"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_the_gcs_file_keeps_its_mode(hero: Path) -> None:
    hero.chmod(0o640)
    assert cli(hero.parent, "heal", "--in-place", "hero.gcs", "2", "-q").status == 0
    assert (hero.stat().st_mode & 0o777, hp_of(hero)) == (0o640, 9)


def test_fatigue_with_spill_writes_both_pools(hero: Path) -> None:
    original = hero.read_bytes()
    run = cli(hero.parent, "fatigue", "--in-place", "--spill", "hero.gcs", "13", "--now", NOW)
    assert run.status == 0, run.err
    document = change_pool(import_gcs(original).document, "fp", -13, now=NOW_DT, spill_to_hp=True).document
    assert hero.read_bytes() == played(original, document)
    imported = import_gcs(hero.read_bytes()).document["secondary"]
    assert (imported["fp"]["current"], imported["hp"]["current"]) == (-2, 5)


def test_update_in_place_writes_into_the_gcs_file(hero: Path) -> None:
    original = hero.read_bytes()
    run = cli(hero.parent, "update", "--in-place", "hero.gcs", "/secondary/fp/current=4", "--now", NOW)
    assert (run.status, run.err) == (0, "hero.gcs: /secondary/fp/current = 4\n")
    document = update_character(import_gcs(original).document, [("/secondary/fp/current", 4)], now=NOW_DT)
    assert hero.read_bytes() == played(original, document)


def test_a_hit_applied_to_a_gcs_file(hero: Path) -> None:
    """A 5 cut at a random location (seed 2), taken off the GCS file's HP."""
    original = hero.read_bytes()
    run = cli(
        hero.parent, "hit", "--in-place", "hero.gcs", "5", "cut", "--location", "random", "--seed", "2",
        "--now", NOW, "--json",
    )  # fmt: skip
    assert (run.status, run.err) == (0, ""), run.err
    report = json.loads(run.out)
    document = import_gcs(original).document
    where = hit_location(roll_3d(random.Random(2)))
    hit = resolve_hit(document, 5, "cut", location=where)
    assert report["hit"] == hit.to_dict()
    assert hero.read_bytes() == played(original, apply_hit(document, hit, now=NOW_DT).document)


def test_output_to_another_gcs_file_leaves_the_input(hero: Path) -> None:
    original = hero.read_bytes()
    run = cli(hero.parent, "heal", "hero.gcs", "1", "-o", "healed.gcs", "--now", NOW)
    assert run.status == 0, run.err
    assert hero.read_bytes() == original
    healed = heal(import_gcs(original).document, 1, now=NOW_DT)
    assert (hero.parent / "healed.gcs").read_bytes() == played(original, healed)


def test_stdout_and_other_outputs_still_get_the_document(hero: Path) -> None:
    """Without --in-place or a .gcs output, the gurps-character document, as before."""
    run = cli(hero.parent, "damage", "hero.gcs", "1", "-q", "--now", NOW)
    assert json.loads(run.out)["secondary"]["hp"]["current"] == 6
    assert cli(hero.parent, "damage", "hero.gcs", "1", "-o", "hurt.json", "-q").status == 0
    assert json.loads((hero.parent / "hurt.json").read_text("utf-8"))["format"] == "gurps-character"


def test_a_gcs_output_from_a_document_is_refused(tmp_path: Path) -> None:
    shutil.copyfile(RURIK, tmp_path / "rurik.json")
    run = cli(tmp_path, "damage", "rurik.json", "3", "-o", "rurik.gcs")
    assert (run.status, run.out) == (2, "")
    assert run.err == (
        "error: rurik.json: invalidArgument: -o rurik.gcs: play is written into a GCS file only when "
        "PATH is that .gcs file; to write this document as GCS, use 'gurps-character export' (--onto for "
        "the file it was imported from).\n"
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rurik.json"]


def test_stdin_that_is_no_gcs_file_is_refused_for_a_gcs_output(tmp_path: Path) -> None:
    run = in_process("damage", "-", "3", "-o", "out.gcs", cwd=tmp_path, stdin=RURIK.read_bytes())
    assert (run.status, run.out) == (2, "")
    assert run.err.startswith("error: <stdin>: baseMismatch: ")
    assert list(tmp_path.iterdir()) == []


def test_stdin_that_is_the_gcs_file(tmp_path: Path) -> None:
    run = in_process("damage", "-", "3", "-o", "out.gcs", "-q", cwd=tmp_path, stdin=HERO.read_bytes())
    assert run.status == 0, run.err
    assert hp_of(tmp_path / "out.gcs") == 4


def test_a_broken_gcs_file_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "broken.gcs"
    shutil.copyfile(BROKEN, path)
    before = path.read_bytes()
    run = cli(tmp_path, "damage", "--in-place", "broken.gcs", "1")
    assert (run.status, run.out) == (2, "")
    assert run.err.startswith("error: broken.gcs: invalidJson: ")
    assert path.read_bytes() == before


@pytest.mark.skipif(os.name != "posix", reason="POSIX locks")
def test_concurrent_writes_into_one_gcs_file_lose_no_update(hero: Path) -> None:
    """Each run holds the file's lock from reading to renaming: five runs take 5 HP."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "gurps_character", "damage", "--in-place", "-q", "hero.gcs", "1"],
            cwd=hero.parent,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(5)
    ]
    for process in processes:
        _out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
    assert hp_of(hero) == 2
    assert sorted(path.name for path in hero.parent.iterdir()) == ["hero.gcs"]
