"""The text of an exported GCS file.

The export builds its traits, skills and items as dicts whose keys are GCS's, in GCS's order, some
of them empty where GCS leaves them out. This module writes those nodes straight to text, one
writer for each kind of node with GCS's keys spelled out, leaving out what GCS leaves out; the
rest of the file, and any value of a node that is not the plain kind the export makes, goes to the
generic writer of :mod:`.gcs_json`. Writing a node by its known keys costs about half what the
generic writer costs, and no copy of the node in GCS's order is made. The writers spell their
keys out one by one on purpose: a loop over a table of keys cost 10 to 20 % more of the writing.

The text is exactly :func:`~.gcs_json.gcs_text_checked` of the file with each node
:func:`~.export_sheet.finished`: where the data is not what these writers expect (nesting too deep
for recursion), the file is written that way.
"""

from __future__ import annotations

from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any, Final

from .export_sheet import WEAPON_KEYS, finished
from .gcs_json import RawJson, TooDeepToRecurse, as_gcs_file, container_text, gcs_text_checked, scalar_text
from .standard_sheet import SHEET_DISPLAY

__all__ = ["character_text"]

_TOP_HEADS: Final = {
    key: f'\n\t"{key}": '
    for key in (
        "version", "id", "total_points", "points_record", "profile", "settings", "attributes", "traits",
        "skills", "equipment", "notes", "created_date", "modified_date", "calc",
    )
}  # fmt: skip
"""The file's own keys as written before their value (read only)."""

_NODE_LISTS: Final = frozenset(("traits", "skills", "equipment"))
"""The file's lists of nodes that the export builds unfinished."""

_quoted: Final = encode_basestring
"""Text as JSON (a TypeError for what is not text: the node is then written by the generic writer)."""

_D2: Final = "\n\t\t"
_D3: Final = "\n\t\t\t"
_D4: Final = "\n\t\t\t\t"
_D5: Final = "\n\t\t\t\t\t"
_D6: Final = "\n\t\t\t\t\t\t"
_D7: Final = "\n\t\t\t\t\t\t\t"


def character_text(data: dict[str, Any]) -> tuple[str, bool]:
    """The file's text for the export's data (its traits, skills and items not yet
    :func:`~.export_sheet.finished`), and whether lone surrogates were written as U+FFFD.

    Raises:
        GcsJsonError: the data holds something GCS's JSON cannot.
    """
    parts: list[str] = []
    try:
        for key, value in data.items():
            head = _TOP_HEADS.get(key) or "\n\t" + encode_basestring(key) + ": "
            if key in _NODE_LISTS and value:
                parts.append(head + "[" + ",".join([_node(node) for node in value]) + "\n\t]")
            elif (type(value) is dict or type(value) is list) and value:
                parts.append(head + _section(key, value))
            else:
                parts.append(head + scalar_text(value))
    except TooDeepToRecurse:
        return gcs_text_checked(
            {
                key: [finished(node) for node in value] if key in _NODE_LISTS else value
                for key, value in data.items()
            }
        )
    if not parts:
        return as_gcs_file("{}")
    # the braces and final newline joined with the members: the file's text is copied once
    parts[0] = "{" + parts[0]
    parts[-1] += "\n}\n"
    return as_gcs_file(",".join(parts), ended=True)


