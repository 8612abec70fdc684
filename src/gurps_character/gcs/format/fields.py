"""Small typed readers for GCS data: any field may hold any JSON value in a hostile file.

Every reader returns a value of the type asked for, or a neutral default (``""``, ``None``,
``{}``, ``()``), so the mapping code never has to guess what it was given. Trees are walked
without recursion (a file may nest ``children`` a million levels deep).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

__all__ = [
    "EMPTY",
    "MAX_DEPTH",
    "MAX_FILL",
    "MAX_MAGNITUDE",
    "Node",
    "Walked",
    "boolean",
    "children",
    "fill_placeholders",
    "filled_text",
    "integer",
    "is_container",
    "kind_of",
    "leading_whole_number",
    "mapping",
    "node_list",
    "number",
    "number_or_text",
    "number_text",
    "overfilled",
    "overfilled_texts",
    "plain",
    "section_nodes",
    "text",
    "walk",
    "walk_nodes",
    "whole_number",
]

Node = dict[str, Any]
EMPTY: Node = {}
"""The default mapping. Never modified (readers only read)."""


def mapping(node: Node, key: str) -> Node:
    """``node[key]`` when it is a JSON object, else an empty mapping."""
    value = node.get(key)
    return value if type(value) is dict else EMPTY


def node_list(node: Node, key: str) -> list[Any]:
    """``node[key]`` when it is a list (its items still unchecked), else an empty list."""
    value = node.get(key)
    return value if type(value) is list else []


def text(node: Node, key: str) -> str:
    """``node[key]`` when it is a string, else ``""``."""
    value = node.get(key)
    return value if type(value) is str else ""


MAX_MAGNITUDE = 1e9
"""Numbers beyond ±10^9 count as absent: no GURPS character value comes near, and bounded
numbers keep every computation (and the rule check of the document) exact and quick."""


def number(node: Node, key: str) -> float | int | None:
    """``node[key]`` when it is a JSON number (not a boolean) within ±10^9, else None."""
    value: Any = node.get(key)
    kind = type(value)
    if (kind is int or kind is float) and -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE:
        return value  # type: ignore[no-any-return]
    return None


_NUMERIC_TEXT = re.compile(r"\s*([+-]?(?:[0-9][0-9,]*)?\.?[0-9]+)\s*")
_WHOLE_TEXT = re.compile(r"\s*([+-]?[0-9]+)\s*")
_LEADING_WHOLE = re.compile(r"\s*([+-]?[0-9]+)")
_MAX_NUMBER_TEXT = 40
"""Characters of text read as a number at most (``-1,000,000,000.0000`` has 19)."""


def number_text(raw: str) -> float | int | None:
    """The importer's one reading of a number written as text (``"5"``, ``" -1,200.5 "``):
    ASCII digits only (a fullwidth or superscript digit is none, as in GCS), within ±10^9, whole
    numbers as ``int``; None for anything else."""
    match = _NUMERIC_TEXT.fullmatch(raw) if len(raw) < _MAX_NUMBER_TEXT else None
    if match is None:
        return None
    parsed = float(match.group(1).replace(",", ""))
    if not -MAX_MAGNITUDE <= parsed <= MAX_MAGNITUDE:
        return None
    return int(parsed) if parsed.is_integer() else parsed


def whole_number(raw: str) -> int | None:
    """The importer's one reading of a whole number written as text: an optional sign and ASCII
    digits, spaces around allowed (``"3"``, ``" -2 "``), within ±10^9; None for anything else
    (``"3²"``, fullwidth digits, ``"1e3"``, ``"3.0"``, thirty-one nines)."""
    match = _WHOLE_TEXT.fullmatch(raw) if len(raw) < _MAX_NUMBER_TEXT else None
    return _bounded_whole(match.group(1)) if match else None


def leading_whole_number(raw: str) -> int | None:
    """The whole number a text starts with (``"9F"``, ``"12R†"``, ``"+2U"``), read as
    :func:`whole_number` reads one; None when it starts with none or one beyond ±10^9."""
    match = _LEADING_WHOLE.match(raw[:_MAX_NUMBER_TEXT])
    return _bounded_whole(match.group(1)) if match else None


def _bounded_whole(digits: str) -> int | None:
    if len(digits.lstrip("+-")) > 10:  # more digits than any number within the bounds
        return None
    value = int(digits)
    return value if -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE else None


def number_or_text(node: Node, key: str) -> float | int | None:
    """A number written as a number or as text (``"5"``, ``"1,200"``: v1 stored levels as text),
    read by :func:`number_text`."""
    value = number(node, key)
    if value is not None:
        return value
    raw = node.get(key)
    return number_text(raw) if type(raw) is str else None


def integer(value: float | int | None) -> int | None:
    """A whole number as an ``int`` (``3.0`` → 3), else None."""
    if value is None:
        return None
    if isinstance(value, int):
        return value
    if value.is_integer() and abs(value) < 2**53:
        return int(value)
    return None


def plain(value: float) -> float | int:
    """A number as JSON writes it: whole numbers as ``int``, others as they are."""
    whole = integer(value)
    return whole if whole is not None else value


def boolean(node: Node, key: str) -> bool:
    """``node[key] is True`` (anything else counts as false)."""
    return node.get(key) is True


# ---------------------------------------------------------------- node kinds and trees

_TID_KINDS = {
    "t": "trait",
    "T": "trait_container",
    "m": "modifier",
    "M": "modifier_container",
    "s": "skill",
    "S": "skill_container",
    "q": "technique",
    "p": "spell",
    "P": "spell_container",
    "r": "ritual_magic_spell",
    "e": "equipment",
    "E": "equipment_container",
    "f": "eqp_modifier",
    "F": "eqp_modifier_container",
    "n": "note",
    "N": "note_container",
    "w": "melee_weapon",
    "W": "ranged_weapon",
}
_OLD_NAMES = {"advantage": "trait", "advantage_container": "trait_container"}


def kind_of(node: Node) -> str:
    """The node kind: the ``type`` field (v1, v2, v4) or the first character of a v5 TID ``id``;
    ``""`` when neither says. Old names (``advantage``) are given their current names."""
    declared = node.get("type")
    if type(declared) is str and declared:
        return _OLD_NAMES.get(declared, declared)
    ident = node.get("id")
    if type(ident) is str and ident:
        return _TID_KINDS.get(ident[0], "")
    return ""


def is_container(node: Node) -> bool:
    """A container node (by its kind, or by having a ``children`` list when the kind is unknown)."""
    kind = kind_of(node)
    if kind:
        return kind.endswith("_container")
    return type(node.get("children")) is list


def children(node: Node) -> list[Any]:
    """A container's children (unchecked items), or an empty list."""
    return node_list(node, "children")


