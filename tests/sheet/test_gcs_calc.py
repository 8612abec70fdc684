"""Every number GCS computed and stored for its own sheet (a file's ``calc`` values) is on ours,
in its row and cell: attributes and pools, Basic Lift, Move and Dodge per encumbrance level,
thrust and swing, skill levels, weapon levels, parries, blocks and damage, DR per location."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gurps_character import CharacterError, import_gcs
from gurps_character.sheet import render_sheet
from tests.support.paths import FIXTURES, SHARED
from tests.support.sheet_html import read_sheet

pytest.importorskip("jinja2", reason="the sheet extra (Jinja2) is not installed")

_OWN = sorted((FIXTURES / "gcs").rglob("*.gcs"))
_SHARED = sorted((SHARED / "gcs").glob("*.gcs")) if (SHARED / "gcs").is_dir() else []

_ATTRIBUTE_KEYS = {
    "st": ("attributes", "st"),
    "dx": ("attributes", "dx"),
    "iq": ("attributes", "iq"),
    "ht": ("attributes", "ht"),
    "will": ("secondary", "will"),
    "per": ("secondary", "per"),
    "hp": ("secondary", "hp"),
    "fp": ("secondary", "fp"),
    "basic_speed": ("secondary", "basicSpeed"),
    "basic_move": ("secondary", "basicMove"),
}
_LEADING_NUMBER = re.compile(r"-?[0-9]+")


def _words(damage: str) -> list[str]:
    """A damage text's words in any order: GCS writes per-point damage ``1d-3 +1d burn/point``
    where the notation has ``burn +1d/point``, and a damage without a type has none, where the
    import names it ``damage``."""
    return sorted(set(re.findall(r"[^\s/]+", damage.replace("damage", ""))))


def _number(text: str) -> float:
    return float(text.replace(",", "").split()[0])


def _calc(node: object) -> dict[str, Any]:
    calc = node.get("calc") if isinstance(node, dict) else None
    return calc if isinstance(calc, dict) else {}


def _leaves(nodes: object) -> Iterator[dict[str, Any]]:
    """The skills, techniques and spells of a GCS list, containers' children in place."""
    for node in nodes if isinstance(nodes, list) else ():
        if not isinstance(node, dict):
            continue
        if "children" in node or str(node.get("type", "")).endswith("_container"):
            yield from _leaves(node.get("children"))
        else:
            yield node


def _at(data: object, pointer: str) -> object:
    for part in pointer.split("/")[1:]:
        data = data[int(part)] if isinstance(data, list) else data[part]  # type: ignore[index]
    return data


def _locations(body: object) -> Iterator[dict[str, Any]]:
    for location in body.get("locations", []) if isinstance(body, dict) else ():
        yield location
        yield from _locations(location.get("sub_table"))


