"""Hit locations: GCS's body table (``settings.body_type``, ``hit_locations`` in version 2) to
the format's DR per location, and the whole table (ids, names, penalties, rolls, natural DR, DR
by damage type) to the importer's ``body`` record, which :func:`~gurps_character.resolve_hit`
follows (:mod:`gurps_character.locations`)."""

from __future__ import annotations

import math
import re
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ...errors import CharacterError
from ...locations import read_body
from ..format.fields import Node, mapping, node_list, number, text
from .context import Context

__all__ = ["BodyTable", "body_table", "damage_resistance"]

_LOCATION_IDS = {
    "eye": "eyes",
    "eyes": "eyes",
    "skull": "skull",
    "face": "face",
    "neck": "neck",
    "torso": "torso",
    "vitals": "vitals",
    "groin": "groin",
    "arm": "arms",
    "arms": "arms",
    "hand": "hands",
    "hands": "hands",
    "leg": "legs",
    "legs": "legs",
    "foot": "feet",
    "feet": "feet",
    "head": "head",
}
_MAX_TABLES = 1000
_MAX_ROWS = 1000
_MAX_TEXT = 200
_MAX_DR_KEYS = 100
_MAX_NUMBER = 10**9
_NOT_AN_ID = re.compile(r"[^a-z0-9_]")
_TABLE_DICE = re.compile(r"\s*([0-9]{1,3})\s*d.*")
_HUMANOID: Node = {
    "name": "Humanoid",
    "roll": "3d",
    "locations": [
        {"id": ident, "choice_name": name, "table_name": table, "slots": slots, "hit_penalty": penalty}
        | ({"dr_bonus": 2} if ident == "skull" else {})
        for ident, name, table, slots, penalty in (
            ("eye", "Eyes", "Eyes", 0, -9),
            ("skull", "Skull", "Skull", 2, -7),
            ("face", "Face", "Face", 1, -5),
            ("leg", "Leg", "Right Leg", 2, -2),
            ("arm", "Arm", "Right Arm", 1, -2),
            ("torso", "Torso", "Torso", 2, 0),
            ("groin", "Groin", "Groin", 1, -3),
            ("arm", "Arm", "Left Arm", 1, -2),
            ("leg", "Leg", "Left Leg", 2, -2),
            ("hand", "Hand", "Hand", 1, -4),
            ("foot", "Foot", "Foot", 1, -4),
            ("neck", "Neck", "Neck", 2, -5),
            ("vitals", "Vitals", "Vitals", 0, -3),
        )
    ],
}
"""GCS's default body (B552's humanoid table), used when a file has none (old files)."""
_OLD_PLACES = {
    "eyes": ["eye"],
    "arms": ["arm"],
    "hands": ["hand"],
    "legs": ["leg"],
    "feet": ["foot"],
    "full_body": ["all"],
    "full_body_except_eyes": [
        "skull",
        "face",
        "leg",
        "arm",
        "torso",
        "groin",
        "hand",
        "foot",
        "neck",
        "vitals",
    ],
}
"""GCS 4.x location names in DR bonuses, as the body tables' ids."""


@dataclass(slots=True)
class _Row:
    """One location of the table as GCS shows it."""

    ident: str
    name: str
    table_name: str
    hit_penalty: int
    roll_range: str
    natural: int
    """The DR the body itself gives here (the location's ``dr_bonus`` and its parent's)."""
    dr: dict[str, int]
    """GCS's DR here: ``all``, and what other damage types add on top of it."""
    saved: dict[str, int] | None
    """The DR the file saved (``calc.dr``), when it saved one."""


