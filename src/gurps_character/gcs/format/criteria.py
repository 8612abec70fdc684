"""GCS's text criteria (``{"compare": "starts_with", "qualifier": "piloting"}``): whether one
accepts a value, and indexes that find the features whose criteria may accept a value without
trying each, all within one import's :class:`Budget` of comparisons."""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Callable

from .fields import text

__all__ = [
    "MAX_COMPARISONS",
    "Budget",
    "CriterionIndex",
    "any_matches",
    "matches",
    "take_merged",
    "text_weight",
]

MAX_COMPARISONS = 1_000_000
"""The most comparisons of a bonus (or a weapon default) with a skill, spell or weapon one import
makes. The importer finds the bonuses that may apply through indexes built once, so a real
character makes a few thousand at most; only a file built to make every item meet every bonus
(thousands of bonuses accepting any name, thousands of skills of one name) reaches the limit,
and it keeps the import's time linear in the file's size. The rest are not made, and a note says
so."""


class Budget:
    """What is left of :data:`MAX_COMPARISONS` in one import."""

    __slots__ = ("left", "ran_out")

    def __init__(self, comparisons: int) -> None:
        self.left = comparisons
        self.ran_out = False

    def take(self, count: int = 1) -> bool:
        """Spends ``count`` comparisons; False (and nothing spent) when fewer are left."""
        if count > self.left:
            self.left = 0
            self.ran_out = True
            return False
        self.left -= count
        return True


_NEGATIONS = frozenset({"is_not", "does_not_contain", "does_not_start_with", "does_not_end_with"})


