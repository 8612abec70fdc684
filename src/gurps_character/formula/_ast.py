"""The syntax tree of a formula: small frozen dataclasses, one per grammar construct.

Every node records ``position``, the index in the source where it starts. Chains of operators of
one precedence level are a single :class:`Binary` node (``first`` and a tuple of ``(operator,
operand)`` pairs) rather than a left-deep tree, so a long sum never makes a deep tree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

__all__ = [
    "Binary",
    "Call",
    "Compare",
    "Field",
    "Filter",
    "Negate",
    "Node",
    "Number",
    "Path",
    "Step",
    "String",
]


@dataclass(frozen=True, slots=True)
class Number:
    """A number literal such as ``3`` or ``1.5``; ``text`` is as written."""

    value: float
    text: str
    position: int


@dataclass(frozen=True, slots=True)
class String:
    """A ``'quoted'`` string literal; ``value`` is the text between the quotes."""

    value: str
    position: int


@dataclass(frozen=True, slots=True)
class Field:
    """A path step ``.name`` (or the bare first name of a path)."""

    name: str
    position: int


@dataclass(frozen=True, slots=True)
class Filter:
    """A path step ``[field=a|b]`` (``negate=False``) or ``[field!=a|b]`` (``negate=True``).

    ``values`` are the alternatives as text; items match when the text of their ``field`` (as
    JavaScript's ``String()`` writes it) is one of them.
    """

    field: str
    negate: bool
    values: tuple[str, ...]
    position: int


Step: TypeAlias = Field | Filter


@dataclass(frozen=True, slots=True)
class Path:
    """A path into the document.

    ``root`` is ``"$"`` for the document root; otherwise the path starts at the sibling property
    ``root`` of the object that owns the formula (the *local* object). ``steps`` follow it.
    """

    root: str
    steps: tuple[Step, ...]
    position: int


@dataclass(frozen=True, slots=True)
class Call:
    """A function call ``name(arg, ...)``."""

    name: str
    args: tuple[Node, ...]
    position: int


@dataclass(frozen=True, slots=True)
class Negate:
    """Unary minus ``-operand``."""

    operand: Node
    position: int


@dataclass(frozen=True, slots=True)
class Binary:
    """``first (op operand)*`` for one precedence level (``+``/``-`` or ``*``/``/``), applied
    left to right."""

    first: Node
    rest: tuple[tuple[Literal["+", "-", "*", "/"], Node], ...]
    position: int


@dataclass(frozen=True, slots=True)
class Compare:
    """``left op right`` with one of ``== != < <= > >=`` (comparisons do not chain)."""

    op: Literal["==", "!=", "<", "<=", ">", ">="]
    left: Node
    right: Node
    position: int


Node: TypeAlias = Number | String | Path | Call | Negate | Binary | Compare
"""Any formula syntax tree node."""
