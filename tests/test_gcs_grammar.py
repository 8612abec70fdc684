"""import_gcs on plausible GCS files of every version (tests/gcs_grammar.py): each imports, and the
document is valid and claim-consistent."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

from hypothesis import HealthCheck, given, settings

from gcs_grammar import gcs_files
from gurps_character import import_gcs, validate_character, verify_character

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(data=gcs_files())
def test_every_plausible_gcs_file_imports_valid_and_honest(data: dict[str, Any]) -> None:
    before = copy.deepcopy(data)
    result = import_gcs(data, now=NOW)
    assert data == before
    report = validate_character(result.document)
    assert report.valid, report.errors[:3]
    assert verify_character(result.document).claim_consistent
