"""Finding each weapon's skill on characters built to hurt it (issue 29 item 1): many weapons
and many skills of several words, the weapons named by none, half of them named with a skill's
first word and two in three naming their skill deep in long notes (``gcs_built.py``).

The combat view and the export each found a weapon's skill by asking every skill, weapons x
skills in all. Work is counted as in ``test_gcs_built_to_hurt.py``, by the function calls made
(independent of the machine; see :func:`quadratic_share`). The times are in
``benchmarks/bench.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from gurps_character import combat_stats, export_gcs, import_gcs
from tests.gcs.importing.test_built_to_hurt import counted_calls
from tests.support import gcs_built

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
SMALL = 30


def typed(n: int) -> dict[str, Any]:
    """The document typed from the import of ``n`` weapons and ``n`` skills."""
    imported = import_gcs(json.dumps(gcs_built.weapons_and_skills(n)), now=NOW).document
    return gcs_built.typed_document(dict(imported))


def _skills_found(document: dict[str, Any]) -> list[str | None]:
    stats = combat_stats(document)
    return [row.skill for row in stats.weapons.melee] + [row.skill for row in stats.weapons.ranged]


def quadratic_share(work: Callable[[dict[str, Any]], object]) -> tuple[float, list[int]]:
    """The calls ``work`` makes on the documents of ``n``, ``2n`` and ``4n`` weapons and skills
    (``n`` = :data:`SMALL`), and what share of the last a term in ``n`` squared makes: for
    ``a + b n + c n^2`` calls, ``f(4n) - 3 f(2n) + 2 f(n)`` is ``6 c n^2``, and 0 for linear
    work, whatever its constant. (A ratio of calls alone misses a quadratic term whose cost is
    in built-in code, as the export's search of every skill name in the notes was.)"""
    documents = [typed(size * SMALL) for size in (1, 2, 4)]
    work(documents[0])  # (what is built once per process is not counted)
    calls = []
    for document in documents:
        with counted_calls() as counted:
            work(document)
        calls.append(counted[0])
    return (calls[2] - 3 * calls[1] + 2 * calls[0]) / calls[2], calls


def test_the_combat_view_finds_the_weapons_skills_in_linear_work() -> None:
    share, calls = quadratic_share(_skills_found)
    assert abs(share) < 0.02, f"calls {calls}: {share:.1%} of the last in n squared"


def test_the_export_finds_the_weapons_skills_in_linear_work() -> None:
    share, calls = quadratic_share(lambda document: export_gcs(document, now=NOW))
    assert abs(share) < 0.02, f"calls {calls}: {share:.1%} of the last in n squared"


def test_each_weapon_is_used_with_the_skill_its_notes_name() -> None:
    """The skill found is the one the notes name, whole ("Blade Art 7 of the Fold", not the
    "Blade Art 70 of the Fold" or "Blade Art 7" a careless match could give), and none for a
    weapon whose notes name none, though its name holds a skill's first word."""
    document = typed(4 * SMALL)
    names = [skill["name"] for skill in document["skills"]]
    expected = [None if place % 3 == 0 else names[(place * 7) % len(names)] for place in range(4 * SMALL + 1)]
    assert _skills_found(document) == expected
    exported = export_gcs(document, now=NOW)
    nodes = json.loads(exported.text)["traits"]  # (weapons without cost or weight: traits)
    used = [
        default["name"]
        for node in nodes
        for weapon in node.get("weapons", ())
        for default in weapon["defaults"]
        if default["type"] == "skill"
    ]
    assert used == [found for found in expected if found is not None]  # (melee, then ranged)
