"""Nothing stale (issue 23): what the library keeps in its own extension namespace never depends on
the in-play state that the update functions change, so no update can leave it saying something
false. (The importer kept each pool's GCS state, ``poolStates``: "Reeling" after healing.)"""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from gurps_character import (
    apply_damage,
    apply_hit,
    change_pool,
    combat_stats,
    get_condition,
    heal,
    import_gcs,
    recover_fatigue,
    resolve_hit,
    spend_fatigue,
    update_character,
)
from gurps_character.gcs import EXTENSION, KEPT_TEXT
from tests.support.paths import TESTS

FIXTURES = TESTS / "fixtures" / "gcs"
NOW = datetime(2026, 10, 5, 10, tzinfo=UTC)
KEPT_AS_READ = (KEPT_TEXT, "importedAt")
"""The GCS file as it was read, and when: records of the import, not of the character now."""


def summary(document: dict[str, Any]) -> dict[str, Any]:
    kept: dict[str, Any] = document["extensions"][EXTENSION]
    return {key: value for key, value in kept.items() if key not in KEPT_AS_READ}


def with_hp_damage(data: dict[str, Any], damage: int) -> dict[str, Any]:
    """The file with other HP damage, as GCS would save it: the values GCS computes from the pools
    (the top-level ``calc``: Move and Dodge halved while HP is low) recomputed, here by the import."""
    changed = copy.deepcopy(data)
    changed.pop("calc", None)
    for attribute in changed["attributes"]:
        if attribute.get("attr_id") == "hp":
            attribute["damage"] = damage
            attribute.pop("calc", None)
    return changed


@pytest.mark.parametrize("name", ["v5_2025_hound.gcs", "v5_fighter.gcs", "v4_wizard.gcs"])
def test_the_importers_summary_does_not_depend_on_the_pools(name: str) -> None:
    """The same character imported hurt and unhurt keeps the same summary: nothing in it could go
    stale when the pools change."""
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    if not any(attribute.get("attr_id") == "hp" for attribute in data.get("attributes", [])):
        pytest.skip("no HP attribute to hurt")
    hurt = import_gcs(with_hp_damage(data, 11), now=NOW).document
    whole = import_gcs(with_hp_damage(data, 0), now=NOW).document
    assert hurt["secondary"]["hp"].get("current") != whole["secondary"]["hp"].get("current")
    assert summary(hurt) == summary(whole)


def test_a_reeling_hound_healed_is_not_said_to_reel() -> None:
    document = import_gcs((FIXTURES / "v5_2025_hound.gcs").read_bytes(), now=NOW).document
    assert get_condition(document).hp.state == "reeling"
    healed = heal(document, 20, now=NOW)
    assert get_condition(healed).hp.state == "healthy"
    assert "Reeling" not in json.dumps(healed["extensions"][EXTENSION] | {KEPT_TEXT: None})


def test_every_update_function_leaves_the_namespace_as_it_was() -> None:
    document = import_gcs((FIXTURES / "v5_2025_hound.gcs").read_bytes(), now=NOW).document
    before = document["extensions"]
    results = [
        apply_damage(document, 3, now=NOW),
        heal(document, 3, now=NOW),
        spend_fatigue(document, 3, now=NOW),
        recover_fatigue(document, 3, now=NOW),
        update_character(document, {"/secondary/hp/current": 1}, now=NOW),
        change_pool(document, "fp", -30, spill_to_hp=True, now=NOW).document,
        apply_hit(document, resolve_hit(document, 9, "cut"), now=NOW).document,
    ]
    for result in results:
        assert result["extensions"] == before


def test_move_and_dodge_now_are_halved_once_and_recover_with_the_pool() -> None:
    """GCS saves Move and Dodge halved while HP is low; the import keeps GCS's numbers and, beside
    them, those before the halving, so the condition halves once (not twice) and a heal brings
    the full values back. The hound: HP 15 with 11 damage (4 left, reeling: B419), Basic Move 4,
    Dodge 8; GCS saved Move 2 and Dodge 4 at no encumbrance."""
    data = json.loads((FIXTURES / "v5_2025_hound.gcs").read_text(encoding="utf-8"))
    hurt = import_gcs(data, now=NOW).document
    stored = hurt["encumbrance"]["levels"][0]
    assert (stored["move"], stored["dodge"]) == (2, 4)  # GCS's numbers, halved
    assert hurt["extensions"][EXTENSION]["unhalvedEncumbrance"] == {
        "move": [4, 3, 2, 1, 1],
        "dodge": [8, 7, 6, 5, 4],
    }
    view = combat_stats(hurt)
    assert (view.current_move, view.current_dodge) == (2, 4)  # halved once, not twice
    assert get_condition(hurt).move == (2, 2, 1, 1, 1)
    healed = combat_stats(heal(hurt, 11))
    assert (healed.current_move, healed.current_dodge) == (4, 8)


def test_a_record_that_does_not_fit_the_levels_is_ignored() -> None:
    data = json.loads((FIXTURES / "v5_fighter.gcs").read_text(encoding="utf-8"))
    document = import_gcs(data, now=NOW).document
    levels = document["encumbrance"]["levels"]
    records: list[object] = [
        {"move": [6, 4, 3, 2], "dodge": [9, 8, 7, 6]},
        {"move": [6.5] * 5, "dodge": [9] * 5},
        [],
    ]
    for record in records:
        odd = copy.deepcopy(document)
        odd["extensions"][EXTENSION]["unhalvedEncumbrance"] = record
        assert get_condition(odd).move == tuple(level["move"] for level in levels)
