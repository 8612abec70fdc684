"""The traps between the pieces of one exchange (issue 30 item 4), fixed at the root: a shield's
DB counted exactly once whatever the sheet's origin, a missing defense answered with its reason,
a natural attack's parry bare-handed, the rolled side kept in ``Hit.location``, one owed roll
under one name, and the groin rule for males only, read from the sheet."""

from __future__ import annotations

import copy
import json
from typing import Any

from gurps_character import (
    DefenseKind,
    apply_hit,
    best_defense,
    change_pool,
    character_defense,
    character_defenses,
    get_condition,
    load_character,
    resolve_hit,
)
from gurps_character.gcs import EXTENSION, KEPT_TEXT
from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
FIXTURES = ROOT / "tests" / "fixtures" / "gcs"


def rurik() -> dict[str, Any]:
    return dict(load_character(ROOT / "examples" / "rurik.json").character)


def fighter() -> dict[str, Any]:
    """Brannoc (GCS 5): Broadsword 14 (Parry 11), a Medium Shield (Block 12), Dodge 9."""
    return dict(load_character(FIXTURES / "v5_fighter.gcs").character)


def brute() -> dict[str, Any]:
    """Ugg (GCS 2): Natural Attacks (Punch) parries 9 with Brawling, no Block."""
    return dict(load_character(FIXTURES / "v2_weapons_brute.gcs").character)


def kept_data(document: dict[str, Any]) -> dict[str, Any]:
    """The GCS file the import kept, as data to edit."""
    data: dict[str, Any] = json.loads(document["extensions"][EXTENSION][KEPT_TEXT])
    return data


def keep(document: dict[str, Any], data: dict[str, Any]) -> None:
    """``data`` kept as the document's GCS file, as the import keeps it (compact text)."""
    document["extensions"][EXTENSION][KEPT_TEXT] = json.dumps(data, separators=(",", ":"))


def with_gcs_db(document: dict[str, Any], db: int) -> dict[str, Any]:
    """The document as GCS would save it with a shield of DB ``db`` equipped: GCS's features
    add the DB to Dodge, Parry and Block, and its saved numbers count it."""
    shielded = copy.deepcopy(document)
    raw = kept_data(shielded)
    shield = next(item for item in raw["equipment"] if "Shield" in item["description"])
    shield["features"] = [
        {"type": "attribute_bonus", "attribute": name, "amount": db} for name in ("dodge", "parry", "block")
    ]
    keep(shielded, raw)
    shielded["defenses"]["parry"]["value"] += db
    shielded["defenses"]["block"]["value"] += db
    record = shielded["extensions"][EXTENSION]
    record["unhalvedEncumbrance"]["dodge"] = [value + db for value in record["unhalvedEncumbrance"]["dodge"]]
    for kept in record["weapons"]["melee"]:
        for key in ("parry", "block"):
            if kept.get(key) is not None:
                kept[key] += db
    return shielded


# ---------------------------------------------------------------- DB exactly once


def test_a_gcs_sheet_counts_its_shields_db_once_and_says_so() -> None:
    """GCS's Parry 11 + DB 2 = 13 is the sheet's; the DB comes out of the base and back once."""
    shielded = with_gcs_db(fighter(), 2)
    parry = character_defense(shielded, "parry")
    assert (parry.sheet_value, parry.base, parry.value) == (13, 11, 13)
    assert (parry.db, parry.db_source) == (2, "sheet")
    assert parry.adjustments == (("shield_db_in_sheet", -2, "B374"),)
    assert parry.to_dict()["dbSource"] == "sheet"


def test_the_db_passed_replaces_the_sheets_never_adds_to_it() -> None:
    """Against a firearm (no DB, B374) the GCS sheet's DB goes; a DB passed is counted once."""
    shielded = with_gcs_db(fighter(), 2)
    cases: tuple[tuple[DefenseKind, int], ...] = (("dodge", 9), ("parry", 11), ("block", 12))
    for kind, plain in cases:
        assert character_defense(shielded, kind, shield_db=0).value == plain
        again = character_defense(shielded, kind, shield_db=2)
        assert (again.value, again.db, again.db_source) == (plain + 2, 2, "passed")


def test_the_same_character_defends_alike_from_json_and_from_gcs() -> None:
    """The JSON sheet's formulas leave DB out: passing it gives the GCS sheet's numbers."""
    plain, shielded = fighter(), with_gcs_db(fighter(), 2)
    del plain["extensions"]  # the same numbers, as a sheet of the format: no DB counted
    kinds: tuple[DefenseKind, ...] = ("dodge", "parry", "block")
    for kind in kinds:
        from_json = character_defense(plain, kind, shield_db=2, combat_reflexes=False)
        from_gcs = character_defense(shielded, kind)
        assert from_json.value == from_gcs.value
        assert (from_json.db_source, from_gcs.db_source) == ("passed", "sheet")
    assert character_defense(plain, "dodge").db_source == "none"


