"""The exported file's text (gcs/export_text.py): the build step's nodes finished (GCS's key order,
its weapons' keys in GCS's order, the empty keys GCS leaves out left out) and written by GCS's one
JSON writer (gcs/gcs_json.py, tested in test_gcs_json.py)."""

from __future__ import annotations

import json
from typing import Any

from gurps_character.gcs.exporting.text import character_text
from gurps_character.gcs.format.json_text import RawJson

WEAPON = {
    "id": "wA",
    "sv": 1,
    "damage": {"type": "cut", "st": "sw", "base": "1"},
    "reach": "1",
    "defaults": [{"type": "skill", "name": "Broadsword"}],
    "calc": {"level": 14, "damage": "2d cut"},
}


def go_text(data: Any) -> str:
    text = json.dumps(data, indent="\t", ensure_ascii=False) + "\n"
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def test_a_typical_node_of_each_kind() -> None:
    backwards = dict(reversed(WEAPON.items()))
    data: dict[str, Any] = {
        "version": 5,
        "traits": [
            {
                "id": "tA",
                "name": "Fit <&>",
                "tags": ["Advantage"],
                "modifiers": [],
                "base_points": 5,
                "weapons": [],
                "features": [],
                "calc": {"points": 5},
            }
        ],
        "skills": [
            {
                "id": "sA",
                "name": "Broadsword",
                "difficulty": "dx/a",
                "weapons": [],
                "features": [],
                "points": 4.5,
                "calc": {},
            },
            {
                "id": "sB",
                "name": "Shield",
                "difficulty": "dx/e",
                "weapons": [],
                "features": [],
                "points": 2,
                "calc": {"level": 13, "rsl": "DX+1"},
            },
        ],
        "equipment": [
            {
                "id": "eA",
                "description": "Sword",
                "base_value": "500",
                "weapons": [backwards, {}],
                "features": [{"type": "dr_bonus", "locations": ["skull"], "amount": 2}],
                "quantity": 1,
                "equipped": True,
                "calc": {"value": 500, "extended_value": 500, "weight": "3 lb", "extended_weight": "3 lb"},
            },
        ],
        "settings": {"attributes": RawJson("[\n\t\t\t1\n\t\t]")},
    }
    finished = {
        "version": 5,
        "traits": [
            {"id": "tA", "name": "Fit <&>", "tags": ["Advantage"], "base_points": 5, "calc": {"points": 5}}
        ],
        "skills": [  # the empty lists and the empty calc of a skill are left out, as GCS leaves them
            {"id": "sA", "name": "Broadsword", "difficulty": "dx/a", "points": 4.5},
            {
                "id": "sB",
                "name": "Shield",
                "difficulty": "dx/e",
                "points": 2,
                "calc": {"level": 13, "rsl": "DX+1"},
            },
        ],
        "equipment": [
            {
                "id": "eA",
                "description": "Sword",
                "base_value": "500",
                "weapons": [WEAPON, {}],  # GCS's order, whatever the node's
                "features": [{"type": "dr_bonus", "locations": ["skull"], "amount": 2}],
                "quantity": 1,
                "equipped": True,
                "calc": {"value": 500, "extended_value": 500, "weight": "3 lb", "extended_weight": "3 lb"},
            },
        ],
        "settings": {"attributes": [1]},
    }
    text, replaced = character_text(data)
    assert (text, replaced) == (go_text(finished), False)
    assert "\\u003c\\u0026\\u003e" in text
    assert data["equipment"][0]["weapons"][0] is backwards  # the build step's data is left as it was
