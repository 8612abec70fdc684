"""The fight layer's less travelled paths, through the public API: a Critical Miss Table row
applied to the fighter who suffers it (B556-B557), the maneuvers' refusals (B363-B366), a
dead fighter, and ``take_hit`` without the damage it needs.

Tamsin Ashdown (``examples/rurik.json``): Dodge 7 (9 less 2 for her load), Broadsword Parry 10,
Large Knife Parry 8, Shield Block 9."""

from __future__ import annotations

from typing import Any

import pytest

from gurps_character import Fighter, critical_effect
from tests.fight.test_fight import RURIK, club, mossgrim, refused, tamsin, values

NORMAL = [
    ("dodge", None, 7, None),
    ("parry", "Broadsword", 10, None),
    ("parry", "Large Knife", 8, None),
    ("block", None, 9, None),
]


def on_turn(maneuver: str, **options: Any) -> Fighter:
    return tamsin().start_turn().fighter.choose(maneuver, **options).fighter  # type: ignore[arg-type]


def kinds(step: Any) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, dict(e.values)) for e in step.events]


@pytest.mark.parametrize(
    ("roll", "event", "unready", "dropped"),
    [
        (3, "weaponBroken", (), ("Broadsword",)),  # 3, 4, 17, 18: the weapon breaks
        (18, "weaponBroken", (), ("Broadsword",)),
        (8, "weaponUnready", ("Broadsword",), ()),  # 8, 12: it turns in the hand
        (12, "weaponUnready", ("Broadsword",), ()),
        (10, "dropped", (), ("Broadsword",)),  # 9-11: dropped
        (14, "dropped", (), ("Broadsword",)),  # a swung weapon flies
    ],
)
def test_a_critical_miss_takes_the_weapon_out_of_use(
    roll: int, event: str, unready: tuple[str, ...], dropped: tuple[str, ...]
) -> None:
    before = tamsin()
    step = before.apply_critical(critical_effect("critical_miss", roll), "Broadsword")
    assert kinds(step) == [(event, {"weapon": "Broadsword"})]
    assert (step.fighter.unready, step.fighter.dropped) == (unready, dropped)
    assert not step.fighter.can_use("Broadsword")
    assert step.fighter.can_use("Large Knife")
    assert step.critical is not None and step.critical.roll == roll
    assert before.can_use("Broadsword")  # the fighter it was applied to is unchanged


def test_a_strained_shoulder_leaves_the_weapon_arm_useless_for_30_minutes() -> None:
    step = tamsin().apply_critical(critical_effect("critical_miss", 15), "Broadsword")
    assert kinds(step) == [("limbUseless", {"weapon": "Broadsword", "minutes": 30})]
    assert not step.fighter.can_use("Broadsword")
    assert step.fighter.dropped == ()


def test_a_lost_balance_ends_the_attacks_and_costs_2_on_every_defense() -> None:
    attacking = on_turn("attack")
    step = attacking.apply_critical(critical_effect("critical_miss", 7), "Broadsword")
    assert kinds(step) == [("offBalance", {"defensePenalty": -2})]
    error = refused("notAllowed", step.fighter.attack, weapon="Broadsword", roll=10)
    assert str(error) == "Tamsin Ashdown has made its attacks this turn."
    assert values(tamsin()) == NORMAL
    assert values(step.fighter) == [(k, w, v - 2, r) for k, w, v, r in NORMAL]


def test_a_critical_miss_16_fells_a_melee_fighter_but_only_unbalances_a_ranged_one() -> None:
    fell = tamsin().apply_critical(critical_effect("critical_miss", 16), "Broadsword")
    assert kinds(fell) == [("fell", {})]
    assert fell.fighter.posture == "lying"
    ranged = tamsin().apply_critical(critical_effect("critical_miss", 16, ranged=True), "Bow")
    assert kinds(ranged) == [("offBalance", {"defensePenalty": -2})]
    assert ranged.fighter.posture == "standing"


