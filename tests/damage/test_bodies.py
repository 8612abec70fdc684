"""Hits on the bodies GCS imports (B552-B554): the body table in the importer's extension decides
which locations a blow can land on, their natural DR, DR by damage type, and which of the rule's
kinds of location each is. The fixtures are our own GCS files (tests/fixtures/gcs/bodies/), one
creature per body type, each with ST 12, HP 12 and Damage Resistance 2 on every location."""

from __future__ import annotations

import copy
import json
import string
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gurps_character import (
    HIT_LOCATIONS,
    LOCATION_NAMES,
    CharacterError,
    DamageType,
    apply_hit,
    body_of,
    import_gcs,
    resolve_hit,
    validate_character,
    verify_character,
)
from gurps_character.cli import main
from gurps_character.gcs import EXTENSION
from tests.support.gcs_grammar import gcs_files
from tests.support.paths import TESTS
from tests.support.strategies import hostile_values, snapshot

BODIES = TESTS / "fixtures" / "gcs" / "bodies"
NOW = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)

IDS = {
    "quadruped": ("eye", "skull", "face", "neck", "leg", "torso", "groin", "foot", "tail", "vitals"),
    "winged_quadruped": ("eye", "skull", "face", "neck", "leg", "torso", "wing", "foot", "tail", "vitals"),
    "avian": ("eye", "skull", "face", "neck", "wing", "torso", "groin", "leg", "foot", "tail", "vitals"),
    "vermiform": ("eye", "skull", "face", "neck", "torso", "vitals"),
    "arachnoid": ("eye", "brain", "neck", "face", "leg", "torso", "groin", "vitals"),
    "octopod": ("eye", "brain", "face", "neck", "arm", "torso", "vitals"),
    "ichthyoid": ("eye", "skull", "face", "fin", "torso", "tail", "vitals"),
    "floating_skull": ("skull",),
    "humanoid_expanded": (
        "eye", "skull", "face", "leg", "arm", "torso", "abdomen", "hand", "foot", "neck", "vitals",
        "groin", "spine", "chinks",
    ),
}  # fmt: skip
_CACHE: dict[str, dict[str, Any]] = {}


def creature(name: str) -> dict[str, Any]:
    """The imported creature (a fresh copy)."""
    if name not in _CACHE:
        _CACHE[name] = import_gcs((BODIES / f"{name}.gcs").read_bytes()).document
    return copy.deepcopy(_CACHE[name])


def refused(call: Any) -> CharacterError:
    with pytest.raises(CharacterError) as caught:
        call()
    return caught.value


# ---------------------------------------------------------------- the importer keeps the table


@pytest.mark.parametrize("name", sorted(IDS))
def test_each_body_is_kept_whole_and_the_document_stays_valid(name: str) -> None:
    document = creature(name)
    body = body_of(document)
    assert body is not None and body.ids == IDS[name]
    assert validate_character(document).valid and verify_character(document).claim_consistent
    gcs = json.loads((BODIES / f"{name}.gcs").read_text(encoding="utf-8"))["settings"]["body_type"]
    assert body.name == gcs["name"] and body.roll == "3d"
    rows = [row for row in body.locations if row.id in {loc["id"] for loc in gcs["locations"]}]
    assert [(row.name, row.hit_penalty, row.roll_range) for row in rows] == [
        (loc["choice_name"], loc.get("hit_penalty", 0), loc["calc"]["roll_range"]) for loc in gcs["locations"]
    ]


@pytest.mark.parametrize("name", sorted(IDS))
def test_every_location_of_the_body_takes_a_hit(name: str) -> None:
    document = creature(name)
    for location in IDS[name]:
        kind: DamageType = "imp"  # the one type every location takes, eye and vitals included
        hit = resolve_hit(document, 10, kind, location=location)
        assert hit.location == location and hit.injury > 0


