"""benchmarks/bench.py keeps working (no timing is asserted: it is a benchmark, not a test)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gurps_character import import_gcs, parse_character, serialize_character, validate_character
from tests.support import gcs_samples
from tests.support.paths import REPOSITORY

BENCH = REPOSITORY / "benchmarks" / "bench.py"
EXAMPLES = REPOSITORY / "examples"


def bench_module() -> ModuleType:
    if "gurps_bench" not in sys.modules:
        spec = importlib.util.spec_from_file_location("gurps_bench", BENCH)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["gurps_bench"] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
    return sys.modules["gurps_bench"]


def test_a_quick_run_on_the_examples_reports_every_operation() -> None:
    command = [sys.executable, str(BENCH), "--quick", "--json", "--sizes", "", "--rounds", "1"]
    command += ["--gcs-sizes", "", "--shared-gcs", "no-such-folder", "--built-size", "0", "--hurt-base", "0"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    assert [row["name"] for row in report["documents"]] == ["rurik", "jotun"]
    for row in report["documents"]:
        assert list(row["operations"]) == list(bench_module().OPERATIONS)
        for measured in row["operations"].values():
            assert measured["median_s"] > 0 and measured["ratio"] > 0
    assert set(report["targets"]) == set(bench_module().TARGETS)


def test_generated_characters_are_valid_and_compliant() -> None:
    bench = bench_module()
    rurik = json.loads((EXAMPLES / "rurik.json").read_text(encoding="utf-8"))
    for size in (3, 60):
        grown = bench.grow(rurik, size)
        assert len(grown["skills"]) == size
        assert validate_character(grown).valid
        report = parse_character(serialize_character(grown)).report
        assert report.rules_compliant and report.claim_consistent, report.to_dict()


def test_import_rows_time_generated_gcs_files_against_json_loads(tmp_path: Path) -> None:
    (tmp_path / "one.gcs").write_text(gcs_samples.text_of(gcs_samples.character(units=30)), encoding="utf-8")
    (tmp_path / "xml.gcs").write_text('<?xml version="1.0"?><character version="4"/>', encoding="utf-8")
    command = [sys.executable, str(BENCH), "--quick", "--json", "--sizes", "", "--rounds", "1"]
    command += ["--gcs-sizes", "20000,80000", "--shared-gcs", str(tmp_path), "--built-size", "40000"]
    command += ["--hurt-base", "0"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    imported: dict[str, Any] = json.loads(result.stdout)["import"]
    assert [row["name"] for row in imported["generated"]] == ["GCS 20 kB", "GCS 80 kB"]
    for row in imported["generated"]:
        assert row["import_gcs_s"] > 0 and row["json_loads_s"] > 0 and row["write_back_s"] > 0
        assert row["ratio"] == pytest.approx(row["import_gcs_s"] / row["json_loads_s"])
        assert row["write_back_ratio"] == pytest.approx(row["write_back_s"] / row["json_loads_s"])
    assert 20_000 <= imported["generated"][0]["bytes"] < 22_000
    assert imported["shared"]["files"] == 1  # the XML file is refused, so it is not timed
    assert [row["name"] for row in imported["shared"]["rows"]] == ["one"]
    built = imported["built"]
    assert built["name"] == "GCS built to hurt, 40 kB" and 30_000 <= built["bytes"] <= 40_000
    assert built["ratio"] == pytest.approx(built["import_gcs_s"] / built["json_loads_s"])
    assert set(imported["targets"]) == {
        "import_gcs, cost per byte",
        "import_gcs, GCS 80 kB",
        "import_gcs, GCS built to hurt, 40 kB",
        "write-back, GCS 80 kB",
    }


def test_generated_gcs_files_reach_their_size_and_import() -> None:
    for size in (20_000, 60_000):
        data, text = gcs_samples.grown(size)
        assert size <= len(text.encode()) < size * 1.1
        imported = import_gcs(text)
        assert len(imported.document["skills"]) >= len(data["skills"])
        assert validate_character(imported.document).valid


def test_weapons_and_skills_built_to_hurt_are_timed_at_1_4_and_16_times() -> None:
    """The scaling report (issue 29 item 1): import_gcs, combat_stats and export_gcs at 1x, 4x
    and 16x the weapons and skills, with each one's cost per weapon at 16x over 1x."""
    command = [sys.executable, str(BENCH), "--quick", "--json", "--sizes", "", "--rounds", "1"]
    command += ["--gcs-sizes", "", "--shared-gcs", "no-such-folder", "--built-size", "0", "--hurt-base", "3"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)["weapon_skills"]
    assert [(row["scale"], row["weapons"]) for row in report["rows"]] == [(1, 3), (4, 12), (16, 48)]
    assert report["rows"][0]["bytes"] < report["rows"][1]["bytes"] < report["rows"][2]["bytes"]
    operations = ["import_gcs", "combat_stats", "export_gcs"]
    for row in report["rows"]:
        assert list(row["median_s"]) == operations and all(value > 0 for value in row["median_s"].values())
    first, last = report["rows"][0]["median_s"], report["rows"][-1]["median_s"]
    for name in operations:
        assert report["per_weapon_growth"][name] == pytest.approx(last[name] / 16 / first[name])
    assert len(report["targets"]) == 3
    text = subprocess.run(
        [arg for arg in command if arg != "--json"], capture_output=True, text=True, timeout=300, check=False
    ).stdout
    assert "| `combat_stats` |" in text and "16× (48," in text