@pytest.mark.parametrize(
    ("roll", "event"), [(3, "weaponBroken"), (8, "weaponUnready"), (10, "dropped"), (15, "limbUseless")]
)
def test_a_critical_miss_without_a_named_weapon_is_the_wielded_weapons(roll: int, event: str) -> None:
    # the weapon of her last attack, not nothing: a 10 drops the knife she stabbed with
    knife = on_turn("attack").attack(weapon="Large Knife", roll=10).fighter
    assert knife.wielding == "Large Knife"
    step = knife.apply_critical(critical_effect("critical_miss", roll))
    assert [kind for kind, _values in kinds(step)] == [event]
    assert kinds(step)[0][1]["weapon"] == "Large Knife"
    assert not step.fighter.can_use("Large Knife") and step.fighter.can_use("Broadsword")
    # before any attack: the first weapon of her sheet
    fresh = tamsin().apply_critical(critical_effect("critical_miss", roll))
    assert kinds(fresh)[0][1]["weapon"] == "Broadsword"
    # the unarmed table's strained limb is no weapon's
    unarmed = knife.apply_critical(critical_effect("unarmed_critical_miss", 4)).fighter
    assert (unarmed.unready, unarmed.dropped) == ((), ())


def test_a_head_blow_that_drops_the_weapon_drops_the_one_she_parried_with() -> None:
    """Critical Head Blow 14 (B556): Tamsin last parried with her Large Knife, so the knife falls;
    she can neither parry nor attack with it until she readies it, and a second 14 finds nothing
    in her hand."""
    parried = tamsin().defend(club(10), "parry", weapon="Large Knife", roll=10).fighter
    assert parried.wielding == "Large Knife"
    step = parried.take_hit(1, "cr", attack=club(3, critical_roll=14, location="skull"), dr=0)
    assert ("dropped", {"weapon": "Large Knife"}) in kinds(step)
    hurt = step.fighter
    assert hurt.dropped == ("Large Knife",)
    assert ("parry", "Large Knife", None, "weapon_dropped") in values(hurt)
    turn = hurt.start_turn().fighter
    error = refused("notAllowed", turn.choose("attack").fighter.attack, weapon="Large Knife", roll=10)
    assert str(error) == "'Large Knife' is not ready (dropped or unready)."
    again = hurt.take_hit(1, "cr", attack=club(3, critical_roll=14, location="skull"), dr=0)
    assert [kind for kind, _values in kinds(again)].count("dropped") == 0
    assert again.fighter.dropped == ("Large Knife",)
    readied = turn.choose("ready", weapon="Large Knife").fighter
    assert readied.can_use("Large Knife") and readied.wielding == "Large Knife"
    assert Fighter.from_dict(hurt.to_dict(), hurt.character).wielding == "Large Knife"


@pytest.mark.parametrize(
    ("roll", "expected", "posture", "owed"),
    [
        (7, [("stumbled", {})], "standing", []),  # an attack: past the foe, still on his feet
        (12, [], "standing", ["keepFeetCheck"]),  # he trips: a DX roll not to fall
        (13, [("defensePenalty", {"penalty": -2})], "standing", []),  # drops his guard
        (
            15,
            [
                ("defensePenalty", {"penalty": -1}),
                ("selfInjury", {"hitsSelf": "none", "damage": "1d-3"}),
            ],
            "standing",
            [],
        ),
        (
            4,
            [
                ("limbUseless", {"weapon": "Punch", "minutes": 30}),
                ("selfInjury", {"hitsSelf": "none", "damage": "1"}),
            ],
            "standing",
            [],
        ),
        (8, [("fell", {})], "lying", []),
    ],
)
def test_the_unarmed_critical_miss_rows_applied(
    roll: int, expected: list[tuple[str, dict[str, Any]]], posture: str, owed: list[str]
) -> None:
    step = tamsin().apply_critical(critical_effect("unarmed_critical_miss", roll), "Punch")
    assert kinds(step) == expected
    assert step.fighter.posture == posture
    assert [o.kind for o in step.fighter.owed] == owed


