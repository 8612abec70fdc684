"""Shared state built once, on first use, safely from any number of threads."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["once"]

_T = TypeVar("_T")


class _Once(Generic[_T]):
    """Calls ``build`` the first time it is called and returns that same value ever after.

    ``functools.cache`` is not enough: threads that arrive together each build their own value,
    and the one kept may not be the one a thread goes on using. Here the first thread builds while
    the others wait for its value.
    """

    def __init__(self, build: Callable[[], _T]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._value: list[_T] = []  # empty until built
        self.__doc__ = build.__doc__
        self.__wrapped__ = build

    def __call__(self) -> _T:
        value = self._value
        if value:  # built: no lock needed to read it
            return value[0]
        with self._lock:
            if not value:
                value.append(self._build())
            return value[0]


def once(build: Callable[[], _T]) -> Callable[[], _T]:
    """A function without arguments whose value is built by the first call, exactly once."""
    return _Once(build)