def _section(key: str, value: dict[str, Any] | list[Any]) -> str:
    """One of the file's own values (at depth 1) that is a container with content: the usual
    profile (all texts), settings, calc, notes and points record written at once."""
    if type(value) is dict:
        if key == "profile":
            try:
                return (
                    "{"
                    + ",".join([f"{_D2}{_head(name)}{_quoted(text)}" for name, text in value.items()])
                    + "\n\t}"
                )
            except TypeError:  # a value that is not text (or a key): the generic writer
                pass
        elif key == "settings" and tuple(value) == _SETTINGS:
            table, body, progression, length, weight, *_ = value.values()
            if (
                type(table) is RawJson
                and type(body) is RawJson
                and type(progression) is str
                and type(length) is str
                and type(weight) is str
            ):
                shown = "".join([f",{_D2}{_head(key)}{scalar_text(value[key])}" for key in _DISPLAY])
                return (
                    f'{{{_D2}"attributes": {str.__str__(table)},{_D2}"body_type": {str.__str__(body)},'
                    f'{_D2}"damage_progression": {_quoted(progression)},{_D2}"default_length_units": '
                    f'{_quoted(length)},{_D2}"default_weight_units": {_quoted(weight)}{shown}\n\t}}'
                )
        elif key == "calc":
            try:
                return _calc_text(value)
            except (_Unusual, TypeError):  # a value of another kind (or a key not text)
                pass
    elif type(value) is list and (key == "notes" or key == "points_record"):
        try:  # notes ({id, markdown}) and the points record's entries are blocks of plain values
            return "[" + ",".join([_D2 + _block(entry, _D3, _D2) for entry in value]) + "\n\t]"
        except (_Unusual, TypeError):
            pass
    return container_text(value, "\t", 1)


def _calc_text(calc: dict[str, Any]) -> str:
    """The file's ``calc`` block: texts, numbers and lists of whole numbers (Move and Dodge per
    encumbrance level).

    Raises:
        _Unusual: it holds anything else.
    """
    parts: list[str] = []
    add = parts.append
    for key, value in calc.items():
        kind = type(value)
        if kind is str:
            add(f"{_D2}{_head(key)}{_quoted(value)}")
        elif kind is int:
            add(f"{_D2}{_head(key)}{int.__repr__(value)}")
        elif kind is list and value and {type(item) for item in value} == _WHOLE:
            add(f"{_D2}{_head(key)}[{_D3}" + f",{_D3}".join(map(int.__repr__, value)) + f"{_D2}]")
        else:
            raise _Unusual
    return "{" + ",".join(parts) + "\n\t}"


_WHOLE: Final = frozenset({int})
"""The types of a list of whole numbers (not bool: GCS writes true and false)."""


_DISPLAY: Final = tuple(SHEET_DISPLAY)
_SETTINGS: Final = (
    "attributes", "body_type", "damage_progression", "default_length_units", "default_weight_units",
    *_DISPLAY,
)  # fmt: skip
"""The keys of the export's settings, in GCS's order."""


class _Unusual(Exception):
    """A node holds what its writer does not expect: the generic writer writes it."""


def _node(node: dict[str, Any]) -> str:
    """A trait, skill or item (told apart as :func:`~.export_sheet.finished` does), on its line."""
    try:
        if "difficulty" in node:
            return _skill(node)
        if "description" in node:
            return _item(node)
        return _trait(node)
    except (_Unusual, TypeError, KeyError):  # TypeError: encode_basestring of what is not text
        return "\n\t\t" + container_text(finished(node), "\t\t", 2)


