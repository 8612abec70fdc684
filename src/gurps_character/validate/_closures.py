"""The fast check's closures: every schema node compiled to a Python function.

Most documents are valid, and jsonschema's walk costs dozens of times what parsing the JSON does.
So the schema is also compiled once into a plain check that answers one question: is this surely
valid? :class:`ClosureCompiler` makes a closure for every node it knows; :mod:`._codegen` writes
the common nodes as Python source and calls these closures for the rest. Both accept only the plain
shapes ``json.loads`` produces (dict, list, str, int, float, bool, None) and say False whenever
they are unsure; jsonschema then has the final word and the report. A False never makes a valid
document invalid, and the tests check that a True always agrees with jsonschema.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import _ecma
from ._values import FORMATS, code_points, json_equal, multiple_of

__all__ = [
    "ANNOTATIONS",
    "FAST_TYPES",
    "INT_LIMIT",
    "NEGATIVE_INT_LIMIT",
    "Check",
    "ClosureCompiler",
    "Unsupported",
    "all_of",
]

Check = Callable[[Any], bool]
INT_LIMIT = 2**1024 - 2**970
"""Integers at or beyond this size round to an infinite double."""
NEGATIVE_INT_LIMIT = -INT_LIMIT
"""Its negation, made once (negating it per value would make a new 1024-bit int each time)."""
ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "$comment", "$schema", "$id", "$defs"}
    | {"x-gurps", "x-gurps-tables"}
)


PLAIN = frozenset({dict, list, str, int, float, bool, type(None)})
"""The types json.loads produces: the only ones the fast path judges."""


class Unsupported(Exception):
    """A schema construct the fast path does not compile; every document then takes the slow path."""


def _fast_int(value: object) -> bool:
    if type(value) is int:
        return NEGATIVE_INT_LIMIT < value < INT_LIMIT
    return type(value) is float and value.is_integer()


def _fast_number(value: object) -> bool:
    if type(value) is int:
        return NEGATIVE_INT_LIMIT < value < INT_LIMIT
    return type(value) is float and value - value == 0.0


FAST_TYPES: dict[str, Check] = {
    "null": lambda value: value is None,
    "boolean": lambda value: type(value) is bool,
    "integer": _fast_int,
    "number": _fast_number,
    "string": lambda value: type(value) is str,
    "array": lambda value: type(value) is list,
    "object": lambda value: type(value) is dict,
}


class ClosureCompiler:
    """Compiles schema nodes to checks. Each keyword group checks its own type, so a node with one
    type is a single closure."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.refs: dict[str, Check] = {}

    def ref(self, ref: str) -> Check:
        if ref not in self.refs:
            if not ref.startswith("#/$defs/") or "/" in ref[8:] or "~" in ref:
                raise Unsupported(ref)
            target = self.root.get("$defs", {}).get(ref[8:])
            if not isinstance(target, Mapping):
                raise Unsupported(ref)
            # a $ref may lead back to itself: refer through a cell until it is compiled
            cell: list[Check] = []
            self.refs[ref] = lambda value: cell[0](value)
            cell.append(self.node(target))
            self.refs[ref] = cell[0]
        return self.refs[ref]

    def node(self, schema: Any) -> Check:
        if schema is True:
            return lambda value: True
        if not isinstance(schema, Mapping):
            raise Unsupported(schema)
        keywords = {key: value for key, value in schema.items() if key not in ANNOTATIONS}
        checks: list[Check] = []
        if "$ref" in keywords:
            checks.append(self.ref(keywords.pop("$ref")))
        types = keywords.pop("type", None)
        names = [types] if isinstance(types, str) else list(types) if types is not None else None
        if names is not None and not set(names) <= set(FAST_TYPES):
            raise Unsupported(types)
        single = names[0] if names is not None and len(names) == 1 else None
        by_type = {
            "object": self.object_keywords(keywords),
            "array": self.array_keywords(keywords),
            "string": self.string_keywords(keywords),
            "number": self.number_keywords(keywords, _fast_int if single == "integer" else _fast_number),
        }
        checks.extend(self.untyped_keywords(keywords))
        if keywords:
            raise Unsupported(sorted(keywords))
        if single is not None:
            # the keyword group of that type checks the type itself; the others never apply
            own = by_type.get("number" if single == "integer" else single)
            checks.append(own if own is not None else FAST_TYPES[single])
        elif names is not None or any(by_type.values()):
            checks.append(self.mixed(names, by_type))
        if not checks:
            return lambda value: True
        return all_of(checks)

    @staticmethod
    def mixed(names: list[str] | None, by_type: dict[str, Check | None]) -> Check:
        """Several allowed types (or none given): each keyword group applies to its own type."""
        allowed = tuple(FAST_TYPES[name] for name in names) if names is not None else None
        guarded = tuple((FAST_TYPES[name], own) for name, own in by_type.items() if own is not None)

        def check(value: Any) -> bool:
            if type(value) not in PLAIN:  # unsure what the keywords of the slow path make of it
                return False
            if allowed is not None and not any(kind(value) for kind in allowed):
                return False
            return all(own(value) for kind, own in guarded if kind(value))

        return check

    def object_keywords(self, keywords: dict[str, Any]) -> Check | None:
        names = ("properties", "required", "additionalProperties", "propertyNames")
        if not any(name in keywords for name in names):
            return None
        properties = {key: self.node(sub) for key, sub in keywords.pop("properties", {}).items()}
        required = tuple(keywords.pop("required", ()))
        additional = keywords.pop("additionalProperties", True)
        closed = additional is False
        extra = None if isinstance(additional, bool) else self.node(additional)
        key_check = self.node(keywords.pop("propertyNames")) if "propertyNames" in keywords else None
        get = properties.get

        if closed and key_check is None:  # the common case, kept tight

            def closed_check(value: Any) -> bool:
                if type(value) is not dict:
                    return False
                for name in required:
                    if name not in value:
                        return False
                for key, item in value.items():
                    sub = get(key)
                    if sub is None or type(key) is not str or not sub(item):
                        return False
                return True

            return closed_check

        def check(value: Any) -> bool:
            if type(value) is not dict:
                return False
            for name in required:
                if name not in value:
                    return False
            for key, item in value.items():
                if type(key) is not str or (key_check is not None and not key_check(key)):
                    return False
                sub = get(key)
                if sub is None:
                    if closed or (extra is not None and not extra(item)):
                        return False
                elif not sub(item):
                    return False
            return True

        return check

    def array_keywords(self, keywords: dict[str, Any]) -> Check | None:
        if not any(name in keywords for name in ("items", "minItems", "maxItems")):
            return None
        low, high = keywords.pop("minItems", 0), keywords.pop("maxItems", None)
        items = self.node(keywords.pop("items")) if "items" in keywords else None

        def check(value: Any) -> bool:
            if type(value) is not list or len(value) < low or (high is not None and len(value) > high):
                return False
            if items is not None:
                for item in value:
                    if not items(item):
                        return False
            return True

        return check

    def string_keywords(self, keywords: dict[str, Any]) -> Check | None:
        if not any(name in keywords for name in ("minLength", "maxLength", "pattern", "format")):
            return None
        low, high = keywords.pop("minLength", 0), keywords.pop("maxLength", None)
        regex = _ecma.compile(keywords.pop("pattern")) if "pattern" in keywords else None
        form = FORMATS.get(keywords.pop("format", ""))

        def check(value: Any) -> bool:
            if type(value) is not str:
                return False
            text = value if value.isascii() else code_points(value)
            if len(text) < low or (high is not None and len(text) > high):
                return False
            if regex is not None and regex.search(text) is None:
                return False
            return form is None or form(value)

        return check

    def number_keywords(self, keywords: dict[str, Any], kind: Check) -> Check | None:
        names = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
        if not any(name in keywords for name in names):
            return None
        low, high = keywords.pop("minimum", None), keywords.pop("maximum", None)
        above, below = keywords.pop("exclusiveMinimum", None), keywords.pop("exclusiveMaximum", None)
        divisor = keywords.pop("multipleOf", None)

        def check(value: Any) -> bool:
            if not kind(value):
                return False
            number = float(value)
            return (
                (low is None or number >= low)
                and (high is None or number <= high)
                and (above is None or number > above)
                and (below is None or number < below)
                and (divisor is None or multiple_of(number, divisor))
            )

        return check

    def untyped_keywords(self, keywords: dict[str, Any]) -> list[Check]:
        checks: list[Check] = []
        if "enum" in keywords:
            options = list(keywords.pop("enum"))
            if all(type(option) is str for option in options):
                texts = frozenset(options)
                checks.append(lambda value: type(value) is str and value in texts)
            else:
                checks.append(lambda value: any(json_equal(value, option) for option in options))
        if "const" in keywords:
            const = keywords.pop("const")
            checks.append(lambda value: json_equal(value, const))
        if "not" in keywords:
            checks.append(self.negation(keywords.pop("not")))
        return checks

    @staticmethod
    def negation(schema: Any) -> Check:
        """``not``: the inner check must be exact (a False that means "unsure" would pass here), so
        only ``const`` and ``enum``, which compare exactly, are compiled."""
        if not isinstance(schema, Mapping) or set(schema) - ANNOTATIONS - {"const", "enum"}:
            raise Unsupported(schema)
        inner: list[Check] = []
        if "const" in schema:
            const = schema["const"]
            inner.append(lambda value: json_equal(value, const))
        if "enum" in schema:
            options = list(schema["enum"])
            inner.append(lambda value: any(json_equal(value, option) for option in options))
        return lambda value: not all(check(value) for check in inner)


def all_of(checks: list[Check]) -> Check:
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda value: first(value) and second(value)
    return lambda value: all(check(value) for check in checks)
