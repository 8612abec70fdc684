"""import_gcs on plausible GCS files of every version (tests/gcs_grammar.py): each imports, and the
document is valid and claim-consistent."""

from __future__ import annotations

import copy
import math
import re
from collections import Counter
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


# ---------------------------------------------------------------- value oracles
# Written from GCS's rules independently of the importer: a container costs the sum of its
# children, an alternative-abilities container its dearest child in full and a fifth (rounded up)
# of each other; a disabled node costs nothing and hides everything below it.

_TECH_LEVEL = re.compile(r"^\s*(high|low)\s+tl\b", re.IGNORECASE)


def _enabled_leaves(nodes: list[Any]) -> list[dict[str, Any]]:
    found = []
    for node in nodes:
        if node.get("disabled") is True:
            continue
        if "children" in node:
            found += _enabled_leaves(node["children"])
        else:
            found.append(node)
    return found


def _price(node: dict[str, Any]) -> int:
    """GCS's price of a node whose leaves all carry their points."""
    if node.get("disabled") is True:
        return 0
    if "children" not in node:
        points: int = node["calc"]["points"]
        return points
    values = [_price(child) for child in node["children"]]
    if node.get("container_type") == "alternative_abilities" and values:
        dearest = max(values)
        others = list(values)
        others.remove(dearest)
        return dearest + sum(math.ceil(value / 5) for value in others)
    return sum(values)


def _with_leaf_points(nodes: list[Any]) -> None:
    """Gives every leaf trait saved points (its base points), as GCS saves them."""
    for node in nodes:
        if "children" in node:
            _with_leaf_points(node["children"])
        else:
            node["calc"] = {"points": node.get("base_points", 0)}


def _walk(nodes: list[Any]) -> list[dict[str, Any]]:
    found = []
    for node in nodes:
        found.append(node)
        found += _walk(node.get("children", []))
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=gcs_files())
def test_every_enabled_trait_skill_and_carried_item_is_an_entry_at_gcs_price(data: dict[str, Any]) -> None:
    key = "traits" if "traits" in data else "advantages"
    _with_leaf_points(data[key])
    document = import_gcs(data, now=NOW).document
    leaves = _enabled_leaves(data[key])
    tech_level = [leaf for leaf in leaves if _TECH_LEVEL.match(leaf["name"])]
    entries = document["traits"] + document["languages"] + document["culturalFamiliarities"]
    assert len(entries) + len(tech_level) == len(leaves)
    leaf_names = Counter(leaf["name"].replace("@Who@", "Bob") or "(unnamed trait)" for leaf in leaves)
    assert not Counter(entry["name"] for entry in document["traits"]) - leaf_names
    paid = sum(entry["points"] for entry in entries) + document["techLevel"]["points"]
    assert paid == sum(_price(node) for node in data[key] if "children" not in node) + sum(
        _unit_prices(data[key])
    )
    skills = [n for n in _walk(data["skills"]) + _walk(data.get("spells", [])) if "children" not in n]
    assert len(document["skills"]) == len(skills)
    assert len(document["equipment"]) == len(_walk(data["equipment"]))


def _unit_prices(nodes: list[Any]) -> list[int]:
    """The prices of the containers GCS counts as one unit (groups at the top are transparent)."""
    found = []
    for node in nodes:
        if "children" not in node or node.get("disabled") is True:
            continue
        if (node.get("container_type") or "group") == "group":
            found += _unit_prices(node["children"]) + [
                _price(child) for child in node["children"] if "children" not in child
            ]
        else:
            found.append(_price(node))
    return found