def _trait(node: dict[str, Any]) -> str:
    shape = tuple(node)
    leveled = shape in (_LEVELED_TRAIT, _LEVELED_TRAIT_NOTES)
    if leveled or shape in (_PLAIN_TRAIT, _PLAIN_TRAIT_NOTES):
        tags, modifiers, points, calc = node["tags"], node["modifiers"], node["base_points"], node["calc"]
        weapons, features = node["weapons"], node["features"]
        if type(tags) is list and tags and type(points) is int and type(calc) is dict:
            notes = f'{_D3}"local_notes": {_quoted(node["local_notes"])},' if "local_notes" in node else ""
            calc_points = calc.get("points") if len(calc) == 1 else None
            if (
                not leveled
                and len(tags) == 1
                and points
                and type(calc_points) is int
                and not (modifiers or weapons or features)
            ):  # the most usual of all: one string
                return (
                    f'\n\t\t{{{_D3}"id": {_quoted(node["id"])},{_D3}"name": {_quoted(node["name"])},{notes}'
                    f'{_D3}"tags": [{_D4}{_quoted(tags[0])}{_D3}],{_D3}"base_points": {int.__repr__(points)},'
                    f'{_D3}"calc": {{{_D4}"points": {int.__repr__(calc_points)}{_D3}}}\n\t\t}}'
                )
            cost = f'{_D3}"base_points": {int.__repr__(points)},' if points else ""
            levels = ""
            if leveled:
                per_level = node["points_per_level"]
                if per_level:
                    cost += f'{_D3}"points_per_level": {_number(per_level)},'
                levels = (
                    f'{_D3}"can_level": {_value(node["can_level"])},{_D3}"levels": {_number(node["levels"])},'
                )
            modified = f'{_D3}"modifiers": {_nested(modifiers)},' if modifiers else ""
            armed = f'{_D3}"weapons": {_weapons(weapons)},' if weapons else ""
            featured = f'{_D3}"features": {_nested(features)},' if features else ""
            calc_text = (
                f'{{{_D4}"points": {int.__repr__(calc_points)}{_D3}}}'
                if type(calc_points) is int
                else _block(calc, _D4, _D3)
            )
            return (  # one string of the pieces, in GCS's order
                f'\n\t\t{{{_D3}"id": {_quoted(node["id"])},{_D3}"name": {_quoted(node["name"])},{notes}'
                f'{_D3}"tags": {_texts(tags)},{modified}{cost}{armed}{featured}{levels}'
                f'{_D3}"calc": {calc_text}\n\t\t}}'
            )
    get = node.get
    out = _named(node)
    add = out.append
    value = get("modifiers")
    if value:
        add(f'{_D3}"modifiers": {_nested(value)}')
    value = get("base_points")
    if value:
        add(f'{_D3}"base_points": {int.__repr__(value) if type(value) is int else _value(value)}')
    value = get("points_per_level")
    if value:
        add(f'{_D3}"points_per_level": {_number(value)}')
    _add_lists(node, add)
    if "can_level" in node:
        add(f'{_D3}"can_level": {_value(node["can_level"])}')
    if "levels" in node:
        add(f'{_D3}"levels": {_number(node["levels"])}')
    if "calc" in node:
        value = node["calc"]
        points = value.get("points") if type(value) is dict and len(value) == 1 else None
        if type(points) is int:  # the usual calc: {"points": n}
            add(f'{_D3}"calc": {{{_D4}"points": {int.__repr__(points)}{_D3}}}')
        else:
            add(f'{_D3}"calc": {_block(value, _D4, _D3)}')
    return ",".join(out) + "\n\t\t}"


def _named(node: dict[str, Any]) -> list[str]:
    """The first keys of a trait or skill of another shape than the usual, as written: its id,
    name, reference, notes and tags (the rest follows in the caller)."""
    out = [f'\n\t\t{{{_D3}"id": {_quoted(node["id"])},{_D3}"name": {_quoted(node["name"])}']
    if "reference" in node:
        out.append(f'{_D3}"reference": {_value(node["reference"])}')
    if "local_notes" in node:
        out.append(f'{_D3}"local_notes": {_value(node["local_notes"])}')
    tags = node.get("tags")
    if tags:
        out.append(f'{_D3}"tags": {_texts(tags)}')
    return out


def _add_lists(node: dict[str, Any], add: Callable[[str], None]) -> None:
    """Adds a node's weapons and features, those it has (they follow each other in GCS's order
    of every kind of node)."""
    weapons = node.get("weapons")
    if weapons:
        add(f'{_D3}"weapons": {_weapons(weapons)}')
    features = node.get("features")
    if features:
        add(f'{_D3}"features": {_nested(features)}')


_PLAIN_TRAIT: Final = ("id", "name", "tags", "modifiers", "base_points", "weapons", "features", "calc")
_PLAIN_TRAIT_NOTES: Final = (
    "id", "name", "local_notes", "tags", "modifiers", "base_points", "weapons", "features", "calc",
)  # fmt: skip
_LEVELED_TRAIT: Final = (
    "id", "name", "tags", "modifiers", "base_points", "points_per_level", "weapons", "features", "can_level",
    "levels", "calc",
)  # fmt: skip
_LEVELED_TRAIT_NOTES: Final = (
    "id", "name", "local_notes", "tags", "modifiers", "base_points", "points_per_level", "weapons",
    "features", "can_level", "levels", "calc",
)  # fmt: skip
"""The usual traits (the shapes written at once, whatever their lists hold): with a fixed cost, or
with a cost per level."""


