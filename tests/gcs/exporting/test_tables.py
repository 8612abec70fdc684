"""The export's shortcuts against what they stand for: lookup tables against the computation they
replace, fast paths against the general one, TIDs against drawing them one at a time."""

from __future__ import annotations

import base64
import hashlib
import re

from hypothesis import given
from hypothesis import strategies as st

from gurps_character.gcs.exporting import body as export_body
from gurps_character.gcs.exporting import profile as export_profile
from gurps_character.gcs.exporting import skills as export_skills
from gurps_character.gcs.exporting.sheet import dice_text, fxp_text, plain, signed
from gurps_character.gcs.exporting.skills import split_skill_name
from gurps_character.gcs.format.skill_levels import points_level
from gurps_character.gcs.format.standard_sheet import HUMANOID, humanoid_body_text
from gurps_character.gcs.format.tids import KINDS, TidMaker
from gurps_character.locations import DR_COVER


def test_relative_levels_are_points_level() -> None:
    tables = export_skills._RELATIVE_LEVELS
    assert set(tables) == {"e", "a", "h", "vh"}
    for difficulty, levels in tables.items():
        assert len(levels) == export_skills._TABLED_POINTS
        for points, level in enumerate(levels):
            assert level == points_level(difficulty, points), (difficulty, points)


def test_signed_texts_are_signed() -> None:
    low = export_skills._SIGNED_LOW
    assert len(export_skills._SIGNED) == 2 * low
    for value in range(-low, low):
        assert export_skills._SIGNED[value + low] == signed(value)


@given(st.text(st.characters(blacklist_characters="(/")))
def test_a_skill_name_without_tech_level_or_specialization_is_whole(name: str) -> None:
    assert split_skill_name(name) == (name, None, None)
    match = export_skills._SKILL_NAME.fullmatch(name)  # the pattern agrees (or does not match)
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
    parts = [export_body._BODY_HEAD]
    for ident, own, after in export_body._BODY_SLOTS:
        parts += [str(own + amounts[ident]), after]
    assert "".join(parts) == humanoid_body_text([own + amounts[ident] for ident, *_, own in HUMANOID])
    assert humanoid_body_text([own for *_, own in HUMANOID]) == export_body._BARE_BODY


@given(st.dictionaries(st.sampled_from([ident for ident, *_ in HUMANOID]), st.integers(1, 10**6)))
def test_the_body_pieces_patched_per_location_are_the_body(armor: dict[str, int]) -> None:
    texts = list(export_body._BODY_TEXTS)
    for place_id, dr in armor.items():  # as _body makes the pieces of the locations with armor
        for slot, own, after in export_body._BODY_PLACE_SLOTS[place_id]:
            texts[slot] = str(own + dr) + after
    assert "".join(texts) == humanoid_body_text([own + armor.get(ident, 0) for ident, *_, own in HUMANOID])
    assert set(export_body._BODY_PLACE_SLOTS) == {ident for ident, *_ in HUMANOID}
    assert dict(export_body._BODY_COVER) == {place: DR_COVER[place] for place in export_body._BODY_ORDER}


@given(
    st.one_of(st.integers(0, 999_999), st.floats(0, 999_999, allow_nan=False)), st.sampled_from(["m", "cm"])
)
def test_a_height_s_inches_are_plain_to_the_tenth(amount: float, unit: str) -> None:
    height = f"{amount} {unit}" if "e" not in f"{amount}" else f"{amount:.2f} {unit}"
    written = export_profile._feet_and_inches(height)
    # as the export wrote it with plain() of the inches left over the feet, rounded to a tenth
    centimetres = float(height.split()[0]) * (100 if unit == "m" else 1)
    feet, rest = divmod(round(centimetres / 2.5, 1), 12)
    rest = round(rest, 1)
    assert written == (f"{int(feet)}'{plain(rest)}\"" if rest else f"{int(feet)}'")


@given(st.integers(-3, 200), st.integers(-50, 50), st.integers(1, 12))
def test_dice_text_is_count_adds_and_multiplier(count: int, adds: int, multiplier: int) -> None:
    if count <= 0:  # no dice: the adds alone
        expected = str(adds)
    else:
        expected = f"{count}d" + (f"+{adds}" if adds > 0 else str(adds) if adds else "")
        expected += f"x{multiplier}" if multiplier != 1 else ""
    assert dice_text(count, adds, multiplier) == expected
    if multiplier == 1:
        assert dice_text(count, adds) == expected


_NAME_PIECES = st.sampled_from(["(", ")", " (", ")", " ", "/", "/TL", "8", "a", "Bc", "\n", "\t", "é"])


@given(st.lists(_NAME_PIECES, max_size=12).map("".join))
def test_a_skill_name_is_split_as_the_pattern_splits_it(full: str) -> None:
    assert split_skill_name(full) == export_skills._split_by_pattern(full)
    if "(" not in full and "/TL" not in full:  # as _skills takes it without splitting
        assert split_skill_name(full) == (full, None, None)


@given(st.text())
def test_any_skill_name_is_split_as_the_pattern_splits_it(full: str) -> None:
    assert split_skill_name(full) == export_skills._split_by_pattern(full)
    assert split_skill_name(full + " (x)") == export_skills._split_by_pattern(full + " (x)")
