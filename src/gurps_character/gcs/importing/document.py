"""The import itself: a GCS file in, a fresh gurps-character document and its notes out."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Final, NamedTuple

from ..._datetime import is_date_time
from ..._extension import GCS_IMPORT, GCS_KEPT_TEXT
from ..._json import dumps
from ..._json_size import indented_size_bound
from ...constants import FORMAT, LATEST_VERSION, MAX_DOCUMENT_BYTES
from ...errors import CharacterError, guarded
from ...update import format_timestamp
from ..format.criteria import MAX_COMPARISONS
from ..format.features import collect_features
from ..format.fields import (
    MAX_FILL,
    Walked,
    fill_placeholders,
    integer,
    mapping,
    number,
    overfilled_texts,
    text,
    whole_number,
)
from ..format.json_text import compact_text
from ..format.units import height_text, weight_text
from ..format.units import tidy as _tidy
from .attributes import (
    AttributeValue,
    attributes_section,
    extra_attributes,
    find_active_thresholds,
    read_attributes,
    secondary_section,
    size_modifier,
    with_defaulted_core,
)
from .body import body_table, damage_resistance
from .context import Context
from .derived import damage_section, dodge_cause, dodge_value, encumbrance_section
from .equipment import equipment_section
from .integrity import integrity_section
from .notes import ImportNote, NoteLog, shortened
from .reading import numbers_beyond_bounds, read_gcs
from .skills import skill_sections
from .traits import trait_sections
from .weapons import weapon_sections

__all__ = ["EXTENSION", "KEPT_TEXT", "GcsImport", "import_gcs"]

EXTENSION = GCS_IMPORT
"""The importer's namespace in ``extensions``: the GCS data and what the format has no field for."""

KEPT_TEXT: Final = GCS_KEPT_TEXT
"""The key, in :data:`EXTENSION`, of the whole GCS file kept as one compact JSON text."""

_MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1
    )
}
_OLD_DATE = re.compile(
    r"\s*([A-Za-z]{3})[a-z]*\.?\s+([0-9]{1,2}),\s*([0-9]{4}),?\s+([0-9]{1,2}):([0-9]{2})\s*([AaPp][Mm])\s*"
)


class GcsImport(NamedTuple):
    """What :func:`import_gcs` returns."""

    document: dict[str, Any]
    """A fresh gurps-character v1.3 document (plain dicts and lists)."""
    notes: tuple[ImportNote, ...]
    """What was not carried over as it was, in the order it was met."""


@guarded
def import_gcs(
    source: object, *, max_bytes: int = MAX_DOCUMENT_BYTES, now: datetime | None = None
) -> GcsImport:
    """Imports a character saved by GCS (GURPS Character Sheet).

    Every JSON file version GCS has written (1, 2, 4 and 5, with the keys GCS renamed inside
    version 5) is read. The document carries GCS's own numbers; where the format's rule formulas
    give something else, ``integrity.deviations`` lists the value with the GCS cause. What the
    format cannot hold stays in the GCS data under ``extensions`` and gets a note.

    Args:
        source: The ``.gcs`` file's text (``str``), its UTF-8 bytes, or the parsed JSON mapping
            (copied, never modified).
        max_bytes: The size limit for text input.
        now: A timezone-aware time recorded as the import time (default: the current time).

    Returns:
        ``GcsImport(document, notes)``, a document the library can serialize, read again,
        update and write back within the same limits.

    Raises:
        CharacterError: ``tooLarge`` (the text is over ``max_bytes``, or the document it
            makes, as :func:`serialize_character` writes it, over the limit documents are read
            with: ``max_bytes`` or :data:`MAX_DOCUMENT_BYTES`, the larger; details ``{size,
            limit}``), ``invalidJson`` (as :func:`parse_character`), ``notGcs``
            (JSON that is not a GCS character) or ``unsupportedGcsVersion`` (XML files and file
            versions GCS never wrote; details ``{version}``), ``invalidArgument`` (a
            ``source`` of another type, a ``max_bytes`` that is not a whole number of at least
            0, or ``now`` in UTC outside the years 1 to 9999).
        TypeError: ``now`` is naive.
    """
    stamp = format_timestamp(now)
    gcs = read_gcs(source, max_bytes)
    data = gcs.data
    traits_key = "advantages" if "traits" not in data and "advantages" in data else "traits"
    walked: Walked = {}
    features = collect_features(data, traits_key, walked)
    ctx = Context(data, gcs.version, traits_key, features, NoteLog(), walked=walked)
    document = _assemble(ctx, gcs.variant, stamp, numbers_bounded=gcs.numbers_bounded)
    _check_size(document, max(max_bytes, MAX_DOCUMENT_BYTES))
    return GcsImport(document, ctx.log.notes())


