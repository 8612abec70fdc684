"""The file's points: the points spent as GCS counts them from the attributes, traits and skills
written, the document's difference carried on "Sheet adjustments", and the total (the budget).
"""

from __future__ import annotations

from ...format.json_text import RawJson
from ..sheet import (
    ADJUSTMENTS,
    LIMIT,
    SheetBase,
    number,
    plain,
    signed_number,
)

__all__ = ["PointsPart"]


class PointsPart(SheetBase):
    """The points spent and the file's total."""

    def _points(self, attributes: RawJson) -> int | float:
        """The file's total points; ``attributes`` (the file's, from
        :meth:`~.attributes.AttributesPart._attributes`) cost what :attr:`attribute_points` says,
        GCS's own attributes nothing."""
        doc = self.doc
        points = doc.get("points", {})
        spent_gcs: float = sum(self.attribute_points.values())  # whole points: the order is no matter
        traits, skills = self.traits, self.skills
        if traits:  # number() of each (the list's sum is the generator's, in the same order)
            found = [node["calc"]["points"] for node in traits]
            spent_gcs += sum([value if type(value) is int else number(value) for value in found])
        if skills:
            found = [node["points"] for node in skills]
            spent_gcs += sum([value if type(value) is int else number(value) for value in found])
        stored = points.get("spent")
        kind = type(stored)
        if kind is not int and kind is not float and (not isinstance(stored, int | float) or kind is bool):
            stored = sum(number(v) for v in points.get("breakdown", {}).values())
        spent = (
            stored
            if (kind is int or kind is float) and -LIMIT <= stored <= LIMIT
            else self.bounded(stored, "/points/spent", "Points spent")
        )
        correction = round(spent - spent_gcs)
        if spent_gcs + correction != spent:
            self.note(
                "/points/spent",
                "differs",
                f"GCS counts {plain(spent_gcs + correction)} points spent, the document {spent:g}: GCS "
                "prices "
                "traits in whole points.",
            )
        if correction:
            node = self.adjustments_trait()
            node["base_points"] = plain(number(node["base_points"]) + correction)
            node["calc"]["points"] = node["base_points"]
            node["tags"] = ["Advantage" if node["base_points"] >= 0 else "Disadvantage"]
            self.adjustment_lines.append(
                f"{signed_number(correction)} points the document counts and GCS prices nowhere else"
            )
            other = number(points.get("breakdown", {}).get("other"))
            self.note(
                "/points/spent",
                "approximated",
                f"{plain(correction)} of the document's {plain(spent)} points have no GCS price"
                + (f" (breakdown.other {plain(other)})" if other else "")
                + f": '{ADJUSTMENTS}' costs them, so GCS's points spent agree.",
            )
        budget = points.get("budget")
        if budget is None:
            self.note(
                "/points/budget",
                "differs",
                f"The document has no point budget: the file's total is the points spent, {plain(spent)}.",
            )
            return plain(spent)
        if type(budget) is int and -LIMIT <= budget <= LIMIT:
            return budget  # the usual: a whole number, as the file has it
        return plain(self.bounded(budget, "/points/budget", "Budget"))
