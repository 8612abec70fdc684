"""The fast check written as Python source, as :mod:`..formula._codegen` does for formulas.

Calling a closure per value (:mod:`._closures`) costs about as much as the value's own test, so the
common shapes are written as statements of one function per large ``$defs`` entry, and the closures
serve only the few nodes the generator does not write. See :class:`CodeGenerator`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import _ecma
from ._closures import ANNOTATIONS, INT_LIMIT, NEGATIVE_INT_LIMIT, Check, ClosureCompiler, Unsupported
from ._values import FORMATS, code_points, multiple_of

__all__ = ["CodeGenerator", "compile_fast_check"]


def compile_fast_check(schema: Mapping[str, Any]) -> Check | None:
    """The fast check for ``schema``, or None when the schema uses what it does not compile."""
    try:
        return CodeGenerator(schema).compile()
    except Unsupported:
        return None


_GROUPS: dict[str, frozenset[str]] = {
    "object": frozenset({"properties", "required", "additionalProperties"}),
    "array": frozenset({"items", "minItems", "maxItems"}),
    "string": frozenset({"minLength", "maxLength", "pattern", "format"}),
    "integer": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "boolean": frozenset(),
    "null": frozenset(),
}
"""The keywords the generator writes inline, by the one type a node allows."""

_TYPE_TESTS: dict[str, str] = {
    "null": "{0} is None",
    "boolean": "type({0}) is bool",
    "integer": "(type({0}) is int and {1} < {0} < {2}) or (type({0}) is float and {0}.is_integer())",
    "number": "(type({0}) is int and {1} < {0} < {2}) or (type({0}) is float and {0} - {0} == 0.0)",
    "string": "type({0}) is str",
    "array": "type({0}) is list",
    "object": "type({0}) is dict",
}
"""``FAST_TYPES`` as expressions on a variable ({0}) with the int limits' literals ({1}, {2})."""
_LIMIT_LITERALS = (f"({NEGATIVE_INT_LIMIT})", str(INT_LIMIT))
"""The int limits as Python literals: a constant costs less to read than a global."""

_LIMITS = (("minimum", ">="), ("maximum", "<="), ("exclusiveMinimum", ">"), ("exclusiveMaximum", "<"))
_INLINE_LINES = 15
"""The most statements a ``$defs`` entry is written in place as, instead of called."""
_BELOW = {">=": "<=", ">": "<"}
"""The lower limits' comparisons, written with the limit first (``0 <= v``) to chain them."""