def _check_size(document: dict[str, Any], limit: int) -> None:
    """Refuses a document longer than ``limit`` as :func:`serialize_character` writes it: it
    would be refused where it is read again (within the default limit, or the larger one the
    caller gave), so play on it could never be saved nor written back into the GCS file. The
    text is written and measured only when a bound of its size (:func:`indented_size_bound`,
    the kept file's text measured exactly) is over the limit: a document is usually far within."""
    if indented_size_bound(document, limit - 1) + 1 <= limit:
        return
    size = len(dumps(document, 2).encode("utf-8")) + 1  # (lone surrogates are written escaped)
    if size > limit:
        raise CharacterError(
            "tooLarge",
            f"The GCS file makes a document of {size} bytes (as serialize_character writes it), over "
            f"the limit of {limit}; a larger max_bytes imports it, and the same limit reads the "
            "document again.",
            {"size": size, "limit": limit},
        )


def _assemble(ctx: Context, variant: str, stamp: str, *, numbers_bounded: bool) -> dict[str, Any]:
    values = read_attributes(ctx)
    ctx.attribute_values = {ident: found.value for ident, found in values.items()}
    find_active_thresholds(ctx, values)
    primary = attributes_section(ctx, values)
    values = with_defaulted_core(values)
    ctx.attribute_values = {ident: found.value for ident, found in values.items()}
    secondary = secondary_section(ctx, values, primary)
    traits = trait_sections(ctx)
    skills = skill_sections(ctx, values, primary["st"]["value"])
    extras = extra_attributes(ctx, values)
    damage = damage_section(ctx, primary["st"]["value"])
    weapons = weapon_sections(ctx, skills, primary["st"]["value"], damage)
    equipment = equipment_section(ctx)
    speed = secondary["basicSpeed"]["value"]
    dodge = dodge_value(ctx, speed)
    body = body_table(ctx)
    document: dict[str, Any] = {
        "format": FORMAT,
        "formatVersion": LATEST_VERSION,
        "ruleset": {"system": "GURPS", "edition": 4, "units": "metric", "currency": "$"},
        "meta": _meta(ctx),
        "profile": _profile(ctx),
        "points": {},
        "attributes": primary,
        "secondary": secondary,
        "encumbrance": encumbrance_section(
            ctx, primary["st"]["value"], secondary["basicMove"]["value"], speed, dodge
        ),
        "damage": damage,
        "defenses": {
            "dodge": {"value": dodge},
            "parry": weapons.parry,
            "block": weapons.block,
        },
        "damageResistance": damage_resistance(ctx, body),
        "reactionModifiers": traits.reactions,
        "techLevel": {"level": _tech_level(ctx), "points": traits.tech_level_points},
        "languages": traits.languages,
        "culturalFamiliarities": traits.familiarities,
        "traits": traits.traits,
        "skills": skills.skills,
        "weapons": {"melee": weapons.melee, "ranged": weapons.ranged},
        "equipment": equipment,
        "possessionsTotal": _possessions(equipment),
        "notes": _notes(ctx),
    }
    ctx.cause("/defenses/dodge/value", dodge_cause(ctx, speed, dodge), "/calc/dodge/0")
    gcs_spent = _attribute_points(values) + traits.total + skills.total
    document["points"] = _points(ctx, document, gcs_spent)
    summary: dict[str, Any] = {"gcsVersion": ctx.version, "keyVariant": variant, "importedAt": stamp}
    if extras:
        summary["attributes"] = extras
    # The pools' GCS states (Reeling ...) are not kept: they describe the pools at the import, and
    # the update functions change the pools; get_condition gives the state of the moment.
    if traits.shares:
        summary["traitCostShares"] = traits.shares
    if ctx.unhalved_encumbrance:
        summary["unhalvedEncumbrance"] = ctx.unhalved_encumbrance
    if weapons.melee or weapons.ranged:
        summary["weapons"] = weapons.records
    if traits.conditional:
        summary["conditionalModifiers"] = traits.conditional
        first = traits.conditional[0]
        ctx.note(
            first["source"],
            "movedToExtensions",
            f"{_count(len(traits.conditional), 'conditional modifier')} (such as {first['amount']:+g} "
            f"{shortened(first['situation'], 60)} from '{shortened(first['owner'], 60)}') "
            f"{'have' if len(traits.conditional) != 1 else 'has'} no place in the document: "
            "they are in extensions (conditionalModifiers).",
        )
    _file_notes(ctx, numbers_bounded=numbers_bounded)
    if ctx.other_points:
        summary["otherPoints"] = {k: _tidy(v) for k, v in ctx.other_points.items()}
    record = body.record() if body is not None else None
    if record is not None:
        summary["body"] = record
    summary[KEPT_TEXT] = compact_text(ctx.data, acyclic=True)  # read from text, or copied by copy_json
    document["extensions"] = {EXTENSION: summary}
    integrity_section(ctx, document, gcs_spent)
    ctx.note(
        "",
        "movedToExtensions",
        f"The whole GCS file (ids, settings, hit locations, modifiers, features, weapons, equipment ...) "
        f"is kept in extensions['{EXTENSION}'].{KEPT_TEXT} (its JSON as one text); the notes say what "
        "the document itself leaves out.",
    )
    return document


