"""A fight, turn by turn (issue 30): scenario tests with the Basic Set's worked numbers, and
properties of the state (a round trip through ``to_dict``; inputs never modified).

Tamsin Ashdown (``examples/rurik.json``): HP 13 (11 now), HT 12, Broadsword 14 (Parry 10), Large
Knife (Parry 8), Shield Block 9, Dodge 9 less 2 for her medium load, FP 12 (9 now), DR 4 on the
skull, 2 on the torso, 1 on the arms, none on the legs. Mossgrim Underbridge
(``examples/jotun.json``): HP 28, a Bridge-post club (Parry 8U, sw+4 cr = 4d+6) and a Punch."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import (
    Attack,
    CharacterError,
    Fighter,
    critical_effect,
    critical_table_for,
    export_gcs,
    load_character,
)
from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
RURIK = load_character(ROOT / "examples" / "rurik.json").character
JOTUN = load_character(ROOT / "examples" / "jotun.json").character


def tamsin() -> Fighter:
    return Fighter.from_character(RURIK)


def mossgrim() -> Fighter:
    return Fighter.from_character(JOTUN)


def club(roll: int = 10, **options: Any) -> Attack:
    """Mossgrim's club swing on his turn, rolled as given (skill 11)."""
    fighter = mossgrim().start_turn().fighter.choose("attack").fighter
    made = fighter.attack(weapon="Bridge-post club", roll=roll, **options).attack
    assert made is not None
    return made


