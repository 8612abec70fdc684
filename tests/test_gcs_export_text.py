"""The exported file's text (gcs/export_text.py): the node writers give exactly the text of the
generic writer (gcs_json) on the nodes as ``finished`` leaves them, for any data the export could
hold, the unusual falling back to the generic writer."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gurps_character.gcs.export_sheet import EQUIPMENT_KEYS, SKILL_KEYS, TRAIT_KEYS, WEAPON_KEYS, finished
from gurps_character.gcs.export_text import character_text
from gurps_character.gcs.gcs_json import GcsJsonError, RawJson, gcs_text_checked

TEXTS = st.text(alphabet=st.characters(exclude_categories=()) | st.sampled_from('&<>\u2028"\\'), max_size=8)
"""Any text, lone surrogates (written as U+FFFD) and what GCS escapes included."""
SCALARS = (
    TEXTS
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.none()
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXTS, inner, max_size=3),
    max_leaves=8,
)
"""Any JSON value, containers included (what a node's key could hold in the worst case)."""

PLAIN: st.SearchStrategy[Any] = st.one_of(
    SCALARS,
    st.fixed_dictionaries({"points": SCALARS}),
    st.fixed_dictionaries({"level": SCALARS, "rsl": SCALARS}),
    st.fixed_dictionaries({"level": st.integers(-3, 20), "rsl": TEXTS}),
    st.fixed_dictionaries(
        {"value": SCALARS, "extended_value": SCALARS, "weight": SCALARS, "extended_weight": SCALARS}
    ),
    st.dictionaries(st.sampled_from(("level", "points", "value", "rsl", "odd key")), SCALARS, max_size=4),
    st.just([]),
    st.just({}),
)
"""The values the export usually puts in a node: scalars and blocks of scalars (the usual
``calc`` blocks of traits, skills and items among them)."""


NUMBERS = st.integers(-5, 5) | st.floats(-5, 5) | st.sampled_from((0, 0.0, -0.0))
BLOCKS = st.dictionaries(st.sampled_from(("type", "amount", "name", "locations")), VALUES, max_size=3) | (
    st.fixed_dictionaries(  # the usual feature's shape, with any values of the kinds it nearly has
        {
            "type": TEXTS | NUMBERS,
            "locations": TEXTS | st.lists(TEXTS | NUMBERS, min_size=1, max_size=2),
            "amount": NUMBERS | st.booleans(),
        }
    )
    | st.tuples(
        TEXTS,
        TEXTS,
        st.dictionaries(TEXTS, TEXTS, max_size=2),
        st.dictionaries(TEXTS, TEXTS, max_size=2) | VALUES,
        st.integers(-5, 5) | NUMBERS,
    ).map(
        lambda values: dict(  # the usual skill bonus's shape
            zip(("type", "selection_type", "name", "specialization", "amount"), values, strict=True)
        )
    )
    | st.fixed_dictionaries(  # the usual modifier's shape
        {"id": TEXTS, "name": TEXTS, "local_notes": TEXTS | NUMBERS, "cost_adj": TEXTS | st.none()}
    )
    | st.tuples(TEXTS, TEXTS, TEXTS | VALUES).map(  # a modifier without a cost
        lambda values: dict(zip(("id", "name", "local_notes"), values, strict=True))
    )
)
LIKELY: dict[str, st.SearchStrategy[Any]] = {
    **dict.fromkeys(("base_points", "points_per_level", "levels", "points", "quantity"), NUMBERS),
    **dict.fromkeys(("can_level", "equipped"), st.booleans()),
    "tags": st.lists(TEXTS, max_size=3),
    **dict.fromkeys(("modifiers", "features", "defaults"), st.lists(BLOCKS, max_size=2)),
    "calc": PLAIN,
}
"""What the export puts under each key of a node (text where not listed)."""


@st.composite
def nodes(draw: st.DrawFn, order: tuple[str, ...], marker: str | None) -> dict[str, Any]:
    """A node with some of ``order``'s keys (``marker``, the key that tells its kind, always),
    in that order, and keys GCS does not have among them; each value mostly of the kind the
    export puts there, now and then anything."""
    node: dict[str, Any] = {}
    for key in order:
        if key == "weapons":  # the export's weapons are always weapon nodes
            node[key] = draw(st.lists(weapons(), max_size=2))
        elif key in ("id", "name", marker) or draw(st.integers(0, 9)) < 6:
            node[key] = draw(LIKELY.get(key, TEXTS) if draw(st.integers(0, 7)) else VALUES)
        if draw(st.integers(0, 19)) == 0:
            node[f"x_{key}"] = draw(VALUES)
    return node


@st.composite
def weapons(draw: st.DrawFn) -> dict[str, Any]:
    """A weapon with some of GCS's keys (and one GCS does not have), now and then in another
    order than GCS's."""
    keys = [key for key in (*WEAPON_KEYS, "x_weapon") if draw(st.booleans())]
    if draw(st.integers(0, 4)) == 0:
        keys = draw(st.permutations(keys))
    return {key: draw(PLAIN if draw(st.integers(0, 5)) else VALUES) for key in keys}


USUAL: dict[str, st.SearchStrategy[Any]] = {
    "base_points": st.integers(-50, 50),
    "points": NUMBERS,
    "quantity": st.integers(0, 9),
    "equipped": st.booleans(),
    "tags": st.lists(TEXTS, min_size=1, max_size=2),
    "points_per_level": NUMBERS,
    "levels": NUMBERS,
    "can_level": st.booleans(),
}
"""What the usual nodes hold under these keys (text under the others)."""

USUAL_CALCS: dict[str, st.SearchStrategy[Any]] = {
    "name": st.fixed_dictionaries({"points": st.integers(-50, 50)})
    | st.tuples(st.integers(-50, 50), NUMBERS).map(
        lambda pair: {"points": pair[0], "current_level": pair[1]}
    ),
    "difficulty": st.fixed_dictionaries({"level": st.integers(-3, 20), "rsl": TEXTS}),
    "description": st.fixed_dictionaries(
        {"value": NUMBERS, "extended_value": NUMBERS, "weight": TEXTS, "extended_weight": TEXTS}
    ),
}
"""The usual ``calc`` blocks of traits (by their ``name``), skills and items."""


@st.composite
def usual_nodes(draw: st.DrawFn, shape: tuple[str, ...]) -> dict[str, Any]:
    """A node of one of the shapes the writers take at once: every key of ``shape``, each value
    mostly of the kind the export puts there (the lists mostly empty), now and then anything."""
    kind = "difficulty" if "difficulty" in shape else shape[1]
    node: dict[str, Any] = {}
    for key in shape:
        if key != "weapons" and draw(st.integers(0, 15)) == 0:  # weapons are always weapon nodes
            node[key] = draw(VALUES)
        elif key in ("weapons", "features", "modifiers") and draw(st.integers(0, 3)):
            node[key] = []
        elif key == "weapons":
            node[key] = draw(st.lists(weapons(), max_size=1))
        elif key in ("features", "modifiers"):
            node[key] = draw(LIKELY[key])
        elif key == "calc":
            node[key] = draw(USUAL_CALCS[kind] if draw(st.integers(0, 3)) else PLAIN)
        else:
            node[key] = draw(USUAL.get(key, TEXTS))
    return node


USUAL_SHAPES = (
    ("id", "name", "tags", "modifiers", "base_points", "weapons", "features", "calc"),
    ("id", "name", "local_notes", "tags", "modifiers", "base_points", "weapons", "features", "calc"),
    ("id", "description", "base_value", "base_weight", "weapons", "features", "quantity", "equipped", "calc"),
    (
        "id", "description", "local_notes", "base_value", "base_weight", "weapons", "features", "quantity",
        "equipped", "calc",
    ),
    ("id", "name", "difficulty", "weapons", "features", "points", "calc"),
    ("id", "name", "specialization", "difficulty", "weapons", "features", "points", "calc"),
    ("id", "name", "local_notes", "difficulty", "weapons", "features", "points", "calc"),
    (
        "id", "name", "tags", "modifiers", "base_points", "points_per_level", "weapons", "features",
        "can_level", "levels", "calc",
    ),
    (
        "id", "name", "local_notes", "tags", "modifiers", "base_points", "points_per_level", "weapons",
        "features", "can_level", "levels", "calc",
    ),
)  # fmt: skip
"""The traits, items and skills the export makes most (the writers take them at once)."""


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(USUAL_SHAPES).flatmap(usual_nodes), min_size=1, max_size=4))
def test_the_usual_nodes_are_written_as_the_generic_writer_writes_them(nodes: list[dict[str, Any]]) -> None:
    data = {
        kind: [node for node in nodes if ("difficulty" in node, "description" in node) == marks]
        for kind, marks in (
            ("traits", (False, False)),
            ("skills", (True, False)),
            ("equipment", (False, True)),
        )
    }
    assert character_text(data) == reference_text(data)