@dataclass(slots=True)
class BodyTable:
    """The character's body as GCS shows it.

    Attributes:
        name: The body's name.
        roll: The dice that pick a random location.
        rows: Every location, sub-tables' rows after their parent's.
        pointer: Where the table is in the GCS file.
        default: The file has no table: GCS's default Humanoid body.
        computed: Some DR was computed with GCS's rules (the file saved none).
        stale: Locations whose saved DR the current GCS computes otherwise (old files).
    """

    name: str
    roll: str
    rows: list[_Row]
    pointer: str
    default: bool
    computed: bool = False
    stale: list[str] = field(default_factory=list)

    def record(self) -> dict[str, Any] | None:
        """The ``body`` record of the importer's extension, or None when no row has an id."""
        rows = [row for row in self.rows if row.ident][:_MAX_ROWS]
        if not rows:
            return None
        record = {
            "name": self.name[:_MAX_TEXT],
            "roll": self.roll[:_MAX_TEXT] or "3d",
            "locations": [
                {
                    "id": row.ident,
                    "name": row.name[:_MAX_TEXT],
                    "tableName": row.table_name[:_MAX_TEXT],
                    "hitPenalty": row.hit_penalty,
                    "rollRange": row.roll_range[:_MAX_TEXT],
                    "naturalDr": row.natural,
                    "dr": dict(row.dr),
                }
                for row in rows
            ],
        }
        try:
            read_body(record)  # what resolve_hit reads back: never a record it would refuse
        except CharacterError:
            return None
        return record


def _whole(value: float | None, default: int = 0) -> int:
    return default if value is None else _bounded(value)


def _bounded(value: float | None) -> int:
    """A whole number within ±10^9 (GCS truncates DR amounts toward zero)."""
    return max(-_MAX_NUMBER, min(math.trunc(value or 0), _MAX_NUMBER))


def _ident(location: Node) -> str:
    """GCS's id as the record keeps it: lower case, a-z, 0-9 and _ only (as GCS sanitizes)."""
    return _NOT_AN_ID.sub("", text(location, "id").strip().lower())[:64]


def _start(roll: str) -> int:
    """The lowest total of the table's dice (``3d`` → 3), where GCS starts its roll ranges."""
    match = _TABLE_DICE.fullmatch(roll)
    return int(match.group(1)) if match else 3


def _roll_range(row: _Row, location: Node, start: int) -> int:
    """Sets the row's roll range (GCS's saved one, else from its slots as GCS numbers them) and
    gives where the next row's starts."""
    saved = text(mapping(location, "calc"), "roll_range").strip()
    slots = max(_whole(number(location, "slots")), 0)
    computed = "-" if slots == 0 else str(start) if slots == 1 else f"{start}-{start + slots - 1}"
    row.roll_range = saved or computed
    return start + slots


def _saved_dr(location: Node) -> dict[str, int] | None:
    """The DR GCS saved for a location (``calc.dr``: a map, or a number in version 2)."""
    calc = mapping(location, "calc")
    raw = calc.get("dr")
    if type(raw) is dict:
        found = {"all": 0}
        for key in list(raw)[:_MAX_DR_KEYS]:
            amount = number(raw, key)
            name = key.strip().lower()[:_MAX_TEXT]
            if amount is not None and name:
                found[name] = found.get(name, 0) + _bounded(amount)
        return found
    if number(calc, "dr") is not None:
        return {"all": _bounded(number(calc, "dr"))}
    return None


def _dr_bonuses(ctx: Context) -> dict[str, dict[str, int]]:
    """Every DR bonus in force, added up once by the location it names (``all`` for every
    location of the top-level table): damage type (or ``all``) → amount, in the order met, at
    most :data:`_MAX_DR_KEYS` types per location."""
    index: dict[str, dict[str, int]] = {}
    for feature in ctx.features.of_kind("dr_bonus"):
        named = [p.strip().lower() for p in node_list(feature.data, "locations") if type(p) is str]
        single = text(feature.data, "location").strip().lower()
        if single:
            named.append(single)
        places = {place for name in named for place in _OLD_PLACES.get(name, [name])}
        specialization = text(feature.data, "specialization").strip().lower()[:_MAX_TEXT] or "all"
        amount = _bounded(feature.amount())
        for place in places:
            totals = index.setdefault(place, {})
            if specialization in totals or len(totals) < _MAX_DR_KEYS:
                totals[specialization] = _bounded(totals.get(specialization, 0) + amount)
    return index