def test_an_unarmed_critical_miss_3_knocks_the_fighter_out() -> None:
    step = tamsin().apply_critical(critical_effect("unarmed_critical_miss", 3), "Punch")
    assert kinds(step) == [("unconscious", {})]
    assert not step.fighter.able
    assert step.fighter.why_no_defense() == "unconscious"
    error = refused("notAllowed", step.fighter.start_turn().fighter.choose, "attack")
    assert str(error) == "Tamsin Ashdown is unconscious."


def test_aim_needs_the_weapon_aimed() -> None:
    error = refused("invalidArgument", tamsin().start_turn().fighter.choose, "aim")
    assert str(error) == "Aim needs the weapon aimed."


def test_a_maneuver_without_an_attack_refuses_attack_and_feint() -> None:
    waiting = on_turn("do_nothing")
    error = refused("notAllowed", waiting.attack)
    assert str(error) == (
        "Tamsin Ashdown's maneuver (do_nothing) allows no attack: choose attack, an All-Out "
        "Attack or Move and Attack."
    )
    error = refused("notAllowed", waiting.feint, "Mossgrim Underbridge", 12)
    assert str(error) == "Tamsin Ashdown's maneuver (do_nothing) is no Feint."


def test_move_and_attack_needs_a_standing_fighter() -> None:
    kneeling = on_turn("change_posture", posture="kneeling").end_turn().fighter.start_turn().fighter
    assert kneeling.posture == "kneeling"
    error = refused("notAllowed", kneeling.choose, "move_and_attack")
    assert str(error) == "Move and Attack needs a standing fighter."


def test_take_hit_needs_a_damage_type_and_a_basic_damage() -> None:
    error = refused("invalidArgument", tamsin().take_hit, 5)
    assert str(error) == "take_hit needs a damage_type."
    error = refused("invalidArgument", tamsin().take_hit, None, "cr")
    assert str(error) == "take_hit needs basic_damage."


def test_a_dead_fighter_takes_no_more_hits() -> None:
    dead = tamsin().take_hit(200, "cr").fighter
    assert dead.dead
    error = refused("notAllowed", dead.take_hit, 3, "cr")
    assert str(error) == "Tamsin Ashdown is dead."


def test_a_critical_hit_12_makes_the_victim_drop_everything() -> None:
    """Mossgrim's club crits (3) and the Critical Hit Table gives 12 (B556): 10 crushing on
    Tamsin's torso (DR 2) is 8 injury, a major wound (over HP/2 = 6.5) owing the knockdown roll,
    shock -4, and she drops everything she holds."""
    attack = club(3, critical_roll=12, location="torso")
    assert attack.critical is not None and attack.critical.effect == "drops_everything"
    assert not attack.defendable
    step = tamsin().take_hit(10, "cr", attack=attack)
    assert ("dropped", {"what": "everything"}) in kinds(step)
    assert step.hit is not None and step.hit.injury == 8
    assert not step.fighter.can_use("Broadsword")
    assert not step.fighter.can_use("Large Knife")
    assert "knockdownCheck" in [o.kind for o in step.fighter.owed]
    saved = step.to_dict()
    assert saved["critical"] == attack.critical.to_dict()
    assert saved["hit"]["injury"] == 8
    assert "document" not in saved["change"]
    assert [e["kind"] for e in saved["events"]] == [e.kind for e in step.events]


@pytest.mark.parametrize(
    ("roll", "event"),
    [
        (14, ("dropped", {"weapon": "Broadsword"})),  # the victim drops her weapon: her sheet's first
        (8, ("offBalance", {})),  # Do Nothing next turn
        (13, ("deafened", {})),  # crushing that penetrates deafens
    ],
)
def test_a_critical_head_blow_row_on_the_skull(roll: int, event: tuple[str, dict[str, Any]]) -> None:
    """10 crushing on the skull (DR 4 + the skull's 2): 4 through, x4 = 16 injury (B398)."""
    attack = club(3, critical_roll=roll, location="skull")
    assert attack.critical is not None and attack.critical.table == "critical_head_blow"
    step = tamsin().take_hit(10, "cr", attack=attack)
    assert step.hit is not None and step.hit.injury == 16
    assert event in kinds(step)