class CriterionIndex:
    """Positions of features indexed once by one of their text criteria (GCS's ``{"compare",
    "qualifier"}``, or text meaning "is"), so that those that may accept a value are found
    without trying each: an exact name by lookup, a prefix, suffix or part of it by looking up
    the value's own prefixes, suffixes and parts of the lengths the criteria have. Criteria that
    accept nearly anything (``any``, the negations, none at all) are candidates for every value.
    A candidate is only a candidate: the caller still checks its criteria with :func:`matches`.
    Every lookup and every candidate is taken from the import's :class:`Budget`."""

    __slots__ = ("_budget", "_default", "_everything", "_exact", "_parts", "_prefixes", "_suffixes")

    def __init__(self, budget: Budget, default_compare: str = "is") -> None:
        self._budget = budget
        self._default = default_compare
        self._exact: dict[str, list[int]] = {}
        self._prefixes: _ByLength = _ByLength()
        self._suffixes: _ByLength = _ByLength()
        self._parts: _ByLength = _ByLength()
        self._everything: list[int] = []

    def add(self, criterion: object, position: int) -> None:
        """Indexes the feature at ``position`` (positions are added in increasing order)."""
        if type(criterion) is str:
            self._exact.setdefault(criterion.lower(), []).append(position)
            return
        if type(criterion) is not dict:
            self._everything.append(position)
            return
        compare = text(criterion, "compare") or self._default
        qualifier = text(criterion, "qualifier").lower()
        if compare == "is":
            self._exact.setdefault(qualifier, []).append(position)
        elif compare == "starts_with":
            self._prefixes.add(qualifier, position)
        elif compare == "ends_with":
            self._suffixes.add(qualifier, position)
        elif compare == "contains":
            self._parts.add(qualifier, position)
        elif compare == "any" or compare in _NEGATIONS:
            self._everything.append(position)
        # another comparison accepts nothing (as matches() says): the feature is left out

    def candidates(self, values: list[str]) -> list[int]:
        """The positions of the features that may accept one of ``values``, in order, each once,
        as many as the budget allows."""
        sources: list[list[int]] = [self._everything] if self._everything else []
        budget = self._budget
        for value in values:
            value = value.lower()
            if not budget.take(1 + len(value) // 256):
                return []
            found = self._exact.get(value)
            if found:
                sources.append(found)
            for by_length, side in ((self._prefixes, 1), (self._suffixes, -1), (self._parts, 0)):
                if by_length.lookups(value, side, budget, sources) is False:
                    return []
        return take_merged(sources, budget)


def take_merged(sources: list[list[int]], budget: Budget) -> list[int]:
    """The positions of sorted lists, merged in order, each once, as many as the budget allows
    (the budget runs out when there are more)."""
    if not sources:
        return []
    limit = budget.left
    if len(sources) == 1:
        found = sources[0][: limit + 1]
    else:
        found = list(itertools.islice(heapq.merge(*sources), limit + 1))
    if len(found) > limit:
        budget.take(limit + 1)  # more candidates than comparisons left: the budget runs out
        found = found[:limit]
    else:
        budget.take(len(found))
    return [position for position, _ in itertools.groupby(found)]


class _ByLength:
    """Qualifiers of one comparison (starts with, ends with, contains) by their length."""

    __slots__ = ("count", "lengths", "qualifiers")

    def __init__(self) -> None:
        self.qualifiers: dict[str, list[int]] = {}
        self.lengths: list[int] = []
        self.count = 0

    def add(self, qualifier: str, position: int) -> None:
        self.qualifiers.setdefault(qualifier, []).append(position)
        self.count += 1
        self.lengths = []  # sorted again at the first lookup

    def lookups(self, value: str, side: int, budget: Budget, sources: list[list[int]]) -> bool | None:
        """Adds the lists of the qualifiers ``value`` starts with (``side`` 1), ends with (-1) or
        contains (0); False when the budget ran out."""
        if not self.count:
            return None
        if not self.lengths:
            self.lengths = sorted({len(qualifier) for qualifier in self.qualifiers})
        usable = self.lengths[: bisect.bisect_right(self.lengths, len(value))]
        if side:
            if not budget.take(sum(1 + length // 256 for length in usable)):
                return False
            for length in usable:
                part = value[:length] if side > 0 else value[len(value) - length :]
                found = self.qualifiers.get(part)
                if found:
                    sources.append(found)
            return True
        cost = sum((len(value) - length + 1) * (1 + length // 256) for length in usable)
        scan = len(self.qualifiers) * (1 + len(value) // 256)
        if cost > scan:  # fewer qualifiers than parts: try each qualifier
            if not budget.take(scan):
                return False
            sources.extend(found for qualifier, found in self.qualifiers.items() if qualifier in value)
            return True
        if not budget.take(cost):
            return False
        seen: set[str] = set()
        for length in usable:
            for start in range(len(value) - length + 1):
                part = value[start : start + length]
                found = self.qualifiers.get(part)
                if found and part not in seen:
                    seen.add(part)
                    sources.append(found)
        return True


def text_weight(*texts: str) -> int:
    """What comparing these texts with a criterion costs beyond one comparison, in comparisons:
    one more per 256 characters (a long text costs what it takes to read)."""
    return sum(len(value) for value in texts) // 256 + len(texts) // 16


def matches(criteria: object, value: str) -> bool:
    """Whether a GCS string criterion (``{"compare": "starts_with", "qualifier": "piloting"}``)
    accepts a value; no criterion, or ``any``, accepts everything. Case-insensitive, as in GCS."""
    if type(criteria) is str:
        criteria = {"compare": "is", "qualifier": criteria}
    if type(criteria) is not dict:
        return True
    compare = text(criteria, "compare") or "is"
    if compare == "any":
        return True
    negated = compare.startswith(("is_not", "does_not_"))
    positive = _POSITIVE.get(compare)
    if positive is None:
        return False  # a comparison GCS does not have accepts nothing
    qualifier = text(criteria, "qualifier").lower()
    found = positive(value.lower(), qualifier)
    return not found if negated else found


_POSITIVE: dict[str, Callable[[str, str], bool]] = {
    "is": str.__eq__,
    "is_not": str.__eq__,
    "contains": lambda value, qualifier: qualifier in value,
    "does_not_contain": lambda value, qualifier: qualifier in value,
    "starts_with": str.startswith,
    "does_not_start_with": str.startswith,
    "ends_with": str.endswith,
    "does_not_end_with": str.endswith,
}
"""GCS's text comparisons (the negations by the comparison they negate)."""


def any_matches(criteria: object, values: list[str]) -> bool:
    if type(criteria) is not dict or (text(criteria, "compare") or "any") == "any":
        return True
    return any(matches(criteria, value) for value in values)
