"""The formula module's exceptions."""

from __future__ import annotations

__all__ = ["FormulaError", "FormulaSyntaxError"]

_WINDOW = 60
"""How many characters of a long formula an error message shows on each side of the caret."""


class FormulaError(ValueError):
    """A formula could not be evaluated: unknown function or table, wrong arity, a value that
    cannot be represented, or (as :class:`FormulaSyntaxError`) a formula that does not parse.

    ``str(error)`` is an English message.
    """


class FormulaSyntaxError(FormulaError):
    """A formula does not follow the grammar.

    Attributes:
        message: What is wrong, without the source excerpt.
        source: The formula text.
        position: Index into ``source`` of the offending character (``len(source)`` for an
            unexpected end).

    ``str(error)`` is the message, the source and a caret under ``position``::

        Expected an expression
            2 * (3 +
                     ^
    """

    message: str
    source: str
    position: int

    def __init__(self, message: str, *, source: str, position: int) -> None:
        self.message = message
        self.source = source
        self.position = position
        super().__init__(_render(message, source, position))

    def __reduce__(self) -> tuple[object, ...]:  # keyword-only __init__ needs help to pickle
        return (_rebuild_syntax_error, (self.message, self.source, self.position))


def _rebuild_syntax_error(message: str, source: str, position: int) -> FormulaSyntaxError:
    return FormulaSyntaxError(message, source=source, position=position)


def _render(message: str, source: str, position: int) -> str:
    """The message, then the (possibly shortened) source and a caret under ``position``."""
    start = max(0, position - _WINDOW)
    end = min(len(source), position + _WINDOW)
    prefix = "..." if start > 0 else ""
    suffix = "..." if end < len(source) else ""
    # control characters (newlines, tabs) would break the alignment of the caret
    excerpt = "".join(ch if ch.isprintable() else " " for ch in source[start:end])
    caret = " " * (len(prefix) + position - start) + "^"
    return f"{message}\n    {prefix}{excerpt}{suffix}\n    {caret}"
