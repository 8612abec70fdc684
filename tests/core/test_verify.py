"""How verify_character judges the file's own claim (``integrity``) and picks justifications."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from gurps_character import verify_character
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
SWING = "/damage/swing"
"""Jotun's one unpaid override: his swing damage is 4d+2 where the table gives 4d."""


def _jotun() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / "jotun.json").read_text(encoding="utf-8"))
    return document


def _listing(document: dict[str, Any], *entries: dict[str, Any], compliant: bool = False) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["integrity"]["deviations"] = list(entries)
    changed["integrity"]["rulesCompliant"] = compliant
    return changed


def _swing(justification: str | None = "GM ruling") -> dict[str, Any]:
    entry: dict[str, Any] = {"pointer": SWING, "expected": "4d", "actual": "4d+2"}
    if justification is not None:
        entry["justification"] = justification
    return entry


def test_the_example_claims_what_is_found() -> None:
    report = verify_character(_jotun())
    assert [item.pointer for item in report.deviations] == [SWING]
    assert report.claim_consistent is True


def test_an_entry_beyond_the_real_deviations_contradicts_nothing() -> None:
    slip = {
        "pointer": "/secondary/will/points",
        "expected": 0,
        "actual": 0,
        "justification": "Listed by mistake",
    }
    report = verify_character(_listing(_jotun(), _swing(), slip))
    assert report.claim_consistent is True
    assert [item.to_dict() for item in report.deviations] == [
        {"pointer": SWING, "expected": "4d", "actual": "4d+2", "justification": "GM ruling"}
    ]


def test_an_extra_entry_that_claims_a_difference_still_contradicts_nothing() -> None:
    stale = {"pointer": "/defenses/dodge/value", "expected": 9, "actual": 10}
    assert verify_character(_listing(_jotun(), _swing(), stale)).claim_consistent is True


def test_a_deviation_the_file_does_not_list_breaks_the_claim() -> None:
    report = verify_character(_listing(_jotun()))
    assert report.declared_compliant is False
    assert report.rules_compliant is False
    assert report.claim_consistent is False
    assert report.deviations[0].justification is None


def test_a_listed_deviation_with_a_wrong_verdict_breaks_the_claim() -> None:
    report = verify_character(_listing(_jotun(), _swing(), compliant=True))
    assert report.declared_compliant is True
    assert report.claim_consistent is False


@pytest.mark.parametrize(
    ("entries", "justification"),
    [
        ((_swing("first"), _swing("second")), "second"),
        ((_swing("first"), _swing(None)), None),
        ((_swing(None), _swing("second")), "second"),
        ((_swing("only"), {"pointer": "/x", "justification": "elsewhere"}), "only"),
    ],
    ids=["the last wins", "the last has none", "a later one supplies it", "other pointers apart"],
)
def test_a_pointer_listed_twice_takes_its_last_entry(
    entries: tuple[dict[str, Any], ...], justification: str | None
) -> None:
    report = verify_character(_listing(_jotun(), *entries))
    assert report.deviations[0].justification == justification
    assert report.claim_consistent is True


def test_no_integrity_block_is_no_claim() -> None:
    document = _jotun()
    del document["integrity"]
    report = verify_character(document)
    assert report.declared_compliant is None
    assert report.claim_consistent is True
    assert report.deviations[0].justification is None


def test_a_claim_without_a_verdict_is_not_consistent() -> None:
    document = _listing(_jotun(), _swing())
    del document["integrity"]["rulesCompliant"]
    report = verify_character(document)
    assert report.declared_compliant is None
    assert report.claim_consistent is False
