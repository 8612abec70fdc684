"""Compiling a syntax tree into a Python function, as ``dataclasses`` and ``namedtuple`` do.

Each node becomes a few statements that leave its value in a fresh local variable, so the
function runs without a Python call per node (the schema's formulas run for every document).
Nothing from the formula is spliced into the generated text: names, strings and numbers are
passed in as constants (``_c0``, ``_c1``, ...), and only the known functions are generated.
Semantics are those described in :mod:`._evaluator`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ._ast import Binary, Call, Compare, Field, Filter, Negate, Node, Number, Path, String
from ._errors import FormulaError

__all__ = ["check_call", "generate"]

_ARITY: Final[dict[str, tuple[int, int | None]]] = {
    "floor": (1, 1),
    "ceil": (1, 1),
    "abs": (1, 1),
    "round": (1, 2),
    "min": (0, None),
    "max": (0, None),
    "if": (3, 3),
    "sum": (1, 1),
    "coalesce": (0, None),
    "lookup": (2, 2),
    "attr": (1, 1),
    "skillLevel": (1, 1),
}
"""The functions and their fewest and most arguments (None: any number)."""

_NUMERIC_FUNCTIONS: Final = frozenset({"round", "min", "max"})
"""The functions whose value is always a double or None."""

_ARITHMETIC: Final = {"+": "+", "-": "-", "*": "*"}
_ORDER: Final = {"<": "<", "<=": "<=", ">": ">", ">=": ">="}


class _Generator:
    """Emits the statements of one function body."""

    def __init__(self, helpers: dict[str, Any]) -> None:
        self.lines: list[str] = []
        self.indent = 2
        self.count = 0
        self.namespace: dict[str, Any] = dict(helpers)
        self.numeric: set[str] = set()  # variables known to hold a double or None

    def temp(self) -> str:
        self.count += 1
        return f"t{self.count}"

    def constant(self, value: Any) -> str:
        name = f"_c{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    def number(self, var: str) -> None:
        """Turns ``var`` into a double or None (the inline fast paths of as_number())."""
        self.numeric.add(var)
        self.emit(f"if type({var}) is not float:")
        self.emit(f"    {var} = float({var}) if type({var}) is int and -_BIG < {var} < _BIG else _num({var})")

    def copy(self, out: str, var: str) -> None:
        """``out = var`` as a double or None."""
        self.emit(f"{out} = {var}")
        if var in self.numeric:
            self.numeric.add(out)
        else:
            self.number(out)

    def value(self, node: Node) -> str:
        """Emits the statements computing ``node``; returns the variable that holds its value."""
        if isinstance(node, Number):
            name = self.constant(float(node.value))
            self.numeric.add(name)
            return name
        if isinstance(node, String):
            return self.constant(node.value)
        if isinstance(node, Path):
            return self.path(node)
        if isinstance(node, Negate):
            var = self.value(node.operand)
            out = self.temp()
            self.copy(out, var)
            self.emit(f"if {out} is not None:")
            self.emit(f"    {out} = -{out}")
            return out
        if isinstance(node, Binary):
            return self.binary(node)
        if isinstance(node, Compare):
            return self.compare(node)
        if isinstance(node, Call):
            return self.call(node)
        raise FormulaError(f"Not a formula node: {type(node).__name__}")

    def path(self, node: Path) -> str:
        out = self.temp()
        if node.root == "$":
            self.emit(f"{out} = root")
        else:
            name = self.constant(node.root)
            self.emit(f"{out} = local.get({name}, _M) if type(local) is dict else _get(local, {name})")
        for step in node.steps:
            if isinstance(step, Field):
                # a field of a missing value is missing (what _get() gives it, sooner)
                name = self.constant(step.name)
                self.emit(f"if type({out}) is dict:")
                self.emit(f"    {out} = {out}.get({name}, _M)")
                self.emit(f"elif {out} is not _M:")
                self.emit(f"    {out} = _get({out}, {name})")
            elif isinstance(step, Filter):
                # a filter of anything but an array, a missing value too, is []
                make_filter = self.namespace["_make_filter"]
                keep = self.constant(make_filter(step.field, step.negate, frozenset(step.values)))
                self.emit(f"{out} = {keep}({out})")
            else:
                raise FormulaError(f"Not a path step: {type(step).__name__}")
        self.emit(f"if {out} is _M:")
        self.emit(f"    {out} = None")
        return out

    def binary(self, node: Binary) -> str:
        out = self.temp()
        self.copy(out, self.value(node.first))
        for symbol, operand in node.rest:
            right = self.temp()
            self.copy(right, self.value(operand))  # evaluated even after a null
            if symbol == "/":
                self.emit(
                    f"{out} = None if {out} is None or {right} is None or {right} == 0 else {out} / {right}"
                )
            elif symbol in _ARITHMETIC:
                self.emit(f"{out} = None if {out} is None or {right} is None else {out} {symbol} {right}")
            else:
                raise FormulaError(f"Unknown operator '{symbol}'")
        return out

    def compare(self, node: Compare) -> str:
        left, right, out = self.value(node.left), self.value(node.right), self.temp()
        if node.op in ("==", "!="):
            negation = "not " if node.op == "!=" else ""
            self.emit(f"{out} = {negation}_equal({left}, {right})")
            return out
        symbol = _ORDER.get(node.op)
        if symbol is None:
            raise FormulaError(f"Unknown comparison '{node.op}'")
        a, b = self.temp(), self.temp()
        self.copy(a, left)
        self.copy(b, right)
        self.emit(f"{out} = None if {a} is None or {b} is None else {a} {symbol} {b}")
        return out

    def call(self, node: Call) -> str:
        check_call(node)
        if node.name == "if":
            return self.if_(node)
        if node.name == "coalesce":
            return self.coalesce(node)
        args = [self.value(arg) for arg in node.args]
        out = self.temp()
        if node.name in ("floor", "ceil", "abs"):
            self.copy(out, args[0])
            self.emit(f"if {out} is not None:")
            self.emit(f"    {out} = _{node.name}({out})")
        elif node.name == "lookup":
            if isinstance(node.args[0], String):  # a table named in the formula: call its get()
                name, key = args
                self.emit(f"{out} = tables.getters.get({name})")
                self.emit(f"{out} = {out}({key}) if {out} is not None else tables.lookup({name}, {key})")
            else:
                self.emit(f"{out} = tables.lookup({args[0]}, {args[1]})")
        elif node.name == "sum":
            self.emit(f"{out} = 0.0 if {args[0]} is None else _sum(root, {args[0]})")  # sum(null) is 0
            self.numeric.add(out)
        else:  # round, min, max, attr, skillLevel
            self.emit(f"{out} = _{node.name}(root, {', '.join(args)})")
            if node.name in _NUMERIC_FUNCTIONS:
                self.numeric.add(out)
        return out

    def if_(self, node: Call) -> str:
        condition, out = self.value(node.args[0]), self.temp()
        self.emit(f"if {condition} is None:")  # a null condition gives null
        self.emit(f"    {out} = None")
        self.emit(f"elif {condition} is True or ({condition} is not False and _truthy({condition})):")
        self.branch(node.args[1], out)
        self.emit("else:")
        self.branch(node.args[2], out)
        return out

    def branch(self, node: Node, out: str) -> None:
        self.indent += 1
        self.emit(f"{out} = {self.value(node)}")
        self.indent -= 1

    def coalesce(self, node: Call) -> str:
        out = self.temp()
        self.emit(f"{out} = None")
        for index, arg in enumerate(node.args):
            if index:
                self.emit(f"if {out} is None:")
                self.indent += 1
            self.emit(f"{out} = {self.value(arg)}")
            if index:
                self.indent -= 1
        return out


def check_call(node: Call) -> None:
    """Refuses an unknown function or a wrong number of arguments (``FormulaError``)."""
    arity = _ARITY.get(node.name)
    if arity is None:
        raise FormulaError(f"Unknown function '{node.name}'")
    low, high = arity
    count = len(node.args)
    if count < low or (high is not None and count > high):
        if high is None:
            wanted = f"at least {low} argument{'s' if low != 1 else ''}"
        elif low == high:
            wanted = f"{low} argument{'s' if low != 1 else ''}"
        else:
            wanted = f"{low} to {high} arguments"
        raise FormulaError(f"{node.name}() takes {wanted} ({count} given)")


def generate(node: Node, helpers: dict[str, Any]) -> Callable[[Any, Any, Any], Any]:
    """The Python function ``(root, local, tables) -> value`` that evaluates ``node``.

    Args:
        node: A syntax tree.
        helpers: The runtime functions the generated code calls, by their ``_name``.

    Raises:
        FormulaError: An unknown function or operator, or a wrong number of arguments.
    """
    generator = _Generator(helpers)
    result = generator.value(node)
    body = "\n".join(generator.lines)
    # helpers, constants and builtins become closure cells: fast to read, nothing to copy per call
    cells = {**generator.namespace, "type": type, "float": float, "int": int, "dict": dict}
    source = (
        f"def _make({', '.join(cells)}):\n"
        f"    def _formula(root, local, tables):\n{body}\n        return {result}\n"
        "    return _formula\n"
    )
    # the text is made of the templates above and generated identifiers only: everything that
    # comes from the formula is a bound constant
    namespace: dict[str, Any] = {}
    exec(compile(source, "<formula>", "exec"), namespace)
    function: Callable[[Any, Any, Any], Any] = namespace["_make"](**cells)
    return function