class CodeGenerator:
    """Writes the fast check as Python source, as :mod:`.formula._codegen` does for formulas.

    The common shapes (closed objects, arrays, strings, numbers, string enums, ``$ref``) become
    statements inside one function per large ``$defs`` entry (small ones are written in place of
    their ``$ref``), so checking a value costs no call; every other node is checked by the closure
    :class:`ClosureCompiler` makes for it, so the answers are the closures' answers. Text from the
    schema enters the code only as ``repr`` writes it (names, enum options, small exact numbers:
    literals of equal values, see :meth:`literal`); everything else (key sets, patterns, formats,
    other numbers) is a bound constant.

    One class of this length because each method writes one schema keyword into the same
    function being built (its lines, names and indentation).
    """

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.closures = ClosureCompiler(root)
        self.namespace: dict[str, Any] = {
            "code_points": code_points,
            "multiple_of": multiple_of,
        }
        self.functions: dict[str, str] = {}
        self.inlining: set[str] = set()
        self.sizes: dict[str, int] = {}
        self.sources: list[str] = []
        self.count = 0

    def compile(self) -> Check:
        name = self.function(self.root)
        exec(compile("\n".join(self.sources), "<schema>", "exec"), self.namespace)
        check: Check = self.namespace[name]
        return check

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def constant(self, value: Any) -> str:
        name = self.fresh("_c")
        self.namespace[name] = value
        return name

    def literal(self, value: Any) -> str:
        """``value`` as the code reads it: text, and numbers a double holds exactly, as Python
        literals (``repr`` writes each as a literal of an equal value; a literal costs less to read
        than a global), anything else as a bound constant."""
        if type(value) is str or _plain_const(value):
            return f"({value!r})" if type(value) is not str and value < 0 else repr(value)
        return self.constant(value)

    def function(self, schema: Any, name: str | None = None) -> str:
        name = name or self.fresh("_check")
        lines: list[str] = []
        self.node(schema, "value", lines, 2)
        # a required property is read without asking first whether it is there (see typed_object)
        handler = "    try:\n" + "".join(lines) + "    except KeyError:\n        return False\n"
        self.sources.append(f"def {name}(value):\n" + (handler if lines else "") + "    return True\n")
        return name

    def target(self, ref: str) -> Mapping[str, Any]:
        if not ref.startswith("#/$defs/") or "/" in ref[8:] or "~" in ref:
            raise Unsupported(ref)
        target = self.root.get("$defs", {}).get(ref[8:])
        if not isinstance(target, Mapping):
            raise Unsupported(ref)
        return target

    def ref(self, ref: str) -> str:
        if ref not in self.functions:
            name = self.functions[ref] = self.fresh("_def")  # before its body: a $ref may recurse
            self.function(self.target(ref), name)
        return self.functions[ref]

    def reference(self, ref: str, var: str, lines: list[str], depth: int) -> None:
        """A ``$ref``: the entry's statements written here when it is small (a call costs more than
        a few tests), else a call of its function."""
        target = self.target(ref)
        if ref not in self.inlining and self.size(ref, target) <= _INLINE_LINES:
            self.inlining.add(ref)
            self.node(target, var, lines, depth)
            self.inlining.discard(ref)
        else:
            self.emit(lines, depth, f"if not {self.ref(ref)}({var}): return False")

    def size(self, ref: str, target: Mapping[str, Any]) -> int:
        """How many statements the ``$defs`` entry is written as (its own $refs written in place
        when small); written once to count them, into a scratch list."""
        if ref not in self.sizes:
            self.sizes[ref] = _INLINE_LINES + 1  # while counting: a $ref back to it is called
            scratch: list[str] = []
            self.inlining.add(ref)
            self.node(target, "value", scratch, 0)
            self.inlining.discard(ref)
            self.sizes[ref] = len(scratch)
        return self.sizes[ref]

    @staticmethod
    def emit(lines: list[str], depth: int, line: str) -> None:
        lines.append("    " * depth + line + "\n")

    def node(self, schema: Any, var: str, lines: list[str], depth: int) -> None:
        """Statements that ``return False`` unless ``var`` is surely valid against ``schema``."""
        if schema is True:
            return
        if not isinstance(schema, Mapping):
            raise Unsupported(schema)
        keywords = {key: value for key, value in schema.items() if key not in ANNOTATIONS}
        if not self.inlined(keywords):
            check = self.constant(self.closures.node(schema))
            self.emit(lines, depth, f"if not {check}({var}): return False")
            return
        # in ClosureCompiler's order: $ref, enum, then the type and its keywords
        if "$ref" in keywords:
            self.reference(keywords["$ref"], var, lines, depth)
        if "enum" in keywords:
            # a set of literals after "in" is compiled to a frozenset constant
            literals = sorted({self.literal(option) for option in keywords["enum"]})
            options = "{" + ", ".join(literals) + "}" if literals else "()"
            self.emit(lines, depth, f"if type({var}) is not str or {var} not in {options}: return False")
        if "const" in keywords:
            const = keywords["const"]
            name = self.literal(const)
            if type(const) is str:
                self.emit(lines, depth, f"if type({var}) is not str or {var} != {name}: return False")
            else:  # a number: equal as doubles, as JavaScript compares (see _plain_const)
                number = f"(type({var}) is int or type({var}) is float)"
                self.emit(lines, depth, f"if not ({number} and {var} == {name}): return False")
        types = keywords.get("type")
        if isinstance(types, str):
            getattr(self, f"typed_{types}")(keywords, var, lines, depth)
            if "not" in keywords:  # a number that must not equal a constant (see inlined())
                excluded = self.literal(_excluded_number(keywords["not"]))
                self.emit(lines, depth, f"if {var} == {excluded}: return False")
        elif types is not None:
            nullable = _nullable(types)
            if nullable is not None:
                # null, or a value of the other type with that type's keywords
                self.emit(lines, depth, f"if {var} is not None:")
                getattr(self, f"typed_{nullable}")(keywords, var, lines, depth + 1)
                return
            test = " or ".join(f"({_TYPE_TESTS[name].format(var, *_LIMIT_LITERALS)})" for name in types)
            self.emit(lines, depth, f"if not ({test}): return False")

    @staticmethod
    def inlined(keywords: Mapping[str, Any]) -> bool:
        """Whether the generator writes this node itself (else its closure checks it)."""
        rest = dict(keywords)
        ref = rest.pop("$ref", None)
        if ref is not None and not isinstance(ref, str):
            return False
        if "enum" in rest:
            options = rest.pop("enum")
            if not isinstance(options, list | tuple) or not all(type(option) is str for option in options):
                return False
        if "const" in rest and _plain_const(rest["const"]):
            rest.pop("const")
        types = rest.pop("type", None)
        if "not" in rest and (  # only "not" one exact number, on a number
            types not in ("integer", "number") or _excluded_number(rest.pop("not")) is None
        ):
            return False
        if types is None:
            return not rest
        if isinstance(types, str):
            if types not in _GROUPS or not set(rest) <= _GROUPS[types]:
                return False
            return types != "object" or not rest or rest.get("additionalProperties") is False
        if not isinstance(types, list | tuple) or "enum" in keywords or "const" in keywords:
            return False
        if not rest:
            return all(isinstance(name, str) and name in _TYPE_TESTS for name in types)
        nullable = _nullable(types)
        return nullable is not None and set(rest) <= _GROUPS[nullable]

    def typed_object(self, keywords: Mapping[str, Any], var: str, lines: list[str], depth: int) -> None:
        emit = self.emit
        emit(lines, depth, f"if type({var}) is not dict: return False")
        if "additionalProperties" not in keywords:  # no object keywords: the type is all
            if "properties" in keywords or "required" in keywords:
                raise Unsupported(keywords)  # not inlined (see inlined()); never reached
            return
        properties = keywords.get("properties", {})
        required = list(keywords.get("required", ()))
        checked = {name for name, sub in properties.items() if not _anything(sub)}
        for name in required:
            if name not in checked:  # the others are read below: a missing one raises KeyError
                emit(lines, depth, f"if {self.literal(name)} not in {var}: return False")
        # closed: known keys only. When every required name is a property, all of them are read or
        # tested here, and so is every other property: an object holding as many keys as were
        # found holds nothing else (a count costs less than a key-set test)
        if not set(required) <= set(properties):
            emit(lines, depth, f"if not {var}.keys() <= {self.constant(frozenset(properties))}: return False")
            counter = None
        elif set(required) == set(properties):
            emit(lines, depth, f"if len({var}) != {len(set(required))}: return False")
            counter = None
        else:
            counter = self.fresh("k")
            emit(lines, depth, f"{counter} = {len(set(required))}")
        for name, sub in properties.items():
            key = self.literal(name)
            if name not in checked:  # anything goes: only its presence counts
                if counter is not None and name not in required:
                    emit(lines, depth, f"if {key} in {var}: {counter} += 1")
                continue
            item = self.fresh("v")
            if name in required:
                emit(lines, depth, f"{item} = {var}[{key}]")
                self.node(sub, item, lines, depth)
            else:
                # "in" then a subscript costs less than .get(): absent, one cheap test; present,
                # two lookups without a method call
                emit(lines, depth, f"if {key} in {var}:")
                if counter is not None:
                    emit(lines, depth + 1, f"{counter} += 1")
                emit(lines, depth + 1, f"{item} = {var}[{key}]")
                self.node(sub, item, lines, depth + 1)
        if counter is not None:
            emit(lines, depth, f"if len({var}) != {counter}: return False")

    def typed_array(self, keywords: Mapping[str, Any], var: str, lines: list[str], depth: int) -> None:
        emit = self.emit
        emit(lines, depth, f"if type({var}) is not list: return False")
        if keywords.get("minItems", 0):
            emit(lines, depth, f"if len({var}) < {self.constant(keywords['minItems'])}: return False")
        if keywords.get("maxItems") is not None:
            emit(lines, depth, f"if len({var}) > {self.constant(keywords['maxItems'])}: return False")
        if "items" in keywords:
            body: list[str] = []
            item = self.fresh("v")
            self.node(keywords["items"], item, body, depth + 1)
            if body:
                emit(lines, depth, f"for {item} in {var}:")
                lines.extend(body)

    def typed_string(self, keywords: Mapping[str, Any], var: str, lines: list[str], depth: int) -> None:
        emit = self.emit
        low, high = keywords.get("minLength", 0), keywords.get("maxLength")
        form = FORMATS.get(keywords.get("format", ""))
        if low <= 1 and high is None and "pattern" not in keywords:
            # one code point or more: not empty
            emit(lines, depth, f"if type({var}) is not str{f' or not {var}' if low else ''}: return False")
            if form is not None:
                emit(lines, depth, f"if not {self.constant(form)}({var}): return False")
            return
        emit(lines, depth, f"if type({var}) is not str: return False")
        text = self.fresh("s")
        emit(lines, depth, f"{text} = {var} if {var}.isascii() else code_points({var})")
        if low:
            emit(lines, depth, f"if len({text}) < {self.constant(low)}: return False")
        if high is not None:
            emit(lines, depth, f"if len({text}) > {self.constant(high)}: return False")
        if "pattern" in keywords:
            regex = self.constant(_ecma.compile(keywords["pattern"]))
            emit(lines, depth, f"if {regex}.search({text}) is None: return False")
        if form is not None:
            emit(lines, depth, f"if not {self.constant(form)}({var}): return False")

    def typed_number(self, keywords: Mapping[str, Any], var: str, lines: list[str], depth: int) -> None:
        self.numeric(keywords, var, lines, depth, f"{var} - {var} != 0.0")  # inf or nan

    def typed_integer(self, keywords: Mapping[str, Any], var: str, lines: list[str], depth: int) -> None:
        self.numeric(keywords, var, lines, depth, f"not {var}.is_integer()")

    def numeric(self, keywords: Mapping[str, Any], var: str, lines: list[str], depth: int, bad: str) -> None:
        emit = self.emit
        limits = [(keyword, op) for keyword, op in _LIMITS if keywords.get(keyword) is not None]
        divisor = keywords.get("multipleOf")
        if all(_exact_limit(keywords[keyword]) for keyword, _ in limits):
            # comparing the int or float itself gives what comparing its double does, and an exact
            # lower (upper) limit keeps an int above (below) the size that rounds to infinity: an
            # int within its limits is one chained comparison
            lower = [f"{self.literal(keywords[key])} {_BELOW[op]} " for key, op in limits if op in _BELOW]
            upper = [f" {op} {self.literal(keywords[key])}" for key, op in limits if op not in _BELOW]
            bounds = [f"{bound}{var}" for bound in lower] + [f"{var}{bound}" for bound in upper]
            # one chained comparison for the first two, "and" for any more
            lower, upper = lower or [f"{_LIMIT_LITERALS[0]} < "], upper or [f" < {_LIMIT_LITERALS[1]}"]
            int_range = " and ".join(
                [f"{lower[0]}{var}{upper[0]}"]
                + [f"{bound}{var}" for bound in lower[1:]]
                + [f"{var}{bound}" for bound in upper[1:]]
            )
            emit(lines, depth, f"if type({var}) is not int or not ({int_range}):")
            float_test = " or ".join([bad, *(f"not ({bound})" for bound in bounds)])
            emit(lines, depth + 1, f"if type({var}) is not float or {float_test}: return False")
            if divisor is not None:
                emit(lines, depth, f"if not multiple_of({var}, {self.literal(divisor)}): return False")
            return
        emit(lines, depth, f"if type({var}) is int:")
        emit(lines, depth + 1, f"if not {_LIMIT_LITERALS[0]} < {var} < {_LIMIT_LITERALS[1]}: return False")
        emit(lines, depth, f"elif type({var}) is not float or {bad}: return False")
        number = self.fresh("n")
        emit(lines, depth, f"{number} = float({var})")
        for keyword, op in limits:
            emit(lines, depth, f"if not {number} {op} {self.constant(keywords[keyword])}: return False")
        if divisor is not None:
            emit(lines, depth, f"if not multiple_of({number}, {self.constant(divisor)}): return False")

    def typed_boolean(self, keywords: Mapping[str, Any], var: str, lines: list[str], depth: int) -> None:
        self.emit(lines, depth, f"if type({var}) is not bool: return False")

    def typed_null(self, keywords: Mapping[str, Any], var: str, lines: list[str], depth: int) -> None:
        self.emit(lines, depth, f"if {var} is not None: return False")