def _skill(node: dict[str, Any]) -> str:
    shape = tuple(node)
    if shape in _PLAIN_SKILLS and not node["weapons"] and not node["features"]:
        calc, points = node["calc"], node["points"]
        if type(calc) is dict and tuple(calc) == _SKILL_CALC and type(points) is int:
            level, relative = calc["level"], calc["rsl"]
            if type(level) is int and type(relative) is str:
                middle = shape[2]  # a specialization, notes, or the difficulty right after the name
                between = (
                    ""
                    if middle == "difficulty"
                    else f'{_D3}"specialization": {_quoted(node["specialization"])},'
                    if middle == "specialization"
                    else f'{_D3}"local_notes": {_quoted(node["local_notes"])},'
                )
                return (
                    f'\n\t\t{{{_D3}"id": {_quoted(node["id"])},{_D3}"name": {_quoted(node["name"])},{between}'
                    f'{_D3}"difficulty": {_quoted(node["difficulty"])},{_D3}"points": {int.__repr__(points)},'
                    f'{_D3}"calc": {{{_D4}"level": {int.__repr__(level)},{_D4}"rsl": {_quoted(relative)}'
                    f"{_D3}}}\n\t\t}}"
                )
    get = node.get
    out = _named(node)
    add = out.append
    if "specialization" in node:
        add(f'{_D3}"specialization": {_value(node["specialization"])}')
    add(f'{_D3}"difficulty": {_value(node["difficulty"])}')
    if "defaults" in node:
        add(f'{_D3}"defaults": {_nested(node["defaults"])}')
    if "tech_level" in node:
        add(f'{_D3}"tech_level": {_value(node["tech_level"])}')
    _add_lists(node, add)
    if "points" in node:
        add(f'{_D3}"points": {_number(node["points"])}')
    value = get("calc")
    if value:
        if type(value) is dict and tuple(value) == _SKILL_CALC:  # the usual calc: level and rsl
            level, relative = value["level"], value["rsl"]
            if type(level) is int and type(relative) is str:
                shown = f'{_D4}"level": {int.__repr__(level)},{_D4}"rsl": {_quoted(relative)}'
                add(f'{_D3}"calc": {{{shown}{_D3}}}')
                return ",".join(out) + "\n\t\t}"
        add(f'{_D3}"calc": {_block(value, _D4, _D3)}')
    return ",".join(out) + "\n\t\t}"


_SKILL_CALC: Final = ("level", "rsl")
_PLAIN_SKILLS: Final = frozenset(
    (
        ("id", "name", "difficulty", "weapons", "features", "points", "calc"),
        ("id", "name", "specialization", "difficulty", "weapons", "features", "points", "calc"),
        ("id", "name", "local_notes", "difficulty", "weapons", "features", "points", "calc"),
    )
)
"""The usual skills (written at once when they hold no weapons or features): with a
specialization or notes, or neither."""


