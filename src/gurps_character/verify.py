"""The independent rule check: recompute every value, never trust the file's own claim."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ._json import js_number
from .constants import SCHEMA
from .errors import CharacterError, guarded
from .formula import FormulaError
from .formula._jsnum import as_number
from .formula._recompute import check_rules
from .formula._values import MISSING

__all__ = ["Deviation", "Inconsistency", "Issue", "VerificationReport", "verify_character"]

DeviationValue = int | float | str | None


@dataclass(frozen=True, slots=True)
class Deviation:
    """An unpaid override: a value that differs from its rule formula with nothing paying for it.

    Attributes:
        pointer: The JSON Pointer of the value.
        expected: What the rule formula gives.
        actual: What the document stores.
    """

    pointer: str
    expected: DeviationValue
    actual: DeviationValue
    justification: str | None = None
    """The player's reason, copied from the file's ``integrity.deviations`` (since 1.3)."""

    def to_dict(self) -> dict[str, Any]:
        """The deviation as JSON data.

        Returns:
            ``{"pointer", "expected", "actual", "justification"?}``.
        """
        out: dict[str, Any] = {"pointer": self.pointer, "expected": self.expected, "actual": self.actual}
        if self.justification is not None:
            out["justification"] = self.justification
        return out


@dataclass(frozen=True, slots=True)
class Inconsistency:
    """A derived value (a total, a base) that does not equal its formula: a hand-edited file.

    Attributes:
        pointer: The JSON Pointer of the value.
        expected: What the formula gives.
        actual: What the document stores.
    """

    pointer: str
    expected: DeviationValue
    actual: DeviationValue

    def to_dict(self) -> dict[str, Any]:
        """The inconsistency as JSON data.

        Returns:
            ``{"pointer", "expected", "actual"}``.
        """
        return {"pointer": self.pointer, "expected": self.expected, "actual": self.actual}


@dataclass(frozen=True, slots=True)
class Issue:
    """A rule violation that is not one value's drift, such as spending over the budget.

    Attributes:
        code: What is violated (``"overBudget"``).
        pointer: The JSON Pointer of the value concerned.
        message: The English description.
    """

    code: Literal["overBudget"]
    pointer: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        """The issue as JSON data.

        Returns:
            ``{"code", "pointer", "message"}``.
        """
        return {"code": self.code, "pointer": self.pointer, "message": self.message}


@dataclass(frozen=True, slots=True)
class VerificationReport:
    """The outcome of :func:`verify_character`.

    Attributes:
        rules_compliant: No deviation, no inconsistency and no issue was found.
        experimental: The player switched rule validation off on purpose (``integrity.experimental``).
        declared_compliant: What the file claims (``integrity.rulesCompliant``), or None without a claim.
        claim_consistent: The file's claim matches the recomputation: it declares the verdict
            found and lists every unpaid override found (extra entries do not count against
            it); True when the file makes no claim.
        deviations: Unpaid overrides, in document order.
        inconsistencies: Derived values that differ from their formulas.
        issues: Other violations (``overBudget``).
    """

    rules_compliant: bool
    experimental: bool
    declared_compliant: bool | None
    claim_consistent: bool
    deviations: tuple[Deviation, ...]
    inconsistencies: tuple[Inconsistency, ...]
    issues: tuple[Issue, ...]

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON data.

        Returns:
            The reference's JSON form (camelCase keys).
        """
        return {
            "rulesCompliant": self.rules_compliant,
            "experimental": self.experimental,
            "declaredCompliant": self.declared_compliant,
            "claimConsistent": self.claim_consistent,
            "deviations": [item.to_dict() for item in self.deviations],
            "inconsistencies": [item.to_dict() for item in self.inconsistencies],
            "issues": [item.to_dict() for item in self.issues],
        }