def test_an_off_balance_head_blow_makes_the_victim_do_nothing_next_turn() -> None:
    attack = club(3, critical_roll=8, location="skull")
    hurt = tamsin().take_hit(1, "cr", attack=attack, dr=0).fighter
    assert hurt.owed == ()
    turn = hurt.start_turn().fighter
    error = refused("notAllowed", turn.choose, "attack")
    assert str(error) == "Tamsin Ashdown is off balance and must Do Nothing this turn (B420, B556)."
    assert turn.choose("do_nothing").fighter.maneuver == "do_nothing"


def test_a_critical_parry_gives_the_attacker_a_critical_miss_he_then_suffers() -> None:
    """Tamsin parries Mossgrim's club with a 3 (B556): he rolls on the Critical Miss Table, a 9
    drops his club, which he cannot attack with again until readied (B366)."""
    attack = club(10)
    step = tamsin().defend(attack, "parry", weapon="Broadsword", roll=3, critical_roll=9)
    assert step.success is True
    assert step.critical is not None and step.critical.table == "critical_miss"
    assert kinds(step)[-1] == ("attackerCriticalMiss", {"roll": 9, "effect": "drops_weapon"})
    attacker = mossgrim().start_turn().fighter.choose("attack").fighter
    dropped = attacker.apply_critical(step.critical, attack.weapon).fighter
    assert not dropped.can_use("Bridge-post club")
    error = refused("notAllowed", dropped.attack, weapon="Bridge-post club", roll=10)
    assert str(error) == "'Bridge-post club' is not ready (dropped or unready)."


def test_a_critically_failed_dodge_fells_the_defender() -> None:
    step = tamsin().defend(club(10), "dodge", roll=18)
    assert step.success is False
    assert kinds(step)[-1] == ("fell", {"because": "criticalDodgeFailure"})
    assert step.fighter.posture == "lying"
    assert step.critical is None


def test_a_critically_failed_block_loses_the_shield() -> None:
    step = tamsin().defend(club(10), "block", roll=18)
    assert kinds(step)[-1] == ("shieldLost", {"weapon": "shield"})
    assert step.fighter.unready == ("shield",)


@pytest.mark.parametrize(
    ("critical_roll", "event", "dropped"),
    [
        (9, ("dropped", {"weapon": "Broadsword"}), ("Broadsword",)),
        (7, ("offBalance", {"defensePenalty": -2}), ()),
    ],
)
def test_a_critically_failed_parry_rolls_on_the_critical_miss_table(
    critical_roll: int, event: tuple[str, dict[str, Any]], dropped: tuple[str, ...]
) -> None:
    step = tamsin().defend(club(10), "parry", weapon="Broadsword", roll=18, critical_roll=critical_roll)
    assert step.critical is not None and step.critical.roll == critical_roll
    assert kinds(step)[-1] == event
    assert step.fighter.dropped == dropped


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"character": None}, "The fight state names no character."),
        ({"unbalanced": "x"}, "The fight state is malformed: TypeError('a list of strings')."),
        ({"stunWaited": 1}, "The fight state is malformed: TypeError('a bool')."),
        ({"retreatedFrom": 3}, "The fight state is malformed: TypeError('a string or null')."),
        ({"parries": []}, "The fight state is malformed: TypeError('parries: an object')."),
        ({"shock": -9}, "The fight state is malformed: ValueError('a whole number, not -9')."),
        (
            {"stunned": "x"},
            "The fight state is malformed: stunned must be one of 'physical', 'mental', not 'x'.",
        ),
    ],
)
def test_a_malformed_saved_state_is_refused(change: dict[str, Any], message: str) -> None:
    saved = tamsin().to_dict()
    error = refused("invalidState", Fighter.from_dict, {**saved, **change}, RURIK)
    assert str(error) == message
    assert Fighter.from_dict(saved, RURIK).to_dict() == saved  # the unchanged state restores


