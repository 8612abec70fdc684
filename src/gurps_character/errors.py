"""The one exception type of the engine API, with stable codes."""

from __future__ import annotations

import functools
import reprlib
from collections.abc import Callable, Mapping
from typing import Any, Literal, ParamSpec, TypeVar

from ._json import NotJsonError, copy_json

__all__ = [
    "CharacterError",
    "ErrorCode",
    "NowTypeError",
    "describe",
    "guarded",
    "json_detail",
    "not_json_error",
]

ErrorCode = Literal[
    "tooLarge",
    "invalidJson",
    "notAnObject",
    "legacyFormat",
    "wrongFormat",
    "unsupportedVersion",
    "newerVersion",
    "schema",
    "notUpdatable",
    "invalidValue",
    "outOfBounds",
    "invalidAmount",
    "invalidArgument",
    "invalidDocument",
    "invalidYaml",
    "missingExtra",
    "notGcs",
    "unsupportedGcsVersion",
    "unreadable",
    "baseMismatch",
    "notAllowed",
    "stateMismatch",
    "invalidState",
]
"""Every value of :attr:`CharacterError.code`."""


class CharacterError(ValueError):
    """A character could not be loaded, checked or changed.

    Attributes:
        code: A stable, machine-readable code (see the README's error table).
        details: JSON-ready facts about the failure, for building your own (localized) message.
        message: The English message, also given by ``str(error)``.
    """

    code: str
    details: dict[str, Any]
    message: str

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = dict(details) if details is not None else {}

    def to_dict(self) -> dict[str, Any]:
        """The error as JSON data.

        Returns:
            ``{"code", "message", "details"}``.
        """
        return {"code": self.code, "message": self.message, "details": self.details}

    def __repr__(self) -> str:
        return f"CharacterError(code={self.code!r}, message={self.message!r})"


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 3
_SHORT.maxstring = 80
_SHORT.maxlong = 80
_SHORT.maxother = 80


def describe(value: object) -> str:
    """``repr(value)`` for a message, shortened; it never fails, whatever the value (nested
    100,000 levels deep, cyclic, an integer too long for ``str()``, a failing ``__repr__``)."""
    try:
        return _SHORT.repr(value)
    except Exception:
        if isinstance(value, int):
            return f"an integer of {value.bit_length()} bits"
        return f"a {type(value).__name__}"


_MAX_DETAIL_DEPTH = 64
"""Deeper data in ``details`` is described instead: json.dumps and repr() could not show it."""


def json_detail(value: object) -> Any:
    """A value for ``details``: a copy of JSON data in which a number no double holds (a NaN, an
    infinity, an integer of 2**1024 or more, at any depth) is ``None``, as ``JSON.stringify``
    writes it; :func:`describe`'s text for anything else (a set, a cycle, data nested over 64
    levels)."""
    try:
        copied = copy_json(value, numbers="null")
    except NotJsonError:
        return describe(value)
    level = [copied]
    for _ in range(_MAX_DETAIL_DEPTH):
        level = [
            child
            for item in level
            if isinstance(item, dict | list)
            for child in (item.values() if isinstance(item, dict) else item)
        ]
        if not level:
            return copied
    return describe(value)


def not_json_error(err: NotJsonError) -> CharacterError:
    """The ``invalidJson`` error for a mapping that holds something JSON cannot (``{pointer, reason}``)."""
    return CharacterError(
        "invalidJson",
        f"The document is not JSON data at {err.pointer or '(root)'}: {err.reason}.",
        {"pointer": err.pointer, "reason": err.reason},
    )


class NowTypeError(TypeError):
    """``now`` is not a timezone-aware ``datetime``: the one ``TypeError`` the engine API raises."""


_P = ParamSpec("_P")
_R = TypeVar("_R")


def guarded(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """A public function that raises nothing but :class:`CharacterError` (and
    :class:`NowTypeError`), whatever it is given.

    Each function refuses bad input itself, with a precise code; this is the net below that, for a
    failure nobody foresaw (Python's limit on long digit strings was one): it becomes
    ``invalidDocument``, with the original exception as its ``__cause__`` (the fuzzer reports
    such a catch as a finding, so that the root gets fixed too).
    """

    @functools.wraps(function)
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return function(*args, **kwargs)
        except (CharacterError, NowTypeError, MemoryError):
            raise
        except RecursionError as err:
            raise CharacterError(
                "invalidDocument", "The input nests too deeply to be processed.", {"reason": "RecursionError"}
            ) from err
        except Exception as err:
            kind = type(err).__name__
            raise CharacterError(
                "invalidDocument", f"The input could not be processed ({kind}).", {"reason": kind}
            ) from err

    return call
