"""The bound of the size of an indented JSON text, told without writing it (``_json_size``): never
below the size :func:`dumps` writes, whatever the data holds; and the import's size check that
uses it refuses exactly what the written text's size refuses."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import CharacterError, import_gcs
from gurps_character._json import dumps
from gurps_character._json_size import indented_size_bound, string_literal_bound
from gurps_character.gcs import EXTENSION, KEPT_TEXT
from gurps_character.gcs.importing.document import _check_size
from tests.support import gcs_samples
from tests.support.gcs_roundtrip import NOW

# every character, lone surrogates and control characters included, with the ones written
# escaped often
_CHARACTERS = st.one_of(
    st.characters(codec=None, exclude_categories=()),
    st.sampled_from('"\\\n\x00\x1f\ud800\udc00\U0001f600é'),
)
_TEXTS = st.text(_CHARACTERS, max_size=20) | st.text(_CHARACTERS, min_size=60, max_size=300)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    _TEXTS,
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_TEXTS, inner, max_size=5),
    max_leaves=40,
)


def _written(value: Any) -> int:
    return len(dumps(value, 2).encode("utf-8"))


@settings(max_examples=400)
@given(_JSON)
def test_the_bound_is_never_below_the_size_written(value: Any) -> None:
    assert indented_size_bound(value, 10**12) >= _written(value)


@given(_TEXTS)
def test_a_string_literal_bound_is_never_below_the_literal(text: str) -> None:
    assert string_literal_bound(text) >= _written(text)


@given(st.text(st.characters(codec="utf-8", exclude_characters='"\\', min_codepoint=0x20), min_size=64))
def test_a_long_string_with_nothing_escaped_is_measured_exactly(text: str) -> None:
    assert string_literal_bound(text) == _written(text)


def test_counting_ends_over_the_limit() -> None:
    value = [{"name": "x" * 100, "items": list(range(1_000))}] * 100
    assert indented_size_bound(value, 10_000) > 10_000
    assert indented_size_bound(value, 10**9) >= _written(value)


@pytest.mark.parametrize(
    "value",
    [[1, (2, 3)], {"a": {1: 2}}, [float("nan")], {"a": float("inf")}, [2**1100], {"a": {1, 2}}],
    ids=["tuple", "number key", "nan", "infinity", "integer beyond doubles", "set"],
)
def test_anything_but_json_data_is_left_to_the_writer(value: Any) -> None:
    """Over the limit, so that the exact writer decides (and refuses it)."""
    assert indented_size_bound(value, 1_000) > 1_000


_IMPORTED = import_gcs(gcs_samples.text_of(gcs_samples.character(units=2)), now=NOW).document


def _with_kept(kept: str) -> dict[str, Any]:
    extensions = dict(_IMPORTED["extensions"])
    extensions[EXTENSION] = {**extensions[EXTENSION], KEPT_TEXT: kept}
    return {**_IMPORTED, "extensions": extensions}


@settings(max_examples=60, deadline=None)
@given(kept=st.text(_CHARACTERS, max_size=3_000), offset=st.integers(min_value=-40, max_value=40))
def test_the_import_refuses_exactly_the_documents_whose_text_is_over_the_limit(
    kept: str, offset: int
) -> None:
    """Limits near the document's size as serialize_character writes it (its text and a newline),
    with kept texts of any content: refused, with that size, exactly when it is over."""
    document = _with_kept(kept)
    size = _written(document) + 1
    limit = size + offset
    if size <= limit:
        _check_size(document, limit)
        return
    with pytest.raises(CharacterError) as refused:
        _check_size(document, limit)
    assert refused.value.code == "tooLarge"
    assert refused.value.details == {"size": size, "limit": limit}


def test_a_document_far_within_the_limit_is_not_written_to_be_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bound decides; the text is written only for a document near or over the limit."""
    from gurps_character.gcs.importing import document as module

    written: list[int] = []

    def counting(value: Any, indent: int | str = 2) -> str:
        written.append(1)
        return dumps(value, indent)

    monkeypatch.setattr(module, "dumps", counting)
    size = _written(_IMPORTED) + 1
    _check_size(_IMPORTED, 10 * size)
    assert written == []
    with pytest.raises(CharacterError):
        _check_size(_IMPORTED, size - 1)
    assert written == [1]
