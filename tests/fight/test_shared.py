"""The fight layer's pool writes share what they leave unchanged (issue 30, item 7): the path-copying
write gives what :func:`~gurps_character.change_pool` gives, never touches its input, and nothing a
fighter hands out reaches the documents its states share."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import CharacterError, Fighter, change_pool, load_character, resolve_hit
from gurps_character.conditions import pool_changed
from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
RURIK = load_character(ROOT / "examples" / "rurik.json").character
JOTUN = load_character(ROOT / "examples" / "jotun.json").character
NOW = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)


def hurt_to(document: dict[str, Any], hp: int, fp: int, meta: bool) -> dict[str, Any]:
    """A plain copy of ``document`` with the pools at ``hp`` and ``fp`` (clamped to their
    bounds), without ``meta`` when asked: the write must then create it."""
    out = copy.deepcopy(dict(document))
    for pool, value in (("hp", hp), ("fp", fp)):
        top = out["secondary"][pool]["value"]
        low = -10 * top if pool == "hp" else -top
        out["secondary"][pool]["current"] = max(low, min(top, value))
    if not meta:
        out.pop("meta", None)
    return out


@settings(max_examples=300, deadline=None)
@given(
    which=st.sampled_from([RURIK, JOTUN]),
    pool=st.sampled_from(["hp", "fp"]),
    hp=st.integers(min_value=-300, max_value=30),
    fp=st.integers(min_value=-30, max_value=30),
    delta=st.integers(min_value=-400, max_value=400),
    spill=st.booleans(),
    meta=st.booleans(),
)
def test_the_shared_write_gives_what_change_pool_gives_and_leaves_its_input_alone(
    which: Any, pool: Any, hp: int, fp: int, delta: int, spill: bool, meta: bool
) -> None:
    document = hurt_to(which, hp, fp, meta)
    before = copy.deepcopy(document)
    public = change_pool(document, pool, delta, now=NOW, spill_to_hp=spill)
    shared = pool_changed(document, pool, delta, NOW, spill_to_hp=spill, owned=True)
    assert document == before  # the input is as it was, though the new document shares with it
    assert shared.document == public.document
    assert shared.follow_ups == public.follow_ups
    assert (shared.before, shared.after, shared.taken, shared.crossed) == (
        public.before,
        public.after,
        public.taken,
        public.crossed,
    )
    assert (shared.spill is None) == (public.spill is None)
    # what did not change is shared, not copied: the point of the write
    assert shared.document["skills"] is document["skills"]
    assert shared.document["secondary"] is not document["secondary"]


def test_what_a_fighter_hands_out_cannot_change_any_state() -> None:
    mine: dict[str, Any] = copy.deepcopy(dict(RURIK))
    fighter = Fighter.from_character(mine)
    mine["secondary"]["hp"]["value"] = 99  # the caller's document is the caller's
    mine["skills"].clear()
    first = fighter.take_hit(5, "cut", location="torso", now=NOW)
    second = first.fighter.take_hit(3, "cr", location="torso", now=NOW)
    untouched = Fighter.from_character(RURIK).take_hit(5, "cut", location="torso", now=NOW)
    expected = [copy.deepcopy(f.character) for f in (fighter, first.fighter, second.fighter)]

    for handed in (fighter.character, first.fighter.character, second.fighter.character):
        handed["secondary"]["hp"]["current"] = -1000
        handed["skills"].clear()
        handed["meta"]["updatedAt"] = "corrupted"
    for step in (first, second):
        change = step.change
        assert change is not None
        change.document["secondary"]["fp"]["current"] = -1000
        change.document["equipment"] = []

    assert [f.character for f in (fighter, first.fighter, second.fighter)] == expected
    assert first.fighter == untouched.fighter
    again = first.fighter.take_hit(3, "cr", location="torso", now=NOW)
    assert again.fighter == second.fighter
    assert again.fighter.to_dict() == second.fighter.to_dict()


def test_a_fighters_states_share_the_document_between_hits() -> None:
    fighter = Fighter.from_character(RURIK)
    hit = fighter.take_hit(5, "cut", location="torso", now=NOW).fighter
    before, after = fighter._document, hit._document
    assert after["secondary"]["hp"]["current"] == before["secondary"]["hp"]["current"] - 4  # (5 - DR 2) x 1.5
    assert after["skills"] is before["skills"]  # a blow copies no more than its way to HP
    assert before is not RURIK and before["skills"] is not RURIK["skills"]


def test_remembered_defenses_and_attacks_refuse_what_the_functions_refuse() -> None:
    fighter = Fighter.from_character(RURIK)
    assert [c.value for c in fighter.defenses(feint=1)] == [c.value for c in fighter.defenses(feint=1)]
    for wrong in (True, [1], 1.0):  # after feint=1 was remembered: still refused, never its answer
        with pytest.raises(CharacterError) as caught:
            fighter.defenses(feint=wrong)
        assert caught.value.code == "invalidArgument"
        assert caught.value.details["name"] == "feint"
    attacker = fighter.start_turn().fighter.choose("attack").fighter
    attacker.attack(weapon="Broadsword", roll=10, target_sm=1)
    for wrong in (True, [1]):
        with pytest.raises(CharacterError) as caught:
            attacker.attack(weapon="Broadsword", roll=10, target_sm=wrong)
        assert caught.value.details["name"] == "target_sm"


BLOWS = st.tuples(
    st.integers(min_value=0, max_value=40),
    st.sampled_from(["cut", "cr", "imp", "pi", "burn", "fat"]),
    st.sampled_from(["torso", "skull", "vitals", "left_arm", "right_leg", "groin", "face"]),
    st.sampled_from([{}, {"armor_divisor": 2}, {"dr": 3}, {"pain_threshold": "high"}]),
)


@settings(max_examples=60, deadline=None)
@given(blows=st.lists(BLOWS, min_size=1, max_size=8), which=st.sampled_from([RURIK, JOTUN]))
def test_a_remembered_blow_resolves_as_resolve_hit_on_the_document_now(
    blows: list[tuple[int, str, str, dict[str, Any]]], which: Any
) -> None:
    fighter = Fighter.from_character(which)
    for basic, kind, where, options in blows:
        if fighter.dead:
            break
        merged = {**fighter._sheet.hit_defaults(), **options}  # what take_hit passes
        try:
            expected = resolve_hit(fighter.character, basic, cast(Any, kind), location=where, **merged)
        except CharacterError as error:  # refused alike, remembered or not
            with pytest.raises(CharacterError) as caught:
                fighter.take_hit(basic, kind, location=where, now=NOW, **options)
            assert (caught.value.code, caught.value.message) == (error.code, error.message)
            continue
        step = fighter.take_hit(basic, kind, location=where, now=NOW, **options)
        assert step.hit == expected
        fighter = step.fighter