# ---------------------------------------------------------------- a missing defense


def test_a_missing_block_is_none_with_its_reason() -> None:
    choices = character_defenses(brute())
    assert [(c.kind, c.weapon, c.value, c.reason) for c in choices] == [
        ("dodge", None, 8, None),
        ("parry", "Natural Attacks (Punch)", 9, None),
        ("parry", "Warhammer (Swung)", 7, None),
        ("parry", "Heavy Club (Swung)", 7, None),
        ("block", None, None, "no_block"),
    ]


def test_best_defense_is_the_highest_or_none_because() -> None:
    best = best_defense(brute())
    assert (best.kind, best.weapon, best.value) == ("parry", "Natural Attacks (Punch)", 9)
    none = best_defense(brute(), maneuver_of_defender="all_out_attack_determined")
    assert (none.value, none.reason) == (None, "all_out_attack")
    assert best_defense(rurik(), attack_direction="behind").reason == "attack_from_behind"


def test_modes_of_one_weapon_are_one_parry() -> None:
    """GCS's Broadsword (Swung) and (Thrust) parry 11 alike: one weapon, one choice."""
    parries = [c.weapon for c in character_defenses(fighter()) if c.kind == "parry"]
    assert parries == ["Broadsword (Swung)"]


# ---------------------------------------------------------------- natural attacks


def test_a_natural_attacks_parry_is_bare_handed_whatever_its_skill() -> None:
    """GCS's Punch defaults to DX when the character has no Brawling: still a bare hand."""
    document = brute()
    del document["extensions"][EXTENSION]["weapons"]["melee"][0]["skill"]
    parry = character_defense(document, "parry", weapon="Natural Attacks", unarmed_vs_weapon=True)
    assert parry.options["parry_style"] == "unarmed"
    assert parry.defense.modifiers == (("unarmed_vs_weapon", -3, "B376"),)


def test_a_gcs_weapon_of_a_trait_is_a_natural_attack() -> None:
    document = brute()
    document["weapons"]["melee"][0]["name"] = "Claws (Slash)"
    del document["extensions"][EXTENSION]["weapons"]["melee"][0]["skill"]
    assert character_defense(document, "parry", weapon="Claws").options["parry_style"] == "unarmed"


# ---------------------------------------------------------------- the rolled side


def test_a_hit_keeps_the_side_the_roll_gave() -> None:
    document = rurik()
    hit = resolve_hit(document, 9, "cut", location="right_leg")
    assert hit.location == "right_leg"
    assert resolve_hit(document, 9, "cut", location="legs").location == "leg"
    assert apply_hit(document, hit).taken == -hit.injury  # the sided hit is one resolve_hit gives


# ---------------------------------------------------------------- one roll, one name


def test_the_zero_hp_roll_has_one_name() -> None:
    change = change_pool(rurik(), "hp", -13)
    owed = [follow_up.kind for follow_up in change.follow_ups]
    each_turn = [roll.kind for roll in get_condition(change.document).rolls]
    assert owed == ["consciousnessCheck"] and each_turn == ["consciousnessCheck"]


# ---------------------------------------------------------------- the groin, by the sheet


def test_crushing_to_the_groin_doubles_shock_only_for_a_male() -> None:
    """1 cr to the groin (HP 11): -1, doubled to -2 for a male only (B399)."""
    document = rurik()
    assert resolve_hit(document, 3, "cr", location="groin").shock == -1  # the sheet says nothing
    document["profile"]["appearance"] = "Gender: Male; Eyes: Grey"
    assert resolve_hit(document, 3, "cr", location="groin").shock == -2
    document["profile"]["appearance"] = "Sex: female"
    assert resolve_hit(document, 3, "cr", location="groin").shock == -1
    assert resolve_hit(document, 3, "cr", location="groin", vulnerable_groin=True).shock == -2


def test_a_gcs_profiles_gender_decides_the_groin() -> None:
    document = fighter()
    del document["extensions"][EXTENSION]["body"]  # the fixture's body has no groin: a humanoid's
    raw = kept_data(document)
    raw["profile"]["gender"] = "Female"
    keep(document, raw)
    assert resolve_hit(document, 1, "cr", location="groin", dr=0).shock == -1
    raw["profile"]["gender"] = "Male"
    keep(document, raw)
    assert resolve_hit(document, 1, "cr", location="groin", dr=0).shock == -2
