"""The weapons' shortcuts against what they stand for: the shield found for a bash against the
case-blind word pattern, the one-word skills spaced inline against _spaced_words, the skill a
weapon's name holds (found by its first word) against spacing every skill, a minimum ST of digits
against leading_int, a missing cost or weight against cost_and_weight."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character.gcs.exporting.defenses import _shield
from gurps_character.gcs.exporting.sheet import SheetBase, leading_int
from gurps_character.gcs.exporting.weapon_skills import _SkillFinder, _spaced_words
from gurps_character.gcs.exporting.weapons import _minimum_st

_WORD = re.compile(r"\bshield\b", re.IGNORECASE)
_names = st.lists(
    st.one_of(
        st.sampled_from(["Medium shield", "SHIELD", "Shields", "shield-bash", "\u017fhield", "Buckler", ""]),
        st.text(alphabet="shieldSHIELD \u017f-x", max_size=12),
        st.text(max_size=12),
    ),
    max_size=6,
)


@given(_names)
def test_the_shield_is_the_first_item_named_with_the_word(names: list[str]) -> None:
    items = {name: {"description": name} for name in names}
    expected = next((item for name, item in items.items() if _WORD.search(name)), None)
    assert _shield(items) is expected


@given(st.text(alphabet=st.characters(max_codepoint=300), max_size=16))
def test_a_one_word_skill_is_spaced_as_spaced_words_spaces_it(name: str) -> None:
    low = name.lower()
    if low.isalnum() and low.isascii():
        assert f" {low} " == _spaced_words(low)


_SKILL_TEXT = st.text(alphabet="abK19 -/()é\u0130\u212a\t", max_size=10)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(["Knife", "Bow", "Riding (Horse)", "Guns/TL8 (Pistol)", "Two-Handed Axe", "(x)"]),
            _SKILL_TEXT,
        ),
        max_size=6,
    ),
    st.lists(
        st.one_of(st.sampled_from(["Large", "knife", "bow", "riding horse", "guns tl8", "-"]), _SKILL_TEXT)
    ),
)
def test_the_skill_a_name_holds_is_found_as_by_spacing_every_skill(
    skills: list[str], parts: list[str]
) -> None:
    """Skills and weapon names alike in words: the skill found in one pass over the name's
    words is the longest (the first of those as long) whose spaced words the name's spaced
    words hold, as spacing every skill finds it; and the longest whose name is in the notes,
    letter for letter, as asking every skill finds it."""
    by_name: dict[str, str] = {}
    for skill in skills:
        if skill:  # (the export names no skill by an empty name)
            by_name.setdefault(skill.lower(), skill)
    finder = _SkillFinder(skills)
    lowered = " ".join(parts).lower()
    words = f" {re.sub('[^a-z0-9]+', ' ', lowered)} "
    contained = [key for low, key in by_name.items() if _spaced_words(low) in words]
    expected = max(contained, key=len) if contained else None
    assert finder.in_words(lowered) == expected
    mentioned = [key for low, key in by_name.items() if low in lowered]
    assert finder.in_notes(lowered) == (max(mentioned, key=len) if mentioned else None)
    # as long: the first skill of the document
    tied = _SkillFinder(["Bow", "Axe", "Riding (Horse)", "Horse riding", "-", "()"])
    assert tied.in_words("axe of bow") == "Bow"
    assert tied.in_words("horse riding (horse)") == "Riding (Horse)"
    assert tied.in_words("(x)") == "()" and tied.in_words("x") is None
    assert tied.in_notes("an axe, a bow and riding (horse)") == "Riding (Horse)"
    assert tied.in_notes("horse riding (horse)") == "Riding (Horse)"
    # the length of the name, not of its lower case ("İ" lowers to two characters)
    dotted = _SkillFinder(["\u0130aa", "Xbbb"])
    assert dotted.in_notes("i\u0307aa or xbbb") == "Xbbb"


@given(st.one_of(st.none(), st.integers(), st.text(alphabet="0123456789\u0663\u00b2+- \u2020x", max_size=9)))
def test_a_minimum_st_is_the_number_its_text_starts_with(strength: object) -> None:
    """Any text (digits of any script, signs, spaces, more than six digits) reads as leading_int
    reads it; anything else as None."""
    expected = leading_int(strength) if isinstance(strength, str) else None
    assert _minimum_st(strength) == expected
    assert _minimum_st("1234567") == 123456
    assert _minimum_st("10\u2020") == 10


def test_a_weapon_without_cost_or_weight_has_them_at_0_without_a_note() -> None:
    """The weapons read a missing cost or weight as 0 themselves: what cost_and_weight gives (the
    sheet of a document with what a valid one has: a profile's name, a meta)."""
    sheet = SheetBase({"profile": {"name": "Tamsin"}, "meta": {}}, datetime(2026, 1, 1, tzinfo=UTC))
    assert sheet.cost_and_weight({}, "/weapons/melee/0") == (0, 0)
    assert sheet.cost_and_weight({"cost": 5}, "/weapons/melee/0") == (5, 0)
    assert sheet.notes.notes() == ()
