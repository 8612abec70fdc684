"""The weapons' shortcuts against what they stand for: the shield found for a bash against the
case-blind word pattern, the one-word skills spaced inline against _spaced_words."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from gurps_character.gcs.export_gear import _shield, _spaced_words

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
