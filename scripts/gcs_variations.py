#!/usr/bin/env python3
"""Edits real GCS files the way a user (or an older GCS) would, and checks each import.

    python scripts/gcs_variations.py [--shared ../shared] [--only EDIT] [--show N] [FILE...]

For every ``*.gcs`` JSON character file in ``<shared>/gcs`` and every edit below that applies to
it, the edited file is imported and checked:

* the import returns or raises ``CharacterError`` (anything else is a crash);
* the document is valid (``validate_character``) and claim-consistent (``verify_character``);
* where the edit keeps GCS's computed values consistent, the document agrees with them (the
  checks of ``<shared>/gcs/check.py``, run on the edited file).

The files are read-only material: nothing is copied or written. Exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import json
import re
import sys
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import gurps_character as gc

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 12, 1, tzinfo=UTC)
Data = dict[str, Any]
Edit = Callable[[Data], bool]
"""Modifies a copy of a GCS file in place; False when it does not apply to the file."""


def _walk(nodes: Any) -> Iterator[Data]:
    stack = [nodes]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            yield item
            stack.append(item.get("children"))


def _every_dict(value: Any) -> Iterator[Data]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _traits(data: Data) -> list[Any]:
    return data.get("traits", data.get("advantages")) or []


def _attribute(data: Data, ident: str) -> Data | None:
    for entry in data.get("attributes") or []:
        if isinstance(entry, dict) and entry.get("attr_id") == ident:
            return entry
    return None


# ---------------------------------------------------------------- edits that keep calc consistent


def damage_hp(data: Data) -> bool:
    entry = _attribute(data, "hp")
    if entry is None or not isinstance(entry.get("calc"), dict) or "value" not in entry["calc"]:
        return False
    damage = max(int(entry["calc"]["value"]) // 2, 1)
    entry["damage"] = damage
    entry["calc"]["current"] = entry["calc"]["value"] - damage
    return True


def damage_fp_to_zero(data: Data) -> bool:
    entry = _attribute(data, "fp")
    if entry is None or not isinstance(entry.get("calc"), dict) or "value" not in entry["calc"]:
        return False
    entry["damage"] = entry["calc"]["value"]
    entry["calc"]["current"] = 0
    return True


def damage_hp_far_below(data: Data) -> bool:
    entry = _attribute(data, "hp")
    if entry is None or not isinstance(entry.get("calc"), dict) or "value" not in entry["calc"]:
        return False
    damage = entry["calc"]["value"] * 12 + 3
    entry["damage"] = damage
    entry["calc"]["current"] = entry["calc"]["value"] - damage
    return True


def remove_weapons(data: Data) -> bool:
    found = False
    for node in _every_dict(data):
        if isinstance(node.get("weapons"), list) and node["weapons"]:
            del node["weapons"]
            found = True
    return found


def duplicate_weapon(data: Data) -> bool:
    for node in _walk(data.get("equipment")):
        if node.get("weapons"):
            node["weapons"].append(copy.deepcopy(node["weapons"][0]))
            return True
    return False


def nest_equipment(data: Data) -> bool:
    items = data.get("equipment")
    if not isinstance(items, list) or len(items) < 2:
        return False
    box: Data = {"description": "Backpack (nested)", "quantity": 1, "equipped": True, "children": items}
    if data.get("version", 5) < 5:
        box["type"] = "equipment_container"
    else:
        box["id"] = "E" + "x" * 16
    data["equipment"] = [box]
    return True


def rename_keys(data: Data) -> bool:
    """The other v5 spelling: 2024 keys <-> 2025 keys (values and weights with a calc kept)."""
    if data.get("version") != 5:
        return False
    pairs = (
        ("local_notes", "notes"),
        ("base_value", "value"),
        ("base_weight", "weight"),
        ("markdown", "text"),
    )
    newer = any(new in node for node in _every_dict(data) for new, _ in pairs[:3])
    for node in list(_every_dict(data)):
        if "attr_id" in node:
            continue
        for new, old in pairs:
            src, dst = (new, old) if newer else (old, new)
            if src in node and dst not in node and not isinstance(node[src], (dict, list)):
                node[dst] = node.pop(src)
    for definition in (data.get("settings") or {}).get("attributes") or []:
        if isinstance(definition, dict):
            if "base" in definition and newer:
                definition["attribute_base"] = definition.pop("base").replace("Math.", "")
            elif "attribute_base" in definition and not newer:
                definition["base"] = definition.pop("attribute_base")
    for node in _every_dict(data):
        if "cost_adj" in node and newer:
            raw = str(node["cost_adj"]).strip()
            if not re.fullmatch(r"x?[+-]?\d+(\.\d+)?%?", raw):
                continue
            del node["cost_adj"]
            if raw.endswith("%") and not raw.startswith("x"):
                node["cost"], node["cost_type"] = float(raw[:-1]), "percentage"
            elif raw.startswith("x"):
                node["cost"], node["cost_type"] = float(raw[1:].rstrip("%")), "multiplier"
            else:
                node["cost"], node["cost_type"] = float(raw), "points"
        elif "cost_type" in node and "cost" in node and not newer and not isinstance(node["cost"], str):
            kind, cost = node.pop("cost_type"), node.pop("cost")
            node["cost_adj"] = {"percentage": f"{cost:+g}%", "points": f"{cost:+g}"}.get(kind, f"x{cost:g}")
    return True


def progression(name: str) -> Edit:
    def edit(data: Data) -> bool:
        settings = data.setdefault("settings", {})
        if not isinstance(settings, dict):
            return False
        settings["damage_progression"] = name
        calc = data.get("calc")
        if data.get("version") in (1, 2) and isinstance(calc, dict):
            # GCS 4.x saved these by the progression it had: a changed setting leaves them stale,
            # and the import reads such a file as today's GCS computes it
            for key in ("thrust", "swing", "basic_lift"):
                calc.pop(key, None)
        return True

    edit.__name__ = f"progression_{name}"
    return edit


def drop_settings_keep_calc(data: Data) -> bool:
    return data.pop("settings", None) is not None


def disable_traits_calc(data: Data) -> bool:
    """Disables one plain trait without features (GCS's spent changes; checked by the judge)."""
    for node in _walk(_traits(data)):
        if not node.get("children") and not node.get("features") and not node.get("weapons"):
            node["disabled"] = True
            return True
    return False


def add_technique_and_spell(data: Data) -> bool:
    if data.get("version") != 5:
        return False
    skills = data.setdefault("skills", [])
    spells = data.setdefault("spells", [])
    if not isinstance(skills, list) or not isinstance(spells, list):
        return False
    skills.append(
        {
            "id": "q" + "t" * 16,
            "name": "Ünïcode Technique",
            "difficulty": "h",
            "default": {"type": "skill", "name": "Nonexistent Skill", "modifier": -3},
            "limit": 3,
            "points": 2,
        }
    )
    spells.append(
        {"id": "p" + "s" * 16, "name": "Zauber ✨", "difficulty": "iq/vh", "college": ["Meta"], "points": 3}
    )
    return True


def big_totals(data: Data) -> bool:
    data["total_points"] = 123456
    return True


def unicode_names(data: Data) -> bool:
    profile = data.setdefault("profile", {})
    if not isinstance(profile, dict):
        return False
    profile["name"] = "Þórr Ōkami 😀 ‮"
    for node in _walk(_traits(data)):
        node["name"] = "Ä " + str(node.get("name", ""))
    return True


def empty_strings(data: Data) -> bool:
    profile = data.get("profile")
    if isinstance(profile, dict):
        for key in list(profile):
            if isinstance(profile[key], str):
                profile[key] = ""
    for node in _walk(data.get("skills")):
        if "specialization" in node:
            node["specialization"] = ""
    return True


def drop_profile(data: Data) -> bool:
    return data.pop("profile", None) is not None


def drop_total_points(data: Data) -> bool:
    return data.pop("total_points", None) is not None


def zero_points(data: Data) -> bool:
    data["total_points"] = 0
    return True


def fractional_total(data: Data) -> bool:
    data["total_points"] = 250.5
    return True


# ---------------------------------------------------------------- edits GCS's calc no longer matches


def drop_calc_top(data: Data) -> bool:
    return data.pop("calc", None) is not None


def drop_every_calc(data: Data) -> bool:
    found = False
    for node in _every_dict(data):
        if "calc" in node:
            del node["calc"]
            found = True
    return found


def drop_attribute_calc(data: Data) -> bool:
    found = False
    for entry in data.get("attributes") or []:
        if isinstance(entry, dict) and entry.pop("calc", None) is not None:
            found = True
    return found


def unequip_all(data: Data) -> bool:
    found = False
    for node in _walk(data.get("equipment")):
        if node.pop("equipped", None) is not None:
            found = True
    return found


def drop_settings(data: Data) -> bool:
    data.pop("settings", None)
    for node in _every_dict(data):
        node.pop("calc", None)
    return True


def progression_no_calc(name: str) -> Edit:
    def edit(data: Data) -> bool:
        progression(name)(data)
        data.pop("calc", None)
        return True

    edit.__name__ = f"progression_{name}_no_calc"
    return edit


def quadruped(data: Data) -> bool:
    settings = data.get("settings")
    body = settings.get("body_type") if isinstance(settings, dict) else None
    if not isinstance(body, dict):
        return False
    body["name"] = "Quadruped"
    for location in _every_dict(body.get("locations")):
        if location.get("id") == "arm":
            location["id"], location["choice_name"], location["table_name"] = "foreleg", "Foreleg", "Foreleg"
        elif location.get("id") == "hand":
            location["id"], location["choice_name"] = "forefoot", "Forefoot"
    body["locations"].append(
        {
            "id": "tail",
            "choice_name": "Tail",
            "table_name": "Tail",
            "slots": 0,
            "hit_penalty": -3,
            "dr_bonus": 0,
        }
    )
    return True


def hit_locations_v2(data: Data) -> bool:
    settings = data.get("settings")
    if not isinstance(settings, dict) or "body_type" not in settings:
        return False
    settings["hit_locations"] = settings.pop("body_type")
    return True


def drop_attributes(data: Data) -> bool:
    return data.pop("attributes", None) is not None


def unknown_attribute(data: Data) -> bool:
    attributes = data.get("attributes")
    if not isinstance(attributes, list):
        return False
    attributes.append({"attr_id": "mana_surge", "adj": 3, "damage": 2, "calc": {"value": 13, "points": 9}})
    return True


def strength(value: float, size: int | None = None) -> Edit:
    def edit(data: Data) -> bool:
        entry = _attribute(data, "st")
        if entry is None:
            if data.get("version") == 1:
                data["ST"] = value
                return True
            return False
        entry["adj"] = value - 10
        entry.pop("calc", None)
        data.pop("calc", None)
        if size is not None:
            data.setdefault("profile", {})["SM"] = size
        return True

    edit.__name__ = f"st_{value:g}" + (f"_sm_{size}" if size is not None else "")
    return edit


def attribute_adj(ident: str, adj: float, keep_calc: bool = False) -> Edit:
    def edit(data: Data) -> bool:
        entry = _attribute(data, ident)
        if entry is None:
            return False
        entry["adj"] = adj
        if not keep_calc:
            entry.pop("calc", None)
            data.pop("calc", None)
        return True

    edit.__name__ = f"{ident}_adj_{adj:g}"
    return edit


def negative_values(data: Data) -> bool:
    for node in _walk(data.get("skills")):
        node["points"] = -4
    for node in _walk(data.get("equipment")):
        node["quantity"] = -2
    return True


def basic_move_zero(data: Data) -> bool:
    entry = _attribute(data, "basic_move")
    if entry is None:
        return False
    calc = entry["calc"] if isinstance(entry.get("calc"), dict) else {}
    entry["adj"] = -(calc.get("value", 5)) + (entry.get("adj") or 0)
    entry.pop("calc", None)
    data.pop("calc", None)
    return True


def trait_levels_text(data: Data) -> bool:
    found = False
    for node in _walk(_traits(data)):
        if "levels" in node:
            node["levels"] = str(node["levels"])
            node.pop("calc", None)
            found = True
    return found


def trait_modifiers_disabled(data: Data) -> bool:
    found = False
    for node in _walk(_traits(data)):
        for modifier in _every_dict(node.get("modifiers")):
            modifier["disabled"] = not modifier.get("disabled", False)
            found = True
        if found:
            node.pop("calc", None)
    return found


def multiplicative(data: Data) -> bool:
    settings = data.setdefault("settings", {})
    settings["use_multiplicative_modifiers"] = True
    for node in _walk(_traits(data)):
        node.pop("calc", None)
    return True


def metric_units(data: Data) -> bool:
    settings = data.setdefault("settings", {})
    settings["default_weight_units"] = "kg"
    settings["default_length_units"] = "m"
    for node in _walk(data.get("equipment")):
        for key in ("base_weight", "weight"):
            if isinstance(node.get(key), str):
                node[key] = node[key].split(" ")[0]
        node.pop("calc", None)
    return True


def placeholders_everywhere(data: Data) -> bool:
    found = False
    for node in _every_dict(data):
        if "weapons" in node and isinstance(node["weapons"], list):
            node["replacements"] = {"X": "Ünï"}
            for weapon in node["weapons"]:
                if isinstance(weapon, dict):
                    weapon["usage"] = "@X@ use"
                    found = True
    return found


def string_numbers(data: Data) -> bool:
    """Types a hand-edited or odd file may have: numbers as text, nulls."""
    for node in _walk(data.get("skills")):
        node["points"] = str(node.get("points", 1))
    for node in _walk(data.get("equipment")):
        node["quantity"] = None
    return True


ORIGINAL = "original"
"""Agreement expected with the calc of the file before the edit (the importer recomputes it)."""


def drop_attribute_definitions(data: Data) -> bool:
    settings = data.get("settings")
    return isinstance(settings, dict) and settings.pop("attributes", None) is not None


def hide_weapons(data: Data) -> bool:
    found = False
    for node in _every_dict(data):
        if node.get("type") == "melee_weapon" or str(node.get("id", ""))[:1] == "w":
            node["hide"] = True
            found = True
    return found


def half_levels(data: Data) -> bool:
    found = False
    for node in _walk(_traits(data)):
        if node.get("can_level") or "levels" in node:
            node["levels"] = 0.5
            node.pop("calc", None)
            found = True
    return found


def odd_calc_lists(data: Data) -> bool:
    calc = data.get("calc")
    if not isinstance(calc, dict):
        return False
    calc["move"] = ["5", None, 3]
    calc["dodge"] = [8.5, 7, 6, 5, 4, 3]
    calc["thrust"] = "2d3+1"
    calc["basic_lift"] = "heavy"
    return True


def race_container(data: Data) -> bool:
    traits = _traits(data)
    if len(traits) < 2:
        return False
    box: Data = {"name": "Ancestry", "container_type": "race", "children": traits[:2]}
    box["type" if data.get("version", 5) < 5 else "id"] = (
        ("advantage_container" if data.get("version", 5) < 4 else "trait_container")
        if data.get("version", 5) < 5
        else "T" + "r" * 16
    )
    del traits[:2]
    traits.insert(0, box)
    return True


def points_record_only(data: Data) -> bool:
    total = data.pop("total_points", None)
    data["points_record"] = [{"when": "2021-01-01T00:00:00Z", "points": total, "reason": "start"}]
    return True


EDITS: list[tuple[Edit, bool | str]] = [
    # (edit, whether agreement with the (edited) file's calc is expected, or ORIGINAL)
    (damage_hp, True),
    (damage_fp_to_zero, False),  # calc.move/dodge would change in GCS; only validity here
    (damage_hp_far_below, False),
    (remove_weapons, True),
    (duplicate_weapon, True),
    (nest_equipment, True),
    (rename_keys, True),
    (drop_settings_keep_calc, False),
    (disable_traits_calc, True),
    (add_technique_and_spell, True),
    (big_totals, True),
    (unicode_names, True),
    (empty_strings, False),
    (drop_profile, False),
    (drop_total_points, True),
    (zero_points, True),
    (fractional_total, False),
    (hit_locations_v2, True),
    (quadruped, False),
    (unknown_attribute, False),
    (drop_calc_top, ORIGINAL),
    (drop_every_calc, ORIGINAL),
    (drop_attribute_calc, ORIGINAL),
    (unequip_all, True),
    (drop_attribute_definitions, True),
    (hide_weapons, True),
    (half_levels, False),
    (odd_calc_lists, False),
    (race_container, False),
    (points_record_only, False),
    (drop_settings, False),
    (drop_attributes, False),
    (negative_values, False),
    (basic_move_zero, False),
    (trait_levels_text, False),
    (trait_modifiers_disabled, False),
    (multiplicative, False),
    (metric_units, False),
    (placeholders_everywhere, True),
    (string_numbers, False),
    (strength(0), False),
    (strength(1), False),
    (strength(3.5), False),
    (strength(45), False),
    (strength(150, 10), False),
    (strength(1000, 30), False),
    (strength(-5), False),
    (strength(10**6, 200), False),
    (strength(999_999_999), False),
    (attribute_adj("ht", -9), False),
    (attribute_adj("hp", -1000), False),
    (attribute_adj("basic_speed", 0.1), False),
    (attribute_adj("basic_speed", -20), False),
    (attribute_adj("dx", 0.5), False),
    (attribute_adj("iq", 200), False),
]
for _name in (
    "knowing_your_own_strength",
    "no_school_grognard_damage",
    "thrust_equals_swing_minus_2",
    "swing_equals_thrust_plus_2",
    "tbone_1",
    "tbone_1_clean",
    "tbone_2",
    "tbone_2_clean",
    "phoenix_flame_d3",
    "unknown_progression",
):
    EDITS.append((progression(_name), True))
    EDITS.append((progression_no_calc(_name), False))


def huge_kyos(data: Data) -> bool:
    return strength(5000)(data) and progression_no_calc("knowing_your_own_strength")(data)


EDITS.append((huge_kyos, False))


def _load_check(shared: Path) -> Any:
    spec = importlib.util.spec_from_file_location("gcs_check", shared / "gcs" / "check.py")
    if spec is None or spec.loader is None:
        raise SystemExit("cannot load check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _possessions(data: Data, document: Data) -> list[str]:
    """The document's possessions against GCS's extended cost and weight of the carried items
    (when GCS saved them for every top-level item)."""
    cost = weight = 0.0
    for item in data.get("equipment") or []:
        calc = item.get("calc") if isinstance(item, dict) else None
        if not isinstance(calc, dict) or "extended_value" not in calc or "extended_weight" not in calc:
            return []
        cost += float(str(calc["extended_value"]).replace(",", ""))
        text = str(calc["extended_weight"]).replace(",", "")
        match = re.fullmatch(r"\s*(-?[\d.]+)\s*(lb)?\s*", text)
        if match is None:
            return []
        weight += float(match.group(1)) / 2
    total = document.get("possessionsTotal") or {}
    if abs(total.get("cost", 0) - cost) > 0.01 or abs(total.get("weight", 0) - weight) > 0.05:
        return [
            f"disagree possessions: GCS {cost:g} / {weight:g} kg, "
            f"doc {total.get('cost')} / {total.get('weight')} kg"
        ]
    return []


def run_one(check: Any, data: Data, agree: bool | str, original: Data) -> list[str]:
    """The failures of one edited file (empty when all is well)."""
    text = json.dumps(data)
    try:
        result = gc.import_gcs(text, now=NOW)
    except gc.CharacterError as err:
        return [f"refused {err.code}: {err}"[:200]]
    except Exception as err:  # a crash is what this looks for
        frame = traceback.extract_tb(err.__traceback__)[-1]
        return [f"crash {type(err).__name__}: {str(err)[:120]} at {Path(frame.filename).name}:{frame.lineno}"]
    failures = []
    document = result.document
    report = gc.validate_character(document)
    if not report.valid:
        failures.append("invalid: " + "; ".join(f"{e.pointer} {e.message}"[:160] for e in report.errors[:3]))
    verdict = gc.verify_character(document)
    if not verdict.claim_consistent:
        failures.append(
            "inconsistent: " + "; ".join(json.dumps(x.to_dict())[:160] for x in verdict.inconsistencies[:3])
        )
    if agree:
        rows = check.Results()
        check.agreement(check.Gcs(original if agree == ORIGINAL else data), document, rows)
        failures += _possessions(original if agree == ORIGINAL else data, document)
        for row in rows.rows:
            if row["ok"] is False:
                failures.append(
                    f"disagree {row['check']}: GCS {check.short(row['expected'], 60)} "
                    f"doc {check.short(row['actual'], 60)}"
                )
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    parser.add_argument("--only", help="run only edits whose name contains this")
    parser.add_argument("--show", type=int, default=3, help="failures shown per edit")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    shared = Path(args.shared)
    if not (shared / "gcs" / "check.py").exists():
        print(f"no GCS files at {shared / 'gcs'}: nothing to do")
        return 0
    check = _load_check(shared)
    files = [Path(f) for f in args.files] or sorted((shared / "gcs").glob("*.gcs"))
    originals = []
    for path in files:
        kind, data, _ = check.classify(path.read_bytes())
        if kind in ("v1", "v2", "v4", "v5"):
            originals.append((path.name, data))
    runs = failed = 0
    by_edit: Counter[str] = Counter()
    shown: Counter[str] = Counter()
    for edit, agree in EDITS:
        if args.only and args.only not in edit.__name__:
            continue
        for name, original in originals:
            data = copy.deepcopy(original)
            if not edit(data):
                continue
            runs += 1
            failures = run_one(check, data, agree, original)
            if failures:
                failed += 1
                by_edit[edit.__name__] += 1
                if shown[edit.__name__] < args.show:
                    shown[edit.__name__] += 1
                    print(f"{edit.__name__} {name}:\n    " + "\n    ".join(failures[:4]))
    print()
    for edit_name, count in by_edit.most_common():
        print(f"  {edit_name}: {count} files")
    print(f"gcs-variations: {runs} edited files, {failed} failing, {len(by_edit)} edits with failures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