def _rules_dr(
    index: dict[str, dict[str, int]], location: Node, ident: str, top_level: bool
) -> dict[str, int]:
    """GCS's DR at a location by its rules: the location's ``dr_bonus`` plus every DR bonus in
    force naming it (or ``all``, for the top-level table's locations), by damage type."""
    dr = {"all": _whole(number(location, "dr_bonus"))}
    for totals in (index.get(ident, {}), index.get("all", {}) if top_level and ident != "all" else {}):
        for specialization, amount in totals.items():
            if specialization not in dr and len(dr) >= _MAX_DR_KEYS:
                continue
            dr[specialization] = _bounded(dr.get(specialization, 0) + amount)
    return dr


def _added(own: dict[str, int], parent: dict[str, int]) -> dict[str, int]:
    """A sub-table location's DR: its own plus its parent location's (as GCS adds them)."""
    total = dict(own)
    for key, amount in parent.items():
        if key in total or len(total) < _MAX_DR_KEYS:
            total[key] = _bounded(total.get(key, 0) + amount)
    return total


@dataclass(slots=True)
class _Parent:
    """What a sub-table's rows inherit from the row that holds the table (GCS adds its DR)."""

    natural: int = 0
    dr: dict[str, int] = field(default_factory=dict)
    top_level: bool = True


def body_table(ctx: Context) -> BodyTable | None:
    """The character's body table as GCS shows it (GCS's default Humanoid body when an old file
    has none), or None when the file's table is not one."""
    settings = mapping(ctx.data, "settings")
    body = mapping(settings, "body_type") or mapping(settings, "hit_locations")
    default = not body and "body_type" not in settings and "hit_locations" not in settings
    if default:
        body = _HUMANOID
    elif not body:
        return None
    pointer = "/settings/body_type" if "body_type" in settings else "/settings/hit_locations"
    name = text(body, "name").strip() or "unnamed"
    table = BodyTable(
        name, text(body, "roll").strip() or "3d", [], "/settings" if default else pointer, default
    )
    recompute = default or ctx.version <= 2  # GCS 4.x saved its own DR: today's GCS computes it anew
    index = _dr_bonuses(ctx)
    queue: deque[tuple[Node, _Parent]] = deque([(body, _Parent())])
    tables = 0
    while queue and tables < _MAX_TABLES:
        current, parent = queue.popleft()
        tables += 1
        start = _start(text(current, "roll"))
        for location in node_list(current, "locations"):
            if type(location) is not dict:
                continue
            row = _row(index, location, parent, recompute, table)
            table.rows.append(row)
            start = _roll_range(row, location, start)
            sub_table = location.get("sub_table")
            if type(sub_table) is dict:
                queue.append((sub_table, _Parent(row.natural, row.dr, top_level=False)))
    return table


def _row(
    index: dict[str, dict[str, int]],
    location: Node,
    parent: _Parent,
    recompute: bool,
    table: BodyTable,
) -> _Row:
    """One location as GCS shows it: its saved DR, or GCS's rules' when it saved none or when
    the file is old enough that today's GCS computes its own (noted in the table)."""
    ident = _ident(location)
    name = (text(location, "choice_name") or text(location, "table_name") or ident).strip()
    saved = _saved_dr(location)
    rules = None
    if saved is None or recompute:
        rules = _added(_rules_dr(index, location, ident, parent.top_level), parent.dr)
    if saved is None:
        table.computed = True
    elif rules is not None and _plain_dr(saved) != _plain_dr(rules):
        table.stale.append(f"{name or ident} {_shown(saved)} → {_shown(rules)}")
    else:
        rules = saved
    dr = rules if rules is not None else saved or {"all": 0}
    natural = min(max(_whole(number(location, "dr_bonus")), 0) + parent.natural, _MAX_NUMBER)
    return _Row(
        ident,
        name,
        text(location, "table_name").strip(),
        _whole(number(location, "hit_penalty")),
        "-",
        min(natural, max(dr["all"], 0)),
        _plain_dr(dr),
        saved,
    )


