"""Hit locations: GCS's body table (``settings.body_type``, ``hit_locations`` in version 2) to
the format's DR per location; the table itself stays in the GCS data."""

from __future__ import annotations

import math
from typing import Any

from ._context import Context
from ._fields import Node, mapping, node_list, number, text

__all__ = ["damage_resistance"]

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


def _locations(body: Node) -> list[Node]:
    """Every location of the table and its sub-tables, in order (no recursion)."""
    found: list[Node] = []
    stack = [body]
    tables = 0
    while stack and tables < _MAX_TABLES:
        table = stack.pop(0)
        tables += 1
        for location in node_list(table, "locations"):
            if type(location) is not dict:
                continue
            found.append(location)
            sub_table = location.get("sub_table")
            if type(sub_table) is dict:
                stack.append(sub_table)
    return found


def damage_resistance(ctx: Context) -> list[dict[str, Any]]:
    """One entry per hit location id and DR (locations GCS lists twice, as the arms, once)."""
    settings = mapping(ctx.data, "settings")
    body = mapping(settings, "body_type") or mapping(settings, "hit_locations")
    if not body:
        return []
    entries: list[dict[str, Any]] = []
    seen: set[tuple[str, int, str]] = set()
    computed = False
    for location in _locations(body):
        ident = text(location, "id").strip().lower()
        name = (text(location, "choice_name") or text(location, "table_name") or ident).strip()
        if not name:
            continue
        calc = mapping(location, "calc")
        dr = mapping(calc, "dr")
        if "dr" in calc and (dr or number(calc, "dr") is not None):
            base = number(dr, "all") or 0 if dr else number(calc, "dr") or 0
            extra = {key: number(dr, key) for key in dr if key != "all"}
        elif type(calc.get("dr")) is dict:
            base, extra = 0, {}
        else:
            base, extra = _computed(ctx, location, ident)
            computed = True
        value = max(math.floor(base), 0)
        notes = "; ".join(
            f"{value + math.floor(amount)} vs {key}"
            for key, amount in extra.items()
            if amount is not None and amount != 0
        )
        key = (ident, value, notes)
        if key in seen:
            continue
        seen.add(key)
        entry: dict[str, Any] = {"location": name}
        if ident in _LOCATION_IDS:
            entry["locationId"] = _LOCATION_IDS[ident]
        entry["dr"] = value
        if notes:
            entry["notes"] = notes
        entries.append(entry)
    if computed:
        ctx.note(
            "/settings",
            "approximated",
            "GCS saved no DR per hit location: computed from the locations' DR and the DR bonuses in force.",
        )
    ctx.note(
        "/settings/body_type" if "body_type" in settings else "/settings/hit_locations",
        "movedToExtensions",
        f"The hit-location table ({text(body, 'name') or 'unnamed'}: rolls, penalties, descriptions) is kept "
        "only in the GCS data; the document has DR per location.",
    )
    return entries


def _computed(ctx: Context, location: Node, ident: str) -> tuple[float, dict[str, float | None]]:
    base = number(location, "dr_bonus") or 0
    extra: dict[str, float | None] = {}
    for feature in ctx.features.of_kind("dr_bonus"):
        places = [p.lower() for p in node_list(feature.data, "locations") if type(p) is str]
        single = text(feature.data, "location").lower()
        if single:
            places.append(single)
        if ident not in places and "all" not in places:
            continue
        specialization = text(feature.data, "specialization").strip().lower()
        if specialization and specialization != "all":
            extra[specialization] = (extra.get(specialization) or 0) + feature.amount()
        else:
            base += feature.amount()
    return base, extra
