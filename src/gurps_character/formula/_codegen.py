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
from ._walk import FilterStep

__all__ = ["check_call", "generate", "path_steps"]

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

_ARITHMETIC: Final = {"+": "+", "-": "-", "*": "*"}
_ORDER: Final = {"<": "<", "<=": "<=", ">": ">", ">=": ">="}


class _Generator:
    """Emits the statements of one function body."""

    def __init__(self, helpers: dict[str, Any]) -> None:
        self.lines: list[str] = []
        self.indent = 2
        self.count = 0
        self.namespace: dict[str, Any] = dict(helpers)
        self.numeric: set[str] = set()  # variables known to hold a finite double or None

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
        """Turns ``var`` into a finite double or None: the reference's ``num()`` test, which
        every operand passes through (the inline fast paths of finite_number())."""
        self.numeric.add(var)
        self.emit(f"if type({var}) is float:")
        self.emit(f"    if {var} - {var}:  # an infinity or NaN (x - x is NaN, not 0)")
        self.emit(f"        {var} = None")
        self.emit("else:")
        self.emit(f"    {var} = float({var}) if type({var}) is int and -_BIG < {var} < _BIG else _num({var})")

    def copy(self, out: str, var: str) -> None:
        """``out = var`` as a finite double or None."""
        self.emit(f"{out} = {var}")
        if var in self.numeric:
            self.numeric.add(out)
        else:
            self.number(out)

    def value(self, node: Node) -> str:
        """Emits the statements computing ``node``; returns the variable that holds its value."""
        if isinstance(node, Number):
            value = float(node.value)
            name = self.constant(value)
            if value - value == 0:  # a literal of 309 digits or more is an infinity
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
        """Fields of plain objects are read inline; from the first step that meets anything else
        (an array, text, null) or a filter, the rest of the path is walked by ``walk()``, whose
        result (a ``_Walked``) the remaining steps pass by."""
        out = self.temp()
        if node.root == "$":
            self.emit(f"{out} = root")
        else:
            name = self.constant(node.root)
            self.emit(f"{out} = local.get({name}, _M) if type(local) is dict else _get(local, {name})")
        steps = path_steps(node)
        make_walker = self.namespace["_make_walker"]
        for index, step in enumerate(steps):
            rest = self.constant(make_walker(steps[index:]))
            # null or missing stays so to the end of the path (the walk drops it), unwalked
            if type(step) is str:
                name = self.constant(step)
                self.emit(f"if type({out}) is dict:")
                self.emit(f"    {out} = {out}.get({name}, _M)")
                self.emit(f"elif {out} is not None and {out} is not _M and type({out}) is not _Walked:")
                self.emit(f"    {out} = {rest}({out})")
            else:
                self.emit(f"if {out} is not None and {out} is not _M and type({out}) is not _Walked:")
                self.emit(f"    {out} = {rest}({out})")
        if steps:
            self.emit(f"if type({out}) is _Walked:")
            self.emit(f"    {out} = {out}.value")
        self.emit(f"if {out} is _M:")
        self.emit(f"    {out} = None")
        return out

    def binary(self, node: Binary) -> str:
        out = self.temp()
        self.copy(out, self.value(node.first))
        for position, (symbol, operand) in enumerate(node.rest):
            if position:  # the last result, an infinity after an overflow, is an operand now
                self.number(out)
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
        self.numeric.discard(out)  # x * y may overflow to an infinity, which stays the value
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
        else:  # round, min, max, attr, skillLevel
            self.emit(f"{out} = _{node.name}(root, {', '.join(args)})")
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
        # Every argument is evaluated first, as the reference calls a function with all its
        # arguments: a later one that throws (an unknown table) throws here too.
        values = [self.value(arg) for arg in node.args]
        out = self.temp()
        self.emit(f"{out} = None")
        for value in values:
            self.emit(f"if {out} is None:")
            self.indent += 1
            self.emit(f"{out} = {value}")
            self.indent -= 1
        return out


def path_steps(node: Path) -> tuple[Any, ...]:
    """A path's steps as :func:`walk` takes them: field names and filter steps."""
    steps: list[Any] = []
    for step in node.steps:
        if isinstance(step, Field):
            steps.append(str(step.name))
        elif isinstance(step, Filter):
            steps.append(FilterStep(str(step.field), bool(step.negate), frozenset(map(str, step.values))))
        else:
            raise FormulaError(f"Not a path step: {type(step).__name__}")
    return tuple(steps)


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
