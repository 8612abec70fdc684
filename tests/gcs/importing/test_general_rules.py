"""General rules the GCS importer follows where small files broke them: any armor divisor GCS
writes, dice of affliction and special damage, attribute costs rounded as today's GCS rounds
them, negative item weights, and item names that end the way the importer's quantities do.

Every file here is written by hand for the rule it checks (a character at ST 10: thrust 1d-2,
swing 1d, Basic Lift 20 lb, Move 5, Dodge 8); each expectation is worked out in its comment.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import (
    CharacterError,
    import_gcs,
    resolve_damage_notation,
    resolve_hit,
    validate_character,
    verify_character,
)
from gurps_character.gcs import EXTENSION

CALC = {
    "thrust": "1d-2",
    "swing": "1d",
    "basic_lift": "20 lb",
    "move": [5, 4, 3, 2, 1],
    "dodge": [8, 7, 6, 5, 4],
}


def character(**more: Any) -> dict[str, Any]:
    """A version 5 GCS character at ST 10 with GCS's computed values, plus ``more``."""
    data: dict[str, Any] = {
        "version": 5,
        "id": "AruleTestAAAAAAAA",
        "total_points": 0,
        "profile": {"name": "Tester"},
        "attributes": [{"attr_id": "st", "adj": 0, "calc": {"value": 10, "points": 0}}],
        "traits": [],
        "calc": copy.deepcopy(CALC),
    }
    data.update(more)
    return data


def trait_with_weapons(*weapons: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"id": "tSpines", "name": "Spines", "calc": {"points": 0}, "weapons": list(weapons), **more}


def melee(ident: str, usage: str, damage: dict[str, Any], shown: str | None) -> dict[str, Any]:
    weapon: dict[str, Any] = {"id": ident, "damage": damage, "usage": usage, "reach": "C"}
    if shown is not None:
        weapon["calc"] = {"level": 10, "damage": shown}
    return weapon


