"""Real GCS files from ../shared/gcs (skipped when absent), edited as older GCS versions saved
them (no calc blocks, the other key spelling): the importer's own computation of what GCS
would have saved agrees with what GCS did save. The full set of edits is scripts/gcs_variations.py."""

from __future__ import annotations

import copy
import importlib.util
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
SHARED = ROOT.parent / "shared"
FILES = sorted((SHARED / "gcs").glob("*.gcs")) if (SHARED / "gcs" / "check.py").is_file() else []

pytestmark = pytest.mark.skipif(
    not FILES, reason="no GCS files in ../shared/gcs (a clone without shared data)"
)


def _module(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def harness() -> tuple[Any, Any, list[tuple[str, Any]]]:
    variations = _module(ROOT / "scripts" / "gcs_variations.py", "gcs_variations")
    check = _module(SHARED / "gcs" / "check.py", "gcs_check")
    originals = []
    for path in FILES:
        kind, data, _ = check.classify(path.read_bytes())
        if kind in ("v1", "v2", "v4", "v5"):
            originals.append((path.name, data))
    return variations, check, originals


@pytest.mark.parametrize(
    ("edit", "agree"),
    [
        ("drop_calc_top", "original"),
        ("drop_every_calc", "original"),
        ("drop_attribute_calc", "original"),
        ("rename_keys", True),
        ("nest_equipment", True),
    ],
)
def test_edited_real_files_import_valid_honest_and_agreeing(
    harness: tuple[Any, Any, list[tuple[str, Any]]], edit: str, agree: bool | str
) -> None:
    variations, check, originals = harness
    change = getattr(variations, edit)
    failures = {}
    for name, original in originals:
        data = copy.deepcopy(original)
        if change(data):
            found = variations.run_one(check, data, agree, original)
            if found:
                failures[name] = found[:3]
    assert not failures
