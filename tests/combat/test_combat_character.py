"""Attack and defense of a character (issue 21 item 4): ``character_attack_skill`` and
``character_defense`` fill the inputs the document holds and give exactly what ``attack_skill``
and ``defense`` give for them.

Each input the layer fills has its tests (a named skill, a weapon by name and mode, an imported
character's levels, parries and blocks, Dodge halved by the condition, the encumbrance the carried
weight gives, a weapon's minimum ST, shock passed by the engine, Combat Reflexes where the sheet
leaves it out), the refusals have their whole messages, and a property test draws characters and
works each call's inputs out by hand from the numbers it drew."""

from __future__ import annotations

import copy
import json
import math
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import (
    AttackSkill,
    CharacterAttack,
    CharacterDefense,
    CharacterError,
    Defense,
    DefenseKind,
    attack_skill,
    character_attack_skill,
    character_defense,
    combat_stats,
    defense,
    load_character,
    resolve_hit,
    validate_character,
)
from gurps_character.gcs import EXTENSION
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
SHARED = REPOSITORY.parent / "shared" / "gcs"
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/gcs (GCS's own files) is absent")


def example(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return document


def valid(document: dict[str, Any]) -> dict[str, Any]:
    assert validate_character(document).valid, validate_character(document).errors
    return document


def carrying(document: dict[str, Any], kilograms: float) -> dict[str, Any]:
    """The document with its equipment replaced by one item of that weight, weapons weightless."""
    changed = copy.deepcopy(document)
    changed["equipment"] = [{"name": "Pack", "weight": kilograms}]
    for kind in ("melee", "ranged"):
        for weapon in changed.get("weapons", {}).get(kind, []):
            weapon.pop("weight", None)
    changed.pop("possessionsTotal", None)
    return valid(changed)


def at(document: dict[str, Any], hp: int | None = None, fp: int | None = None) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    if hp is not None:
        changed["secondary"]["hp"]["current"] = hp
    if fp is not None:
        changed["secondary"]["fp"]["current"] = fp
    return valid(changed)


def with_trait(document: dict[str, Any], name: str = "Combat Reflexes") -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["traits"].append({"name": name, "type": "advantage", "points": 15})
    return valid(changed)


def with_weapon(document: dict[str, Any], kind: str, entry: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["weapons"][kind].append(entry)
    return valid(changed)


def with_skill(document: dict[str, Any], name: str, level: int) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed["skills"].append(
        {"name": name, "attribute": "dx", "difficulty": "A", "relativeLevel": 1, "level": level, "points": 4}
    )
    return valid(changed)


def with_records(document: dict[str, Any], melee: list[Any], ranged: list[Any]) -> dict[str, Any]:
    """As the GCS importer leaves a character: its numbers for each weapon, in order."""
    changed = copy.deepcopy(document)
    changed.setdefault("extensions", {})[EXTENSION] = {"weapons": {"melee": melee, "ranged": ranged}}
    return valid(changed)


def refusal(call: Any, *args: Any, **kwargs: Any) -> CharacterError:
    with pytest.raises(CharacterError) as caught:
        call(*args, **kwargs)
    return caught.value


RECORD = f"/extensions/{EXTENSION}/weapons"


# ---------------------------------------------------------------- the base skill of an attack


def test_a_named_skill_is_the_base() -> None:
    """Tamsin's Knife is 12, the fourth of her skills; case and spaces do not matter."""
    rurik = example("rurik")
    result = character_attack_skill(rurik, skill="  KNIFE ")
    assert isinstance(result, CharacterAttack)
    assert (result.base, result.sheet_value, result.skill, result.weapon) == (12, 12, "Knife", None)
    assert (result.pointer, result.source) == ("/skills/3/level", "the skill Knife")
    assert rurik["skills"][3] == {**rurik["skills"][3], "name": "Knife", "level": 12}
    assert result.attack == attack_skill(12) and dict(result.options) == {} and result.adjustments == ()


def test_a_weapon_by_name_gives_its_skills_level_and_its_kind() -> None:
    """Broadsword 14 (B365: a Move and Attack is -4, at most 9)."""
    result = character_attack_skill(example("rurik"), weapon="broadsword", maneuver="move_and_attack")
    assert (result.base, result.pointer, result.weapon, result.skill) == (
        14,
        "/skills/0/level",
        "Broadsword",
        "Broadsword",
    )
    assert result.source == "Broadsword, used with the skill Broadsword"
    assert dict(result.options) == {"maneuver": "move_and_attack", "ranged": False}
    assert result.attack == attack_skill(14, maneuver="move_and_attack") and result.effective == 9
    assert result.attack.capped


def test_a_ranged_weapon_fills_ranged_acc_and_bulk() -> None:
    """Regular Bow: Bow 13, Acc 2, Bulk -8. Two turns of Aim: Acc + 1 = +3 (B364); 20 yards -6
    (B550): 13 + 3 - 6 = 10. A ranged Move and Attack takes the worse of -2 and Bulk: -8 (B365)."""
    rurik = example("rurik")
    aimed = character_attack_skill(rurik, weapon="Regular Bow", aim_turns=2, distance_yards=20)
    assert dict(aimed.options) == {"aim_turns": 2, "distance_yards": 20, "ranged": True, "acc": 2, "bulk": -8}
    assert aimed.attack == attack_skill(13, ranged=True, aim_turns=2, acc=2, distance_yards=20)
    assert aimed.effective == 10
    moving = character_attack_skill(rurik, weapon="Regular Bow", maneuver="move_and_attack")
    assert moving.attack.modifiers == (("move_and_attack", -8, "B365"),) and moving.effective == 5


def test_the_callers_options_win_over_the_weapons() -> None:
    """A scope: Acc 2 + 1 passed as 4; Bulk -4 for a lighter draw."""
    result = character_attack_skill(example("rurik"), weapon="Regular Bow", aim_turns=1, acc=4, bulk=-4)
    assert (result.options["acc"], result.options["bulk"]) == (4, -4)
    assert result.attack.modifiers == (("aim", 4, "B364"),)


def test_a_skill_named_with_a_weapon_is_the_skill_it_is_used_with() -> None:
    """A Morningstar the document cannot match to a skill, swung with Broadsword 14."""
    document = with_weapon(
        example("rurik"),
        "melee",
        {
            "name": "Morningstar",
            "damage": [{"notation": "sw+3 cr"}],
            "parry": {"notation": "0U", "modifier": 0},
        },
    )
    result = character_attack_skill(document, weapon="Morningstar", skill="Broadsword")
    assert (result.base, result.pointer, result.weapon, result.skill) == (
        14,
        "/skills/0/level",
        "Morningstar",
        "Broadsword",
    )
    assert result.source == "Morningstar, used with the skill Broadsword"


# ---------------------------------------------------------------- weapons with several modes


def knife_and_thrown_knife() -> dict[str, Any]:
    """Tamsin's Large Knife, and the same knife thrown (a ranged row "Large Knife (Thrown)")."""
    return with_weapon(
        example("rurik"),
        "ranged",
        {
            "name": "Large Knife (Thrown)",
            "damage": {"notation": "thr imp", "base": "thrust", "adds": 0, "type": "imp"},
            "accuracy": "0",
            "minST": "6",
            "bulk": -2,
        },
    )


@pytest.mark.parametrize(
    ("mode", "ranged"),
    [
        (None, False),
        ("Thrown", True),
        (" thrown", True),
        ("ranged", True),
        ("melee", False),
        ("swing", False),
    ],
)
def test_a_mode_picks_a_weapons_row(mode: str | None, ranged: bool) -> None:
    """The name alone is the row so called; a mode names the text in parentheses, the kind, or a
    damage line's base. Both rows are Knife 12 (the skill whose words the name holds)."""
    result = character_attack_skill(knife_and_thrown_knife(), weapon="Large Knife", mode=mode)
    assert result.options["ranged"] is ranged and result.base == 12
    assert result.weapon == ("Large Knife (Thrown)" if ranged else "Large Knife")
    if ranged:
        assert (result.options["acc"], result.options["bulk"]) == (0, -2)


def test_the_full_name_of_a_mode_is_a_weapon_too() -> None:
    result = character_attack_skill(knife_and_thrown_knife(), weapon="large knife (thrown)")
    assert result.weapon == "Large Knife (Thrown)" and result.options["ranged"] is True


def two_rows(melee_name: str, ranged_name: str | None = None) -> dict[str, Any]:
    document = with_skill(example("rurik"), "Spear", 13)
    document = with_weapon(
        document,
        "melee",
        {
            "name": melee_name,
            "damage": [{"notation": "thr+2 imp"}],
            "parry": {"notation": "0", "modifier": 0},
        },
    )
    if ranged_name is not None:
        document = with_weapon(document, "ranged", {"name": ranged_name, "accuracy": "2", "bulk": -6})
    return document


def test_modes_that_differ_need_a_mode() -> None:
    """Spear (Thrust), melee, and Spear (Thrown), ranged: the same level, not the same attack."""
    document = two_rows("Spear (Thrust)", "Spear (Thrown)")
    error = refusal(character_attack_skill, document, weapon="Spear")
    assert error.message == "mode must be one of 'Thrust', 'Thrown' for 'Spear', not None."
    assert error.details == {"name": "mode", "value": None, "allowed": ["Thrust", "Thrown"]}
    thrown = character_attack_skill(document, weapon="Spear", mode="thrown")
    assert (thrown.weapon, thrown.base, thrown.options["ranged"]) == ("Spear (Thrown)", 13, True)


def test_modes_that_give_the_same_numbers_are_one() -> None:
    """Spear (Swing) and Spear (Thrust): melee, Spear 13 both: the first."""
    document = with_weapon(
        two_rows("Spear (Swing)"),
        "melee",
        {
            "name": "Spear (Thrust)",
            "damage": [{"notation": "thr+3 imp"}],
            "parry": {"notation": "0", "modifier": 0},
        },
    )
    result = character_attack_skill(document, weapon="Spear")
    assert (result.weapon, result.base) == ("Spear (Swing)", 13)
    assert character_defense(document, "parry", weapon="spear").weapon == "Spear (Swing)"


def test_a_mode_that_names_none_of_the_weapons() -> None:
    error = refusal(character_attack_skill, knife_and_thrown_knife(), weapon="Large Knife", mode="bite")
    assert (
        error.message
        == "mode must be one of 'melee', 'swing', 'thrust', 'Thrown' for 'Large Knife', not 'bite'."
    )


# ---------------------------------------------------------------- an imported character's numbers


def imported_rurik(ranged_level: int | None = 12) -> dict[str, Any]:
    """Tamsin as the GCS importer would leave her: GCS's level, parry and block per weapon."""
    return with_records(
        example("rurik"),
        [
            {"source": "/equipment/0/weapons/0", "level": 15, "parry": 11, "block": None},
            {"source": "/equipment/1/weapons/0", "level": 13, "parry": None, "block": 7},
        ],
        [{"source": "/equipment/2/weapons/0", "level": ranged_level}],
    )


def test_an_imported_weapons_level_parry_and_block_are_gcss() -> None:
    document = imported_rurik()
    swing = character_attack_skill(document, weapon="Broadsword")
    assert (swing.base, swing.pointer, swing.source) == (
        15,
        f"{RECORD}/melee/0/level",
        "Broadsword, at GCS's level",
    )
    parry = character_defense(document, "parry", weapon="Broadsword")
    assert (parry.base, parry.pointer, parry.source) == (
        11,
        f"{RECORD}/melee/0/parry",
        "GCS's parry with Broadsword",
    )
    assert parry.defense == defense("parry", 11, encumbrance_level=2, parry_style="weapon")
    block = character_defense(document, "block", weapon="Large Knife")
    assert (block.base, block.pointer) == (7, f"{RECORD}/melee/1/block")
    assert character_attack_skill(document, weapon="Regular Bow").base == 12


def test_an_imported_weapon_without_a_level_parry_or_block() -> None:
    document = imported_rurik(ranged_level=None)
    assert (
        refusal(character_attack_skill, document, weapon="Regular Bow").message
        == "weapon 'Regular Bow' has no skill level: GCS gives 'Regular Bow' no level; pass skill to name "
        "the one it is used with."
    )
    assert character_attack_skill(document, weapon="Regular Bow", skill="Bow").base == 13
    assert (
        refusal(character_defense, document, "parry", weapon="Large Knife").message
        == "weapon 'Large Knife' gives no parry: GCS gives it no parry."
    )


@needs_shared
def test_a_gcs_knight_with_sword_shield_and_combat_reflexes() -> None:
    """GCS's numbers for the Noble Knight: Thrusting Broadsword 17 in both modes, parry 14;
    Medium Shield block 14; Combat Reflexes counted by GCS, so never added."""
    knight = load_character(
        SHARED / "Dungeon_Fantasy-Dungeon_Fantasy_Adventure_1-Rivals__Noble_Knight.gcs"
    ).character
    stats = combat_stats(knight)
    assert any(trait["name"] == "Combat Reflexes" for trait in knight["traits"])
    swing = character_attack_skill(knight, weapon="Thrusting Broadsword")
    assert (swing.weapon, swing.base, swing.adjustments) == ("Thrusting Broadsword (Swing)", 17, ())
    assert swing.pointer == f"{RECORD}/melee/3/level"
    parry = character_defense(knight, "parry", weapon="Thrusting Broadsword", mode="Thrust")
    # GCS counts the Medium Shield's DB 2 in every defense: out of the base, added back once
    in_sheet = (("shield_db_in_sheet", -2, "B374"),)
    assert (parry.weapon, parry.base, parry.adjustments) == ("Thrusting Broadsword (Thrust)", 12, in_sheet)
    assert (parry.value, parry.db, parry.db_source) == (14, 2, "sheet")
    block = character_defense(knight, "block", weapon="Medium Shield")
    assert (block.base, block.value) == (12, 14)
    dodge = character_defense(knight, "dodge")
    assert dodge.adjustments == in_sheet and dodge.value == stats.current_dodge


@needs_shared
def test_a_gcs_goblins_knife_and_its_main_gauche_modes() -> None:
    """Long Knife: Swung and Thrust parry 10, its Main-Gauche modes 7 and fencing ("0F")."""
    goblin = load_character(SHARED / "Dungeon_Fantasy_RPG-Monsters-Goblin-Kin__Goblin__Shaman.gcs").character
    assert refusal(character_defense, goblin, "parry", weapon="Long Knife").message == (
        "mode must be one of 'Swung', 'Thrust', 'Main-Gauche Swing', 'Main-Gauche Thrust' for 'Long Knife', "
        "not None."
    )
    fencing = character_defense(goblin, "parry", weapon="Long Knife", mode="main-gauche swing", retreat=True)
    assert (fencing.base, fencing.options["parry_style"]) == (6, "fencing")  # the Small Shield's DB 1 out
    assert (fencing.db, fencing.db_source) == (1, "sheet")
    assert fencing.defense.modifiers[1] == ("retreat", 3, "B377")  # fencing retreats at +3


@needs_shared
def test_a_gcs_thrown_knife_without_accuracy() -> None:
    """Rudolf Vautour's Small Knife: two melee modes (15) and Thrown (14), which stores no Acc."""
    rudolf = load_character(SHARED / "Home_Brew-Characters__Rudolf_Vautour.v4.gcs").character
    assert refusal(character_attack_skill, rudolf, weapon="Small Knife").message == (
        "mode must be one of 'Swung', 'Thrust', 'Thrown' for 'Small Knife', not None."
    )
    thrown = character_attack_skill(rudolf, weapon="Small Knife", mode="Thrown", distance_yards=3)
    assert (thrown.base, thrown.options["ranged"], thrown.options["bulk"], "acc" in thrown.options) == (
        14,
        True,
        -1,
        False,
    )
    error = refusal(character_attack_skill, rudolf, weapon="Small Knife", mode="Thrown", aim_turns=1)
    assert error.message == "acc is needed to aim 'Small Knife (Thrown)': it stores no accuracy."


# ---------------------------------------------------------------- a weapon's minimum ST


def test_a_ranged_weapons_minimum_st_counts_st_halved_while_tired() -> None:
    """Regular Bow, ST 10; Tamsin ST 11: nothing. Tired (3 of 12 FP, B426): ST 6, -4 (B270)."""
    rurik = example("rurik")
    assert character_attack_skill(rurik, weapon="Regular Bow").adjustments == ()
    tired = character_attack_skill(at(rurik, fp=3), weapon="Regular Bow")
    assert tired.adjustments == (("minimum_st", -4, "B270"),)
    assert (tired.sheet_value, tired.base) == (13, 9) and tired.attack == attack_skill(
        9, ranged=True, acc=2, bulk=-8
    )


def test_gcss_level_counts_the_deficit_at_full_st_already() -> None:
    """A bow of ST 12 and Tamsin's ST 11: GCS's level holds the -1; tired (ST 6), the halving adds
    -5 more. A level of the skill's own takes the whole -6."""
    document = imported_rurik()
    document["weapons"]["ranged"][0]["minST"] = "12†"
    tired = at(valid(document), fp=3)
    assert character_attack_skill(document, weapon="Regular Bow").adjustments == ()
    assert character_attack_skill(tired, weapon="Regular Bow").adjustments == (("minimum_st", -5, "B270"),)
    own = character_attack_skill(tired, weapon="Regular Bow", skill="Bow")
    assert own.adjustments == (("minimum_st", -6, "B270"),) and own.base == 13 - 6


# ---------------------------------------------------------------- shock


def test_the_engine_passes_the_last_hits_shock() -> None:
    """A 9 piercing arrow to Tamsin's torso: 7 injury, shock -4 (B419) on her next attack; none
    on her defenses (the document keeps no shock, and defense takes none)."""
    rurik = example("rurik")
    hit = resolve_hit(rurik, 9, "pi")
    riposte = character_attack_skill(rurik, weapon="Broadsword", shock=hit.shock)
    assert (
        hit.shock == -4 and riposte.attack.modifiers == (("shock", -4, "B419"),) and riposte.effective == 10
    )
    assert refusal(character_defense, rurik, "dodge", shock=-4).details["name"] == "shock"


# ---------------------------------------------------------------- Dodge: encumbrance and the condition


@pytest.mark.parametrize(
    ("kilograms", "level"),
    [(0, 0), (12, 0), (12.5, 1), (24, 1), (36, 2), (72, 3), (120, 4), (500, 4)],
)
def test_dodge_takes_the_encumbrance_the_carried_weight_gives(kilograms: float, level: int) -> None:
    """Basic Lift 12: none to 12 kg, light to 24, medium 36, heavy 72, extra-heavy 120 (B17)."""
    document = carrying(example("rurik"), kilograms)
    result = character_defense(document, "dodge")
    assert result.options["encumbrance_level"] == level and result.base == 9
    assert result.defense == defense("dodge", 9, encumbrance_level=level)
    assert result.value == 9 - level == combat_stats(document).current_dodge
    assert (result.pointer, result.source) == ("/defenses/dodge/value", "the sheet's Dodge")


def test_the_callers_encumbrance_level_wins() -> None:
    """The pack dropped this turn: no encumbrance, whatever the sheet's equipment weighs."""
    result = character_defense(example("rurik"), "dodge", encumbrance_level=0)
    assert result.value == 9 and result.defense.modifiers == ()


@pytest.mark.parametrize(
    ("hp", "fp", "adjustments", "value"),
    [
        (13, 12, (), 7),  # unhurt, medium load: 9 - 2
        (5, 12, (), 7),  # 5 of 13 HP is not yet reeling (below 13/3: 4 and under)
        (4, 12, (("encumbrance", -2, "B17"), ("hp_halving", -3, "B419")), 4),  # 7 halved, rounding up
        (13, 3, (("encumbrance", -2, "B17"), ("fp_halving", -3, "B426")), 4),  # tired: 3 of 12 FP
        (4, 3, (("encumbrance", -2, "B17"), ("hp_halving", -3, "B419"), ("fp_halving", -2, "B426")), 2),
        (-20, 0, (("encumbrance", -2, "B17"), ("hp_halving", -3, "B419"), ("fp_halving", -2, "B426")), 2),
    ],
)
def test_the_condition_halves_dodge(hp: int, fp: int, adjustments: tuple[Any, ...], value: int) -> None:
    """Reeling (B419) and tired (B426) each halve Dodge at the current level, rounding up: the
    halved Dodge is the base, with encumbrance level 0, as the combat module asks."""
    document = at(example("rurik"), hp=hp, fp=fp)
    result = character_defense(document, "dodge", retreat=True)
    assert result.adjustments == adjustments and result.sheet_value == 9
    assert result.base == 9 + sum(step for _, step, _ in adjustments)
    assert result.value == value + 3 and result.defense.modifiers[0] == ("retreat", 3, "B377")
    assert result.options["encumbrance_level"] == (0 if adjustments else 2)
    assert result.value - 3 == combat_stats(document).current_dodge


# ---------------------------------------------------------------- Parry and Block


def test_the_sheets_parry_and_block() -> None:
    rurik = example("rurik")
    parry = character_defense(rurik, "parry", retreat=True)
    assert isinstance(parry, CharacterDefense)
    assert (parry.base, parry.pointer, parry.skill, parry.source) == (
        10,
        "/defenses/parry/value",
        "Broadsword",
        "the sheet's Parry (Broadsword)",
    )
    assert parry.defense == defense("parry", 10, retreat=True, parry_style="weapon", encumbrance_level=2)
    block = character_defense(rurik, "block", shield_db=2)
    assert (block.base, block.value, block.pointer) == (9, 11, "/defenses/block/value")
    assert block.defense == defense("block", 9, shield_db=2)


def test_a_weapons_parry_and_a_shields_block() -> None:
    """Large Knife: Knife 12, 3 + 6 - 1 = 8 (B376). A Shield Bash row blocks with the sheet's
    Block (the skill the sheet's Block comes from)."""
    document = with_weapon(
        example("rurik"),
        "melee",
        {
            "name": "Shield Bash",
            "damage": [{"notation": "thr cr"}],
            "parry": {"notation": "No", "modifier": None},
        },
    )
    knife = character_defense(document, "parry", weapon="Large Knife", parries_so_far=1)
    assert (knife.base, knife.value, knife.pointer, knife.source) == (
        8,
        4,
        "/weapons/melee/1/parry",
        "the parry of Large Knife",
    )
    bash = character_defense(document, "block", weapon="shield bash")
    assert (bash.base, bash.pointer, bash.skill) == (9, "/defenses/block/value", "Shield")
    assert (
        refusal(character_defense, document, "parry", weapon="Shield Bash").message
        == "weapon 'Shield Bash' gives no parry: it cannot parry (its parry is 'No')."
    )
    assert (
        refusal(character_defense, document, "block", weapon="Broadsword").message
        == "weapon 'Broadsword' gives no block: only a weapon used with the skill of the sheet's Block "
        "(Shield) blocks."
    )


def test_a_fencing_weapon_parries_as_fencing_and_feels_the_load() -> None:
    """A Rapier ("0F", Rapier 13): 3 + 6 = 9; fencing parries take the encumbrance level (B391)
    and retreat at +3 (B377); the caller's style wins."""
    document = with_weapon(
        with_skill(example("rurik"), "Rapier", 13),
        "melee",
        {"name": "Rapier", "damage": [{"notation": "thr+1 imp"}], "parry": {"notation": "0F", "modifier": 0}},
    )
    result = character_defense(document, "parry", weapon="Rapier", retreat=True)
    assert result.options["parry_style"] == "fencing" and result.base == 9
    assert result.defense.modifiers == (("retreat", 3, "B377"), ("encumbrance", -2, "B391"))
    plain = character_defense(document, "parry", weapon="Rapier", parry_style="weapon")
    assert plain.value == 9


@pytest.mark.parametrize(("skill", "style"), [("Judo", "judo"), ("Karate", "karate"), ("Boxing", "boxing")])
def test_the_sheets_parry_takes_the_style_of_its_skill(skill: str, style: str) -> None:
    document = with_skill(example("rurik"), skill, 14)
    document["defenses"]["parry"] = {"skill": skill, "value": 10}
    result = character_defense(valid(document), "parry")
    assert result.options["parry_style"] == style


# ---------------------------------------------------------------- Combat Reflexes


@pytest.mark.parametrize(
    ("kind", "weapon", "sheet"),
    [("dodge", None, 9), ("parry", None, 10), ("block", None, 9), ("parry", "Large Knife", 8)],
)
def test_combat_reflexes_is_added_where_the_sheet_leaves_it_out(
    kind: DefenseKind, weapon: str | None, sheet: int
) -> None:
    """Tamsin's scores are the bare formulas (Dodge 6 + 3, Parry 14/2 + 3, Block 13/2 + 3, the
    knife's 12/2 + 3 - 1): with the trait, +1 each (B43)."""
    document = with_trait(example("rurik"))
    result = character_defense(document, kind, weapon=weapon, encumbrance_level=0)
    assert result.adjustments == (("combat_reflexes", 1, "B43"),)
    assert (result.sheet_value, result.base) == (sheet, sheet + 1)
    assert character_defense(document, kind, weapon=weapon, combat_reflexes=False).adjustments == ()
    assert character_defense(example("rurik"), kind, weapon=weapon, combat_reflexes=True).base == sheet + 1


def test_a_sheet_above_the_bare_formula_counts_combat_reflexes_already() -> None:
    """Dodge 10 on Basic Speed 6, Parry 11 from Broadsword 14, Block 10 from Shield 13: the +1 is
    there."""
    document = with_trait(example("rurik"), "Combat Reflexes (from a template)")
    document["defenses"]["dodge"]["value"] = 10
    for level in document["encumbrance"]["levels"]:
        level["dodge"] += 1
    document["defenses"]["parry"]["value"] = 11
    document["defenses"]["block"]["value"] = 10
    document = valid(document)
    for kind in ("dodge", "parry", "block"):
        assert character_defense(document, kind).adjustments == ()
    assert character_defense(document, "parry", weapon="Broadsword").base == 11  # the sheet's +1 reaches it


def test_an_imported_character_counts_combat_reflexes_already() -> None:
    """GCS counts every trait: Dodge 9 (the bare formula) is GCS's, Combat Reflexes and all."""
    document = with_trait(imported_rurik())
    for kind in ("dodge", "parry", "block"):
        assert character_defense(document, kind).adjustments == ()


def test_combat_reflexes_comes_before_the_halving() -> None:
    """Reeling with Combat Reflexes: 9 + 1 = 10, medium load 8, halved 4 (B43, B17, B419)."""
    result = character_defense(at(with_trait(example("rurik")), hp=4), "dodge")
    assert result.adjustments == (
        ("combat_reflexes", 1, "B43"),
        ("encumbrance", -2, "B17"),
        ("hp_halving", -4, "B419"),
    )
    assert result.base == result.value == 4


# ---------------------------------------------------------------- results


def test_the_results_json_and_the_pure_functions_call() -> None:
    result = character_attack_skill(example("rurik"), weapon="Regular Bow", aim_turns=1, target_sm=1)
    assert result.to_dict() == {
        "attack": result.attack.to_dict(),
        "base": 13,
        "sheetValue": 13,
        "source": "Regular Bow, used with the skill Bow",
        "pointer": "/skills/2/level",
        "weapon": "Regular Bow",
        "skill": "Bow",
        "adjustments": [],
        "options": {"aimTurns": 1, "targetSm": 1, "ranged": True, "acc": 2, "bulk": -8},
    }
    assert attack_skill(result.base, **result.options) == result.attack
    parry = character_defense(at(with_trait(example("rurik")), fp=3), "dodge", vs_ranged=True)
    assert parry.to_dict()["adjustments"] == [
        {"id": "combat_reflexes", "value": 1, "page": "B43"},
        {"id": "encumbrance", "value": -2, "page": "B17"},
        {"id": "fp_halving", "value": -4, "page": "B426"},
    ]
    assert parry.to_dict()["options"] == {"vsRanged": True, "encumbranceLevel": 0}
    assert defense(parry.kind, parry.base, **parry.options) == parry.defense
    assert json.loads(json.dumps(parry.to_dict())) == parry.to_dict()


def test_the_document_is_never_modified_and_results_are_read_only() -> None:
    document = with_trait(example("rurik"))
    before = copy.deepcopy(document)
    attack = character_attack_skill(document, weapon="Regular Bow", aim_turns=1)
    parry = character_defense(document, "parry", weapon="Broadsword")
    assert document == before
    with pytest.raises(TypeError):
        attack.options["acc"] = 9  # type: ignore[index]
    with pytest.raises(AttributeError):
        parry.base = 3  # type: ignore[misc]


# ---------------------------------------------------------------- refusals


def morningstar() -> dict[str, Any]:
    return with_weapon(
        example("rurik"),
        "melee",
        {
            "name": "Morningstar",
            "damage": [{"notation": "sw+3 cr"}],
            "parry": {"notation": "0U", "modifier": 0},
        },
    )


@pytest.mark.parametrize(
    ("call", "message", "name"),
    [
        (
            lambda doc: character_attack_skill(doc),
            "An attack needs a weapon or a skill: pass weapon or skill.",
            "weapon",
        ),
        (
            lambda doc: character_attack_skill(doc, weapon="Axe"),
            "weapon must be one of the character's weapons ('Broadsword', 'Large Knife', 'Morningstar', "
            "'Regular Bow'), not 'Axe'.",
            "weapon",
        ),
        (
            lambda doc: character_defense(doc, "parry", weapon="Regular Bow"),
            "weapon must be one of the character's melee weapons ('Broadsword', 'Large Knife', "
            "'Morningstar'), not 'Regular Bow'.",
            "weapon",
        ),
        (
            lambda doc: character_attack_skill(doc, skill="Axe"),
            "skill must be one of the character's skills ('Broadsword', 'Shield', 'Bow', 'Knife', 'Stealth', "
            "'Riding (Horse)', 'Tracking', 'Survival (Woodlands)', 'Tactics', 'Leadership', 'First Aid'), "
            "not 'Axe'.",
            "skill",
        ),
        (
            lambda doc: character_attack_skill(doc, weapon=3),  # type: ignore[arg-type]
            "weapon must be a name (a string) or None, not 3.",
            "weapon",
        ),
        (
            lambda doc: character_attack_skill(doc, skill="Knife", mode="Thrown"),
            "mode must be None without a weapon, not 'Thrown'.",
            "mode",
        ),
        (
            lambda doc: character_attack_skill(doc, weapon="Broadsword", ranged=True),
            "ranged must be False for the melee weapon 'Broadsword', not True.",
            "ranged",
        ),
        (
            lambda doc: character_attack_skill(doc, weapon="Broadsword", base_skill=12),  # type: ignore[call-arg]
            "base_skill is the character's: name a weapon or a skill instead.",
            "base_skill",
        ),
        (
            lambda doc: character_attack_skill(doc, weapon="Broadsword", reach=2),  # type: ignore[call-arg]
            "'reach' is not an option of attack_skill; its options are 'ranged', 'maneuver', 'location', "
            "'target_sm', 'distance_yards', 'target_speed_yards', 'aim_turns', 'acc', 'braced', 'bulk', "
            "'rof', 'deceptive', 'rapid_strike', 'master', 'dual_weapon', 'off_hand', 'ambidextrous', "
            "'evaluate_turns', 'posture', 'shock', 'visibility'.",
            "reach",
        ),
        (
            lambda doc: character_attack_skill(doc, weapon="Morningstar"),
            "weapon 'Morningstar' has no skill level: the document cannot say which skill 'Morningstar' is "
            "used with (no skill is named as it, in its name or in its notes); pass skill to name the one it "
            "is used with.",
            "weapon",
        ),
        (
            lambda doc: character_defense(doc, "parry", weapon="Morningstar"),
            "weapon 'Morningstar' gives no parry: the document cannot say which skill it is used with (no "
            "skill is named as it, in its name or in its notes).",
            "weapon",
        ),
        (
            lambda doc: character_attack_skill(doc, weapon="Broadsword", deceptive=3),
            "deceptive must be at most 2 here, not 3: a Deceptive Attack needs a final effective skill of 10 "
            "or more (B369), and level 3 leaves 8.",
            "deceptive",
        ),
        (
            lambda doc: character_defense(doc, "shield"),  # type: ignore[arg-type]
            "kind must be one of 'dodge', 'parry', 'block', not 'shield'.",
            "kind",
        ),
        (
            lambda doc: character_defense(doc, "dodge", weapon="Broadsword"),
            "weapon must be None for a dodge, not 'Broadsword'.",
            "weapon",
        ),
        (
            lambda doc: character_defense(doc, "dodge", combat_reflexes="yes"),  # type: ignore[arg-type]
            "combat_reflexes must be True or False, not 'yes'.",
            "combat_reflexes",
        ),
        (
            lambda doc: character_defense(doc, "dodge", encumbrance_level=5),
            "encumbrance_level must be a whole number from 0 to 4, not 5.",
            "encumbrance_level",
        ),
        (
            lambda doc: character_defense(doc, "parry", base=12),  # type: ignore[call-arg]
            "base is the character's: name a weapon, or none for the sheet's score.",
            "base",
        ),
        (
            lambda doc: character_defense(doc, "dodge", retreat=True, vs_ranged=True),
            "retreat must be False against a ranged attack, not True.",
            "retreat",
        ),
    ],
)
def test_refusals(call: Any, message: str, name: str) -> None:
    error = refusal(call, morningstar())
    assert (error.code, error.message, error.details["name"]) == ("invalidArgument", message, name)


def test_a_sheet_without_parry_or_block() -> None:
    jotun = example("jotun")
    error = refusal(character_defense, jotun, "block")
    assert (
        error.message
        == "The sheet has no Block (/defenses/block/value is null): name a weapon that can block."
    )
    assert error.details == {
        "name": "kind",
        "value": "block",
        "because": {"pointer": "/defenses/block/value"},
    }


def test_a_document_that_is_no_character() -> None:
    assert refusal(character_attack_skill, [], skill="Knife").code == "notAnObject"
    broken = example("rurik")
    del broken["skills"]
    assert refusal(character_defense, broken, "dodge").code == "schema"


# ---------------------------------------------------------------- the property


@st.composite
def characters(draw: Any) -> dict[str, Any]:
    """Tamsin with other numbers: skill levels, Basic Speed and a Dodge at or above its formula,
    Parry and Block at or above theirs, the pools, the load, ST and the bow's minimum ST, and
    Combat Reflexes or not. ``facts`` keeps what was drawn, for the oracle."""
    document = example("rurik")
    levels = {name: draw(st.integers(0, 24)) for name in ("Broadsword", "Shield", "Bow", "Knife")}
    for skill in document["skills"]:
        skill["level"] = levels.get(skill["name"], skill["level"])
    speed = draw(st.sampled_from([4, 4.75, 5.5, 6, 6.25, 7]))
    dodge = math.floor(speed) + 3 + draw(st.integers(0, 2))
    document["secondary"]["basicSpeed"]["value"] = speed
    document["defenses"]["dodge"]["value"] = dodge
    for level in document["encumbrance"]["levels"]:
        level["dodge"] = dodge - level["level"]
    parry_bonus, block_bonus = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    document["defenses"]["parry"]["value"] = levels["Broadsword"] // 2 + 3 + parry_bonus
    document["defenses"]["block"]["value"] = levels["Shield"] // 2 + 3 + block_bonus
    hp_max, fp_max = document["secondary"]["hp"]["value"], document["secondary"]["fp"]["value"]
    hp, fp = draw(st.integers(-2 * hp_max, hp_max)), draw(st.integers(-fp_max, fp_max))
    document["secondary"]["hp"]["current"], document["secondary"]["fp"]["current"] = hp, fp
    st_value = draw(st.integers(5, 16))
    document["attributes"]["st"]["value"] = st_value
    minimum = draw(st.integers(5, 16))
    document["weapons"]["ranged"][0]["minST"] = f"{minimum}†"
    kilograms = draw(st.sampled_from([0, 10, 20, 30, 60, 100, 130]))
    reflexes = draw(st.booleans())
    if reflexes:
        document["traits"].append({"name": "Combat Reflexes", "type": "advantage", "points": 15})
    document = carrying(document, kilograms)
    document["facts"] = {
        "levels": levels,
        "speed": speed,
        "dodge": dodge,
        "parry_bonus": parry_bonus,
        "block_bonus": block_bonus,
        "hp": (hp, hp_max),
        "fp": (fp, fp_max),
        "st": st_value,
        "minimum": minimum,
        "load": next((level for level, most in enumerate((12, 24, 36, 72, 120)) if kilograms <= most), 4),
        "reflexes": reflexes,
    }
    return document


def halve(value: int) -> int:
    return -(-value // 2)


def attack_by_hand(facts: dict[str, Any], weapon: str, shock: int) -> tuple[int, AttackSkill]:
    """The base and ``attack_skill``'s result, from the numbers drawn: Broadsword and Knife are
    their skills' levels; the bow is Bow less the ST its minimum wants (ST halved while tired)."""
    levels = facts["levels"]
    if weapon == "Regular Bow":
        strength = halve(facts["st"]) if facts["tired"] else facts["st"]
        base = levels["Bow"] - max(0, facts["minimum"] - strength)
        return base, attack_skill(base, ranged=True, acc=2, bulk=-8, shock=shock)
    base = levels["Broadsword" if weapon == "Broadsword" else "Knife"]
    return base, attack_skill(base, shock=shock)


def defense_by_hand(
    facts: dict[str, Any], kind: DefenseKind, weapon: str | None, retreat: bool
) -> tuple[int, Defense]:
    """The base and ``defense``'s result, from the numbers drawn: +1 for Combat Reflexes where
    the score is its bare formula; Dodge halved at the load's level while reeling or tired."""
    levels, load = facts["levels"], facts["load"]
    reflexes = 1 if facts["reflexes"] else 0
    if kind == "dodge":
        base = facts["dodge"] + (0 if facts["dodge"] > math.floor(facts["speed"]) + 3 else reflexes)
        if not (facts["reeling"] or facts["tired"]):
            return base, defense("dodge", base, retreat=retreat, encumbrance_level=load)
        base -= load
        base = halve(base) if facts["reeling"] else base
        base = halve(base) if facts["tired"] else base
        return base, defense("dodge", base, retreat=retreat)
    if kind == "parry":
        bonus = facts["parry_bonus"]
        if weapon == "Large Knife":
            sheet = levels["Knife"] // 2 + 3 - 1 + bonus  # the sheet's bonus reaches every weapon
        else:
            sheet = levels["Broadsword"] // 2 + 3 + bonus
        base = sheet + (0 if bonus else reflexes)
        return base, defense("parry", base, retreat=retreat, encumbrance_level=load)
    bonus = facts["block_bonus"]
    base = levels["Shield"] // 2 + 3 + bonus + (0 if bonus else reflexes)
    return base, defense("block", base, retreat=retreat)


@settings(max_examples=150, deadline=None)
@given(characters(), st.data())
def test_the_layer_is_the_pure_function_with_the_inputs_read_by_hand(
    drawn: dict[str, Any], data: st.DataObject
) -> None:
    facts = drawn.pop("facts")
    document = valid(drawn)
    facts["reeling"] = 3 * facts["hp"][0] < facts["hp"][1]
    facts["tired"] = 3 * facts["fp"][0] < facts["fp"][1]
    kind = data.draw(st.sampled_from(["attack", "dodge", "parry", "block"]))
    if kind == "attack":
        weapon = data.draw(st.sampled_from(["Broadsword", "Large Knife", "Regular Bow"]))
        shock = data.draw(st.integers(-4, 0))
        attack = character_attack_skill(document, weapon=weapon, shock=shock)
        assert (attack.base, attack.attack) == attack_by_hand(facts, weapon, shock)
        assert attack.base == attack.sheet_value + sum(value for _, value, _ in attack.adjustments)
        return
    retreat = data.draw(st.booleans())
    used = data.draw(st.sampled_from([None, "Broadsword", "Large Knife"])) if kind == "parry" else None
    which = cast(DefenseKind, kind)
    result = character_defense(document, which, weapon=used, retreat=retreat)
    assert (result.base, result.defense) == defense_by_hand(facts, which, used, retreat)
    assert result.base == result.sheet_value + sum(value for _, value, _ in result.adjustments)
