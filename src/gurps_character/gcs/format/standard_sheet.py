"""What every exported GCS character carries: the standard attribute set and the humanoid body.

GCS keeps a character's attribute definitions and hit-location table in the file itself. An
exported character gets the Basic Set's attributes (B14-B17: bases, costs, the pools' thresholds
of B419 and B426) and the humanoid hit-location table (B398), written here from the rules, in the
layout GCS's ``settings`` use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .json_text import RawJson, gcs_text

__all__ = [
    "ATTRIBUTE_DEFINITIONS",
    "ATTRIBUTE_NAMES",
    "HUMANOID",
    "POOL_THRESHOLDS",
    "SHEET_DISPLAY",
    "attribute_definitions_text",
    "attributes_text",
    "humanoid_body_text",
    "roll_ranges",
    "standard_attributes_text",
]

SHEET_DISPLAY: Final = {
    "user_description_display": "tooltip",
    "modifiers_display": "inline",
    "notes_display": "inline",
    "skill_level_adj_display": "tooltip",
    "show_spell_adj": True,
}
"""The sheet settings GCS writes after the units, at its factory values (FactorySheetSettings in
GCS's sheet_settings.go). GCS reads an absent display as ``not_shown`` and an absent
``show_spell_adj`` as false, so a file without them hides the notes and modifiers the export puts
on traits, skills and items."""

_HALVE_MOVE_AND_DODGE: Final = ("halve_move", "halve_dodge")
_HALVE_ALL: Final = ("halve_move", "halve_dodge", "halve_st")

POOL_THRESHOLDS: Final[dict[str, tuple[tuple[str, str, str, tuple[str, ...]], ...]]] = {
    "hp": (
        ("Dead", "Math.round(-$hp * 5)", "Dead at -5 times HP (B423).", _HALVE_MOVE_AND_DODGE),
        (
            "Dying #4",
            "Math.round(-$hp * 4)",
            "A death check (HT) at each further multiple of HP lost (B419).",
            _HALVE_MOVE_AND_DODGE,
        ),
        (
            "Dying #3",
            "Math.round(-$hp * 3)",
            "A death check (HT) at each further multiple of HP lost (B419).",
            _HALVE_MOVE_AND_DODGE,
        ),
        (
            "Dying #2",
            "Math.round(-$hp * 2)",
            "A death check (HT) at each further multiple of HP lost (B419).",
            _HALVE_MOVE_AND_DODGE,
        ),
        ("Dying #1", "-$hp", "A death check (HT) on reaching -HP (B419).", _HALVE_MOVE_AND_DODGE),
        ("Collapse", "0", "An HT roll each turn to stay conscious (B419).", _HALVE_MOVE_AND_DODGE),
        (
            "Reeling",
            "Math.ceil($hp / 3) - 1",
            "Below a third of HP: Move and Dodge halved (B419).",
            _HALVE_MOVE_AND_DODGE,
        ),
        ("Wounded", "$hp - 1", "", ()),
        ("Healthy", "$hp", "", ()),
    ),
    "fp": (
        ("Unconscious", "-$fp", "Unconscious at -FP (B426).", _HALVE_ALL),
        ("Collapse", "0", "A Will roll to go on, each turn of effort (B426).", _HALVE_ALL),
        (
            "Tired",
            "Math.ceil($fp / 3) - 1",
            "Below a third of FP: Move, Dodge and ST halved (B426).",
            _HALVE_ALL,
        ),
        ("Tiring", "$fp - 1", "", ()),
        ("Rested", "$fp", "", ()),
    ),
}
"""Each pool's states, worst first: name, the highest current value still in it (GCS script),
what it means, and what GCS halves meanwhile."""

ATTRIBUTE_NAMES: Final = {
    "st": "ST",
    "dx": "DX",
    "iq": "IQ",
    "ht": "HT",
    "will": "Will",
    "per": "Per",
    "hp": "HP",
    "fp": "FP",
    "basic_speed": "Basic Speed",
    "basic_move": "Basic Move",
}

# id, type, name, full name, base, points per level, size discount per SM (percent)
_DEFINITIONS: Final[tuple[tuple[str, str, str, str, str, int, int], ...]] = (
    ("st", "integer", "ST", "Strength", "10", 10, 10),
    ("dx", "integer", "DX", "Dexterity", "10", 20, 0),
    ("iq", "integer", "IQ", "Intelligence", "10", 20, 0),
    ("ht", "integer", "HT", "Health", "10", 10, 0),
    ("will", "integer", "Will", "", "$iq", 5, 0),
    ("fright_check", "integer", "Fright Check", "", "$will", 2, 0),
    ("per", "integer", "Per", "Perception", "$iq", 5, 0),
    ("vision", "integer", "Vision", "", "$per", 2, 0),
    ("hearing", "integer", "Hearing", "", "$per", 2, 0),
    ("taste_smell", "integer", "Taste & Smell", "", "$per", 2, 0),
    ("touch", "integer", "Touch", "", "$per", 2, 0),
    ("basic_speed", "decimal", "Basic Speed", "", "($dx + $ht) / 4", 20, 0),
    ("basic_move", "integer", "Basic Move", "", "Math.floor($basic_speed)", 5, 0),
    ("fp", "pool", "FP", "Fatigue Points", "$ht", 3, 0),
    ("hp", "pool", "HP", "Hit Points", "$st", 2, 10),
)

ATTRIBUTE_DEFINITIONS: Final = tuple(ident for ident, *_ in _DEFINITIONS)
"""The attribute ids of the set, in the order the file lists them."""


def _definition(entry: tuple[str, str, str, str, str, int, int]) -> dict[str, Any]:
    ident, kind, name, full_name, base, cost, per_sm = entry
    found: dict[str, Any] = {"id": ident, "type": kind, "name": name}
    if full_name:
        found["full_name"] = full_name
    found["base"] = base
    found["cost_per_point"] = cost
    if per_sm:
        found["cost_adj_percent_per_sm"] = per_sm
    if ident in POOL_THRESHOLDS:
        found["thresholds"] = [
            {
                "state": state,
                "value": value,
                **({"explanation": explanation} if explanation else {}),
                **({"ops": list(ops)} if ops else {}),
            }
            for state, value, explanation, ops in POOL_THRESHOLDS[ident]
        ]
    return found


def _indented(data: Any, depth: int) -> RawJson:
    """``data``'s GCS text laid out to sit ``depth`` levels deep."""
    text = gcs_text(data)[:-1]
    return RawJson(text.replace("\n", "\n" + "\t" * depth))


_DEFINITIONS_TEXT: Final = _indented([_definition(entry) for entry in _DEFINITIONS], 2)


def attribute_definitions_text() -> RawJson:
    """``settings.attributes`` as text, laid out for its place in the file (computed once)."""
    return _DEFINITIONS_TEXT


_MARK: Final = 987_654_301
"""Stand-in for the numbers of an attribute's entry in its template (a number no entry has)."""


def _entry_template(ident: str, pool: bool, damage: bool, own: bool = False) -> str:
    """An attribute's entry (in ``attributes`` at the top of the file) as a %-format string laid
    out for its place in the list, with a ``%s`` for each number in the order they are written:
    adj, damage (a pool's, only when it is not 0), value, current (a pool's), points. ``own``:
    an entry of GCS's own attributes (the document has no place for them), whose adj and points
    are 0, written in the string."""
    calc: dict[str, Any] = {"value": _MARK}
    if pool:
        calc["current"] = _MARK
    calc["points"] = 0 if own else _MARK
    entry: dict[str, Any] = {"attr_id": ident, "adj": 0 if own else _MARK}
    if damage:
        entry["damage"] = _MARK
    entry["calc"] = calc
    return str(_indented(entry, 2)).replace("%", "%%").replace(str(_MARK), "%s")


def _list_layout() -> tuple[str, str, str]:
    """The text before, between and after the entries of a list one level deep in the file."""
    text = str(_indented([_MARK, _MARK], 1))
    head, between, tail = text.split(str(_MARK))
    return head, between, tail


_OWN_ATTRIBUTES: Final = frozenset(("fright_check", "vision", "hearing", "taste_smell", "touch"))
"""GCS's attributes of the set that the format has no place for (no levels bought, no points)."""


def _attributes_template(fp_damage: bool, hp_damage: bool, own_zeros: bool = False) -> str:
    head, between, tail = _list_layout()
    entries = [
        _entry_template(
            ident,
            kind == "pool",
            fp_damage if ident == "fp" else hp_damage if ident == "hp" else False,
            own_zeros and ident in _OWN_ATTRIBUTES,
        )
        for ident, kind, *_ in _DEFINITIONS
    ]
    return head + between.join(entries) + tail


_ATTRIBUTES_TEMPLATES: Final = (
    (_attributes_template(False, False), _attributes_template(False, True)),
    (_attributes_template(True, False), _attributes_template(True, True)),
)
"""The file's ``attributes`` as %-format strings, by whether FP and HP have damage."""

_STANDARD_TEMPLATES: Final = (
    (_attributes_template(False, False, True), _attributes_template(False, True, True)),
    (_attributes_template(True, False, True), _attributes_template(True, True, True)),
)
""":data:`_ATTRIBUTES_TEMPLATES` with GCS's own attributes' adj and points (0) written in."""


def attributes_text(numbers: Sequence[float], fp_damage: bool, hp_damage: bool) -> RawJson:
    """The file's ``attributes`` (one level deep), an entry for each of the standard set in the
    order of :data:`ATTRIBUTE_DEFINITIONS`, from their numbers as GCS writes them (whole numbers
    as ``int``, others as ``float``: ``str`` gives the text the writer gives), in the order they
    are written: each entry's adj, damage (a pool's, only when it has damage), value, current (a
    pool's) and points."""
    return RawJson(_ATTRIBUTES_TEMPLATES[fp_damage][hp_damage] % tuple(numbers))


def standard_attributes_text(numbers: Sequence[float], fp_damage: bool, hp_damage: bool) -> RawJson:
    """:func:`attributes_text` of an export's entries, whose attributes GCS has and the format
    has not (Fright Check, Vision, Hearing, Taste & Smell, Touch) have bought no levels and cost
    no points: ``numbers`` has only their values, their adj and points are in the template (ten
    numbers fewer to format)."""
    return RawJson(_STANDARD_TEMPLATES[fp_damage][hp_damage] % tuple(numbers))


# id, choice name, table name, slots on 3d, hit penalty, own DR (B398)
HUMANOID: Final[tuple[tuple[str, str, str, int, int, int], ...]] = (
    ("eye", "Eyes", "Eyes", 0, -9, 0),
    ("skull", "Skull", "Skull", 2, -7, 2),
    ("face", "Face", "Face", 1, -5, 0),
    ("leg", "Leg", "Right Leg", 2, -2, 0),
    ("arm", "Arm", "Right Arm", 1, -2, 0),
    ("torso", "Torso", "Torso", 2, 0, 0),
    ("groin", "Groin", "Groin", 1, -3, 0),
    ("arm", "Arm", "Left Arm", 1, -2, 0),
    ("leg", "Leg", "Left Leg", 2, -2, 0),
    ("hand", "Hand", "Hand", 1, -4, 0),
    ("foot", "Foot", "Foot", 1, -4, 0),
    ("neck", "Neck", "Neck", 2, -5, 0),
    ("vitals", "Vitals", "Vitals", 0, -3, 0),
)
"""The humanoid hit-location table (B398) as GCS lists it: the arms and legs once per side, the
eyes and vitals off the 3d roll."""


def roll_ranges(slots: tuple[int, ...], first: int = 3) -> list[str]:
    """Each location's range on the dice (``"3-4"``, ``"5"``, ``"-"`` for none) from its slots."""
    ranges = []
    low = first
    for count in slots:
        if count <= 0:
            ranges.append("-")
            continue
        high = low + count - 1
        ranges.append(str(low) if high == low else f"{low}-{high}")
        low = high + 1
    return ranges


_DR_MARK: Final = 987_654_320
"""Stand-ins for the locations' DR in the body's template (numbers no location has)."""


def _body_template() -> str:
    """``settings.body_type`` of the humanoid body as a %-format string with a ``%s`` for each
    location's DR, laid out for its place in the file."""
    locations = []
    for index, ((ident, choice, table, slots, penalty, own), roll) in enumerate(
        zip(HUMANOID, roll_ranges(tuple(entry[3] for entry in HUMANOID)), strict=True)
    ):
        location: dict[str, Any] = {"id": ident, "choice_name": choice, "table_name": table}
        if slots:
            location["slots"] = slots
        if penalty:
            location["hit_penalty"] = penalty
        if own:
            location["dr_bonus"] = own
        location["calc"] = {"roll_range": roll, "dr": {"all": _DR_MARK + index}}
        locations.append(location)
    text = str(_indented({"name": "Humanoid", "roll": "3d", "locations": locations}, 2))
    text = text.replace("%", "%%")
    for index in range(len(HUMANOID)):  # the locations are written in order: so are their slots
        text = text.replace(str(_DR_MARK + index), "%s")
    return text


_BODY_TEMPLATE: Final = _body_template()


def humanoid_body_text(drs: list[int]) -> RawJson:
    """The humanoid body with each location's DR (``calc.dr.all``: its own and its armor's), in
    the order of :data:`HUMANOID`."""
    return RawJson(_BODY_TEMPLATE % tuple(drs))  # %-formatting: a third of str.format's time
