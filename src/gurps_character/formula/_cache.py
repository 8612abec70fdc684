"""A least-recently-used cache bounded by the size of what it holds, not by a count of entries.

The formula caches hold parsed trees and compiled functions, whose memory grows with the formula:
1,024 entries of 10,000-character formulas would be gigabytes, where 1,024 of the schema's short
ones are a few megabytes. So each entry is weighed (the formula's length) and the least recently
used entries leave once the total passes the budget. Safe to share between threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["SizedCache"]

_V = TypeVar("_V")


class SizedCache(Generic[_V]):
    """Values by key, at most ``budget`` in total weight; an entry heavier than ``budget`` alone
    is never kept."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._entries: OrderedDict[Hashable, tuple[_V, int]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def get_or_make(self, key: Hashable, weight: int, make: Callable[[], _V]) -> _V:
        """The value cached for ``key``, or ``make()``'s (cached when it fits). ``make`` runs
        outside the lock: two threads may make the same value, and one of them is kept."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                return found[0]
        value = make()
        if weight <= self.budget:
            with self._lock:
                if key not in self._entries:
                    self._entries[key] = (value, weight)
                    self._weight += weight
                    while self._weight > self.budget:
                        _, (_, dropped) = self._entries.popitem(last=False)
                        self._weight -= dropped
        return value

    @property
    def weight(self) -> int:
        """The total weight held now."""
        return self._weight

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        """Forgets everything."""
        with self._lock:
            self._entries.clear()
            self._weight = 0