@pytest.mark.parametrize(
    ("name", "location", "listed"),
    [
        ("vermiform", "arm", "eye, skull, face, neck, torso, vitals"),
        ("vermiform", "legs", "eye, skull, face, neck, torso, vitals"),
        ("quadruped", "hand", "eye, skull, face, neck, leg, torso, groin, foot, tail, vitals"),
        ("octopod", "skull", "eye, brain, face, neck, arm, torso, vitals"),
        ("floating_skull", "torso", "skull"),
    ],
)
def test_a_location_the_body_lacks_is_refused_naming_the_bodys(name: str, location: str, listed: str) -> None:
    document = creature(name)
    error = refused(lambda: resolve_hit(document, 10, "cr", location=location))
    body = body_of(document)
    assert body is not None
    assert error.code == "invalidArgument"
    assert error.message == (
        f"location must be a hit location of the character's body ({body.name}): {listed}; not {location!r}."
    )
    assert error.details == {"name": "location", "value": location, "locations": listed.split(", ")}


def test_the_formats_plural_ids_name_a_bodys_locations_too() -> None:
    """``legs`` is a quadruped's ``leg``; ``eyes`` its ``eye``."""
    document = creature("quadruped")
    assert resolve_hit(document, 10, "imp", location="legs") == resolve_hit(
        document, 10, "imp", location="leg"
    )
    assert resolve_hit(document, 10, "imp", location="eyes").location == "eye"


# ---------------------------------------------------------------- natural DR and DR by type


def test_the_skulls_natural_dr_comes_from_the_body() -> None:
    """Quadruped skull: DR 2 (Damage Resistance) + its natural 2 = 4; 10 cr: 6 x4 = 24."""
    hit = resolve_hit(creature("quadruped"), 10, "cr", location="skull")
    assert (hit.dr, hit.natural_dr, hit.penetrating, hit.wounding_multiplier, hit.injury) == (4, 2, 6, 4, 24)


def test_a_body_without_the_skulls_bonus_adds_none() -> None:
    """A floating skull's table gives its skull no natural DR: DR 2; 10 cr: 8 x4 = 32."""
    hit = resolve_hit(creature("floating_skull"), 10, "cr", location="skull")
    assert (hit.dr, hit.natural_dr, hit.injury) == (2, 0, 32)


@pytest.mark.parametrize("name", ["octopod", "arachnoid"])
def test_the_brain_is_the_skull_with_its_own_natural_dr(name: str) -> None:
    """Brain (B552): DR 2 + natural 1 = 3; 10 imp: 7 x4 = 28, a major wound: knockdown at -10;
    toxic keeps x1 and no -10 (7 tox is a major wound over HP 12/2: knockdown at plain HT)."""
    document = creature(name)
    hit = resolve_hit(document, 10, "imp", location="brain")
    assert (hit.dr, hit.natural_dr, hit.penetrating, hit.wounding_multiplier, hit.injury) == (3, 1, 7, 4, 28)
    assert [(roll.kind, roll.modifier) for roll in hit.rolls] == [("knockdown", -10)]
    toxic = resolve_hit(document, 10, "tox", location="brain")
    assert (toxic.wounding_multiplier, toxic.injury, [r.modifier for r in toxic.rolls]) == (1, 7, [0])


def test_a_sub_table_location_has_its_own_and_its_parents_dr() -> None:
    """Spine (in the torso's sub-table): natural 3 + the torso's DR 2, and the vest's +1 against
    crushing: 10 cr meets 6, 10 imp meets 5 (x2: the spine is hit as the torso)."""
    document = creature("humanoid_expanded")
    crushing = resolve_hit(document, 10, "cr", location="spine")
    assert (crushing.dr, crushing.natural_dr, crushing.injury) == (6, 3, 4)
    impaling = resolve_hit(document, 10, "imp", location="spine")
    assert (impaling.dr, impaling.wounding_multiplier, impaling.injury, impaling.crippled) == (
        5,
        2,
        10,
        False,
    )