MAX_DEPTH = 64
"""Nodes nested deeper than this in ``children`` are left to the GCS data (GCS files nest a few
levels; a limit keeps pointers short and work linear on hostile files)."""


def walk(nodes: list[Any], pointer: str, *, skip_disabled: bool = False) -> Iterator[tuple[Node, str, int]]:
    """Every JSON object of a GCS list and of its ``children``, depth first in file order, as
    ``(node, JSON Pointer, depth)``, down to :data:`MAX_DEPTH` levels. With ``skip_disabled``, a
    disabled node is left out with everything below it. No recursion."""
    stack: list[tuple[list[Any], int, str, int]] = [(nodes, 0, pointer, 0)]
    while stack:
        items, index, base, depth = stack.pop()
        while index < len(items):
            item = items[index]
            index += 1
            if type(item) is not dict or (skip_disabled and item.get("disabled") is True):
                continue
            here = f"{base}/{index - 1}"
            yield item, here, depth
            kids = item.get("children")
            if type(kids) is list and kids and depth + 1 < MAX_DEPTH:
                stack.append((items, index, base, depth))
                items, index, base, depth = kids, 0, here + "/children", depth + 1
        # this list is done; the parent list resumes from the stack


def walk_nodes(nodes: list[Any], *, skip_disabled: bool = False) -> Iterator[Node]:
    """The nodes :func:`walk` gives, in the same order, without their pointers and depths (for
    the many walks that use neither: no text is built per node)."""
    stack: list[tuple[list[Any], int, int]] = [(nodes, 0, 0)]
    while stack:
        items, index, depth = stack.pop()
        while index < len(items):
            item = items[index]
            index += 1
            if type(item) is not dict or (skip_disabled and item.get("disabled") is True):
                continue
            yield item
            kids = item.get("children")
            if type(kids) is list and kids and depth + 1 < MAX_DEPTH:
                stack.append((items, index, depth))
                items, index, depth = kids, 0, depth + 1


