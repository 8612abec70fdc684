"""Hostile GCS files: generators shared by ``test_hostile_gcs.py`` and ``scripts/fuzz.py``.

Like ``strategies.py``, every generator takes a :class:`strategies.Chooser` (random for the
fuzzer, hypothesis draws for the tests). A GCS file is JSON written by another program, or by a
person with a text editor, so anything can be anywhere:

* :func:`gcs_document`: a character of a random file version (1, 2, 4, 5 or one GCS never wrote),
  either plausible (``gcs_samples.character``) or assembled from GCS's section names with random
  content, then mutated;
* :func:`mutate_gcs`: one to four changes, each putting something odd into a random slot:
  a value of another JSON type, huge or fractional numbers, NaN-like text (``"NaN"``,
  ``"1e400"``, ``"Infinity"``), odd keys (``""``, ``"__proto__"``, ``"calc"``, control
  characters), placeholders that name themselves or multiply long replacements, text that only
  looks numeric (``"3²"``, fullwidth digits) and numbers beyond ±10^9 (as numbers and as text),
  containers nested thousands deep through
  ``children``, wide lists, and the hostile values of ``strategies.hostile_value``;
* :func:`built_document`: a file built to hurt (``gcs_built.py``), now and then mutated;
* :func:`gcs_source`: the document as a mapping, text or bytes (sometimes with a byte order
  mark, sometimes cut or spliced by ``strategies.mutate_text``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from tests.support import gcs_built, gcs_samples
from tests.support.strategies import (
    Chooser,
    HypothesisChooser,
    chance,
    hostile_value,
    json_value,
    mutate_text,
    pick,
    text,
)

__all__ = ["built_document", "gcs_document", "gcs_documents", "gcs_source", "gcs_sources", "mutate_gcs"]

VERSIONS = (1, 2, 4, 5)
"""The file versions GCS has written for characters."""

_OTHER_VERSIONS: tuple[Any, ...] = (0, 3, 6, -1, 2**63, 5.0, "5", None, True, [5])

_SECTIONS = (
    "profile",
    "settings",
    "attributes",
    "traits",
    "advantages",
    "skills",
    "spells",
    "equipment",
    "other_equipment",
    "notes",
    "calc",
    "points_record",
    "total_points",
    "third_party",
    "created_date",
    "modified_date",
    "ST",
    "DX",
    "IQ",
    "HT",
    "hp_damage",
    "fp_damage",
    "will_adj",
    "speed_adj",
)

_NODE_KEYS = (
    "id",
    "type",
    "name",
    "description",
    "children",
    "modifiers",
    "features",
    "weapons",
    "defaults",
    "default",
    "calc",
    "points",
    "base_points",
    "levels",
    "points_per_level",
    "can_level",
    "cr",
    "disabled",
    "difficulty",
    "quantity",
    "equipped",
    "value",
    "weight",
    "base_value",
    "base_weight",
    "cost",
    "cost_type",
    "cost_adj",
    "damage",
    "parry",
    "block",
    "reach",
    "range",
    "replacements",
    "tags",
    "categories",
    "attr_id",
    "adj",
    "container_type",
    "limit",
    "notes",
    "local_notes",
    "text",
    "markdown",
    "amount",
    "attribute",
    "locations",
    "sv",
)

_ODD_KEYS = ("", "__proto__", "constructor", "calc", "\x00", "\u202e", "$ref", "@x@", "💥", "id", "type")

_NUMBERS: tuple[Any, ...] = (
    10**9,
    10**9 + 1,
    -(10**9) - 1,
    10**12,
    1e30,
    2**53 + 1,
    2**63,
    10**400,
    -(10**400),
    10**5000,
    1e308,
    -1e308,
    5e-324,
    -0.0,
    0.5,
    1e-7,
    float("nan"),
    float("inf"),
    -float("inf"),
    True,
    False,
    -1,
    0,
)

_NAN_LIKE = (
    "NaN",
    "nan",
    "Infinity",
    "-Infinity",
    "1e400",
    "-1e400",
    "9" * 400,
    "0x10",
    "1,000",
    "-0",
    "",
    " ",
    "x2",
    "x0",
    "+50%",
    "-80%",
    "x150%",
    "1e9999 lb",
    "NaN lb",
    "3 kg",
    "-5 lb",
    "1/2 lb",
    "9999999999999999999 lb",
    "5'13\"",
    "1d+9999999999",
    "99999999999d",
    "dx/zz",
    "IQ/E",
    "/",
    "Math.floor($st",
    "$st/0",
    "@Who@",
    "@@",
    "@",
    # text that only looks numeric (issue 22 item 4) and numbers beyond the bounds as text (item 3)
    "3²",
    "²",
    "\uff13",
    "\u0663",
    "\u2074",
    "1" * 31,
    "1" * 190,
    "+" + "9" * 5000,
    "-" + "9" * 40,
    "1" * 31 + " lb",
    "x" + "9" * 38,
    "+" + "9" * 400 + "%",
    "Math.floor($st * 100000 * 100000)",
    "1000000001",
)


def _slots(document: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) slot of a JSON tree, breadth first (no recursion), at most 20,000."""
    slots: list[tuple[Any, Any]] = []
    queue = [document]
    seen: set[int] = set()
    head = 0
    while head < len(queue) and len(slots) < 20_000:
        item = queue[head]
        head += 1
        if id(item) in seen:
            continue
        seen.add(id(item))
        pairs = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
        for key, child in pairs:
            slots.append((item, key))
            if isinstance(child, dict | list):
                queue.append(child)
    return slots


