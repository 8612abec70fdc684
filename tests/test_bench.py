"""benchmarks/bench.py keeps working (no timing is asserted: it is a benchmark, not a test)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from gurps_character import parse_character, serialize_character, validate_character

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench.py"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


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
