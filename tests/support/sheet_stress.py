"""The hidden-name stress case: a character whose texts try to hide or break out of a page.

Markup and script, quotes and ampersands, a CDATA end, control characters, a lone surrogate,
right-to-left overrides and zero-width characters (a name that shows other than it is), combining
marks, emoji, and names far longer than any column, without a space to wrap at.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Final

from tests.support.paths import EXAMPLES

__all__ = ["HOSTILE_NAMES", "hidden_names_document"]

HOSTILE_NAMES: Final = (
    "<script>alert(1)</script>",
    "\"'><img src=x onerror=alert(1)>",
    "Tom & Jerry &amp; &lt;b&gt; ]]> <![CDATA[x]]>",
    "Bell\x07 NUL\x00 Esc\x1b[31m DEL\x7f C1\x85 lone\ud800surrogate \ufffe",
    "\u202egnp.exe\u202c hidden\u200b\u200d\u2060zero-width \u2066isolated\u2069",
    "Z\u0351\u0300\u0301a\u0352\u0353l\u0354g\u0355o\u0356 \U0001f409\U0001f3f4\u200d\u2620\ufe0f",
    "Ворон Сын-Бури — 龍の騎士 — فارس التنين",
    "W" * 300,
    "{{ 7*7 }} {% raw %} ${7*7} <!-- -->",
)
"""Names each sheet must show as text, whatever they hold."""


def hidden_names_document() -> dict[str, Any]:
    """The bundled Tamsin Ashdown (examples/rurik.json) with every name, note and text replaced
    by the hostile ones, in turn."""
    document: dict[str, Any] = json.loads((EXAMPLES / "rurik.json").read_text(encoding="utf-8"))
    names = iter(HOSTILE_NAMES * 20)
    document = copy.deepcopy(document)
    document["profile"]["name"] = next(names) + " " + next(names)
    document["profile"]["appearance"] = " ".join(HOSTILE_NAMES)
    for key in ("traits", "skills", "equipment", "languages", "culturalFamiliarities"):
        for entry in document[key]:
            entry["name"] = next(names)
            entry["notes"] = next(names) if key != "languages" and key != "culturalFamiliarities" else None
            if entry["notes"] is None:
                del entry["notes"]
    for kind in ("melee", "ranged"):
        for weapon in document["weapons"][kind]:
            weapon["name"] = next(names)
            weapon["notes"] = next(names)
    for entry in document["damageResistance"]:
        entry["notes"] = next(names)
    document["notes"] = list(HOSTILE_NAMES)
    document["defenses"]["parry"]["skill"] = document["skills"][0]["name"]
    document["defenses"]["block"]["skill"] = document["skills"][1]["name"]
    return document
