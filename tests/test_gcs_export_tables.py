"""The export's shortcuts against what they stand for: lookup tables against the computation they
replace, fast paths against the general one, TIDs against drawing them one at a time."""

from __future__ import annotations

import base64
import hashlib
import re

from hypothesis import given
from hypothesis import strategies as st

from gurps_character.gcs import export_lists
from gurps_character.gcs.export_lists import split_skill_name
from gurps_character.gcs.export_sheet import fxp_text, signed
from gurps_character.gcs.skills import points_level
from gurps_character.gcs.standard_sheet import HUMANOID, humanoid_body_text
from gurps_character.gcs.tids import KINDS, TidMaker


def test_relative_levels_are_points_level() -> None:
    tables = export_lists._RELATIVE_LEVELS
    assert set(tables) == {"e", "a", "h", "vh"}
    for difficulty, levels in tables.items():
        assert len(levels) == export_lists._TABLED_POINTS
        for points, level in enumerate(levels):
            assert level == points_level(difficulty, points), (difficulty, points)


def test_signed_texts_are_signed() -> None:
    low = export_lists._SIGNED_LOW
    assert len(export_lists._SIGNED) == 2 * low
    for value in range(-low, low):
        assert export_lists._SIGNED[value + low] == signed(value)


@given(st.text(st.characters(blacklist_characters="(/")))
def test_a_skill_name_without_tech_level_or_specialization_is_whole(name: str) -> None:
    assert split_skill_name(name) == (name, None, None)
    match = export_lists._SKILL_NAME.fullmatch(name)  # the pattern agrees (or does not match)
    assert match is None or (match.group("name"), match.group("tl"), match.group("spec")) == (
        name,
        None,
        None,
    )


@given(st.integers(-(10**7), 10**7))
def test_fxp_text_of_a_whole_number_has_separators(value: int) -> None:
    assert fxp_text(value) == f"{value:,}"


def test_tids_are_the_kind_a_prefix_of_the_character_and_the_count() -> None:
    seed = "Tamsin Ashdown\x002024-01-01T00:00:00Z\x00gcs"
    maker = TidMaker(seed)
    kinds = list(KINDS)
    made = [maker.new(kinds[index % len(kinds)]) for index in range(5000)]
    prefix = base64.urlsafe_b64encode(hashlib.sha256(seed.encode() + b"\x000").digest()[:9]).decode("ascii")
    expected = [  # the count as 3 bytes is 4 base64 characters
        KINDS[kinds[index % len(kinds)]]
        + prefix
        + base64.urlsafe_b64encode(index.to_bytes(3, "big")).decode()
        for index in range(5000)
    ]
    assert made == expected
    assert len(set(made)) == len(made)


@given(st.text(max_size=20), st.lists(st.sampled_from(sorted(KINDS)), max_size=80))
def test_tids_have_gcs_shape_are_new_and_follow_from_the_seed(seed: str, kinds: list[str]) -> None:
    maker, again = TidMaker(seed), TidMaker(seed)
    made = [maker.new(kind) for kind in kinds]
    assert made == [again.new(kind) for kind in kinds]
    assert len(set(made)) == len(made)
    for tid, kind in zip(made, kinds, strict=True):
        assert re.fullmatch("[A-Za-z][A-Za-z0-9_-]{16}", tid)
        assert tid[0] == KINDS[kind]


@given(st.lists(st.integers(-(10**6), 10**6), min_size=len(HUMANOID), max_size=len(HUMANOID)))
def test_the_body_cut_around_its_drs_is_the_body(armor: list[int]) -> None:
    ids = [ident for ident, *_ in HUMANOID]
    amounts = dict(zip(ids, armor, strict=True))  # both sides of a pair share one entry
    parts = [export_lists._BODY_HEAD]
    for ident, own, after in export_lists._BODY_SLOTS:
        parts += [str(own + amounts[ident]), after]
    assert "".join(parts) == humanoid_body_text([own + amounts[ident] for ident, *_, own in HUMANOID])
    assert humanoid_body_text([own for *_, own in HUMANOID]) == export_lists._BARE_BODY