def _anything(schema: Any) -> bool:
    """Whether every value matches ``schema`` (``true``, or annotations only)."""
    return schema is True or (isinstance(schema, Mapping) and not set(schema) - ANNOTATIONS)


def _nullable(types: Any) -> str | None:
    """For a type list of ``null`` and one of integer, number or text: that type."""
    if not isinstance(types, list | tuple) or len(types) != 2 or "null" not in types:
        return None
    other = types[1] if types[0] == "null" else types[0]
    return other if other in ("integer", "number", "string") else None


def _excluded_number(schema: Any) -> int | float | None:
    """For ``not: {"const": n}`` with an exact number ``n`` (see :func:`_plain_const`): ``n``. A
    number in the document then fails exactly when it equals ``n`` (as doubles)."""
    if not isinstance(schema, Mapping) or set(schema) - ANNOTATIONS != {"const"}:
        return None
    const = schema["const"]
    return const if type(const) is not str and _plain_const(const) else None


def _plain_const(const: object) -> bool:
    """Whether the generator writes a ``const`` inline: text (compared as text), or a whole or
    fractional number a double holds exactly, which an int or float in the document equals under
    ``==`` exactly when their doubles are equal (an int beyond 2**53 equals no such number)."""
    if type(const) is str:
        return True
    return (type(const) is int or type(const) is float) and const - const == 0 and abs(const) < 2**53


def _exact_limit(limit: object) -> bool:
    """Whether ``number >= limit`` (and the other comparisons) gives the same answer for a finite
    int or float as ``float(number) >= limit``: an int differs from its double only beyond 2**53,
    where the sign alone decides against a limit this small."""
    return (type(limit) is int or type(limit) is float) and abs(limit) < 2**53