def _deep_children(chooser: Chooser, depth: int) -> dict[str, Any]:
    """A container whose ``children`` hold a container ... ``depth`` levels down (no recursion)."""
    kind = pick(chooser, ("T", "S", "E", "N", "P", "M"))
    node: dict[str, Any] = {"id": f"{kind}leaf", "name": "leaf"}
    for level in range(depth):
        node = {"id": f"{kind}{level:016d}", "type": "trait_container", "name": "deep", "children": [node]}
    return node


def _odd_value(chooser: Chooser) -> Any:
    kind = chooser.integer(0, 9)
    if kind < 2:
        return pick(chooser, _NUMBERS)
    if kind < 4:
        return pick(chooser, _NAN_LIKE)
    if kind < 6:
        return json_value(chooser, 2)
    if kind == 6:
        return [json_value(chooser, 1) for _ in range(chooser.integer(0, 5))]
    if kind == 7:
        return {pick(chooser, _NODE_KEYS): json_value(chooser, 1) for _ in range(chooser.integer(0, 5))}
    return hostile_value(chooser, deep=pick(chooser, (5, 50, 3_000)))


def _as_text(value: Any) -> str:
    try:
        return str(value)
    except ValueError:  # an integer of more digits than Python writes
        return "1e5000"


def mutate_gcs(chooser: Chooser, document: dict[str, Any], *, deep: int = 3_000) -> Any:
    """``document`` (changed in place and returned) with one to four odd changes."""
    for _ in range(chooser.integer(1, 4)):
        slots = _slots(document)
        if not slots:
            break
        container, key = pick(chooser, slots)
        action = chooser.integer(0, 12)
        if action == 0:
            del container[key]
        elif action == 1 and isinstance(container, dict):
            container[pick(chooser, _ODD_KEYS + _NODE_KEYS)] = _odd_value(chooser)
        elif action == 2 and isinstance(container, list):
            container.append(_deep_children(chooser, chooser.integer(1, deep)))
        elif action == 3 and isinstance(container, dict):
            container["children"] = [_deep_children(chooser, chooser.integer(1, deep))]
        elif action == 4 and isinstance(container[key], int | float) and not isinstance(container[key], bool):
            container[key] = pick(chooser, _NUMBERS)
        elif action == 5 and isinstance(container[key], str):
            container[key] = pick(chooser, _NAN_LIKE)
        elif action == 6 and isinstance(container, dict):
            name = text(chooser, 4)
            container["replacements"] = {name: f"@{name}@" * chooser.integer(1, 3), "": "@@"}
            container["name"] = f"@{name}@" * chooser.integer(1, 200)
        elif action == 7 and isinstance(container[key], list | dict):
            # the same list many times over: wide input, shared containers
            item = container[key]
            container[key] = [item] * chooser.integer(2, 50)
        elif action == 8 and isinstance(container[key], int | float | bool | None):
            container[key] = _as_text(container[key])  # a number or flag written as text
        elif action == 9 and isinstance(container, dict):
            # placeholders that multiply text: a long replacement used many times (item 2)
            name = text(chooser, 3)
            container["replacements"] = {name: "w" * chooser.integer(1, 3_000)}
            field = pick(chooser, ("name", "description", "local_notes", "notes", "specialization", "usage"))
            container[field] = f"@{name}@" * chooser.integer(1, 3_000)
        else:
            container[key] = _odd_value(chooser)
    return document