def imported(data: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    result = import_gcs(data)
    document = result.document
    assert validate_character(document).valid
    assert verify_character(document).claim_consistent
    return document, list(result.notes)


def damage_lines(document: dict[str, Any]) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """name → (melee entry, its damage line)."""
    return {entry["name"]: (entry, entry["damage"][0]) for entry in document["weapons"]["melee"]}


# ---------------------------------------------------------------- 1. any armor divisor


def test_gcss_saved_divisors_4_and_1_5_are_kept() -> None:
    """GCS saved 1d-2(4) imp and 1d-2(1.5) pi (a divisor bonus raised the weapons' (2)): the
    notation keeps both divisors and resolves to GCS's dice."""
    data = character(
        traits=[
            trait_with_weapons(
                melee("wStab", "Stab", {"type": "imp", "st": "thr", "armor_divisor": 4}, "1d-2(4) imp"),
                melee("wJab", "Jab", {"type": "pi", "st": "thr", "armor_divisor": 2}, "1d-2(1.5) pi"),
            )
        ]
    )
    document, notes = imported(data)
    lines = damage_lines(document)
    assert lines["Spines (Stab)"][1]["notation"] == "thr (4) imp"
    assert lines["Spines (Jab)"][1]["notation"] == "thr (1.5) pi"
    stab = resolve_damage_notation(document, lines["Spines (Stab)"][1]["notation"])
    jab = resolve_damage_notation(document, lines["Spines (Jab)"][1]["notation"])
    assert (stab.dice, stab.adds, stab.armor_divisor, stab.damage_type) == (1, -2, 4, "imp")
    assert (jab.dice, jab.adds, jab.armor_divisor, jab.damage_type) == (1, -2, 1.5, "pi")
    assert not any("armor divisor" in note.message for note in notes)
    # DR 9 against (4): 9 / 4 = 2.25, rounded down to 2
    assert resolve_hit(document, 6, "imp", armor_divisor=stab.armor_divisor, dr=9).effective_dr == 2


def test_a_divisor_bonus_makes_the_divisor_by_gcss_rules() -> None:
    """Without calc: the weapon's (2) plus a weapon_dr_divisor_bonus of +2 to Spines is (4), as
    GCS computes it (the bonus adds to the written divisor); -0.5 more makes (1.5)."""

    def bonus(amount: float) -> dict[str, Any]:
        return {
            "type": "weapon_dr_divisor_bonus",
            "selection_type": "weapons_with_name",
            "name": {"compare": "is", "qualifier": "Spines"},
            "amount": amount,
        }

    stab = melee("wStab", "Stab", {"type": "imp", "st": "thr", "armor_divisor": 2}, None)
    four = character(traits=[trait_with_weapons(stab), {"id": "tB", "name": "Sharp", "features": [bonus(2)]}])
    line = damage_lines(imported(four)[0])["Spines (Stab)"][1]
    assert line["notation"] == "thr (4) imp"
    both = [bonus(2), bonus(-2.5)]
    dull = {"id": "tB", "name": "Dull", "features": both}
    one_and_a_half = character(traits=[trait_with_weapons(stab), dull])
    line = damage_lines(imported(one_and_a_half)[0])["Spines (Stab)"][1]
    assert line["notation"] == "thr (1.5) imp"


def test_a_divisor_beyond_the_notations_bounds_is_left_out_with_a_note() -> None:
    """GCS's (2000) is beyond what the notation holds (0.001 to 1000): the dice stay, the divisor
    is named in the notes."""
    data = character(
        traits=[trait_with_weapons(melee("wStab", "Stab", {"type": "imp", "st": "thr"}, "1d-2(2000) imp"))]
    )
    document, _ = imported(data)
    entry, line = damage_lines(document)["Spines (Stab)"]
    assert line["notation"] == "thr imp"
    assert (
        "GCS's armor divisor (2000) is beyond what the notation holds (0.001 to 1000): left out"
        in (entry["notes"])
    )


# ---------------------------------------------------------------- 2. dice of affliction and special damage


def test_dice_of_affliction_and_special_damage_roll_with_no_type() -> None:
    """GCS's 1d aff and 2d spec. start with dice: the notation rolls them, damage type None, the
    word in type_text; the entry's type is the format's aff and spec."""
    data = character(
        traits=[
            trait_with_weapons(
                melee("wZap", "Zap", {"type": "aff", "base": "1d"}, "1d aff"),
                melee("wWeb", "Web", {"type": "spec.", "base": "2d"}, "2d spec."),
                melee("wCloud", "Cloud", {"type": "HT-3 aff"}, "HT-3 aff"),
            )
        ]
    )
    document, _ = imported(data)
    lines = damage_lines(document)
    zap_entry, zap = lines["Spines (Zap)"]
    web_entry, web = lines["Spines (Web)"]
    assert zap == {"notation": "1d aff", "base": "fixed", "dice": 1, "adds": 0, "type": "aff"}
    assert web == {"notation": "2d spec.", "base": "fixed", "dice": 2, "adds": 0, "type": "spec"}
    for line, dice, word in ((zap, 1, "aff"), (web, 2, "spec.")):
        weapon = resolve_damage_notation(document, line["notation"])
        assert (weapon.dice, weapon.adds, weapon.damage_type, weapon.type_text) == (dice, 0, None, word)
    assert "not rolled" not in zap_entry.get("notes", "") and "not rolled" not in web_entry.get("notes", "")
    cloud_entry, cloud = lines["Spines (Cloud)"]
    assert cloud == {"notation": "HT-3 aff"}
    assert "HT-3 aff (not dice: not rolled)" in cloud_entry["notes"]
    with pytest.raises(CharacterError) as caught:
        resolve_damage_notation(document, "HT-3 aff")
    assert caught.value.message == "notation: expected 'thr', 'sw' or dice such as '2d':\n  HT-3 aff\n  ^"


def test_the_same_without_calc() -> None:
    """GCS's rules give the same: base 1d, type aff; base 2d, type spec."""
    data = character(
        traits=[
            trait_with_weapons(
                melee("wZap", "Zap", {"type": "aff", "base": "1d"}, None),
                melee("wWeb", "Web", {"type": "spec.", "base": "2d"}, None),
            )
        ]
    )
    lines = damage_lines(imported(data)[0])
    zap = {"notation": "1d aff", "base": "fixed", "dice": 1, "adds": 0, "type": "aff"}
    assert lines["Spines (Zap)"][1] == zap
    assert lines["Spines (Web)"][1]["notation"] == "2d spec."
    assert lines["Spines (Web)"][1]["dice"] == 2


# ---------------------------------------------------------------- 3. attribute costs rounded as today's GCS


def bought(*attributes: tuple[str, float], sm: int = 0, **more: Any) -> dict[str, Any]:
    """A character whose attributes GCS saved no ``calc`` for: the importer applies GCS's cost
    rules (adj × cost per level, less the size discount, rounded as GCS rounds)."""
    data = character(attributes=[{"attr_id": ident, "adj": adj} for ident, adj in attributes], **more)
    data["profile"]["SM"] = sm
    del data["calc"]
    return data


def points_of(document: dict[str, Any]) -> dict[str, Any]:
    found = {key: document["attributes"][key]["points"] for key in ("st", "dx", "iq", "ht")}
    found.update({key: document["secondary"][key]["points"] for key in ("hp", "will", "per", "fp")})
    return found


def test_costs_round_up_toward_plus_infinity_negative_ones_too() -> None:
    """SM +1 takes 10% off ST and HP (B19), for levels bought down too. HP +3: 6 × 0.9 = 5.4,
    rounded up: 6. HP -3: -6 × 0.9 = -5.4, rounded up: -5 (today's GCS rounds a negative cost
    toward zero; truncating and adding 1, as GCS did in 2022, gave -4; rounding down, -6).
    ST -4: -40 × 0.9 = -36 exactly. ST +1: 10 × 0.9 = 9."""
    assert points_of(imported(bought(("hp", 3), sm=1))[0])["hp"] == 6
    assert points_of(imported(bought(("hp", -3), sm=1))[0])["hp"] == -5
    assert points_of(imported(bought(("st", -4), sm=1))[0])["st"] == -36
    assert points_of(imported(bought(("st", 1), sm=1))[0])["st"] == 9
    # no discount on DX, Will (B19 names ST and HP): -1 DX is -20, -1 Will -5
    document = imported(bought(("dx", -1), ("will", -1), sm=3))[0]
    assert (points_of(document)["dx"], points_of(document)["will"]) == (-20, -5)


@pytest.mark.parametrize(
    ("hp_adj", "sm", "points"),
    [(-1, 1, -1), (-1, 3, -1), (-2, 1, -3), (-7, 1, -12), (-7, 2, -11), (-1, 8, 0), (-3, 9, -1), (5, 8, 2)],
    ids=[
        "-2 x 0.9 = -1.8 -> -1",
        "-2 x 0.7 = -1.4 -> -1",
        "-4 x 0.9 = -3.6 -> -3",
        "-14 x 0.9 = -12.6 -> -12",
        "-14 x 0.8 = -11.2 -> -11",
        "-2 x 0.2 = -0.4 -> 0 (the discount stops at 80%)",
        "-6 x 0.2 = -1.2 -> -1",
        "10 x 0.2 = 2",
    ],
)
def test_negative_hp_costs_under_a_size_discount(hp_adj: int, sm: int, points: int) -> None:
    assert points_of(imported(bought(("hp", hp_adj), sm=sm))[0])["hp"] == points


def test_the_size_modifier_gcs_counts_is_whole() -> None:
    """GCS counts the profile's SM plus the whole part of the SM bonuses: SM 1 and a bonus of
    +0.5 is SM 1 (10% off ST: 3 × 10 × 0.9 = 27, not 15% off: 25.5 -> 26), and SM 0 with +1.5
    is SM 1 too; a bonus of -0.5 leaves SM 1 at 1 (not 0: no discount lost)."""

    def with_bonus(sm: int, bonus: float) -> dict[str, Any]:
        feature = {"type": "attribute_bonus", "attribute": "sm", "amount": bonus}
        trait = {"id": "tSize", "name": "Odd Size", "calc": {"points": 0}, "features": [feature]}
        return bought(("st", 3), sm=sm, traits=[trait])

    for sm, bonus in ((1, 0.5), (0, 1.5), (1, -0.5)):
        document = imported(with_bonus(sm, bonus))[0]
        assert points_of(document)["st"] == 27, (sm, bonus)
        assert document["profile"]["sizeModifier"] == 1, (sm, bonus)


def test_costs_are_figured_in_gcss_fixed_point() -> None:
    """GCS reads numbers to 4 decimals and multiplies in that fixed point: Luck bought at 2.00001
    points per level is 2 per level to GCS, 5 levels cost 10 (a float gives 10.00005, rounded
    up to 11); cost reductions alike (a 10.00001% reduction is 10%: 3 × 10 × 0.9 = 27)."""
    settings = {
        "attributes": [
            {"id": "st", "type": "integer", "name": "ST", "base": "10", "cost_per_point": 10},
            {"id": "luck", "type": "integer", "name": "Luck", "base": "0", "cost_per_point": 2.00001},
        ]
    }
    reduction = {"type": "cost_reduction", "attribute": "st", "percentage": 10.00001}
    trait = {"id": "tFrail", "name": "Frail Frame", "calc": {"points": 0}, "features": [reduction]}
    document = imported(bought(("st", 3), ("luck", 5), settings=settings, traits=[trait]))[0]
    assert points_of(document)["st"] == 27
    extra = {item["id"]: item for item in document["extensions"][EXTENSION]["attributes"]}
    assert extra["luck"]["points"] == 10


def test_a_version_2_files_old_rounding_is_kept_with_a_note_naming_todays() -> None:
    """GCS 4.x saved HP +3 at SM +1 as 5 points (rounded half up) and counted them in the points
    spent; today's GCS would charge 6 (5.4 rounded up): the document keeps 5, and a note names
    both."""
    data: dict[str, Any] = {
        "type": "character",
        "version": 2,
        "id": "a89f458c-0000-4000-8000-000000000001",
        "total_points": 11,
        "profile": {"name": "Old Wolf", "SM": 1},
        "attributes": [
            {"attr_id": "st", "adj": 0, "calc": {"value": 10, "points": 0}},
            {"attr_id": "hp", "adj": 3, "damage": 0, "calc": {"value": 13, "current": 13, "points": 5}},
            {"attr_id": "will", "adj": 1, "calc": {"value": 11, "points": 5}},
        ],
    }
    document, notes = imported(data)
    assert points_of(document)["hp"] == 5 and points_of(document)["will"] == 5
    assert document["points"]["spent"] == 10
    assert [note.message for note in notes if note.source == "/attributes/1"] == [
        "HP 13 (5 points), as this version 2 file saved it, is not what the current GCS computes "
        "from it (13, 6 points): the import keeps the file's points, which GCS 4.x showed and "
        "counted in its points spent.",
        "/secondary/hp/points is GCS's 5 where the format's formula gives 6: listed in integrity.deviations.",
    ]
    assert not [note for note in notes if note.source == "/attributes/2"]  # Will 5: as today's GCS


def test_bonuses_count_as_gcs_counts_them() -> None:
    """GCS adds the whole part of an attribute bonus to a whole-number attribute (ST 10 with a
    -0.5 bonus is 10, not floor(9.5) = 9), and the whole part of a Dodge bonus (Basic Speed 5.75
    + 3 + 0.5 is Dodge 8, not 9)."""
    weak = {"type": "attribute_bonus", "attribute": "st", "amount": -0.5}
    quick = {"type": "attribute_bonus", "attribute": "dodge", "amount": 0.5}
    trait = {"id": "tOdd", "name": "Oddities", "calc": {"points": 0}, "features": [weak, quick]}
    document = imported(bought(("st", 0), ("basic_speed", 0.75), traits=[trait]))[0]
    assert document["attributes"]["st"]["value"] == 10
    assert document["secondary"]["basicSpeed"]["value"] == 5.75
    assert [level["dodge"] for level in document["encumbrance"]["levels"]] == [8, 7, 6, 5, 4]


def test_dodge_counts_no_basic_speed_below_0() -> None:
    """GCS's Dodge is Basic Speed (at least 0) + 3: Basic Speed 0 (DX 0, HT 0) gives Dodge 3,
    and so would a Basic Speed below 0."""
    for speed_adj, speed in ((0, 0), (-1, -1), (-2.5, -2.5)):
        document = imported(bought(("st", 0), ("dx", -10), ("ht", -10), ("basic_speed", speed_adj)))[0]
        assert document["secondary"]["basicSpeed"]["value"] == speed
        assert [level["dodge"] for level in document["encumbrance"]["levels"]] == [3, 2, 1, 1, 1], speed


def stealthy(**more: Any) -> dict[str, Any]:
    """A character with Stealth (DX/E, 1 point: DX + 0) and a kick that defaults to DX, and no
    ``calc`` anywhere, so every level is the importer's by GCS's rules."""
    kick = {
        "id": "wKick",
        "damage": {"type": "cr", "st": "thr"},
        "usage": "Kick",
        "defaults": [{"type": "dx"}],
    }
    stealth = {"id": "sStealth", "type": "skill", "name": "Stealth", "difficulty": "dx/e", "points": 1}
    data = character(skills=[stealth], traits=[trait_with_weapons(kick)], **more)
    del data["calc"]
    return data


def test_a_file_listing_no_attributes_has_gcss_standard_set() -> None:
    """GCS gives a character whose file lists no attributes one of each its settings define, the
    standard set without settings: ST, DX, IQ, HT 10, Will and Per from IQ, HP from ST, FP from HT,
    all at 0 points; Stealth is DX 10 + 0, the kick DX 10."""
    data = stealthy()
    del data["attributes"]
    document, notes = imported(data)
    assert {key: document["attributes"][key]["value"] for key in ("st", "dx", "iq", "ht")} == dict.fromkeys(
        ("st", "dx", "iq", "ht"), 10
    )
    assert {key: document["secondary"][key]["value"] for key in ("hp", "fp", "will", "per")} == dict.fromkeys(
        ("hp", "fp", "will", "per"), 10
    )
    assert document["secondary"]["basicSpeed"]["value"] == 5
    assert [skill["level"] for skill in document["skills"]] == [10]
    assert [record["level"] for record in document["extensions"][EXTENSION]["weapons"]["melee"]] == [10]
    assert not [note for note in notes if note.kind == "defaulted"]


@pytest.mark.parametrize("listed", [[], [{"attr_id": "st", "adj": 1}]], ids=["empty list", "ST only"])
def test_a_core_attribute_the_file_lacks_is_10_for_its_skills_too(listed: list[dict[str, Any]]) -> None:
    """A file that lists attributes but not DX: the document says DX 10 (a ``defaulted`` note),
    and Stealth and the kick are counted from that 10, not from nothing."""
    document, notes = imported(stealthy(attributes=listed))
    assert document["attributes"]["dx"]["value"] == 10
    assert "The file has no DX: the import uses 10." in [note.message for note in notes]
    assert [skill["level"] for skill in document["skills"]] == [10]
    assert [record["level"] for record in document["extensions"][EXTENSION]["weapons"]["melee"]] == [10]


# ---------------------------------------------------------------- 4. weights below 0


def item(ident: str, name: str, weight: str, saved: str | None, **more: Any) -> dict[str, Any]:
    found: dict[str, Any] = {
        "id": ident,
        "description": name,
        "quantity": 1,
        "weight": weight,
        "equipped": True,
    }
    if saved is not None:
        found["calc"] = {"extended_value": 0, "extended_weight": saved}
    found.update(more)
    return found


def carried_level(document: dict[str, Any]) -> int:
    """The encumbrance level of what the document carries: the first whose load it does not pass."""
    carried = document["possessionsTotal"]["weight"]
    loads = [level["maxLoad"] for level in document["encumbrance"]["levels"]]
    return next(index for index, load in enumerate(loads) if carried <= load)


@pytest.mark.parametrize("saved", [True, False], ids=["a saved -10 lb", "a written -10 lb"])
def test_an_item_below_0_lb_weighs_nothing_as_in_gcs(saved: bool) -> None:
    """GCS counts no item below 0 lb (its weight after modifiers, and a container's contents,
    are at least 0 in every GCS read: GCS 4's and today's), so a Bag of Holding of -10 lb weighs
    0 and an Anvil of 25 lb is carried: 25 lb against Basic Lift 20 lb is Light (level 1). The
    note names the bag."""
    data = character(
        equipment=[
            item("e1", "Bag of Holding", "-10 lb", "-10 lb" if saved else None),
            item("e2", "Anvil", "25 lb", "25 lb" if saved else None),
        ]
    )
    document, notes = imported(data)
    assert [entry["weight"] for entry in document["equipment"]] == [0, 12.5]
    assert document["possessionsTotal"]["weight"] == 12.5
    assert carried_level(document) == 1
    assert [note.message for note in notes if note.source == "/equipment/0"] == [
        "'Bag of Holding' weighs -10 lb in the file; GCS counts no item below 0 lb (its weight after "
        "modifiers is at least 0), so it is counted at 0 lb."
    ]


def test_a_negative_item_inside_a_container_takes_nothing_off_its_contents() -> None:
    """A Backpack (5 lb) holding a Bag of Holding saved at -10 lb and rations of 6 lb: GCS adds
    each item's weight of at least 0, so the contents are 6 lb and the backpack 11 lb (not 5 lb,
    which -10 + 6 below 0 would leave)."""
    bag = item("e2", "Bag of Holding", "-10 lb", "-10 lb")
    rations = item("e3", "Rations", "6 lb", "6 lb")
    backpack = item("e1", "Backpack", "5 lb", None, children=[bag, rations])
    document, notes = imported(character(equipment=[backpack]))
    assert document["equipment"][0]["weight"] == 5.5  # 11 lb
    assert any(
        note.source == "/equipment/0/children/0" and "'Bag of Holding'" in note.message for note in notes
    )


# ---------------------------------------------------------------- 5. names that end as a quantity does


_QUANTITY_SUFFIX = re.compile(r"\s*×\s*[0-9.,]+\s*$")


def gcs_name(entry_name: str) -> str:
    """GCS's name of an entry, as a reader gets it: the importer's quantity suffix (the last
    ``×N``) taken off."""
    return _QUANTITY_SUFFIX.sub("", entry_name, count=1)


@pytest.mark.parametrize(
    ("name", "quantity", "entry"),
    [
        ("Arrows", 20, "Arrows ×20"),
        ("Arrows", 1, "Arrows"),
        ("Arrows × 20", 1, "Arrows × 20 ×1"),
        ("Arrows × 20", 3, "Arrows × 20 ×3"),
        ("Bolts ×12", 1, "Bolts ×12 ×1"),
        ("Coins × 1,000", 1, "Coins × 1,000 ×1"),
        ("Rope ×", 1, "Rope ×"),
        ("× 2", 1, "× 2 ×1"),
        ("Arrows × 20 (barbed)", 1, "Arrows × 20 (barbed)"),
    ],
)
def test_only_the_quantity_ends_a_name_with_a_times_sign(name: str, quantity: int, entry: str) -> None:
    """The importer writes a quantity other than 1 as ' ×N'; an item whose own name ends that
    way gets its quantity written even when it is 1, so the last ' ×N' of a name is always the
    quantity and taking it off gives GCS's name."""
    data = character(equipment=[{"id": "e1", "description": name, "quantity": quantity, "weight": "1 lb"}])
    document, _ = imported(data)
    assert document["equipment"][0]["name"] == entry
    assert gcs_name(entry) == name


_NAMES = st.tuples(
    st.text(alphabet="ab ×x0123456789.,()", max_size=10),
    st.sampled_from(["", "×", " × ", "×", " ×"]),
    st.text(alphabet="0123456789.,", max_size=5),
).map(lambda parts: "".join(parts).strip())


@settings(max_examples=200, deadline=None)
@given(_NAMES.filter(bool), st.integers(0, 50))
def test_property_a_reader_gets_gcss_name_back(name: str, quantity: int) -> None:
    """Whatever an item is named and however many there are, taking the last ' ×N' off its
    entry's name gives GCS's name."""
    data = character(equipment=[{"id": "e1", "description": name, "quantity": quantity, "weight": "1 lb"}])
    entry = import_gcs(data).document["equipment"][0]["name"]
    assert gcs_name(entry) == name