def _count(amount: int, noun: str) -> str:
    return f"{amount} {noun}" if amount == 1 else f"{amount} {noun}s"


def _file_notes(ctx: Context, *, numbers_bounded: bool) -> None:
    """Notes on the file as a whole (``numbers_bounded``: reading the file found no number beyond
    ±10^9, and the walk that looks for them is spared)."""
    if not mapping(ctx.data, "calc"):
        ctx.note(
            "",
            "approximated",
            "The file holds no values computed by GCS (calc): thrust, swing, Move and Dodge per "
            "encumbrance level are computed with GCS's rules.",
        )
    overfilled, count = overfilled_texts(
        ctx.data, (ctx.traits_key, "skills", "spells", "equipment", "notes"), 6, ctx.walked
    )
    if overfilled:
        ctx.note(
            overfilled[0],
            "approximated",
            f"{_count(count, 'text')} ({', '.join(overfilled)}{', ...' if count > len(overfilled) else ''}) "
            f"would take more from {'their' if count != 1 else 'its'} replacements than a text may (its own "
            f"length and each replacement once, at most {MAX_FILL:,} characters of those): the "
            "placeholders past that stay as written.",
        )
    if ctx.features.budget.ran_out:
        ctx.note(
            "",
            "approximated",
            f"The file makes every bonus meet every skill, spell or weapon (more than "
            f"{MAX_COMPARISONS:,} comparisons of a bonus's criteria, or a weapon default's, with them): "
            "the import stopped comparing there, so later skills, spells and weapons may lack bonuses "
            "GCS gives them (their levels and damage are then not GCS's).",
        )
    beyond, count = ([], 0) if numbers_bounded else numbers_beyond_bounds(ctx.data, 6)
    if beyond:
        ctx.note(
            beyond[0],
            "approximated",
            f"{_count(count, 'number')} in the file {'is' if count == 1 else 'are'} beyond ±10^9 "
            f"({', '.join(beyond)}{', ...' if count > len(beyond) else ''}): no GURPS character value "
            "comes near, so the import reads them as absent (they stay in the GCS data).",
        )
    if ctx.section("spells"):
        ctx.note(
            "/spells",
            "movedToExtensions",
            "Spells are among the document's skills (college, class, cost, time and duration in their "
            "notes); their prerequisites and other details are kept in the GCS data.",
        )


def _possessions(equipment: list[dict[str, Any]]) -> dict[str, Any]:
    """The format's total: its formula adds the equipment's cost and weight in order, and so does
    this (float for float; weapons carry none, their items are in the equipment)."""
    cost: float = 0
    weight: float = 0
    for item in equipment:
        cost += item.get("cost", 0)
        weight += item.get("weight", 0)
    return {"cost": cost, "weight": weight}


def _attribute_points(values: dict[str, AttributeValue]) -> float:
    return sum(value.points for value in values.values())


def _points(ctx: Context, document: dict[str, Any], gcs_spent: float) -> dict[str, Any]:
    attributes = sum(document["attributes"][k]["points"] for k in ("st", "dx", "iq", "ht"))
    attributes += sum(
        document["secondary"][k]["points"] for k in ("hp", "will", "per", "fp", "basicSpeed", "basicMove")
    )
    advantages = sum(t["points"] for t in document["traits"] if t["type"] in ("advantage", "perk"))
    advantages += sum(item["points"] for item in document["languages"])
    advantages += sum(item["points"] for item in document["culturalFamiliarities"])
    advantages += document["techLevel"]["points"]
    disadvantages = sum(t["points"] for t in document["traits"] if t["type"] in ("disadvantage", "quirk"))
    skills = sum(s["points"] for s in document["skills"])
    other = _tidy(gcs_spent - attributes - advantages - disadvantages - skills)
    budget = number(ctx.data, "total_points")
    whole_budget = integer(budget)
    if budget is not None and whole_budget is None:
        ctx.note(
            "/total_points",
            "approximated",
            f"The point total {budget:g} is not whole: the budget is left empty.",
        )
    points: dict[str, Any] = {"budget": whole_budget, "spent": _tidy(gcs_spent)}
    if whole_budget is not None:
        points["unspent"] = _tidy(whole_budget - gcs_spent)
    points["breakdown"] = {
        "attributes": _tidy(attributes),
        "advantages": _tidy(advantages),
        "disadvantages": _tidy(disadvantages),
        "skills": _tidy(skills),
        "other": other,
    }
    return points