def test_dr_against_one_damage_type_counts_only_for_it() -> None:
    """The padded vest's +1 vs crushing on the torso: 10 cr meets DR 3, 10 cut DR 2."""
    document = creature("humanoid_expanded")
    assert resolve_hit(document, 10, "cr").dr == 3
    assert resolve_hit(document, 10, "cut").dr == 2
    assert resolve_hit(document, 10, "cr", location="chinks").dr == 3  # the torso's, inherited


def test_the_document_keeps_the_dr_a_sheet_lists_without_the_natural_dr() -> None:
    document = creature("humanoid_expanded")
    rows = {entry["location"]: entry for entry in document["damageResistance"]}
    assert rows["Skull"]["dr"] == 2 and rows["Spine"] == {
        "location": "Spine",
        "dr": 2,
        "notes": "3 vs crushing",
    }
    assert rows["Torso"] == {"location": "Torso", "locationId": "torso", "dr": 2, "notes": "3 vs crushing"}


def test_an_edited_dr_row_wins_over_the_table() -> None:
    """A sheet row changed after the import (new armor on the wing) is the DR used; the body adds
    its natural DR and its DR by type as before."""
    document = creature("winged_quadruped")
    for entry in document["damageResistance"]:
        if entry["location"] == "Wing":
            entry["dr"] = 6
    assert resolve_hit(document, 10, "cut", location="wing").dr == 6


def test_a_location_with_no_row_takes_the_tables_dr() -> None:
    document = creature("quadruped")
    document["damageResistance"] = [
        entry for entry in document["damageResistance"] if entry["location"] != "Tail"
    ]
    assert resolve_hit(document, 10, "cut", location="tail").dr == 2


def test_dr_passed_in_gets_the_bodys_natural_dr_but_not_its_dr_by_type() -> None:
    document = creature("humanoid_expanded")
    assert resolve_hit(document, 10, "cr", location="spine", dr=0).dr == 3
    assert resolve_hit(document, 10, "cr", location="skull", dr=1).dr == 3


# ---------------------------------------------------------------- the rule's kinds of location


def test_a_wing_is_a_limb() -> None:
    """B552-B554: 10 imp to a wing (HP 12): 8 x1 = 8, crippled (over 6), capped at 7."""
    hit = resolve_hit(creature("winged_quadruped"), 10, "imp", location="wing")
    assert (hit.wounding_multiplier, hit.uncapped_injury, hit.injury, hit.crippled) == (1, 8, 7, True)


@pytest.mark.parametrize(
    ("name", "location"), [("quadruped", "tail"), ("ichthyoid", "fin"), ("avian", "foot")]
)
def test_tails_fins_and_feet_are_extremities(name: str, location: str) -> None:
    """10 cut (HP 12): 8 x1.5 = 12, crippled (over 4), capped at 5; imp drops to x1."""
    document = creature(name)
    hit = resolve_hit(document, 10, "cut", location=location)
    assert (hit.uncapped_injury, hit.injury, hit.crippled, hit.major_wound) == (12, 5, True, True)
    assert resolve_hit(document, 10, "imp", location=location).wounding_multiplier == 1


@pytest.mark.parametrize(("name", "location"), [("octopod", "arm"), ("arachnoid", "leg"), ("avian", "wing")])
def test_arms_legs_and_wings_are_limbs(name: str, location: str) -> None:
    hit = resolve_hit(creature(name), 10, "pi++", location=location)
    assert (hit.wounding_multiplier, hit.injury, hit.crippled) == (1, 7, True)


@pytest.mark.parametrize("location", ["abdomen", "spine", "chinks"])
def test_ids_the_rules_do_not_name_are_hit_as_the_torso(location: str) -> None:
    """No override (imp x2), no cap, never crippled."""
    hit = resolve_hit(creature("humanoid_expanded"), 20, "imp", location=location)
    assert (hit.wounding_multiplier, hit.injury == hit.uncapped_injury, hit.crippled) == (2, True, False)