def _item(node: dict[str, Any]) -> str:
    shape = tuple(node)
    if shape in (_PLAIN_ITEM, _PLAIN_ITEM_NOTES):
        calc, quantity, equipped = node["calc"], node["quantity"], node["equipped"]
        if (
            type(calc) is dict
            and tuple(calc) == _ITEM_CALC
            and type(quantity) is int
            and type(equipped) is bool
        ):
            notes = f'{_D3}"local_notes": {_quoted(node["local_notes"])},' if len(shape) == 10 else ""
            head = f'\n\t\t{{{_D3}"id": {_quoted(node["id"])},'
            head += f'{_D3}"description": {_quoted(node["description"])},'
            cost = f'{_D3}"base_value": {_quoted(node["base_value"])},'
            weight = f'{_D3}"base_weight": {_quoted(node["base_weight"])},'
            weapons, features = node["weapons"], node["features"]
            if weapons:
                weight += f'{_D3}"weapons": {_weapons(weapons)},'
            if features:
                weight += f'{_D3}"features": {_nested(features)},'
            carried = f'{_D3}"quantity": {int.__repr__(quantity)},'
            carried += f'{_D3}"equipped": {"true" if equipped else "false"},'
            values = f'{_D4}"value": {_number(calc["value"])},'
            values += f'{_D4}"extended_value": {_number(calc["extended_value"])},'
            weights = f'{_D4}"weight": {_quoted(calc["weight"])},'
            weights += f'{_D4}"extended_weight": {_quoted(calc["extended_weight"])}'
            return f'{head}{notes}{cost}{weight}{carried}{_D3}"calc": {{{values}{weights}{_D3}}}\n\t\t}}'
    get = node.get
    out = [f'\n\t\t{{{_D3}"id": {_quoted(node["id"])},{_D3}"description": {_value(node["description"])}']
    add = out.append
    for key, head in _ITEM_MIDDLE:
        if key in node:
            add(head + _value(node[key]))
    value = get("tags")
    if value:
        add(f'{_D3}"tags": {_texts(value)}')
    if "base_value" in node:
        add(f'{_D3}"base_value": {_value(node["base_value"])}')
    if "base_weight" in node:
        add(f'{_D3}"base_weight": {_value(node["base_weight"])}')
    _add_lists(node, add)
    if "quantity" in node:
        add(f'{_D3}"quantity": {_number(node["quantity"])}')
    if "equipped" in node:
        add(f'{_D3}"equipped": {_value(node["equipped"])}')
    if "calc" in node:
        value = node["calc"]
        if type(value) is dict and tuple(value) == _ITEM_CALC:  # the usual calc: cost and weight
            weight, extended = value["weight"], value["extended_weight"]
            if type(weight) is str and type(extended) is str:
                add(
                    f'{_D3}"calc": {{{_D4}"value": {_number(value["value"])},{_D4}"extended_value": '
                    f'{_number(value["extended_value"])},{_D4}"weight": {_quoted(weight)},{_D4}'
                    f'"extended_weight": {_quoted(extended)}{_D3}}}'
                )
                return ",".join(out) + "\n\t\t}"
        add(f'{_D3}"calc": {_block(value, _D4, _D3)}')
    return ",".join(out) + "\n\t\t}"


_ITEM_CALC: Final = ("value", "extended_value", "weight", "extended_weight")
_PLAIN_ITEM: Final = (
    "id", "description", "base_value", "base_weight", "weapons", "features", "quantity", "equipped", "calc",
)  # fmt: skip
_PLAIN_ITEM_NOTES: Final = (
    "id", "description", "local_notes", "base_value", "base_weight", "weapons", "features", "quantity",
    "equipped", "calc",
)  # fmt: skip
"""The usual items (the shapes written at once): bought and carried, without weapons or features."""

_ITEM_MIDDLE: Final = tuple(
    (key, f'{_D3}"{key}": ') for key in ("reference", "local_notes", "tech_level", "legality_class")
)


def _weapons(weapons: Any) -> str:
    """A node's weapons (at depth 3), each with every key GCS has for weapons, in GCS's order."""
    if type(weapons) is not list:
        raise _Unusual
    return "[" + ",".join([_weapon(weapon) for weapon in weapons]) + _D3 + "]"


def _weapon(weapon: Any) -> str:
    """A weapon (at depth 4): its GCS keys in GCS's order, none left out."""
    if type(weapon) is not dict:
        raise _Unusual
    parts: list[str] = []
    add = parts.append
    slots = _WEAPON_SLOTS
    last = -1
    for key, value in weapon.items():
        slot = slots.get(key)
        if slot is None:
            continue  # not a key GCS has for weapons
        rank, head = slot
        if rank < last:
            raise _Unusual  # built in another order
        last = rank
        kind = type(value)
        if kind is str:
            add(head + encode_basestring(value))
        elif kind is dict:
            add(head + _block(value, _D6, _D5))
        elif kind is list and value:
            if len(value) == 1:  # the usual defaults: the one skill the weapon is used with
                add(f"{head}[{_D6}{_block(value[0], _D7, _D6)}{_D5}]")
            else:
                add(head + "[" + ",".join([_D6 + _block(item, _D7, _D6) for item in value]) + _D5 + "]")
        else:
            add(head + _value(value))
    return _D4 + "{" + ",".join(parts) + _D4 + "}" if parts else _D4 + "{}"