def test_a_failed_keep_feet_roll_fells_the_fighter() -> None:
    """An unarmed critical miss 12 (B557): a DX roll (12 for Tamsin) not to fall (B378)."""
    tripped = tamsin().apply_critical(critical_effect("unarmed_critical_miss", 12), "Punch").fighter
    kept = tripped.resolve("keepFeetCheck", 12)
    assert (kept.success, kept.fighter.posture, kept.fighter.owed) == (True, "standing", ())
    fell = tripped.resolve("keepFeetCheck", 13)
    assert fell.success is False
    assert kinds(fell)[-1] == ("fell", {})
    assert (fell.fighter.posture, fell.fighter.owed) == ("lying", ())


@pytest.mark.parametrize(
    ("roll", "event", "dead", "mortal"),
    [
        (12, None, False, False),  # HT 12 made: alive
        (13, "mortallyWounded", False, True),  # failed by 1 or 2 (B423)
        (14, "mortallyWounded", False, True),
        (15, "dead", True, False),  # failed by 3 or more (B419)
        (18, "dead", True, False),
    ],
)
def test_a_death_check_at_minus_hp(roll: int, event: str | None, dead: bool, mortal: bool) -> None:
    """25 injury takes Tamsin from 11 HP to -14, past -13 (-1xHP): a death check at HT 12."""
    hurt = tamsin().take_hit(25, "cr", dr=0).fighter
    assert hurt.owed[0].kind == "deathCheck"
    step = hurt.resolve("deathCheck", roll)
    if event is not None:
        assert kinds(step)[-1] == (event, {})
    assert (step.fighter.dead, step.fighter.mortally_wounded) == (dead, mortal)
    assert step.fighter.able is not (dead or mortal)


@pytest.mark.parametrize(
    ("critical_roll", "location", "basic", "dr", "injury", "major"),
    [
        # Critical Hit 6: the club's 4d+6 at its maximum, 30; torso DR 2, 28 crushing
        (6, "torso", 30, 2, 28, False),
        (3, "torso", 30, 2, 28, False),  # 3: triple damage, 10 x 3
        (4, "torso", 10, 1, 9, False),  # 4: DR 2 halved, rounded down
        # Head Blow 3: maximum damage, DR 6 (4 + the skull's 2) ignored, x4 on the skull
        (3, "skull", 30, 0, 120, False),
        (4, "skull", 10, 3, 28, True),  # 4: DR 6 halved (rounded up), a major wound
        (6, "skull", 10, 3, 28, True),  # 6: an eye hit, but crushing cannot: as row 4
    ],
)
def test_a_critical_hit_changes_the_damage_and_the_dr(
    critical_roll: int, location: str, basic: int, dr: int, injury: int, major: bool
) -> None:
    attack = club(3, critical_roll=critical_roll, location=location)
    step = tamsin().take_hit(10, attack=attack)
    assert step.hit is not None
    assert (step.hit.basic_damage, step.hit.effective_dr, step.hit.injury) == (basic, dr, injury)
    assert step.critical is not None and step.critical.major_wound is major


def test_a_critical_hit_4_halves_an_odd_dr_rounding_down() -> None:
    """Critical Hit 4 (B556): the arm's DR 1 halved, rounded down, is 0; 3 crushing is 3 injury
    (the Critical Head Blow's half DR rounds up instead)."""
    step = tamsin().take_hit(3, attack=club(3, critical_roll=4, location="arm"))
    assert step.hit is not None
    assert (step.hit.effective_dr, step.hit.injury) == (0, 3)
    assert tamsin().take_hit(3, "cr", location="arm").hit.injury == 2  # type: ignore[union-attr]