def _random_skeleton(chooser: Chooser, version: Any) -> dict[str, Any]:
    """GCS's section names with random content."""
    document: dict[str, Any] = {"version": version}
    if chance(chooser, 50):
        document["type"] = "character"
    for _ in range(chooser.integer(0, 8)):
        section = pick(chooser, _SECTIONS)
        if chance(chooser, 60):
            document[section] = [
                {pick(chooser, _NODE_KEYS): json_value(chooser, 2) for _ in range(chooser.integer(0, 6))}
                for _ in range(chooser.integer(0, 4))
            ]
        else:
            document[section] = json_value(chooser, 3)
    return document


def gcs_document(chooser: Chooser, *, deep: int = 3_000) -> Any:
    """A GCS character (mostly a supported version), plausible or not, mutated or not."""
    if chance(chooser, 12):
        return built_document(chooser, largest=max(deep // 50, 8))
    version: Any = pick(chooser, VERSIONS) if chance(chooser, 90) else pick(chooser, _OTHER_VERSIONS)
    kind = chooser.integer(0, 9)
    if kind < 6 and version in (2, 4, 5):
        document = gcs_samples.character(units=chooser.integer(0, 12), version=version)
    elif kind < 7 and version in VERSIONS:
        document = gcs_samples.minimal(version)
    else:
        document = _random_skeleton(chooser, version)
    if chance(chooser, 85):
        document = mutate_gcs(chooser, document, deep=deep)
    return document


def built_document(chooser: Chooser, *, largest: int = 60) -> Any:
    """A file built to hurt (``gcs_built.py``: every item of a kind meeting every one of
    another, text multiplied through names and placeholders) of up to ``largest`` items, now and
    then mutated."""
    build = gcs_built.BUILDERS[pick(chooser, tuple(gcs_built.BUILDERS))]
    document = build(chooser.integer(1, largest))
    if chance(chooser, 40):
        document = mutate_gcs(chooser, document, deep=10)
    return document


_WRITABLE_NESTING = 300
"""The deepest document :func:`gcs_source` writes as text (far below the recursion limit)."""


def _nesting(value: Any) -> int:
    """How many containers deep ``value`` goes, counted up to one past
    :data:`_WRITABLE_NESTING` (without recursion; shared and cyclic containers are followed to
    that depth at most, each once per depth)."""
    deepest = 0
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if not isinstance(item, dict | list) or (id(item), depth) in seen:
            continue
        seen.add((id(item), depth))
        deepest = max(deepest, depth)
        if deepest > _WRITABLE_NESTING:
            break
        stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def gcs_source(chooser: Chooser, *, deep: int = 3_000) -> Any:
    """An ``import_gcs`` source: the document as a mapping, text or bytes."""
    document = gcs_document(chooser, deep=deep)
    if chance(chooser, 50) or _nesting(document) > _WRITABLE_NESTING:
        # json.dumps recurses: whether it reaches the interpreter's limit depends on how deep the
        # caller's stack is, so a draw that asked it would differ between runs (Hypothesis's
        # FlakyStrategyDefinition); too deep a document is given as it is, every time
        return document
    try:
        source = json.dumps(document, indent=pick(chooser, (None, "\t")), ensure_ascii=chance(chooser, 50))
    except (ValueError, TypeError, RecursionError):  # NaN is written, cycles and objects are not
        return document
    if chance(chooser, 30):
        return mutate_text(chooser, source)
    if chance(chooser, 10):
        source = "\ufeff" + source
    return source.encode("utf-8", "surrogatepass") if chance(chooser, 40) else source


@st.composite
def gcs_documents(draw: Callable[[st.SearchStrategy[Any]], Any], deep: int = 3_000) -> Any:
    """Hostile GCS characters as mappings (see :func:`gcs_document`)."""
    return gcs_document(HypothesisChooser(draw), deep=deep)


@st.composite
def gcs_sources(draw: Callable[[st.SearchStrategy[Any]], Any], deep: int = 3_000) -> Any:
    """Hostile GCS files as text, bytes or mappings (see :func:`gcs_source`)."""
    return gcs_source(HypothesisChooser(draw), deep=deep)
