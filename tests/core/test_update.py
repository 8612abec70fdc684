"""``update_character``'s ``changes``: a malformed item is the caller's mistake (``invalidArgument``,
as the error table of docs/guides/loading.md says), not a document path that may not change
(``notUpdatable``)."""

from __future__ import annotations

from typing import Any

import pytest

from gurps_character import CharacterError, update_character
from gurps_character.errors import describe
from tests.support.strategies import example


@pytest.mark.parametrize(
    "item",
    [
        5,
        None,
        "/secondary/hp/current",
        ("/secondary/hp/current", 1, 2),
        ["/secondary/hp/current"],
        (5, 1),
        (None, 1),
        {"value": 3},
        {"pointer": 7, "value": 3},
    ],
    ids=repr,
)
def test_a_malformed_change_item_is_an_invalid_argument(item: Any) -> None:
    document = example("rurik")
    with pytest.raises(CharacterError) as caught:
        update_character(document, [("/secondary/hp/current", 3), item])
    assert caught.value.code == "invalidArgument"
    assert caught.value.message == (
        "changes[1] must be a (pointer, value) pair or a {pointer, value} mapping with a string "
        f"pointer, not {describe(item)}."
    )
    assert caught.value.details == {"name": "changes[1]"}


def test_a_mapping_with_a_key_that_is_not_a_pointer_is_an_invalid_argument() -> None:
    with pytest.raises(CharacterError) as caught:
        update_character(example("rurik"), {5: 1})  # type: ignore[arg-type]  # on purpose
    assert (caught.value.code, caught.value.details) == ("invalidArgument", {"name": "changes[0]"})


def test_well_formed_changes_of_what_may_not_change_are_still_not_updatable() -> None:
    for changes in ({"/secondary/hp/value": 9}, [{"pointer": "/profile/name", "value": "Bob"}]):
        with pytest.raises(CharacterError) as caught:
            update_character(example("rurik"), changes)
        assert caught.value.code == "notUpdatable"
