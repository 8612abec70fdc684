"""import_gcs keeps a monster's whole sheet: every enabled trait, skill, technique, spell and carried
item is an entry, at GCS's price and level, and nothing disappears without a note that names it.

``fixtures/gcs/v5_ogre_shaman.gcs`` is a character written by hand for this: an ancestry with a
container modifier, a group, a meta-trait with its own modifier, a language and a disabled trait
inside; alternative abilities with a meta-trait among them; an attributes container; skills
lowered by encumbrance, techniques (one of another technique), ritual magic at 0 points, a 0-point
skill, a wildcard, a skill on Vision; equipment two containers deep. The expected values are worked
out in the comments from GCS's rules (``model/gurps/trait.go``: ``AdjustedPoints``, alternative
abilities at a fifth rounded up; ``CalculateSkillLevel``), never taken from the importer's output.
"""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import import_gcs, validate_character, verify_character
from gurps_character.gcs import EXTENSION
from gurps_character.gcs.importing.notes import listing, shortened
from tests.support.paths import TESTS

FIXTURE = TESTS / "fixtures" / "gcs" / "v5_ogre_shaman.gcs"
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def ogre() -> dict[str, Any]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def without_calc(data: Any) -> Any:
    """The same file as GCS would have it without its computed values (as old versions saved)."""
    if isinstance(data, dict):
        return {key: without_calc(value) for key, value in data.items() if key != "calc"}
    if isinstance(data, list):
        return [without_calc(value) for value in data]
    return data