def _number(value: object) -> int | float | None:
    """The value when it is a JSON number, else None: booleans are not numbers, and neither are
    NaN, the infinities and integers beyond doubles (JavaScript reads those as Infinity)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = as_number(value)
    return value if number is not None and number - number == 0.0 else None


def _over_budget(document: Mapping[str, Any], computed_spent: object) -> tuple[Issue, ...]:
    """Spending over the budget, judged on the recomputed total (a lowered total hides nothing)."""
    points = document.get("points")
    if not isinstance(points, Mapping):
        return ()
    budget = _number(points.get("budget"))
    spent = _number(computed_spent)
    if spent is None:
        spent = _number(points.get("spent"))
    if budget is None or spent is None or not spent > budget:
        return ()
    message = (
        f"Points spent ({js_number(spent)}) exceed the budget ({js_number(budget)}) "
        f"by {js_number(spent - budget)}."
    )
    return (Issue("overBudget", "/points/spent", message),)


def _claimed_deviations(integrity: Mapping[str, Any] | None) -> dict[str, str | None]:
    """Pointer → justification for each deviation the file lists. A pointer listed more than
    once takes its last entry (with that entry's justification, or none), as the reference's
    lookup by pointer does."""
    listed = integrity.get("deviations") if integrity is not None else None
    claimed: dict[str, str | None] = {}
    if isinstance(listed, list | tuple):
        for entry in listed:
            if isinstance(entry, Mapping) and isinstance(entry.get("pointer"), str):
                reason = entry.get("justification")
                claimed[entry["pointer"]] = reason if isinstance(reason, str) else None
    return claimed


def _claim_consistent(
    integrity: Mapping[str, Any] | None,
    declared: bool | None,
    compliant: bool,
    claimed: Mapping[str, str | None],
    overrides: tuple[Deviation, ...],
) -> bool:
    """Whether the file's claim survives the recomputation: it declares the verdict found, and
    every unpaid override found is among the deviations it lists. Entries listed beyond the
    real deviations (a value that is back to its formula, a slip) contradict nothing, and a
    pointer listed twice is one claim. Without an ``integrity`` block there is no claim."""
    if integrity is None:
        return True
    return declared == compliant and all(item.pointer in claimed for item in overrides)


@guarded
def verify_character(document: Mapping[str, Any]) -> VerificationReport:
    """Recomputes every rule value of a document and reports where it departs from the rules.

    The file's own ``integrity`` block is never trusted: it is only compared with the result
    (``claim_consistent``) and mined for the players' justifications. In-play state (current
    HP and FP) never affects compliance.

    Args:
        document: A character document (normally schema-valid; anything else is still checked
            as far as it goes).

    Returns:
        A :class:`VerificationReport`.

    Raises:
        CharacterError: ``notAnObject`` when the document is not a JSON object.
    """
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    try:
        found, spent = check_rules(SCHEMA, document, "/points/spent")
    except FormulaError as err:  # a schema formula the document cannot feed
        raise CharacterError("invalidDocument", f"The rules could not be evaluated: {err}.") from None
    integrity = document.get("integrity")
    integrity = integrity if isinstance(integrity, Mapping) else None
    claimed = _claimed_deviations(integrity)
    overrides = tuple(
        Deviation(item.pointer, item.expected, item.actual, claimed.get(item.pointer))
        for item in found
        if item.reason == "override"
    )
    inconsistencies = tuple(
        Inconsistency(item.pointer, item.expected, item.actual)
        for item in found
        if item.reason == "inconsistent"
    )
    if spent is MISSING:
        spent = None
    issues = _over_budget(document, spent)
    compliant = not overrides and not inconsistencies and not issues
    declared = integrity.get("rulesCompliant") if integrity is not None else None
    declared = declared if isinstance(declared, bool) else None
    consistent = _claim_consistent(integrity, declared, compliant, claimed, overrides)
    return VerificationReport(
        rules_compliant=compliant,
        experimental=integrity is not None and integrity.get("experimental") is True,
        declared_compliant=declared,
        claim_consistent=consistent,
        deviations=overrides,
        inconsistencies=inconsistencies,
        issues=issues,
    )
