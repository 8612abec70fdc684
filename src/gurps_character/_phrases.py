"""The best of many phrases a text holds, found in one pass over the text.

The combat view and the GCS export both look up the skill a weapon is used with: the longest
skill name whose words (or letters) stand in order in the weapon's name or notes. Asking every
skill of every weapon costs weapons x skills; a character built to hurt (thousands of each)
took seconds. :class:`PhraseIndex` is built once from the skills (a trie of their tokens with
Aho-Corasick's fallback links) and reads each weapon's tokens once, so the whole lookup is
linear in the skills' tokens plus the weapons'.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Sequence
from typing import Generic, TypeVar

__all__ = ["PhraseIndex"]

_T = TypeVar("_T")

_Best = tuple[tuple[int, ...], int, _T]
"""A phrase's rank, minus its place (the earlier wins a tie), and its value."""


class PhraseIndex(Generic[_T]):
    """Phrases (sequences of tokens: words, or a text's characters), each with a rank and a
    value; :meth:`best_in` gives the value of the highest-ranked phrase a sequence of tokens
    holds contiguously (of those ranked alike, the one added first).

    Empty phrases are left out: what an empty phrase matches is the caller's rule.
    """

    __slots__ = ("_best", "_fallback", "_next")

    def __init__(self, phrases: Iterable[tuple[Sequence[Hashable], tuple[int, ...], _T]]) -> None:
        self._next: list[dict[Hashable, int]] = [{}]
        ends: dict[int, _Best[_T]] = {}
        for place, (tokens, rank, value) in enumerate(phrases):
            if not tokens:
                continue
            node = 0
            for token in tokens:
                found = self._next[node].get(token)
                if found is None:
                    found = len(self._next)
                    self._next[node][token] = found
                    self._next.append({})
                node = found
            mine: _Best[_T] = (rank, -place, value)
            if node not in ends or mine[:2] > ends[node][:2]:
                ends[node] = mine
        self._fallback = [0] * len(self._next)
        self._best: list[_Best[_T] | None] = [ends.get(node) for node in range(len(self._next))]
        self._link(ends)

    def _link(self, ends: dict[int, _Best[_T]]) -> None:
        """Each node's fallback: the node of its longest proper suffix that is a prefix of some
        phrase; and its best: the best phrase ending there, its own or its fallback's (breadth
        first, so a node's fallback is done before it)."""
        queue = deque(self._next[0].values())  # (the root's children fall back to the root)
        while queue:
            node = queue.popleft()
            for token, child in self._next[node].items():
                link = self._fallback[node]
                while link and token not in self._next[link]:
                    link = self._fallback[link]
                link = self._fallback[child] = self._next[link].get(token, 0)
                self._best[child] = _better(ends.get(child), self._best[link])
                queue.append(child)

    def best_in(self, tokens: Iterable[Hashable]) -> _T | None:
        """The value of the best phrase ``tokens`` holds as a run, or None when it holds none."""
        following = self._next
        fallback = self._fallback
        best_at = self._best
        node = 0
        best: _Best[_T] | None = None
        for token in tokens:
            while node and token not in following[node]:
                node = fallback[node]
            node = following[node].get(token, 0)
            found = best_at[node]
            if found is not None and (best is None or found[:2] > best[:2]):
                best = found
        return None if best is None else best[2]


def _better(mine: _Best[_T] | None, other: _Best[_T] | None) -> _Best[_T] | None:
    if mine is None:
        return other
    if other is None or mine[:2] > other[:2]:
        return mine
    return other