Walked = dict[tuple[str, bool], list[tuple[Node, str, int]]]
"""The walks of the file's top-level lists made so far in one import, by (key, skip_disabled)."""


def section_nodes(
    data: Node, key: str, walked: Walked, *, skip_disabled: bool = False
) -> list[tuple[Node, str, int]]:
    """:func:`walk` of the file's top-level list ``key`` (pointers ``/key/...``), made once: the
    importer walks its skills, traits and spells for several parts of the document, and a
    later call with the same ``walked`` gets the same list."""
    found = walked.get((key, skip_disabled))
    if found is None:
        found = list(walk(node_list(data, key), f"/{key}", skip_disabled=skip_disabled))
        walked[(key, skip_disabled)] = found
    return found


_PLACEHOLDER = re.compile(r"@([^@]+)@")
MAX_FILL = 1_000
"""The most characters one text takes from its node's replacements beyond its own length
(see :func:`fill_placeholders`)."""


def fill_placeholders(value: str, node: Node) -> str:
    """``value`` with each ``@name@`` replaced from the node's ``replacements`` (unknown names
    stay). A text takes from the replacements at most its own length in characters, plus the
    length of each replacement it uses once (at most :data:`MAX_FILL` of those): GCS fills a
    word or two, and a file cannot make its text grow without bound (``"@a@" * 1000`` with a
    replacement of a thousand characters). Placeholders past that stay as written
    (:func:`overfilled` tells whether a text has any)."""
    if "@" not in value:  # the usual text, told without the call (this runs for most texts)
        return value
    return _fill(value, node)[0]


def filled_text(node: Node, key: str) -> str:
    """``fill_placeholders(text(node, key), node)`` in one call (it runs for most texts of most
    nodes)."""
    value = node.get(key)
    if type(value) is not str:
        return ""
    return _fill(value, node)[0] if "@" in value else value


def overfilled(value: str, node: Node) -> bool:
    """Whether :func:`fill_placeholders` leaves placeholders of ``value`` unfilled for taking
    too much text from the replacements."""
    return _fill(value, node)[1]


def _fill(value: str, node: Node) -> tuple[str, bool]:
    if "@" not in value:
        return value, False
    replacements = mapping(node, "replacements")
    if not replacements:
        return value, False
    taken = 0
    once = 0
    used: set[str] = set()
    cut = False

    def fill(match: re.Match[str]) -> str:
        nonlocal taken, once, cut
        if cut:
            return match.group(0)
        key = match.group(1)
        found = replacements.get(key)
        if type(found) in (int, float) and not isinstance(found, bool):
            found = str(found)
        if type(found) is not str:
            return match.group(0)
        if key not in used:
            used.add(key)
            once += len(found)
        if taken + len(found) > len(value) + min(once, MAX_FILL):
            cut = True
            return match.group(0)
        taken += len(found)
        return found

    return _PLACEHOLDER.sub(fill, value), cut


_FILLED = ("name", "description", "specialization", "notes", "local_notes", "userdesc", "text", "markdown")
"""The texts of a node the importer fills placeholders in."""


def overfilled_texts(
    data: Node, sections: tuple[str, ...], shown: int, walked: Walked | None = None
) -> tuple[list[str], int]:
    """The texts of the nodes of ``sections`` (and their weapons' usages, filled from their
    owner) whose placeholders are not all filled for taking too much text: the JSON Pointers of
    the first ``shown``, and how many there are."""
    found: list[str] = []
    count = 0
    for section in sections:
        for node, pointer, _ in section_nodes(data, section, {} if walked is None else walked):
            if not mapping(node, "replacements"):
                continue
            texts = [(f"{pointer}/{key}", text(node, key)) for key in _FILLED]
            texts += [
                (f"{pointer}/weapons/{index}/usage", text(weapon, "usage"))
                for index, weapon in enumerate(node_list(node, "weapons"))
                if type(weapon) is dict
            ]
            for where, value in texts:
                if "@" in value and overfilled(value, node):
                    count += 1
                    if len(found) < shown:
                        found.append(where)
    return found, count