def reference_text(data: dict[str, Any]) -> tuple[str, bool]:
    """The text as the generic writer gives it, each node first made what GCS writes."""
    return gcs_text_checked(
        {
            key: [finished(node) for node in value] if key in ("traits", "skills", "equipment") else value
            for key, value in data.items()
        }
    )


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(nodes(TRAIT_KEYS, None), max_size=3),
    st.lists(nodes(SKILL_KEYS, "difficulty"), max_size=3),
    st.lists(nodes(EQUIPMENT_KEYS, "description"), max_size=3),
)
def test_the_node_writers_write_what_the_generic_writer_does(
    traits: list[dict[str, Any]],
    skills: list[dict[str, Any]],
    equipment: list[dict[str, Any]],
) -> None:
    data = {
        "version": 5,
        "traits": traits,
        "skills": skills,
        "equipment": equipment,
    }
    assert character_text(data) == reference_text(data)


ODD = st.integers(0, 5).map(lambda draw: draw == 0)
"""Now and then True: a value of another kind than the export writes."""


def usually(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``strategy``'s values, now and then any value instead."""
    return ODD.flatmap(lambda odd: VALUES if odd else strategy)


SECTIONS = st.fixed_dictionaries(
    {
        "profile": usually(st.dictionaries(TEXTS, usually(TEXTS), min_size=1, max_size=4)),
        "settings": usually(
            st.tuples(  # GCS's keys in GCS's order
                usually(st.builds(RawJson, TEXTS)),
                usually(st.builds(RawJson, TEXTS)),
                usually(TEXTS),
                usually(TEXTS),
                usually(TEXTS),
            ).map(
                lambda values: dict(
                    zip(
                        (
                            "attributes",
                            "body_type",
                            "damage_progression",
                            "default_length_units",
                            "default_weight_units",
                        ),
                        values,
                        strict=True,
                    )
                )
            )
        ),
        "calc": usually(
            st.dictionaries(
                TEXTS,
                usually(
                    TEXTS | st.integers(-9, 99) | st.lists(st.integers(0, 9) | st.booleans(), max_size=5)
                ),
                min_size=1,
                max_size=5,
            )
        ),
        "notes": usually(
            st.lists(usually(st.fixed_dictionaries({"id": TEXTS, "markdown": TEXTS})), min_size=1, max_size=3)
        ),
        "points_record": usually(
            st.lists(
                usually(st.fixed_dictionaries({"when": TEXTS, "points": NUMBERS, "reason": TEXTS})),
                min_size=1,
                max_size=2,
            )
        ),
    }
)
"""The file's own sections the writer takes at once (the profile, settings, calc, notes and points
record)."""


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(SECTIONS)
def test_the_files_sections_are_written_as_the_generic_writer_writes_them(data: dict[str, Any]) -> None:
    try:
        expected: Any = reference_text(data)
    except GcsJsonError as err:
        expected = type(err)
    try:
        written: Any = character_text(data)
    except GcsJsonError as err:
        written = type(err)
    assert written == expected


def test_a_typical_node_of_each_kind() -> None:
    weapon = {
        "id": "wA",
        "sv": 1,
        "damage": {"type": "cut", "st": "sw", "base": "1"},
        "reach": "1",
        "defaults": [{"type": "skill", "name": "Broadsword"}],
        "calc": {"level": 14, "damage": "2d cut"},
    }
    data = {
        "traits": [
            {
                "id": "tA",
                "name": "Fit <&>",
                "tags": ["Advantage"],
                "modifiers": [],
                "base_points": 5,
                "weapons": [],
                "features": [],
                "calc": {"points": 5},
            }
        ],
        "skills": [
            {
                "id": "sA",
                "name": "Broadsword",
                "difficulty": "dx/a",
                "weapons": [],
                "features": [],
                "points": 4.5,
                "calc": {},
            },
            {
                "id": "sB",
                "name": "Shield",
                "difficulty": "dx/e",
                "weapons": [],
                "features": [],
                "points": 2,
                "calc": {"level": 13, "rsl": "DX+1"},
            },
        ],
        "equipment": [
            {
                "id": "eA",
                "description": "Sword",
                "base_value": "500",
                "weapons": [weapon],
                "features": [{"type": "dr_bonus", "locations": ["skull"], "amount": 2}],
                "quantity": 1,
                "equipped": True,
                "calc": {"value": 500, "extended_value": 500, "weight": "3 lb", "extended_weight": "3 lb"},
            },
            {
                "id": "eB",
                "description": "Arrow",
                "local_notes": "Quiver",
                "base_value": "2",
                "base_weight": "0.1 lb",
                "weapons": [],
                "features": [],
                "quantity": 20,
                "equipped": False,
                "calc": {"value": 2, "extended_value": 40, "weight": "0.1 lb", "extended_weight": "2 lb"},
            },
        ],
    }
    text, replaced = character_text(data)
    assert (text, replaced) == reference_text(data)
    backwards = dict(reversed(weapon.items()))  # GCS's order is the writer's, whatever the node's
    data["equipment"][0]["weapons"] = [weapon, backwards, {}, {"x_weapon": 1}]
    assert character_text(data) == reference_text(data)
    written = json.loads(text)
    assert written["skills"][0] == {
        "id": "sA",
        "name": "Broadsword",
        "difficulty": "dx/a",
        "points": 4.5,
    }  # the empty lists and the empty calc of a skill are left out, as GCS leaves them
    assert written["equipment"][0]["weapons"][0] == weapon
    assert "\\u003c\\u0026\\u003e" in text


def test_data_too_deep_for_recursion_is_written_as_the_generic_writer_does() -> None:
    deep: Any = "end"
    for _ in range(400):
        deep = [deep]
    data = {"traits": [{"id": "tA", "name": "Deep", "features": deep, "calc": {}}], "notes": deep}
    assert character_text(data) == reference_text(data)


@pytest.mark.parametrize(
    "node",
    [
        {"id": "tA", "name": "Odd", "calc": {"points": math.nan}},
        {"id": "tA", "name": "Odd", "calc": {"points": {1, 2}}},
        {"id": "tA", "name": math.inf},
    ],
)
def test_what_json_cannot_hold_is_refused_as_the_generic_writer_refuses_it(node: dict[str, Any]) -> None:
    with pytest.raises(GcsJsonError) as ours:
        character_text({"traits": [node]})
    with pytest.raises(GcsJsonError) as generic:
        reference_text({"traits": [node]})
    assert str(ours.value) == str(generic.value)


def test_raw_json_in_the_file_stays_as_it_is() -> None:
    data = {"settings": {"attributes": RawJson("[\n\t\t\t1\n\t\t]")}, "traits": [{"id": "t", "name": "n"}]}
    text, _ = character_text(data)
    assert text == reference_text(data)[0]
    assert json.loads(text)["settings"]["attributes"] == [1]