def test_the_eye_and_vitals_of_any_body_take_only_piercing_and_tight_beams() -> None:
    document = creature("octopod")
    error = refused(lambda: resolve_hit(document, 10, "cr", location="vitals"))
    assert (
        error.message
        == "cr damage cannot hit the vitals: only imp, pi-, pi, pi+, pi++ and tight-beam burn can."
    )


def test_gcss_default_humanoid_body_resolves_as_the_basic_sets_humanoid() -> None:
    """A version 1 file has no table: the import keeps GCS's default Humanoid, and every hit on
    it is the hit on the same character without a table."""
    fixture = BODIES.parent / "v1_ranger.gcs"
    document = import_gcs(fixture.read_bytes()).document
    plain = copy.deepcopy(document)
    del plain["extensions"][EXTENSION]["body"]
    assert body_of(document) is not None and body_of(plain) is None
    for location in HIT_LOCATIONS:
        kinds: tuple[DamageType, ...] = ("cr", "cut", "imp", "pi-", "tox", "fat")
        for kind in kinds:
            if location in ("eye", "vitals") and kind not in ("imp", "pi-"):
                continue
            for basic in (0, 3, 9, 17):
                assert resolve_hit(document, basic, kind, location=location) == resolve_hit(
                    plain, basic, kind, location=location
                )


# ---------------------------------------------------------------- apply_hit on a body


def test_apply_hit_takes_a_wing_hit_off_hp() -> None:
    document = creature("avian")
    hit = resolve_hit(document, 10, "cut", location="wing")
    change = apply_hit(document, hit, now=NOW)
    assert (change.before.current, change.after.current) == (12, 5)


def test_apply_hit_refuses_a_hit_on_a_location_the_body_lacks() -> None:
    quadruped, avian = creature("quadruped"), creature("avian")
    hit = resolve_hit(avian, 10, "cut", location="wing")
    error = refused(lambda: apply_hit(quadruped, hit, now=NOW))
    assert error.code == "invalidArgument"
    assert error.message == (
        "hit is not what resolve_hit gives: its location is 'wing', not a location of this character "
        "(eye, skull, face, neck, leg, torso, groin, foot, tail, vitals)."
    )
    assert error.details == {"name": "hit", "field": "location", "value": "wing"}


# ---------------------------------------------------------------- any body


_ROLE_IDS = ("eye", "skull", "brain", "face", "neck", "torso", "vitals", "groin", "arm", "leg", "wing",
             "hand", "foot", "fin", "tail", "extremity")  # fmt: skip
_IDS = st.one_of(
    st.sampled_from(_ROLE_IDS), st.text(string.ascii_lowercase + string.digits + "_", min_size=1, max_size=12)
)


@st.composite
def bodies(draw: st.DrawFn) -> dict[str, Any]:
    """A body record as the importer writes it: any ids, natural DR and DR by type."""
    rows = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "id": _IDS,
                    "name": st.text(max_size=10),
                    "hitPenalty": st.integers(-10, 0),
                    "naturalDr": st.integers(0, 5),
                    "dr": st.fixed_dictionaries(
                        {"all": st.integers(0, 10)},
                        optional={"crushing": st.integers(-3, 5), "fire": st.integers(0, 5)},
                    ),
                }
            ),
            min_size=1,
            max_size=12,
        )
    )
    return {"name": draw(st.text(max_size=12)), "roll": "3d", "locations": rows}