def imported(data: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    result = import_gcs(data, now=NOW)
    document = result.document
    assert validate_character(document).valid, validate_character(document).errors[:3]
    report = verify_character(document)
    assert report.claim_consistent and not report.inconsistencies
    return document, list(result.notes)


def deviation(document: dict[str, Any], pointer: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [d for d in document["integrity"]["deviations"] if d["pointer"] == pointer]
    assert len(found) == 1, document["integrity"]["deviations"]
    return found[0]


# Every enabled trait, with GCS's price:
TRAITS = {
    # Ogre (ancestry, container modifier "Racial Discount" -10%, inherited by every trait inside):
    "Damage Resistance": 9,  # 2 levels × 5 = 10, −10 % = 9
    "Bad Temper": -9,  # −10, CR 12 ×1, −10 % = −9
    "Berserk": -13,  # −10 × 0.9 × 1.5 (CR 9) = −13.5, rounded up (toward +∞) = −13
    "Extra Hit Points": 7,  # 4 × 2 = 8, −10 % (Ogre) −10 % (meta-trait Huge) = 6.4, rounded up = 7
    "Ham-Fisted": -4,  # −5 × 0.8 = −4
    # Shamanic Gifts (alternative abilities): the dearest (40) in full, the others a fifth, rounded up
    "Burning Attack": 4,  # 4 levels × 5 = 20 → 20 / 5 = 4
    "Affliction (Stun)": 40,  # 2 × 10 = 20, Malediction +100 % = 40
    # Spirit Sight (meta-trait, 15 + 11 = 26) → 26 / 5 = 5.2, rounded up = 6, shared 15 : 11:
    # 6 × 15/26 = 3.46 and 6 × 11/26 = 2.54 → 3 and 2, the unit left to the larger remainder (Detect)
    "See Invisible (Spirits)": 3,
    "Detect (Spirits)": 3,
    # Attribute Tweaks (attributes container): GCS counts these points among the attributes
    "Fit": 5,
    "Acute Hearing": 4,  # 2 × 2
    "Ally (Wolf)": 10,  # 5, appears on 12 or less: ×2 (B36)
}
LANGUAGE_POINTS = 3  # Language: Ogrish: Spoken +3, Written +0 (the +1 option is unselected), −10 % = 2.7 → 3
GCS_TRAITS = -7 + 50 + 9 + 10  # Ogre 9 − 9 − 13 + 7 − 4 + 3; Gifts 40 + 4 + 6; Tweaks; Ally
GCS_ATTRIBUTES = 30 + 40 + 10 + 4  # ST +3, IQ +2, HT +1, Vision +2
GCS_SKILLS = 2 + 1 + 1 + 4 + 3 + 2 + 4 + 0 + 12 + 2 + 0 + 2 + 1 + 0  # skills, then spells


@pytest.mark.parametrize("calc", [True, False], ids=["saved values", "GCS's rules"])
def test_every_enabled_trait_is_its_own_entry_at_gcs_price(calc: bool) -> None:
    data = ogre() if calc else without_calc(ogre())
    document, _ = imported(data)
    assert {t["name"]: t["points"] for t in document["traits"]} == TRAITS
    assert [t["name"] for t in document["traits"]] == list(TRAITS)  # in file order
    assert document["languages"] == [
        {"name": "Ogrish", "spoken": "native", "written": "none", "points": LANGUAGE_POINTS}
    ]
    assert sum(TRAITS.values()) + LANGUAGE_POINTS == GCS_TRAITS
    assert "Regeneration" not in {t["name"] for t in document["traits"]}  # disabled: 0 in GCS
    types = {t["name"]: t["type"] for t in document["traits"]}
    assert (types["Berserk"], types["Fit"]) == ("disadvantage", "advantage")  # by their own points


@pytest.mark.parametrize("calc", [True, False], ids=["saved values", "GCS's rules"])
def test_points_add_up_to_gcs_totals(calc: bool) -> None:
    document, _ = imported(ogre() if calc else without_calc(ogre()))
    points = document["points"]
    assert points["spent"] == GCS_ATTRIBUTES + GCS_TRAITS + GCS_SKILLS == 180
    assert points["unspent"] == 200 - 180
    breakdown = points["breakdown"]
    assert breakdown["attributes"] == 30 + 40 + 10  # the format's ten attributes (Vision is not one)
    assert breakdown["advantages"] == sum(p for p in TRAITS.values() if p > 0) + LANGUAGE_POINTS
    assert breakdown["disadvantages"] == sum(p for p in TRAITS.values() if p < 0)
    # three entries GCS lists at 0 points hold the format's minimum of 1; Vision's 4 have no home
    assert breakdown["skills"] == GCS_SKILLS + 3
    assert breakdown["other"] == 4 - 3


def test_entries_name_their_containers_and_inherited_modifiers() -> None:
    document, _ = imported(ogre())
    notes = {t["name"]: t.get("notes", "") for t in document["traits"]}
    assert notes["Bad Temper"].startswith("Part of: Ogre (ancestry) > Mental\n")
    assert "Racial Discount (-10%, from Ogre)" in notes["Bad Temper"]
    assert "Unused Option" not in json.dumps(document["traits"])  # an unselected library option
    assert "Size (-10%, from Huge); Racial Discount (-10%, from Ogre)" in notes["Ham-Fisted"]
    assert "Huge: Ogres are big." in notes["Extra Hit Points"]  # the container's notes, once
    assert "Ogres are big" not in notes["Ham-Fisted"]
    assert "Ogre (Ref: DF3)" in notes["Damage Resistance"]
    assert notes["Fit"] == "Part of: Attribute Tweaks (attributes)"
    assert "Self-control roll 9" in notes["Berserk"]
    assert "Frequency of appearance 12" in notes["Ally (Wolf)"]


def test_alternative_abilities_record_their_share_of_their_own_cost() -> None:
    document, _ = imported(ogre())
    shares = {s["name"]: s for s in document["extensions"][EXTENSION]["traitCostShares"]}
    assert set(shares) == {"Burning Attack", "See Invisible (Spirits)", "Detect (Spirits)"}
    assert (shares["Burning Attack"]["ownPoints"], shares["Burning Attack"]["points"]) == (20, 4)
    assert shares["Detect (Spirits)"]["source"] == "/traits/1/children/2/children/1"
    assert "a fifth of its cost" in shares["Burning Attack"]["reason"]
    burning = next(t for t in document["traits"] if t["name"] == "Burning Attack")
    assert "GCS charges 4 of its own 20 points" in burning["notes"]


def test_a_disabled_trait_in_a_container_is_noted_by_name() -> None:
    _, notes = imported(ogre())
    noted = [n for n in notes if n.source == "/traits/0/children/4"]
    assert [n.kind for n in noted] == ["notCarried"]
    assert "'Regeneration'" in noted[0].message


# ---------------------------------------------------------------- skills

# name: (level, relativeLevel, bonuses, points) with DX 10, IQ 12, HT 11, Per 12, Vision 14.
# The load: 70.1 lb in all, Medium for BL 34 lb (13² / 5 = 33.8 → 34); for skills the equipped
# Giant's Great Axe (30 lb, "ignore weight for skills") is left out: 40.1 lb, Light: −1 × multiplier.
SKILLS = {
    "Climbing": (9, 0, [("Encumbrance (Light)", -1)], 2),  # DX/A 2 pts = DX+0, −1 × 1
    "Stealth": (8, -1, [("Encumbrance (Light)", -1)], 1),  # DX/A 1 pt = DX−1, −1 × 1
    "Swimming": (9, 0, [("Encumbrance (Light)", -2)], 1),  # HT/E 1 pt = HT+0, −1 × 2
    "Brawling": (12, 2, [], 4),  # DX/E 4 pts = DX+2
    "Kick": (12, 2, [], 3),  # Brawling−2, Hard: 3 pts buy +2, at most Brawling+0
    "Jump Kick": (9, -1, [], 2),  # technique of Kick: Kick 12 − 4, 2 pts buy +1 → DX-based
    "Thaumatology": (11, -1, [], 4),  # IQ/VH 4 pts = IQ−1
    "Area Knowledge (Swamp)": (8, -4, [], 1),  # 0 pts: the default IQ−4 (stored with 1 point)
    "Survive!": (11, -1, [], 12),  # Per/W 12 pts = 4 pts of a Very Hard skill: Per−1 (B175)
    "Tracking": (14, 0, [("Vision instead of PER", 2)], 2),  # Vision/A 2 pts = Vision+0
    "Lightning": (9, -3, [], 1),  # ritual magic: Thaumatology 11 − 2 prerequisites, 0 pts
    "Shield": (11, -1, [], 2),  # Thaumatology 11 − 1, Hard: 2 pts buy +1
    "Light": (10, -2, [], 1),  # IQ/H 1 pt = IQ−2
    "Darkness": (0, -12, [], 1),  # 0 pts in a spell: GCS gives it no level
}


@pytest.mark.parametrize("calc", [True, False], ids=["saved values", "GCS's rules"])
def test_every_skill_technique_and_spell_is_a_skill_at_gcs_level(calc: bool) -> None:
    document, _ = imported(ogre() if calc else without_calc(ogre()))
    found = {
        s["name"]: (
            s["level"],
            s["relativeLevel"],
            [(b["name"], b["amount"]) for b in s.get("bonuses", [])],
            s["points"],
        )
        for s in document["skills"]
    }
    assert found == SKILLS
    attributes = {s["name"]: (s["attribute"], s["difficulty"]) for s in document["skills"]}
    assert attributes["Jump Kick"] == ("dx", "H")  # through Kick to Brawling
    assert attributes["Survive!"] == ("per", "VH")
    assert attributes["Lightning"] == ("iq", "H")


def test_skill_entries_justify_what_the_cost_table_cannot_give() -> None:
    document, notes = imported(ogre())
    index = {s["name"]: i for i, s in enumerate(document["skills"])}
    assert "technique" in deviation(document, f"/skills/{index['Kick']}/points")["justification"]
    assert "wildcard" in deviation(document, f"/skills/{index['Survive!']}/points")["justification"]
    zero = deviation(document, f"/skills/{index['Darkness']}/points")
    assert (zero["expected"], zero["actual"]) == (None, 1)
    assert "0 points" in zero["justification"]
    darkness = document["skills"][index["Darkness"]]
    assert darkness["notes"].startswith("GCS gives it no level")
    by_source = {n.source: n.message for n in notes if n.kind == "approximated"}
    assert "Lightning, Darkness" in by_source["/spells"]
    assert "'Encumbrance (Light)'" in next(
        n.message for n in notes if n.source == "/skills" and "encumbrance" in n.message
    )


def test_a_skill_gcs_saved_without_an_encumbrance_penalty_gets_none() -> None:
    data = ogre()
    data["equipment"] = data["equipment"][:2]  # 24.1 lb: no encumbrance
    for skill in data["skills"][0]["children"]:
        skill["calc"]["level"] += skill["encumbrance_penalty_multiplier"]
    document, notes = imported(data)
    climbing = next(s for s in document["skills"] if s["name"] == "Climbing")
    assert (climbing["level"], "bonuses" in climbing) == (10, False)
    assert not any("encumbrance penalty" in n.message for n in notes)


# ---------------------------------------------------------------- equipment


def test_every_carried_item_at_any_depth_is_an_entry() -> None:
    document, _ = imported(ogre())
    items = {e["name"]: e for e in document["equipment"]}
    assert list(items) == [
        "Quarterstaff",
        "Backpack, Frame",
        "Bedroll",
        "Pouch",
        "Silver Coin ×20",
        "Rations ×5",
        "Mail Shirt",
        "Giant's Great Axe",
    ]
    coins = items["Silver Coin ×20"]
    assert coins["location"] == "Backpack, Frame > Pouch"
    assert "cost" not in coins and "weight" not in coins  # counted in the backpack's
    assert "$20" in coins["notes"] and "0.2 kg" in coins["notes"]  # 20 × 0.02 lb = 0.4 lb
    # 10 + 7 + (0.2 + 0.4) + 2.5 lb = 20.1 lb; $100 + 25 + (10 + 20) + 15
    assert (items["Backpack, Frame"]["cost"], items["Backpack, Frame"]["weight"]) == (170, 20.1 / 2)
    assert "contains Bedroll, Pouch, Rations" in items["Backpack, Frame"]["notes"]
    assert document["possessionsTotal"] == {"cost": 10 + 170 + 150 + 100, "weight": (4 + 20.1 + 16 + 30) / 2}


@pytest.mark.parametrize("calc", [True, False], ids=["saved values", "GCS's rules"])
def test_nested_items_keep_the_totals_gcs_carries(calc: bool) -> None:
    document, _ = imported(ogre() if calc else without_calc(ogre()))
    total = document["possessionsTotal"]
    assert total["cost"] == 430
    assert total["weight"] == pytest.approx(70.1 / 2)


# ---------------------------------------------------------------- pricing rules (no calc)


def _one_trait(trait: dict[str, Any], **settings_: Any) -> dict[str, Any]:
    data = {
        "version": 5,
        "profile": {"name": "Test"},
        "settings": {"damage_progression": "basic_set", **settings_},
        "traits": [trait],
    }
    document, _ = imported(data)
    return document


@pytest.mark.parametrize(
    ("trait", "points"),
    [
        # self-control rolls between GCS's standard ones: CR 7 ×1.83, CR 14 ×0.67
        ({"id": "tA", "name": "Berserk", "base_points": -10, "cr": 7}, {"Berserk": -18}),  # −18.3 → −18
        ({"id": "tA", "name": "Shyness", "base_points": -10, "cr": 14}, {"Shyness": -6}),  # −6.7 → −6
        # frequency of appearance: 15 or less ×3, 6 or less ×½ (rounded up)
        ({"id": "tA", "name": "Ally", "base_points": 5, "frequency": 15}, {"Ally": 15}),
        ({"id": "tA", "name": "Contact", "base_points": 5, "frequency": 6}, {"Contact": 3}),  # 2.5 → 3
        # a modifier that takes the trait's level: 3 levels × 5 = 15, +10 % × 3 = +30 % → 19.5 → 20
        (
            {
                "id": "tA",
                "name": "Burning Attack",
                "can_level": True,
                "levels": 3,
                "points_per_level": 5,
                "modifiers": [{"id": "mA", "name": "Aura", "cost_adj": "+10%", "use_level_from_trait": True}],
            },
            {"Burning Attack": 20},
        ),
        # a leveled point modifier: 10 + 2 levels × +3 = 16
        (
            {
                "id": "tA",
                "name": "Striker",
                "base_points": 10,
                "modifiers": [{"id": "mA", "name": "Sharp", "cost_adj": "+3", "levels": 2}],
            },
            {"Striker": 16},
        ),
        # rounded down on request: 5 × 0.9 = 4.5 → 4
        (
            {
                "id": "tA",
                "name": "Perk",
                "base_points": 5,
                "round_down": True,
                "modifiers": [{"id": "mA", "name": "Limited", "cost_adj": "-10%"}],
            },
            {"Perk": 4},
        ),
        # alternatives that all cost less than nothing: the dearest (−7) in full, −10 / 5 = −2
        (
            {
                "id": "TA",
                "name": "Curses",
                "container_type": "alternative_abilities",
                "children": [
                    {"id": "tB", "name": "Curse A", "base_points": -10},
                    {"id": "tC", "name": "Curse B", "base_points": -7},
                ],
            },
            {"Curse A": -2, "Curse B": -7},
        ),
        # a disabled alternative counts 0 and can be the dearest: the others at a fifth
        (
            {
                "id": "TA",
                "name": "Curses",
                "container_type": "alternative_abilities",
                "children": [
                    {"id": "tB", "name": "Curse A", "base_points": -10},
                    {"id": "tC", "name": "Curse B", "base_points": 30, "disabled": True},
                    {"id": "tD", "name": "Curse C", "base_points": -6},
                ],
            },
            {"Curse A": -2, "Curse C": -1},  # −6 / 5 = −1.2, rounded up = −1
        ),
    ],
)
def test_gcs_pricing_rules_without_saved_points(trait: dict[str, Any], points: dict[str, int]) -> None:
    document = _one_trait(trait)
    assert {t["name"]: t["points"] for t in document["traits"]} == points


def test_multiplicative_modifiers_apply_one_after_the_other() -> None:
    trait = {
        "id": "tA",
        "name": "Flight",
        "base_points": 20,
        "modifiers": [
            {"id": "mA", "name": "Enhanced", "cost_adj": "+50%"},
            {"id": "mB", "name": "Limited", "cost_adj": "-40%"},
        ],
    }
    assert _one_trait(copy.deepcopy(trait))["traits"][0]["points"] == 22  # 20 × (1 + 50 % − 40 %)
    multiplied = _one_trait(trait, use_multiplicative_modifiers=True)
    assert multiplied["traits"][0]["points"] == 18  # 20 × 1.5 × 0.6


def test_saved_container_points_beyond_its_traits_go_to_other_with_a_note() -> None:
    data = ogre()
    data["traits"][2]["calc"]["points"] = 12  # GCS saved 12 for Attribute Tweaks, its traits add to 9
    result = import_gcs(data, now=NOW)
    assert result.document["points"]["spent"] == 180 + 3
    assert result.document["points"]["breakdown"]["other"] == 1 + 3
    assert any(n.source == "/traits/2" and "(+3)" in n.message for n in result.notes)


# ---------------------------------------------------------------- note text


@given(st.text(alphabet=st.sampled_from("ab cd,\n"), max_size=120), st.integers(min_value=2, max_value=60))
@settings(max_examples=200)
def test_shortened_text_is_never_cut_inside_a_word(text: str, limit: int) -> None:
    short = shortened(text, limit)
    words = text.split()
    assert len(short) <= limit
    if short == " ".join(words):
        return
    assert short.endswith("…")
    kept = short[:-1].split()
    if kept and len(words[0]) < limit:  # a word longer than the limit is the only one cut
        # whole words, the last one without the comma or colon it had before the cut
        assert kept[:-1] == words[: len(kept) - 1]
        assert kept[-1] == words[len(kept) - 1].rstrip(",;:-")


@given(st.lists(st.text(alphabet="abc ", min_size=1, max_size=12), max_size=30), st.integers(10, 80))
@settings(max_examples=200)
def test_listing_keeps_whole_names_and_counts_the_rest(names: list[str], limit: int) -> None:
    text = listing(names, limit)
    if text == ", ".join(names):
        return
    if text.endswith("more)"):
        kept, _, rest = text.rpartition(", … (")
        assert int(rest.split()[0]) == len(names) - len(kept.split(", "))
        assert names[: len(kept.split(", "))] == kept.split(", ")
    else:
        assert text == f"{len(names)} items"


def test_traits_nested_past_the_depth_limit_are_one_entry_with_a_note_naming_it() -> None:
    node: dict[str, Any] = {"id": "tLeafAAAAAAAAAAAA", "name": "Leaf", "base_points": 5}
    for depth in range(70):
        node = {
            "id": f"T{depth:016d}",
            "name": f"Layer {depth}",
            "children": [node, {"id": f"t{depth:016d}", "name": f"Perk {depth}", "base_points": 1}],
            "calc": {"points": 75},  # what GCS saves for each group: 5 + 70 perks below it
        }
    data = {"version": 5, "profile": {"name": "Deep"}, "traits": [node]}
    result = import_gcs(data, now=NOW)
    names = [t["name"] for t in result.document["traits"]]
    # the 64 outer layers are opened (63 groups, their perks); the 64th layer from the top is one
    # entry with GCS's saved points, its contents only in the GCS data
    assert len(names) == 64 and names[0] == "Layer 6" and names[-1] == "Perk 69"
    assert result.document["traits"][0]["points"] == 75
    assert any(n.source.count("/children/") == 63 and "'Layer 6'" in n.message for n in result.notes)
    assert validate_character(result.document).valid
