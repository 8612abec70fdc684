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
_HUMANOID: Node = {
    "name": "Humanoid",
    "locations": [
        {"id": ident, "choice_name": name, **({"dr_bonus": 2} if ident == "skull" else {})}
        for ident, name in (
            ("eye", "Eyes"),
            ("skull", "Skull"),
            ("face", "Face"),
            ("leg", "Leg"),
            ("arm", "Arm"),
            ("torso", "Torso"),
            ("groin", "Groin"),
            ("hand", "Hand"),
            ("foot", "Foot"),
            ("neck", "Neck"),
            ("vitals", "Vitals"),
        )
    ],
}
"""GCS's default body, used when a file has none (old files): its locations, the skull's own DR 2."""
_SKULL_NATURAL_DR = 2
"""The skull's own DR (B399): GCS counts it in the skull's DR, the format leaves it to the rules."""
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
    default_body = not body and "body_type" not in settings and "hit_locations" not in settings
    if default_body:
        body = _HUMANOID
    elif not body:
        return []
    entries: list[dict[str, Any]] = []
    seen: set[tuple[str, int, str]] = set()
    computed = False
    skull_natural = 0
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
        if ident == "skull":
            natural = min(_SKULL_NATURAL_DR, value, max(math.floor(number(location, "dr_bonus") or 0), 0))
            if natural:
                value -= natural
                skull_natural = natural
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
    if skull_natural:
        ctx.note(
            _table_pointer(settings, default_body),
            "approximated",
            f"The skull's DR is stored without its natural DR {skull_natural}, which GCS counts in and the "
            "rules add to the DR a sheet lists (the format lists armor and advantages; resolve_hit adds 2).",
        )
    if computed:
        ctx.note(
            "/settings",
            "approximated",
            "GCS saved no DR per hit location: computed from the locations' DR and the DR bonuses in force.",
        )
    if default_body:
        ctx.note(
            "/settings",
            "approximated",
            "The file has no hit-location table: DR is given for GCS's default body (Humanoid).",
        )
        return entries
    ctx.note(
        _table_pointer(settings, default_body),
        "movedToExtensions",
        f"The hit-location table ({text(body, 'name') or 'unnamed'}: rolls, penalties, descriptions) is kept "
        "only in the GCS data; the document has DR per location.",
    )
    return entries


def _table_pointer(settings: Node, default_body: bool) -> str:
    if default_body:
        return "/settings"
    return "/settings/body_type" if "body_type" in settings else "/settings/hit_locations"


def _computed(ctx: Context, location: Node, ident: str) -> tuple[float, dict[str, float | None]]:
    base = number(location, "dr_bonus") or 0
    extra: dict[str, float | None] = {}
    for feature in ctx.features.of_kind("dr_bonus"):
        named = [p.strip().lower() for p in node_list(feature.data, "locations") if type(p) is str]
        single = text(feature.data, "location").strip().lower()
        if single:
            named.append(single)
        places = [place for name in named for place in _OLD_PLACES.get(name, [name])]
        if ident not in places and "all" not in places:
            continue
        specialization = text(feature.data, "specialization").strip().lower()
        if specialization and specialization != "all":
            extra[specialization] = (extra.get(specialization) or 0) + feature.amount()
        else:
            base += feature.amount()
    return base, extra