_WEAPON_SLOTS: Final = {key: (rank, f'{_D5}"{key}": ') for rank, key in enumerate(WEAPON_KEYS)}
"""Each key GCS has for weapons: its place in GCS's order, and its text before the value."""


def _value(value: Any) -> str:
    """A node's value that is not a container with content."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return int.__repr__(value)
    if (kind is dict or kind is list) and value:
        raise _Unusual
    return scalar_text(value)


def _number(value: Any) -> str:
    """A node's number (or any value that is not a container with content)."""
    return int.__repr__(value) if type(value) is int else _value(value)


def _nested(value: Any) -> str:
    """A node's list of entries at depth 3 (its features, modifiers, defaults): each an object
    of plain values, lists of texts and blocks, written here; anything else by the generic writer."""
    if type(value) is list and value:
        try:
            if len(value) == 1:  # the usual: one feature
                return f"[{_D4}{_entry(value[0])}{_D3}]"
            return "[" + ",".join([_D4 + _entry(entry) for entry in value]) + _D3 + "]"
        except (_Unusual, TypeError):
            return container_text(value, "\t\t\t", 3)
    if type(value) is dict and value:
        return container_text(value, "\t\t\t", 3)
    return scalar_text(value)


def _entry(entry: Any) -> str:
    """An entry of a node's list (a feature: ``{"type": "dr_bonus", "locations": ["skull"],
    "amount": 4}``) at depth 4."""
    if type(entry) is not dict or not entry:
        raise _Unusual
    heads = _KEYS
    if len(entry) == 3:  # the usual feature: its type, what it bears on (a text or one), its amount
        (key, value), (key2, value2), (key3, value3) = entry.items()
        kind2 = type(value2)
        kind3 = type(value3)
        if type(value) is str and kind2 is str and kind3 is str:  # a modifier without a cost
            return (
                f"{{{_D5}{heads.get(key) or _head(key)}{_quoted(value)},"
                f"{_D5}{heads.get(key2) or _head(key2)}{_quoted(value2)},"
                f"{_D5}{heads.get(key3) or _head(key3)}{_quoted(value3)}{_D4}}}"
            )
        if type(value) is str and kind3 is int:
            middle = (
                _quoted(value2)
                if kind2 is str
                else f"[{_D6}{_quoted(value2[0])}{_D5}]"
                if kind2 is list and len(value2) == 1 and type(value2[0]) is str
                else "[" + ",".join([_D6 + _quoted(item) for item in value2]) + _D5 + "]"
                if kind2 is list and value2
                else None
            )  # a TypeError for locations that are not texts: the generic writer writes them
            if middle is not None:
                return (
                    f"{{{_D5}{heads.get(key) or _head(key)}{_quoted(value)},"
                    f"{_D5}{heads.get(key2) or _head(key2)}{middle},"
                    f"{_D5}{heads.get(key3) or _head(key3)}{int.__repr__(value3)}{_D4}}}"
                )
    elif len(entry) == 4:  # the usual modifier: its id, name, notes and cost, all texts
        (key, value), (key2, value2), (key3, value3), (key4, value4) = entry.items()
        if type(value) is str and type(value2) is str and type(value3) is str and type(value4) is str:
            return (
                f"{{{_D5}{heads.get(key) or _head(key)}{_quoted(value)},"
                f"{_D5}{heads.get(key2) or _head(key2)}{_quoted(value2)},"
                f"{_D5}{heads.get(key3) or _head(key3)}{_quoted(value3)},"
                f"{_D5}{heads.get(key4) or _head(key4)}{_quoted(value4)}{_D4}}}"
            )
    elif len(entry) == 5:  # the usual skill bonus: type, selection, name and specialization, amount
        (key, value), (key2, value2), (key3, value3), (key4, value4), (key5, value5) = entry.items()
        if (
            type(value) is str
            and type(value2) is str
            and type(value3) is dict
            and type(value4) is dict
            and type(value5) is int
        ):
            return (
                f"{{{_D5}{heads.get(key) or _head(key)}{_quoted(value)},"
                f"{_D5}{heads.get(key2) or _head(key2)}{_quoted(value2)},"
                f"{_D5}{heads.get(key3) or _head(key3)}{_block(value3, _D6, _D5)},"
                f"{_D5}{heads.get(key4) or _head(key4)}{_block(value4, _D6, _D5)},"
                f"{_D5}{heads.get(key5) or _head(key5)}{int.__repr__(value5)}{_D4}}}"
            )
    parts: list[str] = []
    add = parts.append
    for key, value in entry.items():
        head = _D5 + (heads.get(key) or encode_basestring(key) + ": ")
        kind = type(value)
        if kind is str:
            add(head + encode_basestring(value))
        elif kind is int:
            add(head + int.__repr__(value))
        elif kind is list and value:
            add(head + "[" + ",".join([_D6 + encode_basestring(item) for item in value]) + _D5 + "]")
        elif kind is dict and value:
            add(head + _block(value, _D6, _D5))
        else:
            add(head + _value(value))
    return "{" + ",".join(parts) + _D4 + "}"


