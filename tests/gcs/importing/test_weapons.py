"""import_gcs's weapons: every mode's damage as GCS rolls it, and its level, parry and block.

Two hand-written characters (``fixtures/gcs/``): ``v5_weapons_wyrm.gcs``, saved with GCS's
``calc`` blocks (the values a GCS of 2025 shows for it), and ``v2_weapons_brute.gcs``, a GCS 4.x
file with no ``calc`` at all, whose values come from GCS's rules alone. Each expectation is worked
out by hand from the rules in the comments (Basic Set damage table, B269-B271; GCS's weapon
bonuses), never copied from the importer's output. With ``../shared/gcs`` present, every real
file's weapons are recomputed without their ``calc`` and compared with GCS's own.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from gurps_character import CharacterError, import_gcs, resolve_damage_notation
from gurps_character.gcs import EXTENSION
from tests.support.gcs_grammar import gcs_files
from tests.support.paths import REPOSITORY, TESTS

FIXTURES = TESTS / "fixtures" / "gcs"
SHARED = REPOSITORY.parent / "shared" / "gcs"


def imported(name: str, strip_weapon_calc: bool = False) -> dict[str, Any]:
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    if strip_weapon_calc:
        _strip_weapon_calc(data)
    document: dict[str, Any] = import_gcs(data).document
    return document


def _strip_weapon_calc(data: Any) -> int:
    """Removes every weapon's ``calc`` (GCS's resolved values); returns how many it removed."""
    removed = 0
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for weapon in item.get("weapons") or []:
                if isinstance(weapon, dict) and weapon.pop("calc", None) is not None:
                    removed += 1
            stack.extend(value for key, value in item.items() if key != "weapons")
        elif isinstance(item, list):
            stack.extend(item)
    return removed


def modes(document: dict[str, Any]) -> dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """name → (weapon entry, its damage line, its extension record)."""
    records = document["extensions"][EXTENSION]["weapons"]
    found = {}
    for key in ("melee", "ranged"):
        entries = document["weapons"][key]
        assert len(records[key]) == len(entries)  # the records are parallel to the lists
        for entry, record in zip(entries, records[key], strict=True):
            line = entry["damage"][0] if key == "melee" else entry["damage"]
            found[entry["name"]] = (entry, line, record)
    return found


def rolled(document: dict[str, Any], notation: str) -> tuple[int, int, int, float, str | None]:
    weapon = resolve_damage_notation(document=document, notation=notation)
    return weapon.dice, weapon.adds, weapon.multiplier, weapon.armor_divisor, weapon.damage_type


# The wyrm: ST 20 (thrust 2d-1, swing 3d+2), DX 12, IQ 10, HT 12; Brawling 14 (DX+2), Axe/Mace
# 14 (DX+2), Innate Attack (Breath) 13; the sheet's "modifying dice + adds" setting is on.
WYRM = [
    # (name, notation, (dice, adds, multiplier, divisor, type), level, parry, block)
    # thr-1 = 2d-2; Brawling at DX+2: +1 per die = +2; Striker Training +1 per level x 2 to
    # Natural Attacks' Bite = +2: 2d+2 = thrust 2d-1 + 3
    ("Natural Attacks (Bite)", "thr+3 cr", (2, 2, 1, 1, "cr"), 14, None, None),
    # 2d-2 + 2 (Brawling) = 2d; parry: 3 + 14/2 + 0 = 10
    ("Natural Attacks (Punch)", "thr+1 cr", (2, 0, 1, 1, "cr"), 14, 10, None),
    # 2d-2 + 2 (Brawling) + 2 (the claws' +1 per die) = 2d+2
    ("Blunt Claws (Punch)", "thr+3 cr", (2, 2, 1, 1, "cr"), 14, 10, None),
    # Innate Attack 1d per level x 3 levels = 3d; Innate Attack (Breath) 13 beats DX-4 = 8
    ("Breath of Fire (Breath)", "3d burn", (3, 0, 1, 1, "burn"), 13, None, None),
    # saved before GCS had base_leveled (no "sv"): the base of a leveled trait is per level,
    # 1d-1 x 2 = 2d-2; DX-4 = 8
    ("Venom Spit (Spit)", "2d-2 tox", (2, -2, 1, 1, "tox"), 8, None, None),
    # lifting swing at lifting ST 20 = 3d+2; "ctrl" is no type a hit resolves
    ("Crushing Coil (Constrict)", "3d+2 ctrl", (3, 2, 1, 1, None), 12, None, None),
    # telekinetic thrust at Telekinesis 8: 1d-3
    ("Telekinesis (Shove)", "1d-3 cr", (1, -3, 1, 1, "cr"), 12, None, None),
    # IQ swing at IQ 10: 1d
    ("Mind Lash (Lash)", "1d fat", (1, 0, 1, 1, "fat"), 10, None, None),
    # sw+3 = 3d+5; Weapon Master at Axe/Mace DX+2: +1 per die twice = +6; the Fine modifier's
    # "this weapon" +1: 3d+12; +12 as dice (B269: +7 = 2d, then +4 = 1d) = 6d+1;
    # parry 3 + 14/2 + 0 = 10, unbalanced
    ("Great Axe (Swung)", "6d+1 cut", (6, 1, 1, 1, "cut"), 14, 10, None),
    # thr+1 = 2d; Mighty Blows +50% to the Club: average 7 x 1.5 = 10.5 = 3d; parry 3 + 12/2 = 9
    ("Club (Thrust)", "3d cr", (3, 0, 1, 1, "cr"), 12, 9, None),
    ("Fireball", "1d burn/point", (1, 0, 1, 1, "burn"), 8, None, None),
    ("Concussion", "1d cr ex/2 points", (1, 0, 1, 1, "cr"), 8, None, None),
    # thr-1 = 2d-2 (Touch defaults to DX alone: no Brawling bonus), and 1d more per point
    ("Burning Touch (Touch)", "thr-1 burn +1d/point", (2, -2, 1, 1, "burn"), 12, None, None),
]


@pytest.mark.parametrize("strip", [False, True], ids=["GCS's calc", "GCS's rules"])
@pytest.mark.parametrize(
    ("name", "notation", "dice", "level", "parry", "block"), WYRM, ids=[w[0] for w in WYRM]
)
def test_the_wyrm_rolls_gcs_dice(
    strip: bool,
    name: str,
    notation: str,
    dice: tuple[int, int, int, float, str | None],
    level: int,
    parry: int | None,
    block: int | None,
) -> None:
    document = imported("v5_weapons_wyrm.gcs", strip_weapon_calc=strip)
    _, line, record = modes(document)[name]
    assert line["notation"] == notation
    assert rolled(document, notation) == dice
    assert record["level"] == level
    if name in ("Breath of Fire (Breath)", "Venom Spit (Spit)", "Mind Lash (Lash)", "Fireball", "Concussion"):
        assert "parry" not in record  # ranged: level only
    else:
        assert (record["parry"], record["block"]) == (parry, block)


def test_the_wyrm_without_calc_is_the_wyrm_with_it() -> None:
    """GCS's rules give every weapon entry and record GCS's calc gives."""
    assert imported("v5_weapons_wyrm.gcs")["weapons"] == imported("v5_weapons_wyrm.gcs", True)["weapons"]
    with_calc = imported("v5_weapons_wyrm.gcs")["extensions"][EXTENSION]["weapons"]
    assert with_calc == imported("v5_weapons_wyrm.gcs", True)["extensions"][EXTENSION]["weapons"]


def test_damage_that_is_no_dice_keeps_gcs_text_and_is_not_rolled() -> None:
    document = imported("v5_weapons_wyrm.gcs")
    entry, line, record = modes(document)["Stench (Cloud)"]
    assert line == {"notation": "HT-3 aff"}
    assert "HT-3 aff (not dice: not rolled)" in entry["notes"]
    assert record["level"] == 12  # HT 12
    with pytest.raises(CharacterError) as caught:
        resolve_damage_notation(document=document, notation=line["notation"])
    assert caught.value.code == "invalidArgument"
    assert caught.value.message == "notation: expected 'thr', 'sw' or dice such as '2d':\n  HT-3 aff\n  ^"


def test_the_records_name_the_gcs_weapon_and_its_skill() -> None:
    document = imported("v5_weapons_wyrm.gcs")
    data = json.loads((FIXTURES / "v5_weapons_wyrm.gcs").read_text(encoding="utf-8"))
    for entry, _, record in modes(document).values():
        node: Any = data
        for token in record["source"].strip("/").split("/"):
            node = node[int(token)] if isinstance(node, list) else node[token]
        assert node["usage"] in entry["name"] or not node["usage"]
        assert isinstance(record["level"], int)
    assert modes(document)["Great Axe (Swung)"][2]["skill"] == "Axe/Mace"
    assert modes(document)["Great Axe (Swung)"][2]["parryText"] == "10U"
    assert "skill" not in modes(document)["Club (Thrust)"][2]  # DX alone


def test_the_notes_keep_gcs_text_and_name_the_bonuses() -> None:
    found = modes(imported("v5_weapons_wyrm.gcs"))
    bite = found["Natural Attacks (Bite)"][0]["notes"]
    assert "GCS damage thr-1 cr, 2d+2 cr for this character" in bite
    assert "+2 from Brawling (+1 per die)" in bite and "+2 from Striker Training (+1 per level)" in bite
    claws = found["Blunt Claws (Punch)"][0]["notes"]
    assert "GCS damage thr-1 (+1 per die) cr" in claws and "+2 from the weapon's +1 per die" in claws
    axe = found["Great Axe (Swung)"][0]["notes"]
    assert "+3 from Weapon Master (Axe/Mace) (+1 per die)" in axe and "+1 from Great Axe" in axe
    assert "adds of +4 or more made dice" in axe
    assert "+50% damage" in found["Club (Thrust)"][0]["notes"]
    assert "1d per level × 3" in found["Breath of Fire (Breath)"][0]["notes"]
    for entry, _, _ in found.values():
        for part in entry["notes"].split("; "):
            assert part == part.strip() and not part.endswith(("(", ",", " "))


# The brute (a GCS 4.x file, no calc): ST 14 (thrust 1d, swing 2d), DX 11, IQ 9; Brawling 13
# (DX+2, its bonus written the old way: "per_level" meaning per die).
BRUTE = [
    # thr-1 = 1d-1; Brawling +1 per die = 1d; parry 3 + 13/2 = 9
    ("Natural Attacks (Punch)", "thr cr", (1, 0, 1, 1, "cr"), 13, 9),
    # thr = 1d + 1 (Brawling); Brawling-2 = 11 beats DX-2 = 9
    ("Natural Attacks (Kick)", "thr+1 cr", (1, 1, 1, 1, "cr"), 11, None),
    # "thr_leveled": thrust x 2 levels = 2d
    ("Crushing Strike (Slam)", "2d cr", (2, 0, 1, 1, "cr"), 11, None),
    # no Axe/Mace: DX-5 = 6, +2 from "Good with Hammers" = 8; parry 3 + 8/2 = 7, unbalanced
    ("Warhammer (Swung)", "sw+2 cr", (2, 2, 1, 1, "cr"), 8, 7),
    # ST 14 under the club's minimum 16: DX 11 - 2 = 9; parry 3 + 9/2 (4) = 7
    ("Heavy Club (Swung)", "thr+2 cr", (1, 2, 1, 1, "cr"), 9, 7),
    # thr = 1d + 1 (Brawling) + 1 (the knuckles' "this weapon" bonus to punches)
    ("Spiked Knuckles (Punch)", "thr+2 cr", (1, 2, 1, 1, "cr"), 13, None),
    # a leveled advantage's weapon: 1d per level x 3 = 3d; DX-4 = 7
    ("Innate Attack (Toxic) (Spit)", "3d tox", (3, 0, 1, 1, "tox"), 7, None),
]


@pytest.mark.parametrize(("name", "notation", "dice", "level", "parry"), BRUTE, ids=[b[0] for b in BRUTE])
def test_a_file_without_calc_rolls_gcs_dice_by_the_rules(
    name: str, notation: str, dice: tuple[int, int, int, float, str | None], level: int, parry: int | None
) -> None:
    document = imported("v2_weapons_brute.gcs")
    _, line, record = modes(document)[name]
    assert line["notation"] == notation
    assert rolled(document, notation) == dice
    assert record["level"] == level
    if "parry" in record:
        assert record["parry"] == parry
    if name.startswith("Warhammer"):
        assert record["parryText"] == "7U"
    assert "1d per level" in modes(document)["Innate Attack (Toxic) (Spit)"][0]["notes"]


def test_the_entry_holds_the_parts_of_its_notation() -> None:
    found = modes(imported("v5_weapons_wyrm.gcs"))
    assert found["Natural Attacks (Bite)"][1] == {
        "notation": "thr+3 cr",
        "base": "thrust",
        "adds": 3,
        "type": "cr",
    }
    assert found["Great Axe (Swung)"][1] == {
        "notation": "6d+1 cut",
        "base": "fixed",
        "dice": 6,
        "adds": 1,
        "type": "cut",
    }
    assert found["Crushing Coil (Constrict)"][1] == {
        "notation": "3d+2 ctrl",
        "base": "fixed",
        "dice": 3,
        "adds": 2,
    }


# ---------------------------------------------------------------- generated files


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)
@given(data=gcs_files())
def test_property_every_imported_damage_resolves_or_is_known_not_dice(data: dict[str, Any]) -> None:
    document = import_gcs(data).document
    records = document["extensions"][EXTENSION].get("weapons", {"melee": [], "ranged": []})
    for key in ("melee", "ranged"):
        entries = document["weapons"][key]
        assert len(records[key]) == len(entries)
        for entry, record in zip(entries, records[key], strict=True):
            assert record["level"] is None or type(record["level"]) is int
            for defense in ("parry", "block"):
                assert record.get(defense) is None or type(record[defense]) is int
            line = entry["damage"][0] if key == "melee" else entry["damage"]
            try:
                resolve_damage_notation(document=document, notation=line["notation"])
            except CharacterError as err:
                assert err.code == "invalidArgument"
                assert "(not dice: not rolled)" in entry.get("notes", ""), (line, entry.get("notes"))


# ---------------------------------------------------------------- GCS's own files


def _shared_files() -> list[Path]:
    return sorted(path for path in SHARED.glob("*.gcs") if not path.name.endswith(".xml.gcs"))


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/gcs (GCS's own files) is absent")
def test_gcs_rules_agree_with_gcs_calc_on_the_shared_files() -> None:
    """Every weapon mode of GCS's files, imported without its calc, rolls the dice GCS saved and
    has GCS's level, parry and block."""
    spec = importlib.util.spec_from_file_location("gcs_fidelity", SHARED / "fidelity.py")
    assert spec is not None and spec.loader is not None
    fidelity: Any = importlib.util.module_from_spec(spec)  # the judge's reading of GCS's data
    spec.loader.exec_module(fidelity)
    checked = 0
    for path in _shared_files():
        data = json.loads(path.read_text(encoding="utf-8"))
        measure = fidelity.Measure(copy.deepcopy(data), None, [], {}, "")
        gcs_modes = measure.weapon_modes()
        _strip_weapon_calc(data)
        document = import_gcs(data).document
        records = document["extensions"][EXTENSION].get("weapons", {"melee": [], "ranged": []})
        position = {"melee": 0, "ranged": 0}
        for mode in gcs_modes:
            key = mode["list"]
            entry, record = document["weapons"][key][position[key]], records[key][position[key]]
            position[key] += 1
            assert record["source"] == mode["pointer"]
            calc = mode["weapon"].get("calc") or {}
            want = fidelity.gcs_dice(calc.get("damage"))
            line = entry["damage"][0] if key == "melee" else entry["damage"]
            where = f"{path.name} {mode['pointer']} {calc.get('damage')!r} -> {line['notation']!r}"
            if want is not None:
                got = rolled(document, line["notation"])
                assert got[:4] == (want["dice"], want["adds"], want["mult"], want["divisor"]), where
                assert want["type"] in (None, got[4], "tbb"), where
                checked += 1
            if isinstance(calc.get("level"), int | float):
                assert record["level"] == calc["level"], where
            for defense in ("parry", "block"):
                found = re.match(r"\s*([+-]?\d+)", str(calc.get(defense, ""))) if key == "melee" else None
                if found:
                    assert record[defense] == int(found.group(1)), (where, defense)
    assert checked >= 200