def _plain_dr(dr: dict[str, int]) -> dict[str, int]:
    """DR by type without the types that add nothing (GCS writes ``all`` always)."""
    return {key: amount for key, amount in dr.items() if key == "all" or amount}


def _shown(dr: dict[str, int]) -> str:
    """DR as GCS shows it: ``4``, or ``4/5`` with what a damage type adds (``5 vs crushing``)."""
    extra = [f"{dr['all'] + amount} vs {key}" for key, amount in dr.items() if key != "all" and amount]
    return f"DR {dr['all']}" + (f" ({', '.join(extra)})" if extra else "")


def damage_resistance(ctx: Context, table: BodyTable | None) -> list[dict[str, Any]]:
    """One entry per hit location id and DR (locations GCS lists twice, as the arms, once), each
    without the location's natural DR (the rules add it; the body record keeps it)."""
    if table is None:
        return []
    entries: list[dict[str, Any]] = []
    seen: set[tuple[str, int, str]] = set()
    natural_kept: dict[str, int] = {}
    for row in table.rows:
        if not row.name:
            continue
        value = max(row.dr["all"], 0) - row.natural
        if row.natural:
            natural_kept.setdefault(row.name, row.natural)
        notes = "; ".join(
            f"{value + amount} vs {key}" for key, amount in row.dr.items() if key != "all" and amount
        )
        key = (row.ident, value, notes)
        if key in seen:
            continue
        seen.add(key)
        entry: dict[str, Any] = {"location": row.name[:_MAX_TEXT]}
        if row.ident in _LOCATION_IDS:
            entry["locationId"] = _LOCATION_IDS[row.ident]
        entry["dr"] = value
        if notes:
            entry["notes"] = notes
        entries.append(entry)
    _notes(ctx, table, natural_kept)
    return entries


def _notes(ctx: Context, table: BodyTable, natural_kept: dict[str, int]) -> None:
    if table.rows and not any(row.ident for row in table.rows):
        ctx.note(
            table.pointer,
            "notCarried",
            "No location of the hit-location table has an id: the body table is not kept in "
            "extensions (body), and resolve_hit treats the character as a humanoid.",
        )
    if natural_kept:
        listed = ", ".join(f"{name} {amount}" for name, amount in list(natural_kept.items())[:6])
        ctx.note(
            table.pointer,
            "approximated",
            f"DR per location is stored without the body's natural DR ({listed}), which GCS counts in: "
            "the format lists armor and advantages, the rules add the natural DR (the body table in "
            "extensions, body, keeps it, and resolve_hit adds it).",
        )
    if table.stale:
        ctx.note(
            table.pointer,
            "approximated",
            f"The DR this version {ctx.version} file saved is not what the current GCS computes from it: "
            f"{'; '.join(table.stale[:6])}{' ...' if len(table.stale) > 6 else ''}. "
            "The import uses the current GCS's.",
        )
    if table.computed and not table.default:
        ctx.note(
            "/settings",
            "approximated",
            "GCS saved no DR per hit location: computed from the locations' DR and the DR bonuses in force.",
        )
    if table.default:
        ctx.note(
            "/settings",
            "approximated",
            "The file has no hit-location table: DR is given for GCS's default body (Humanoid).",
        )
        return
    ctx.note(
        table.pointer,
        "movedToExtensions",
        f"The hit-location table ({table.name}: locations, rolls, penalties, natural DR, DR by damage type) "
        "is in extensions (body), which resolve_hit follows; the document has DR per location.",
    )