def _checked(path: Path) -> int:
    """Checks one file; returns how many calc values were found on the sheet."""
    raw = path.read_bytes()
    try:
        imported = import_gcs(raw)
    except CharacterError as err:  # XML (GCS 4) and damaged samples: nothing imported to show
        pytest.skip(f"{path.name} is not imported ({err.code}): it has no sheet")
    document = imported.document
    data = json.loads(raw)
    page = read_sheet(render_sheet(document, import_notes=imported.notes))
    metric = document["ruleset"].get("units") == "metric"
    found = 0
    # A value an old file saved that the current GCS would compute otherwise (a stale version 2
    # file): the import takes the current GCS's and says so in a note, which the sheet lists.
    listed = {row.cell("c-name") for row in page.rows_of("integrity") if row.cells[0].classes == ("c-name",)}
    restated = {note.source for note in imported.notes if note.kind == "approximated"} & listed

    def shown(ok: bool, source: str) -> bool:
        return ok or source in restated

    top = _calc(data)
    for key in ("swing", "thrust"):
        if key in top:
            text = page.row("secondary", data_key=key).cell("c-value")
            assert shown(text == top[key], f"/calc/{key}"), (path.name, key)
            found += 1
    if "basic_lift" in top:
        pounds = _number(top["basic_lift"])
        value = _number(page.row("secondary", data_key="basicLift").cell("c-value"))
        expected = pounds / 2 if metric else pounds
        assert shown(abs(value - expected) < 0.01, "/calc/basic_lift"), path.name
        found += 1
    for key, column in (("move", "c-move"), ("dodge", "c-dodge")):
        for level, value in enumerate(top.get(key) or ()):
            row = page.row("encumbrance", data_level=str(level))
            assert shown(row.cell(column) == str(value), f"/calc/{key}"), (path.name, key, level)
            found += 1

    for attribute in data.get("attributes") or ():
        calc = _calc(attribute)
        ident = attribute.get("attr_id") or attribute.get("id")
        if "value" not in calc or ident is None:
            continue
        section, key = _ATTRIBUTE_KEYS.get(ident, ("attributes", ident))
        rows = page.rows_of(section, data_key=key)
        assert rows, (path.name, ident)
        assert _number(rows[0].cell("c-value")) == pytest.approx(calc["value"]), (path.name, ident)
        found += 1
        if ident in ("hp", "fp") and "current" in calc:
            assert page.texts[f"{ident}-pool"].startswith(f"{ident.upper()} {calc['current']} /"), path.name
            found += 1

    skill_rows = [row for row in page.rows if row.cells and row.section in ("skills", "techniques", "spells")]
    for node in [*_leaves(data.get("skills")), *_leaves(data.get("spells"))]:
        skill_level = _calc(node).get("level")
        if isinstance(skill_level, int | float) and skill_level > 0:
            name = " ".join(str(node.get("name")).split())
            named = [row for row in skill_rows if row.cell("c-name").startswith(name)]
            wanted = str(int(skill_level))
            assert any(row.cell("c-level") == wanted for row in named), (path.name, name, wanted)
            found += 1

    records = document.get("extensions", {}).get("io.github.gurps-sheet.gcs-import", {}).get("weapons", {})
    for kind in ("melee", "ranged"):
        for index, record in enumerate(records.get(kind) or ()):
            calc = _calc(_at(data, record["source"]))
            row = page.row(kind, data_index=str(index))
            if "level" in calc:
                assert row.cell("c-level") == str(calc["level"]), (path.name, record["source"])
                found += 1
            if "damage" in calc:
                damage = row.cell("c-damage")
                assert damage.split()[0] == calc["damage"].split()[0], (path.name, record["source"])
                assert _words(damage) == _words(calc["damage"]), (path.name, record["source"])
                found += 1
            for key in ("parry", "block"):
                number = _LEADING_NUMBER.match(str(calc.get(key, "")))
                if kind == "melee" and number is not None:
                    cell = _LEADING_NUMBER.match(row.cell(f"c-{key}"))
                    assert cell is not None and cell.group() == number.group(), (path.name, key)
                    found += 1

    settings = data.get("settings") or {}
    key = "body_type" if "body_type" in settings else "hit_locations"
    body = settings.get(key)
    dr_rows = page.rows_of("dr")
    for location in _locations(body):
        dr = _calc(location).get("dr")
        if not isinstance(dr, dict) or "all" not in dr:
            continue
        place = " ".join(str(location.get("table_name") or location.get("choice_name")).split())
        matching = [row for row in dr_rows if row.cell("c-name") == place]
        assert matching, (path.name, place)
        same = any(row.cell("c-dr") == str(dr["all"]) for row in matching)
        assert shown(same, f"/settings/{key}"), (path.name, place, dr)
        for kind, extra in dr.items():
            if kind != "all" and extra:  # 0 on top of all is no more DR against that type
                wanted = f"{dr['all'] + extra} vs {kind}"
                assert any(wanted in row.cell("c-extra") for row in matching), (path.name, place, wanted)
        found += 1
    return found


@pytest.mark.parametrize("path", _OWN, ids=[str(path.relative_to(FIXTURES)) for path in _OWN])
def test_every_calc_value_of_our_gcs_fixtures_is_on_the_sheet(path: Path) -> None:
    _checked(path)


def test_the_fixtures_have_calc_values_to_check() -> None:
    """The check is not vacuous: the fixtures hold calc values of every kind, and all are found."""
    assert sum(_checked(path) for path in _OWN if path.name.startswith("v5_")) > 50


@pytest.mark.skipif(not _SHARED, reason="the shared GCS samples (../shared/gcs) are not beside this clone")
@pytest.mark.parametrize("path", _SHARED, ids=[path.name for path in _SHARED])
def test_every_calc_value_of_the_shared_gcs_files_is_on_the_sheet(path: Path) -> None:
    _checked(path)