def _meta(ctx: Context) -> dict[str, Any]:
    from ... import __version__

    meta: dict[str, Any] = {"locale": "en"}
    for key, target in (("created_date", "createdAt"), ("modified_date", "updatedAt")):
        raw = text(ctx.data, key).strip()
        if not raw:
            continue
        stamp = _date(raw)
        if stamp is None:
            ctx.note(
                f"/{key}",
                "notCarried",
                f"The date '{shortened(raw, 40)}' could not be read; it stays in the GCS data.",
            )
            continue
        if stamp != raw:
            ctx.note(f"/{key}", "approximated", f"The date '{raw}' has no time zone: read as UTC ({stamp}).")
        meta[target] = stamp
    meta["generator"] = {"name": "gurps_character GCS import", "version": __version__}
    return meta


def _date(raw: str) -> str | None:
    if is_date_time(raw):
        return raw
    match = _OLD_DATE.fullmatch(raw) if len(raw) < 60 else None
    if match is None:
        return None
    month = _MONTHS.get(match.group(1).lower())
    day, year, hour, minute = (int(match.group(i)) for i in (2, 3, 4, 5))
    if month is None or not 1 <= hour <= 12:
        return None
    hour = hour % 12 + (12 if match.group(6).lower() == "pm" else 0)
    stamp = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:00Z"
    return stamp if is_date_time(stamp) else None


_APPEARANCE = (
    ("gender", "Gender"),
    ("eyes", "Eyes"),
    ("hair", "Hair"),
    ("skin", "Skin"),
    ("handedness", "Handedness"),
    ("title", "Title"),
    ("organization", "Organization"),
    ("religion", "Religion"),
    ("birthday", "Birthday"),
)


def _profile(ctx: Context) -> dict[str, Any]:
    profile = mapping(ctx.data, "profile")
    name = text(profile, "name").strip()
    if not name:
        ctx.note("/profile/name", "defaulted", "The character has no name: the document's name is empty.")
    out: dict[str, Any] = {"name": name}
    if text(profile, "player_name"):
        out["player"] = text(profile, "player_name")
    height = text(profile, "height").strip()
    if height:
        metric = height_text(height)
        out["height"] = metric or height
        if metric:
            ctx.note(
                "/profile/height",
                "approximated",
                f"Height {height} is {metric} (1 inch = 2.5 cm, as GCS converts).",
            )
    weight = text(profile, "weight").strip()
    if weight:
        metric = weight_text(weight, text(mapping(ctx.data, "settings"), "default_weight_units") or "lb")
        out["weight"] = metric or weight
        if metric:
            ctx.note(
                "/profile/weight",
                "approximated",
                f"Weight {weight} is {metric} (1 kg = 2 lb, the GURPS metric rule).",
            )
    age = profile.get("age")
    if type(age) is str and age.strip():
        out["age"] = age.strip()
    elif type(age) is int:
        out["age"] = str(age)
    out["sizeModifier"] = size_modifier(ctx)
    appearance = "; ".join(
        f"{label}: {text(profile, key).strip()}" for key, label in _APPEARANCE if text(profile, key).strip()
    )
    if appearance:
        out["appearance"] = appearance
    if text(profile, "portrait"):
        ctx.note(
            "/profile/portrait",
            "notCarried",
            "The portrait has no place in the document: it stays in the GCS data.",
        )
    return out


def _tech_level(ctx: Context) -> int | None:
    raw = text(mapping(ctx.data, "profile"), "tech_level").strip()
    level = whole_number(raw)
    if level is not None and 0 <= level <= 999 and raw[:1] not in "+-":
        return level
    if raw:
        ctx.note(
            "/profile/tech_level",
            "approximated",
            f"Tech level '{shortened(raw, 40)}' is not a whole number: left empty.",
        )
    return None


def _notes(ctx: Context) -> list[str]:
    found = []
    for node, _, _ in ctx.section("notes"):
        body = (
            text(node, "markdown") or text(node, "text") or text(node, "local_notes") or text(node, "notes")
        )
        body = fill_placeholders(body, node).strip()
        reference = text(node, "reference").strip()
        if reference:
            body = f"{body} ({reference})" if body else reference
        if body:
            found.append(body)
    return found
