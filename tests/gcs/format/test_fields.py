"""The importer's walks over GCS lists: the pointer-free walk and the walks made once per import
give exactly the nodes of the walk with pointers, in the same order; and the readers made in one
call give what the readers they stand for give."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from gurps_character.gcs.format.features import display_name
from gurps_character.gcs.format.fields import (
    MAX_DEPTH,
    Walked,
    fill_placeholders,
    filled_text,
    section_nodes,
    text,
    walk,
    walk_nodes,
)

_NODES: st.SearchStrategy[list[Any]] = st.recursive(
    st.lists(st.one_of(st.builds(dict), st.just("text"), st.just(None)), max_size=3),
    lambda inner: st.lists(
        st.one_of(
            st.fixed_dictionaries(
                {"children": inner},
                optional={
                    "disabled": st.sampled_from([True, False, "true", None]),
                    "name": st.text(max_size=3),
                },
            ),
            st.integers(),
        ),
        max_size=4,
    ),
    max_leaves=25,
)


@given(_NODES, st.booleans())
def test_walk_nodes_gives_the_nodes_of_walk(nodes: list[Any], skip_disabled: bool) -> None:
    expected = [node for node, _, _ in walk(nodes, "/x", skip_disabled=skip_disabled)]
    found = list(walk_nodes(nodes, skip_disabled=skip_disabled))
    assert len(found) == len(expected)
    assert all(a is b for a, b in zip(found, expected, strict=True))


@given(_NODES, st.booleans())
def test_a_section_is_walked_once_and_as_walk_walks_it(nodes: list[Any], skip_disabled: bool) -> None:
    data = {"skills": nodes}
    walked: Walked = {}
    first = section_nodes(data, "skills", walked, skip_disabled=skip_disabled)
    expected = list(walk(nodes, "/skills", skip_disabled=skip_disabled))
    assert [(pointer, depth) for _, pointer, depth in first] == [(p, d) for _, p, d in expected]
    assert all(a[0] is b[0] for a, b in zip(first, expected, strict=True))
    assert section_nodes(data, "skills", walked, skip_disabled=skip_disabled) is first
    other = section_nodes(data, "skills", walked, skip_disabled=not skip_disabled)
    assert other == list(walk(nodes, "/skills", skip_disabled=not skip_disabled))


def test_walk_nodes_stops_at_the_depth_walk_stops_at() -> None:
    deep: list[Any] = [{}]
    for _ in range(MAX_DEPTH + 5):
        deep = [{"children": deep}]
    assert len(list(walk_nodes(deep))) == len(list(walk(deep, ""))) == MAX_DEPTH


_FIELD = st.one_of(
    st.sampled_from(["@a@", " x @b@ ", "@a@@b@", "@ a@", "", "plain"]),
    st.text(alphabet="ab@ ", max_size=8),
    st.integers(),
    st.none(),
    st.builds(dict),
    st.just(["@a@"]),
)
_NODE = st.fixed_dictionaries(
    {},
    optional={
        "name": _FIELD,
        "description": _FIELD,
        "replacements": st.one_of(
            st.just({"a": "xx", "b": 3}),
            st.dictionaries(st.sampled_from(["a", "b", " a"]), st.one_of(st.text(max_size=4), st.integers())),
            st.text(max_size=2),
        ),
    },
)


@given(_NODE, st.sampled_from(["name", "description", "other"]))
def test_filled_text_is_the_text_with_its_placeholders_filled(node: dict[str, Any], key: str) -> None:
    assert filled_text(node, key) == fill_placeholders(text(node, key), node)


@given(_NODE)
def test_display_name_is_the_name_or_else_the_description_filled(node: dict[str, Any]) -> None:
    name = text(node, "name") or text(node, "description")
    assert display_name(node) == fill_placeholders(name, node).strip()
