"""The import's honesty: every stored value the format's formulas disagree with is listed in
``integrity.deviations`` with the GCS cause, found by the project's own rule check."""

from __future__ import annotations

from typing import Any

from ..._json import js_number
from ..._pointer import parent_of
from ...constants import SCHEMA
from ...errors import CharacterError
from ...formula import FormulaError
from ...formula._recompute import check_rules
from ...verify import _over_budget
from ..format.units import tidy as _tidy
from .context import Context

__all__ = ["integrity_section"]

_ROUNDS = 3
"""Rule checks at most: the first finds everything, later ones only confirm repaired totals."""


def integrity_section(ctx: Context, document: dict[str, Any], gcs_spent: float) -> None:
    """Sets ``document["integrity"]`` (and repairs derived totals that do not add up)."""
    found: list[Any] = []
    computed_spent: Any = None
    for _ in range(_ROUNDS):
        try:
            found, computed_spent = check_rules(SCHEMA, document, "/points/spent")
        except FormulaError as err:  # not expected: every number the importer writes is bounded
            raise CharacterError(
                "invalidDocument", f"The imported character could not be checked: {err}."
            ) from None
        inconsistent = [item for item in found if item.reason == "inconsistent"]
        if not inconsistent or not _repair(document, inconsistent, gcs_spent):
            break
    deviations = []
    for item in found:
        if item.reason != "override":
            continue
        deviations.append(
            {
                "pointer": item.pointer,
                "expected": item.expected,
                "actual": item.actual,
                "justification": _justification(ctx, item.pointer, item.expected),
            }
        )
        ctx.note(
            ctx.origins.get(item.pointer, ""),
            "deviation",
            f"{item.pointer} is GCS's {_show(item.actual)} where the format's formula gives "
            f"{_show(item.expected)}: listed in integrity.deviations.",
        )
    issues = [
        issue.to_dict()
        for issue in _over_budget(
            document, computed_spent if isinstance(computed_spent, int | float) else None
        )
    ]
    inconsistent_left = any(item.reason == "inconsistent" for item in found)
    document["integrity"] = {
        "experimental": False,
        "rulesCompliant": not deviations and not issues and not inconsistent_left,
        "deviations": deviations,
        "issues": issues,
    }


def _show(value: Any) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return js_number(value)
    return "null" if value is None else str(value)


def _justification(ctx: Context, pointer: str, expected: Any) -> str:
    reasons = ctx.causes.get(pointer)
    if reasons:
        return "; ".join(reasons) + "."
    return f"GCS computed and saved this value (the format's formula gives {_show(expected)})."


def _repair(document: dict[str, Any], inconsistent: list[Any], gcs_spent: float) -> bool:
    """Sets derived totals to their formulas, keeping GCS's points spent (``other`` absorbs the
    difference). Whether anything changed."""
    changed = False
    for item in inconsistent:
        parent, key = parent_of(document, item.pointer)
        if parent is None or item.expected is None:
            continue
        if parent.get(key) != item.expected:
            parent[key] = item.expected
            changed = True
    points = document.get("points")
    if isinstance(points, dict) and isinstance(points.get("breakdown"), dict):
        breakdown = points["breakdown"]
        known = sum(
            breakdown[k]
            for k in ("attributes", "advantages", "disadvantages", "skills")
            if isinstance(breakdown.get(k), int | float)
        )
        other = _tidy(gcs_spent - known)
        if breakdown.get("other") != other or points.get("spent") != _tidy(gcs_spent):
            breakdown["other"] = other
            points["spent"] = _tidy(gcs_spent)
            changed = True
        budget = points.get("budget")
        if isinstance(budget, int | float) and not isinstance(budget, bool):
            points["unspent"] = _tidy(budget - gcs_spent)
    return changed