def refused(code: str, call: Any, *args: Any, **kwargs: Any) -> CharacterError:
    with pytest.raises(CharacterError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code
    return caught.value


def values(fighter: Fighter, attack: Attack | None = None, **options: Any) -> list[tuple[Any, ...]]:
    return [(c.kind, c.weapon, c.value, c.reason) for c in fighter.defenses(attack, **options)]


# ---------------------------------------------------------------- shock


def test_shock_waits_for_the_victims_turn_and_ends_with_it() -> None:
    """6 cr to the torso: 6 - DR 2 = 4 injury, -4 on her next turn only (B419)."""
    hit = tamsin().take_hit(6, "cr")
    assert (hit.hit is not None and hit.hit.injury, hit.fighter.shock, hit.fighter.shock_owed) == (4, 0, -4)
    turn = hit.fighter.start_turn().fighter
    assert turn.shock == -4
    swing = turn.choose("attack").fighter.attack(weapon="Broadsword", roll=10)
    assert swing.attack is not None and swing.attack.skill.effective == 14 - 4
    assert swing.fighter.end_turn().fighter.shock == 0


def test_shock_from_two_hits_adds_up_to_minus_4() -> None:
    """3 cr then 6 cr: 1 + 4 = 5 HP of injury before her turn, capped at -4 (B419)."""
    first = tamsin().take_hit(3, "cr").fighter
    assert first.shock_owed == -1
    second = first.take_hit(6, "cr").fighter
    assert second.shock_owed == -4


def test_shock_never_touches_a_defense() -> None:
    turn = tamsin().take_hit(6, "cr").fighter.start_turn().fighter
    assert values(turn) == values(tamsin())


def test_low_pain_threshold_caps_added_shock_at_minus_8() -> None:
    hurt = tamsin().take_hit(4, "cr", pain_threshold="low").fighter.take_hit(5, "cr", pain_threshold="low")
    assert hurt.fighter.shock_owed == -8  # 2 x2 + 3 x2 = -10, capped at -8


# ---------------------------------------------------------------- major wounds, knockdown, stun


def test_a_major_wound_owes_knockdown_and_a_failure_stuns_and_drops() -> None:
    """12 cut: 10 x1.5 = 15 injury > 13/2: a major wound, HT 12 to stay up (B420)."""
    hurt = tamsin().take_hit(12, "cut").fighter
    assert [(o.kind, o.modifier, o.when) for o in hurt.owed] == [("knockdownCheck", 0, "now")]
    refused("notAllowed", hurt.start_turn().fighter.choose, "attack")
    down = hurt.resolve("knockdownCheck", 13)
    assert down.success is False
    fallen = down.fighter
    assert (fallen.stunned, fallen.posture, fallen.dropped, fallen.owed) == (
        "physical",
        "lying",
        ("Broadsword", "Large Knife", "Regular Bow"),
        (),
    )


def test_failing_knockdown_by_5_knocks_out() -> None:
    hurt = tamsin().take_hit(12, "cut").fighter
    out = hurt.resolve("knockdownCheck", 17).fighter  # HT 12, 17: failed by 5
    assert (out.unconscious, out.stunned, out.posture) == (True, None, "lying")


def test_stun_do_nothing_then_recovery_roll_at_the_end_of_that_turn() -> None:
    stunned = tamsin().take_hit(12, "cut").fighter.resolve("knockdownCheck", 13).fighter
    turn = stunned.start_turn()
    assert turn.fighter.maneuver == "do_nothing"
    assert [e.kind for e in turn.events] == ["turnStarted", "shock", "mustDoNothing"]
    refused("notAllowed", turn.fighter.choose, "attack")
    # HP -4: Dodge 7 halved, 4 (B419); stunned: -4 (B420); lying: -3 (B551)
    assert values(turn.fighter)[0] == ("dodge", None, 4 - 4 - 3, None)
    ended = turn.fighter.end_turn().fighter
    assert [(o.kind, o.attribute, o.when) for o in ended.owed] == [("stunRecovery", "ht", "endOfTurn")]
    failed = ended.resolve(roll=14).fighter
    assert failed.stunned == "physical" and failed.owed == ()
    again = failed.start_turn().fighter.end_turn().fighter
    recovered = again.resolve("stunRecovery", 10).fighter
    assert (recovered.stunned, recovered.posture) == (None, "lying")  # the stun ends; still lying


def test_a_mental_stun_recovers_on_iq() -> None:
    stunned = tamsin().stun("mental").fighter
    ended = stunned.start_turn().fighter.end_turn().fighter
    assert [(o.kind, o.attribute) for o in ended.owed] == [("stunRecovery", "iq")]


def test_a_skull_blow_with_shock_owes_a_plain_knockdown_roll() -> None:
    """Without the helm (dr=0) the skull's own DR 2 counts: 3 cr: 1 x4 = 4 injury, shock but no
    major wound: plain HT; 4 cr: 2 x4 = 8 > 13/2, a major wound: HT-10 (B420, B399)."""
    small = tamsin().take_hit(3, "cr", location="skull", dr=0).fighter
    assert [(o.kind, o.modifier) for o in small.owed] == [("knockdownCheck", 0)]
    big = tamsin().take_hit(4, "cr", location="skull", dr=0).fighter
    assert [(o.kind, o.modifier) for o in big.owed] == [("knockdownCheck", -10)]


# ---------------------------------------------------------------- crippling


def test_a_crippled_arm_keeps_its_side_caps_the_injury_and_drops() -> None:
    """8 cut to the right arm: 7 x1.5 = 10 > 13/2 crippled; injury capped at 13 // 2 + 1 = 7."""
    hurt = tamsin().take_hit(8, "cut", location="right_arm")
    assert hurt.hit is not None and (hurt.hit.injury, hurt.hit.crippled, hurt.hit.location) == (
        7,
        True,
        "right_arm",
    )
    assert (hurt.fighter.crippled, hurt.fighter.dropped) == (("right_arm",), ("right_arm",))
    assert [o.kind for o in hurt.fighter.owed] == ["knockdownCheck"]  # crippling is a major wound


def test_a_crippled_leg_falls() -> None:
    hurt = tamsin().take_hit(8, "cut", location="left_leg").fighter
    assert (hurt.crippled, hurt.posture) == (("left_leg",), "lying")


# ---------------------------------------------------------------- 0 HP and death


def test_zero_hp_owes_one_consciousness_roll_each_turn_waived_by_do_nothing() -> None:
    """20 cr: 18 injury, HP 11 -> -7: the roll is owed at the start of her turn, once (B419)."""
    hurt = tamsin().take_hit(20, "cr").fighter
    assert [o.kind for o in hurt.owed] == ["knockdownCheck", "keepFeetCheck"]
    up = hurt.resolve("knockdownCheck", 10).fighter.resolve("keepFeetCheck", 10).fighter
    turn = up.start_turn().fighter
    assert [(o.kind, o.modifier, o.when) for o in turn.owed] == [("consciousnessCheck", 0, "startOfTurn")]
    refused("notAllowed", turn.choose, "attack")
    rests = turn.choose("do_nothing")
    assert rests.fighter.owed == () and [e.kind for e in rests.events] == ["maneuver", "rollWaived"]
    out = turn.resolve("consciousnessCheck", 13).fighter
    assert out.unconscious and out.posture == "lying"


def test_death_checks_per_threshold_crossed() -> None:
    """40 cut: 38 x1.5 = 57 injury, HP 11 -> -46: -13, -26, -39 crossed: three HT rolls now."""
    hurt = tamsin().take_hit(40, "cut").fighter
    assert [(o.kind, o.n) for o in hurt.owed][:3] == [("deathCheck", 1), ("deathCheck", 2), ("deathCheck", 3)]
    assert hurt.resolve("deathCheck", 12).fighter.owed[0].n == 2
    assert hurt.resolve("deathCheck", 14).fighter.mortally_wounded  # failed by 2 (B423)
    dead = hurt.resolve("deathCheck", 15).fighter
    assert dead.dead and dead.owed == ()
    refused("notAllowed", dead.start_turn().fighter.choose, "attack")


def test_minus_five_times_hp_is_death_without_a_roll() -> None:
    dead = tamsin().take_hit(80, "cut").fighter
    assert dead.dead and dead.owed == ()


# ---------------------------------------------------------------- fatigue


def test_fatigue_past_zero_costs_hp_and_owes_will_to_act() -> None:
    """FP 9 of 12, spend 13: 9 -> -4; the 4 FP below 0 cost 4 HP, 11 -> 7 (B426); Will to act."""
    tired = tamsin().spend_fatigue(13)
    assert tired.change is not None and tired.change.after.current == -4
    assert tired.fighter.character["secondary"]["hp"]["current"] == 7
    turn = tired.fighter.start_turn().fighter
    assert [(o.kind, o.attribute) for o in turn.owed] == [("actWhileCollapsed", "will")]
    collapsed = turn.resolve("actWhileCollapsed", 12).fighter
    assert collapsed.unconscious


# ---------------------------------------------------------------- defenses per turn


def test_each_parry_with_one_weapon_costs_4_and_one_block_a_turn() -> None:
    swing = club()
    parried = tamsin().defend(swing, "parry", weapon="Broadsword", roll=5).fighter
    assert values(parried, swing)[1:] == [
        ("parry", "Broadsword", 10 - 4, None),
        ("parry", "Large Knife", 8, None),
        ("block", None, 9, None),
    ]
    blocked = parried.defend(swing, "block", roll=5).fighter
    assert values(blocked, swing)[3] == ("block", None, None, "block_used")
    fresh = blocked.start_turn().fighter
    assert values(fresh, swing) == values(tamsin(), swing)


def test_retreat_once_a_turn_its_bonus_held_against_that_attacker() -> None:
    swing = club()
    stepped = tamsin().defend(swing, "dodge", retreat=True, roll=5)
    assert stepped.defense is not None and stepped.defense.value == 7 + 3
    back = stepped.fighter
    assert back.retreated_from == "Mossgrim Underbridge"
    assert values(back, swing)[:2] == [("dodge", None, 10, None), ("parry", "Broadsword", 11, None)]
    other = Fighter.from_character(JOTUN, name="Goat").start_turn().fighter.choose("attack").fighter
    butt = other.attack(weapon="Punch", roll=10).attack
    assert values(back, butt, retreat=True)[0] == ("dodge", None, None, "retreat_used")
    assert values(back, butt)[0] == ("dodge", None, 7, None)


def test_best_defense_or_none_with_the_reason() -> None:
    best = tamsin().best_defense(club())
    assert best is not None and (best.kind, best.weapon, best.value) == ("parry", "Broadsword", 10)
    reckless = tamsin().start_turn().fighter.choose("all_out_attack_determined").fighter
    assert reckless.best_defense(club()) is None
    assert reckless.why_no_defense(club()) == "all_out_attack"
    refused("notAllowed", reckless.defend, club())


def test_an_unbalanced_weapon_that_attacked_cannot_parry_until_the_next_turn() -> None:
    fighter = mossgrim().start_turn().fighter.choose("attack").fighter
    swung = fighter.attack(weapon="Bridge-post club", roll=10).fighter
    assert ("parry", "Bridge-post club", None, "unbalanced_weapon") in values(swung)
    assert ("parry", "Bridge-post club", 8, None) in values(swung.start_turn().fighter)


def test_any_defense_spoils_an_aim() -> None:
    aiming = tamsin().start_turn().fighter.choose("aim", weapon="Regular Bow").fighter
    assert aiming.aim == ("Regular Bow", 1)
    dodged = aiming.defend(club(), "dodge", roll=5)
    assert dodged.fighter.aim is None and "aimSpoiled" in [e.kind for e in dodged.events]


# ---------------------------------------------------------------- maneuvers and posture


def test_all_out_defense_adds_2_to_its_defense_only() -> None:
    careful = tamsin().start_turn().fighter.choose("all_out_defense_parry").fighter
    assert values(careful, club()) == [
        ("dodge", None, 7, None),
        ("parry", "Broadsword", 12, None),
        ("parry", "Large Knife", 10, None),
        ("block", None, 9, None),
    ]


def test_move_and_attack_leaves_no_parry_and_no_retreat() -> None:
    moving = tamsin().start_turn().fighter.choose("move_and_attack").fighter
    assert values(moving, club())[1][3] == "move_and_attack_no_parry"
    refused("invalidArgument", moving.defenses, club(), retreat=True)
    swing = moving.attack(weapon="Broadsword", roll=9)
    assert swing.attack is not None and swing.attack.skill.effective == 9  # 14 - 4, at most 9


def test_an_aimed_bow_adds_its_acc() -> None:
    aimed = tamsin().start_turn().fighter.choose("aim", weapon="Regular Bow").fighter
    turn = aimed.end_turn().fighter.start_turn().fighter.choose("attack").fighter
    shot = turn.attack(weapon="Regular Bow", roll=10, distance_yards=20)
    assert shot.attack is not None and shot.attack.skill.effective == 13 + 2 - 6  # README's arithmetic
    assert shot.fighter.aim is None


def test_lying_attacks_at_minus_4_defends_at_minus_3_and_rises_by_steps() -> None:
    lying = tamsin().take_hit(8, "cut", location="left_leg").fighter
    turn = lying.resolve("knockdownCheck", 10).fighter.start_turn().fighter
    assert values(turn)[0] == ("dodge", None, 4 - 3, None)  # HP 4 of 13: Dodge 7 halved (B419)
    refused("notAllowed", turn.choose, "change_posture", posture="standing")
    kneeling = turn.choose("change_posture", posture="kneeling").fighter
    assert kneeling.posture == "kneeling"
    swing = lying.resolve("knockdownCheck", 10).fighter.start_turn().fighter.choose("attack").fighter
    made = swing.attack(weapon="Broadsword", roll=10).attack
    assert made is not None and made.skill.effective == 14 - 4 - 4  # lying -4 (B551), shock -4 (B419)


# ---------------------------------------------------------------- criticals


def test_a_critical_hit_allows_no_defense_and_rolls_on_the_table() -> None:
    """3 to hit: critical; 5 on the Critical Hit Table: double damage (B556)."""
    crit = club(roll=3, critical_roll=5)
    assert crit.critical is not None and crit.critical.effect == "double_damage"
    assert tamsin().why_no_defense(crit) == "critical_hit"
    hurt = tamsin().take_hit(10, attack=crit)
    assert hurt.hit is not None and (hurt.hit.basic_damage, hurt.hit.injury) == (20, 18)


def test_a_critical_head_blow_3_is_maximum_damage_through_any_dr() -> None:
    """Skull, 3 on the Critical Head Blow Table: 4d+6 at most 30, DR ignored, x4 = 120."""
    crit = club(roll=3, critical_roll=3, location="skull")
    assert crit.critical is not None and crit.critical.table == "critical_head_blow"
    hurt = tamsin().take_hit(attack=crit)
    assert hurt.hit is not None and (hurt.hit.basic_damage, hurt.hit.effective_dr, hurt.hit.injury) == (
        30,
        0,
        120,
    )
    assert hurt.fighter.dead


def test_a_critical_hit_8_doubles_shock_and_cripples_a_limb_for_a_while() -> None:
    crit = club(roll=3, critical_roll=8, location="right_arm")
    hurt = tamsin().take_hit(4, attack=crit).fighter  # 4 - DR 1 = 3 injury: -3, doubled -6
    assert hurt.shock_owed == -6
    assert hurt.crippled == ("right_arm",) and hurt.funny_bone == (("right_arm", 4),)  # 16 - HT 12
    healed = hurt
    for _ in range(4):
        healed = healed.end_turn().fighter
    assert healed.crippled == () and healed.funny_bone == ()


def test_a_critical_miss_drops_the_weapon_until_readied() -> None:
    fighter = mossgrim().start_turn().fighter.choose("attack").fighter
    missed = fighter.attack(weapon="Bridge-post club", roll=18, critical_roll=10)
    assert missed.critical is not None and missed.critical.effect == "drops_weapon"
    assert missed.fighter.dropped == ("Bridge-post club",)
    turn = missed.fighter.start_turn().fighter
    refused("notAllowed", turn.choose("attack").fighter.attack, weapon="Bridge-post club", roll=10)
    assert turn.choose("ready", weapon="Bridge-post club").fighter.dropped == ()


def test_a_critical_defense_sends_the_attacker_to_the_critical_miss_table() -> None:
    swing = club()
    parried = tamsin().defend(swing, "parry", weapon="Broadsword", roll=3, critical_roll=7)
    assert parried.critical is not None and parried.critical.effect == "lose_balance"
    attacker = mossgrim().apply_critical(parried.critical, "Bridge-post club").fighter
    assert (attacker.do_nothing_next, attacker.off_balance) == (False, -2)
    assert values(attacker)[0] == ("dodge", None, 7 - 2, None)


def test_a_critically_failed_dodge_leaves_the_defender_lying() -> None:
    assert tamsin().defend(club(), "dodge", roll=18).fighter.posture == "lying"


@pytest.mark.parametrize(
    ("table", "roll", "effect", "field", "value"),
    [
        ("critical_hit", 3, "triple_damage", "damage_multiplier", 3),
        ("critical_hit", 4, "half_dr", "dr", "half_down"),
        ("critical_hit", 12, "drops_everything", "drops", "everything"),
        ("critical_hit", 13, "major_wound", "major_wound", True),
        ("critical_head_blow", 6, "eye_hit", "eye_hit", True),
        ("critical_head_blow", 8, "off_balance", "do_nothing_next", True),
        ("critical_miss", 4, "weapon_breaks", "weapon_breaks", True),
        ("critical_miss", 8, "weapon_turns", "weapon_unready", True),
        ("critical_miss", 16, "falls", "falls", True),
        ("unarmed_critical_miss", 3, "knocked_out", "unconscious", True),
        ("unarmed_critical_miss", 13, "drops_guard", "defense_penalty", -2),
    ],
)
def test_critical_tables_as_data(table: Any, roll: int, effect: str, field: str, value: Any) -> None:
    found = critical_effect(table, roll)
    assert (found.effect, getattr(found, field)) == (effect, value)


def test_a_ranged_critical_miss_16_loses_balance_instead_of_falling() -> None:
    assert critical_effect("critical_miss", 16, ranged=True).effect == "lose_balance"
    assert (
        critical_table_for("eyes") == "critical_head_blow" and critical_table_for("torso") == "critical_hit"
    )
    assert (
        critical_effect("critical_hit", rng=random.Random(1)).roll
        == critical_effect("critical_hit", rng=random.Random(1)).roll
    )


# ---------------------------------------------------------------- a GCS fighter, saving and resuming


def test_a_gcs_character_fights_as_its_json_would() -> None:
    exported = export_gcs(JOTUN).text
    troll = Fighter.from_character(load_character(exported.encode(), kind="gcs"))
    assert troll.name == "Mossgrim Underbridge"
    best = troll.best_defense(club())
    assert best is not None and best.value == mossgrim().best_defense(club()).value  # type: ignore[union-attr]


def test_the_state_round_trips_and_refuses_another_or_an_older_document() -> None:
    hurt = tamsin().take_hit(12, "cut").fighter.resolve("knockdownCheck", 13).fighter
    saved = json.loads(json.dumps(hurt.to_dict()))
    assert Fighter.from_dict(saved, hurt.character) == hurt
    assert refused("stateMismatch", Fighter.from_dict, saved, JOTUN).details["document"]["name"] == (
        "Mossgrim Underbridge"
    )
    refused("stateMismatch", Fighter.from_dict, saved, RURIK)  # the document before the hit
    refused("invalidState", Fighter.from_dict, {**saved, "version": 99}, hurt.character)
    refused("invalidState", Fighter.from_dict, {**saved, "shock": "a lot"}, hurt.character)
    refused("invalidState", Fighter.from_dict, {**saved, "posture": "floating"}, hurt.character)
    refused(
        "invalidState", Fighter.from_dict, {k: v for k, v in saved.items() if k != "owed"}, hurt.character
    )


def test_nothing_is_modified() -> None:
    before = copy.deepcopy(RURIK)
    fighter = tamsin()
    fighter.take_hit(20, "cr")
    fighter.defend(club(), roll=10)
    assert before == RURIK and fighter == tamsin()


_OPERATIONS = st.lists(
    st.sampled_from(["start", "end", "attack", "hit", "dodge", "resolve", "fatigue"]), max_size=12
)


@settings(max_examples=40, deadline=None)
@given(_OPERATIONS, st.integers(0, 2**16))
def test_any_sequence_round_trips_and_changes_no_input(operations: list[str], seed: int) -> None:
    rng = random.Random(seed)
    fighter = tamsin()
    original = copy.deepcopy(RURIK)
    for operation in operations:
        kept = copy.deepcopy(fighter.to_dict())
        try:
            if operation == "start":
                step = fighter.start_turn()
            elif operation == "end":
                step = fighter.end_turn()
            elif operation == "attack":
                step = fighter.choose("attack").fighter.attack(weapon="Broadsword", rng=rng)
            elif operation == "hit":
                step = fighter.take_hit(
                    rng.randint(0, 14), "cut", location=rng.choice(["torso", "right_arm"])
                )
            elif operation == "dodge":
                step = fighter.defend(club(), "dodge", rng=rng)
            elif operation == "fatigue":
                step = fighter.spend_fatigue(rng.randint(0, 3))
            else:
                step = fighter.resolve(rng=rng)
        except CharacterError as error:
            assert error.code in ("notAllowed", "invalidArgument")
            assert fighter.to_dict() == kept
            continue
        assert fighter.to_dict() == kept  # the fighter called is unchanged
        fighter = step.fighter
        assert Fighter.from_dict(json.loads(json.dumps(fighter.to_dict())), fighter.character) == fighter
    assert original == RURIK


def test_a_fighter_at_zero_hp_that_did_nothing_owes_the_roll_when_it_defends() -> None:
    """Do Nothing waives the 0 HP roll; a defense is something: HT now (B419)."""
    down = tamsin().take_hit(14, "cr").fighter  # 12 injury: HP 11 -> -1
    up = down.resolve("knockdownCheck", 10).fighter.resolve("keepFeetCheck", 10).fighter
    resting = up.start_turn().fighter.choose("do_nothing").fighter
    defended = resting.defend(club(), "dodge", roll=16)
    assert [(o.kind, o.when) for o in defended.fighter.owed] == [("consciousnessCheck", "now")]
    checked = up.start_turn().fighter.resolve("consciousnessCheck", 10).fighter
    assert checked.defend(club(), "dodge", roll=16).fighter.owed == ()


def test_a_shield_carried_by_a_json_sheet_is_passed_once_and_saved() -> None:
    """Tamsin's sheet leaves DB out; with a DB 2 shield every defense is 2 higher."""
    shielded = Fighter.from_character(RURIK, shield_db=2)
    assert [v for _, _, v, _ in values(shielded)] == [7 + 2, 10 + 2, 8 + 2, 9 + 2]
    assert [v for _, _, v, _ in values(shielded, shield_db=0)] == [7, 10, 8, 9]  # a firearm
    assert Fighter.from_dict(shielded.to_dict(), RURIK).to_dict()["shieldDb"] == 2


def test_a_lost_balance_ends_the_turn_and_a_head_blow_8_the_next() -> None:
    """Critical Miss Table 7: nothing else this turn, -2 to defenses until the next (B556);
    Critical Head Blow Table 8: the victim must Do Nothing on his next turn (B556)."""
    fighter = mossgrim().start_turn().fighter.choose("all_out_attack_double").fighter
    missed = fighter.attack(weapon="Bridge-post club", roll=18, critical_roll=7).fighter
    assert (missed.do_nothing_next, missed.off_balance) == (False, -2)
    refused("notAllowed", missed.attack, weapon="Punch", roll=10)  # no second attack
    assert missed.start_turn().fighter.off_balance == 0
    blow = club(roll=3, critical_roll=8, location="face")
    dazed = tamsin().take_hit(5, attack=blow).fighter.resolve("knockdownCheck", 10).fighter
    turn = dazed.start_turn().fighter
    assert (turn.maneuver, turn.must_do_nothing) == ("do_nothing", True)
    refused("notAllowed", turn.choose, "attack")
    assert turn.end_turn().fighter.start_turn().fighter.choose("attack").fighter.maneuver == "attack"


def test_a_punch_fumbles_on_the_unarmed_table_and_parries_a_thrust_without_minus_3() -> None:
    fighter = mossgrim().start_turn().fighter.choose("attack").fighter
    fumble = fighter.attack(weapon="Punch", roll=18, critical_roll=8)
    assert fumble.critical is not None and fumble.critical.table == "unarmed_critical_miss"
    assert fumble.fighter.posture == "lying"  # row 8: he falls down (B557)
    knife = tamsin().start_turn().fighter.choose("attack").fighter
    thrust = knife.attack(weapon="Large Knife", mode="thrust", roll=10).attack
    swing = knife.attack(weapon="Large Knife", roll=10).attack
    assert thrust is not None and swing is not None and (thrust.swung, swing.swung) == (False, True)
    fists = {c.weapon: c.value for c in mossgrim().defenses(thrust) if c.kind == "parry"}
    assert fists["Punch"] == 8  # a thrust parried bare-handed: no -3 (B376)
    assert {c.weapon: c.value for c in mossgrim().defenses(swing) if c.kind == "parry"}["Punch"] == 5


def test_a_retreat_bonus_is_not_held_once_stunned() -> None:
    swing = club()
    stepped = tamsin().defend(swing, "dodge", retreat=True, roll=5).fighter
    stunned = stepped.stun("physical").fighter
    assert values(stunned, swing)[0] == ("dodge", None, 7 - 4, None)  # no retreat while stunned


def test_a_feint_won_counts_against_the_next_attack_only() -> None:
    """Broadsword 14 rolls 8 (by 6) against the troll's DX-based 11 rolling 12 (failed): -6 (B365)."""
    feinting = tamsin().start_turn().fighter.choose("feint").fighter
    won = feinting.feint("Mossgrim Underbridge", 11, weapon="Broadsword", roll=8, defender_roll=12)
    assert won.fighter.feints == {"Mossgrim Underbridge": 6}
    turn = won.fighter.end_turn().fighter.start_turn().fighter.choose("attack").fighter
    swing = turn.attack(weapon="Broadsword", roll=10, target="Mossgrim Underbridge")
    assert swing.attack is not None and swing.attack.feint == 6 and swing.fighter.feints == {}
    assert values(mossgrim(), swing.attack)[1] == ("parry", "Bridge-post club", 8 - 6, None)
    lapsed = won.fighter.end_turn().fighter.start_turn().fighter.choose("move").fighter.end_turn()
    assert lapsed.fighter.feints == {}


def test_a_gcs_weapons_modes_drop_and_ready_as_one_weapon() -> None:
    """GCS's "Broadsword (Swung)" and "(Thrust)": dropped together, named "Broadsword" alike."""
    gcs = Fighter.from_character(load_character(ROOT / "tests" / "fixtures" / "gcs" / "v5_fighter.gcs"))
    hurt = gcs.take_hit(30, "cut", dr=0).fighter.resolve("knockdownCheck", 17).fighter
    assert hurt.unconscious and not hurt.can_use("Broadsword")
    fumbled = gcs.start_turn().fighter.choose("attack").fighter
    dropped = fumbled.attack(weapon="Broadsword", roll=18, critical_roll=10).fighter
    assert dropped.dropped == ("Broadsword (Swung)",) and not dropped.can_use("broadsword")
    turn = dropped.start_turn().fighter
    refused("notAllowed", turn.choose("attack").fighter.attack, weapon="Broadsword", roll=10)
    assert turn.choose("ready", weapon="Broadsword").fighter.can_use("Broadsword (Swung)")


def test_a_gcs_weapon_dropped_from_one_mode_parries_and_attacks_in_none() -> None:
    """A thrust's critical miss drops "Broadsword (Thrust)": the swung row, the same broadsword,
    neither parries nor attacks until the broadsword is readied, by either row's name."""
    gcs = Fighter.from_character(load_character(ROOT / "tests" / "fixtures" / "gcs" / "v5_fighter.gcs"))
    fumbled = gcs.start_turn().fighter.choose("attack").fighter
    thrust = fumbled.attack(weapon="Broadsword", mode="thrust", roll=18, critical_roll=10).fighter
    assert thrust.dropped == ("Broadsword (Thrust)",) and not thrust.can_use("Broadsword (Swung)")
    assert [(c.kind, c.weapon, c.reason) for c in thrust.defenses() if c.kind == "parry"] == [
        ("parry", "Broadsword (Swung)", "weapon_dropped")
    ]
    turn = thrust.start_turn().fighter
    refused("notAllowed", turn.choose("attack").fighter.attack, weapon="Broadsword (Swung)", roll=10)
    assert turn.choose("ready", weapon="Broadsword (Swung)").fighter.dropped == ()