BODY_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@BODY_SETTINGS
@given(body=bodies(), asked=st.one_of(_IDS, st.sampled_from(tuple(LOCATION_NAMES))), basic=st.integers(0, 40))
def test_property_a_body_accepts_its_own_locations_and_only_them(
    body: dict[str, Any], asked: str, basic: int
) -> None:
    document = creature("vermiform")
    document["damageResistance"] = []
    document["extensions"][EXTENSION]["body"] = body
    ids = {row["id"] for row in body["locations"]}
    wanted = LOCATION_NAMES.get(asked, asked)
    kind: DamageType = "imp"
    if wanted in ids:
        hit = resolve_hit(document, basic, kind, location=asked)
        row = next(row for row in body["locations"] if row["id"] == wanted)
        sided = asked.startswith(("right_", "left_"))  # a side asked is kept (issue 30)
        assert hit.location == (asked if sided else wanted) and hit.natural_dr == row["naturalDr"]
        assert hit.dr == max(0, max(0, row["dr"]["all"] - row["naturalDr"]) + row["naturalDr"])
        assert 0 <= hit.injury <= hit.uncapped_injury
        assert apply_hit(document, hit, now=NOW).after.current == 12 - hit.injury or hit.injury > 12
    else:
        error = refused(lambda: resolve_hit(document, basic, kind, location=asked))
        assert error.code == "invalidArgument" and error.details["locations"] == list(dict.fromkeys(
            row["id"] for row in body["locations"]
        ))  # fmt: skip


HOSTILE = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


@HOSTILE
@given(
    value=hostile_values(deep=2_000),
    key=st.sampled_from(["id", "name", "hitPenalty", "naturalDr", "dr", "rollRange"]),
)
def test_hostile_body_records_give_hits_or_invalid_document(value: Any, key: str) -> None:
    """Any value in any place of a body record: a hit, or invalidDocument with the pointer."""
    document = creature("avian")
    document["extensions"][EXTENSION]["body"]["locations"][4][key] = value  # the wing
    before = snapshot(document)
    try:
        hit = resolve_hit(document, 10, "cut", location="wing")
    except CharacterError as error:
        assert error.code in ("invalidDocument", "invalidArgument")
        if error.code == "invalidDocument":
            assert error.details["pointer"].startswith(f"/extensions/{EXTENSION}/body/locations/4")
    else:
        assert hit.location == "wing"
    assert snapshot(document) == before


def test_the_command_line_hits_a_bodys_locations(capsys: pytest.CaptureFixture[str]) -> None:
    """``hit creature.gcs 10 imp --location brain``: the octopod's brain, DR 2 + its natural 1."""
    status = main(["hit", str(BODIES / "octopod.gcs"), "10", "imp", "--location", "brain"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert out.splitlines()[:4] == [
        f"{BODIES / 'octopod.gcs'}: 10 imp to the brain",
        "DR 3 (2 listed + 1 brain)",
        "penetrating 10 - 3 = 7",
        "multiplier x4",
    ]
    status = main(["hit", str(BODIES / "octopod.gcs"), "10", "imp", "--location", "skull"])
    out, err = capsys.readouterr()
    assert status == 2 and "location must be a hit location of the character's body (Octopod)" in err


@HOSTILE
@given(data=gcs_files())
def test_property_an_imported_table_is_the_body_resolve_hit_follows(data: dict[str, Any]) -> None:
    """Any plausible file with a hit-location table (the grammar's skull, torso, a wing holding a
    tail in its sub-table): the body read back has those ids, the skull its natural 2, the tail
    the wing's DR and more; each location takes a hit named after it."""
    settings_ = data["settings"]
    if "body_type" not in settings_ and "hit_locations" not in settings_:
        return
    document = import_gcs(data).document
    body = body_of(document)
    assert body is not None and body.ids == ("skull", "torso", "wing", "tail")
    skull, wing, tail = (body.location(ident) for ident in ("skull", "wing", "tail"))
    assert skull is not None and wing is not None and tail is not None
    # A negative DR bonus (a feature of -3 on all locations) can leave less than the natural 2,
    # never less than none.
    assert skull.natural_dr == max(0, min(2, skull.dr["all"])) and tail.dr["all"] >= wing.dr["all"]
    for ident in body.ids:
        assert resolve_hit(document, 12, "cut", location=ident).location == ident
