"""The export's shortcuts against what they stand for: the attributes' text written from
templates against the writer's text of the same entries."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from gurps_character.gcs.gcs_json import gcs_text
from gurps_character.gcs.standard_sheet import ATTRIBUTE_DEFINITIONS, attributes_text

_POOLS = ("fp", "hp")

_numbers = st.one_of(
    st.integers(-2_000_000, 2_000_000),
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: round(x, 4)),
)


def _entries(draw: Any, fp_damage: bool, hp_damage: bool) -> tuple[list[dict[str, Any]], list[float]]:
    """The entries as dicts and their numbers in the order the text has them."""
    entries, numbers = [], []
    for ident in ATTRIBUTE_DEFINITIONS:
        adj, value, points = draw(_numbers), draw(_numbers), draw(_numbers)
        entry: dict[str, Any] = {"attr_id": ident, "adj": adj}
        calc: dict[str, Any] = {"value": value}
        numbers.append(adj)
        damaged = (fp_damage if ident == "fp" else hp_damage) if ident in _POOLS else False
        if damaged:
            damage = draw(_numbers.filter(bool))
            entry["damage"] = damage
            numbers.append(damage)
        numbers.append(value)
        if ident in _POOLS:
            current = draw(_numbers)
            calc["current"] = current
            numbers.append(current)
        calc["points"] = points
        numbers.append(points)
        entry["calc"] = calc
        entries.append(entry)
    return entries, numbers


@given(st.data(), st.booleans(), st.booleans())
def test_the_attributes_text_is_the_writers_text_of_the_entries(
    data: st.DataObject, fp_damage: bool, hp_damage: bool
) -> None:
    entries, numbers = _entries(data.draw, fp_damage, hp_damage)
    top = gcs_text({"attributes": entries})
    inner = top[top.index("[") : top.rindex("]") + 1]  # the list as it sits one level deep
    assert attributes_text(numbers, fp_damage, hp_damage) == inner