def _texts(values: Any) -> str:
    """A node's list of texts (its tags) at depth 3."""
    if type(values) is not list:
        raise _Unusual
    if len(values) == 1:
        return f"[{_D4}{_quoted(values[0])}{_D3}]"
    return "[" + ",".join([_D4 + encode_basestring(value) for value in values]) + _D3 + "]"


def _block(block: Any, inner: str, outer: str) -> str:
    """A block of plain values (``calc``, a weapon's damage): its keys on lines ``inner``, its
    closing brace on ``outer``."""
    if type(block) is not dict:
        raise _Unusual
    heads = _KEYS
    size = len(block)
    if size == 2:  # most blocks have two or three keys, mostly texts: written without a loop
        (key, value), (key2, value2) = block.items()
        return (
            f"{{{inner}{heads.get(key) or _head(key)}"
            f"{_quoted(value) if type(value) is str else _value(value)},"
            f"{inner}{heads.get(key2) or _head(key2)}"
            f"{_quoted(value2) if type(value2) is str else _value(value2)}{outer}}}"
        )
    if size == 3:
        (key, value), (key2, value2), (key3, value3) = block.items()
        return (
            f"{{{inner}{heads.get(key) or _head(key)}"
            f"{_quoted(value) if type(value) is str else _value(value)},"
            f"{inner}{heads.get(key2) or _head(key2)}"
            f"{_quoted(value2) if type(value2) is str else _value(value2)},"
            f"{inner}{heads.get(key3) or _head(key3)}"
            f"{_quoted(value3) if type(value3) is str else _value(value3)}{outer}}}"
        )
    if not size:
        return "{}"
    parts: list[str] = []
    add = parts.append
    for key, value in block.items():
        head = heads.get(key) or _head(key)
        kind = type(value)
        if kind is int:
            add(inner + head + int.__repr__(value))
        elif kind is str:
            add(inner + head + encode_basestring(value))
        else:
            add(inner + head + _value(value))
    return "{" + ",".join(parts) + outer + "}"


def _head(key: str) -> str:
    """A key as written before its value (a TypeError for a key that is not text)."""
    return encode_basestring(key) + ": "


_KEYS: Final = {
    key: f'"{key}": '
    for key in (
        "value", "points", "current", "level", "rsl", "current_level", "extended_value", "weight",
        "extended_weight", "type", "st", "base", "armor_divisor", "damage", "parry", "block", "range",
        "accuracy", "reach", "rate_of_fire", "shots", "bulk", "recoil", "strength", "name", "amount",
        "locations", "selection_type", "specialization", "compare", "qualifier", "id", "local_notes",
        "cost_adj", "modifier", "attribute",
    )
}  # fmt: skip
"""The keys of the blocks and entries the export writes, as written before their value."""
