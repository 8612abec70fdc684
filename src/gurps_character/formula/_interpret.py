"""Evaluating a syntax tree through closures, for formulas too large to compile.

:mod:`._codegen` turns a tree into Python source and compiles it: the fastest way to run the
schema's short formulas for every document, but compiling costs time and memory that grow faster
than the formula (a 10,000-character formula took a second and tens of megabytes). A large tree is
therefore turned into one closure per node instead, in time and memory linear in its size, and
runs a little slower. The values are the generated code's, step for step (see :mod:`._codegen`):
the same helpers do the work, and the tests hold the two to the same answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ._ast import Binary, Call, Compare, Negate, Node, Number, Path, String
from ._codegen import check_call, path_steps
from ._errors import FormulaError

__all__ = ["interpret"]

_Closure = Callable[[Any, Any, Any], Any]
"""``(root, local, tables) -> internal value``, as a compiled formula."""

_ORDER: Final[dict[str, Callable[[float, float], bool]]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def interpret(node: Node, helpers: dict[str, Any]) -> _Closure:
    """A function ``(root, local, tables) -> value`` that evaluates ``node`` as the generated code
    would, built without compiling anything.

    Raises:
        FormulaError: An unknown function or operator, or a wrong number of arguments.
    """
    return _Builder(helpers).value(node)


class _Builder:
    """Makes the closure of each node; ``helpers`` are the generated code's runtime functions."""

    def __init__(self, helpers: dict[str, Any]) -> None:
        self.helpers = helpers
        missing, big, to_number = helpers["_M"], helpers["_BIG"], helpers["_num"]

        def number(value: Any) -> Any:
            """A finite double or None (the generated code's inline conversion)."""
            if type(value) is float:
                return None if value - value else value  # an infinity or NaN is no number
            if type(value) is int and -big < value < big:
                return float(value)
            return to_number(value)

        self.missing = missing
        self.number = number

    def value(self, node: Node) -> _Closure:
        if isinstance(node, Number):
            constant = float(node.value)
            return lambda root, local, tables: constant
        if isinstance(node, String):
            text = node.value
            return lambda root, local, tables: text
        if isinstance(node, Path):
            return self.path(node)
        if isinstance(node, Negate):
            return self.negate(node)
        if isinstance(node, Binary):
            return self.binary(node)
        if isinstance(node, Compare):
            return self.compare(node)
        if isinstance(node, Call):
            return self.call(node)
        raise FormulaError(f"Not a formula node: {type(node).__name__}")

    def path(self, node: Path) -> _Closure:
        missing, get, make_walker = self.missing, self.helpers["_get"], self.helpers["_make_walker"]
        steps = path_steps(node)
        # fields of plain objects inline; the rest of the path, from the first other step, walked
        rests = [make_walker(steps[index:]) for index in range(len(steps))]
        plan = tuple(zip(steps, rests, strict=True))
        from_root, name = node.root == "$", node.root

        def run(root: Any, local: Any, tables: Any) -> Any:
            if from_root:
                value = root
            else:
                value = local.get(name, missing) if type(local) is dict else get(local, name)
            for step, rest in plan:
                if type(step) is str and type(value) is dict:
                    value = value.get(step, missing)
                elif value is None or value is missing:  # stays so to the end of the path
                    break
                else:
                    value = rest(value).value
                    break
            return None if value is missing else value

        return run

    def negate(self, node: Negate) -> _Closure:
        operand, number = self.value(node.operand), self.number

        def run(root: Any, local: Any, tables: Any) -> Any:
            value = number(operand(root, local, tables))
            return None if value is None else -value

        return run

    def binary(self, node: Binary) -> _Closure:
        first, number = self.value(node.first), self.number
        rest: list[tuple[str, _Closure]] = []
        for symbol, operand in node.rest:
            if symbol not in ("+", "-", "*", "/"):
                raise FormulaError(f"Unknown operator '{symbol}'")
            rest.append((symbol, self.value(operand)))

        def run(root: Any, local: Any, tables: Any) -> Any:
            out = first(root, local, tables)
            for symbol, operand in rest:
                out = number(out)  # the last result, an infinity after an overflow, too
                right = number(operand(root, local, tables))  # evaluated even after a null
                if out is None or right is None:
                    out = None
                elif symbol == "+":
                    out = out + right
                elif symbol == "-":
                    out = out - right
                elif symbol == "*":
                    out = out * right
                else:
                    out = None if right == 0 else out / right
            return out

        return run

    def compare(self, node: Compare) -> _Closure:
        left, right, number = self.value(node.left), self.value(node.right), self.number
        if node.op in ("==", "!="):
            equal, negate = self.helpers["_equal"], node.op == "!="

            def run_equal(root: Any, local: Any, tables: Any) -> Any:
                same = equal(left(root, local, tables), right(root, local, tables))
                return not same if negate else same

            return run_equal
        order = _ORDER.get(node.op)
        if order is None:
            raise FormulaError(f"Unknown comparison '{node.op}'")

        def run(root: Any, local: Any, tables: Any) -> Any:
            a, b = number(left(root, local, tables)), number(right(root, local, tables))
            return None if a is None or b is None else order(a, b)

        return run

    def call(self, node: Call) -> _Closure:
        check_call(node)
        name = node.name
        if name == "if":
            return self.if_(node)
        if name == "coalesce":
            return self.coalesce(node)
        args = [self.value(arg) for arg in node.args]
        number, helpers = self.number, self.helpers
        if name in ("floor", "ceil", "abs"):
            (argument,), function = args, helpers[f"_{name}"]

            def run_rounding(root: Any, local: Any, tables: Any) -> Any:
                value = number(argument(root, local, tables))
                return None if value is None else function(value)

            return run_rounding
        if name == "lookup":
            table, key = args
            if isinstance(node.args[0], String):  # a table named in the formula: its get()
                table_name = node.args[0].value

                def run_named(root: Any, local: Any, tables: Any) -> Any:
                    table(root, local, tables)
                    found = key(root, local, tables)
                    getter = tables.getters.get(table_name)
                    return getter(found) if getter is not None else tables.lookup(table_name, found)

                return run_named
            return lambda root, local, tables: tables.lookup(
                table(root, local, tables), key(root, local, tables)
            )
        if name == "sum":
            (argument,), total = args, helpers["_sum"]

            def run_sum(root: Any, local: Any, tables: Any) -> Any:
                value = argument(root, local, tables)
                return 0.0 if value is None else total(root, value)  # sum(null) is 0

            return run_sum
        function = helpers[f"_{name}"]  # round, min, max, attr, skillLevel
        return lambda root, local, tables: function(root, *[arg(root, local, tables) for arg in args])

    def if_(self, node: Call) -> _Closure:
        condition, yes, no = (self.value(arg) for arg in node.args)
        truthy = self.helpers["_truthy"]

        def run(root: Any, local: Any, tables: Any) -> Any:
            test = condition(root, local, tables)
            if test is None:  # a null condition gives null
                return None
            if test is True or (test is not False and truthy(test)):
                return yes(root, local, tables)
            return no(root, local, tables)

        return run

    def coalesce(self, node: Call) -> _Closure:
        args = [self.value(arg) for arg in node.args]

        def run(root: Any, local: Any, tables: Any) -> Any:
            # every argument first, as the reference evaluates a call's arguments
            values = [arg(root, local, tables) for arg in args]
            return next((value for value in values if value is not None), None)

        return run
