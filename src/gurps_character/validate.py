"""Schema validation with the reference library's error reports.

The reference validates with Ajv (``allErrors``) and reports each error as ``{pointer, keyword,
params, message}``. Here one jsonschema Draft 2020-12 validator does the walking, built once on first
use with a :mod:`referencing` registry that holds the bundled schema and the x-gurps vocabulary. The
keywords that report are our own implementations, so that every error carries Ajv's keyword, params
and wording, and so that the checks follow JSON and JavaScript rather than Python:

* types are JSON types: ``True``/``False`` are never numbers, ``3.0`` is an integer, integers may be
  of any size a double can hold (larger ones, like ``NaN`` and the infinities, are not numbers:
  JavaScript reads them as ``Infinity``, which Ajv rejects); objects are mappings with text keys,
  arrays are lists or tuples;
* ``pattern`` and ``propertyNames`` patterns are ECMA-262 regular expressions (:mod:`._ecma`);
* ``format: "date-time"`` is always checked, by ajv-formats' rules (:mod:`._datetime`), without any
  optional package;
* ``multipleOf`` divides as JavaScript does and accepts quotients Ajv accepts; string lengths count
  code points.

Only what the schema describes is inspected: values in free-form places (the contents of
``extensions``) are not walked, however deep or odd they are.

Valid documents are the common case, and jsonschema's walk costs dozens of times what parsing the
JSON does. So the schema is also compiled once into a plain check (generated Python code, with
closures for the rare shapes) that only answers "surely valid?" for the plain data ``json.loads``
produces; everything else, and every invalid document, goes through jsonschema, which has the final
word and writes the report.

This module imports jsonschema only when the validator is first built, so importing the package
(and :mod:`gurps_character.formula`) never loads it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import _ecma
from ._datetime import is_date_time
from ._frozen import freeze, thaw
from ._once import once
from ._pointer import pointer_of
from ._resources import SCHEMA_FILE, VOCABULARY_FILE, read_json_resource
from .formula._jsnum import js_number_text

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["ValidationError", "ValidationResult", "validate_character"]


@dataclass(frozen=True, slots=True)
class ValidationError:
    """One schema violation, as the reference reports it.

    Attributes:
        pointer: JSON Pointer to the offending value (``""`` for the document itself).
        keyword: The schema keyword that failed (``type``, ``required``, ``pattern`` ...).
        params: Ajv's facts about the failure (``{"missingProperty": "name"}``, ``{"limit": 4}``
            ...), read-only.
        message: The English message: ``"<pointer or (root)>: <what is wrong>"``.
        property_name: For an invalid property name (``extensions`` keys), the name itself.
    """

    pointer: str
    keyword: str
    params: Mapping[str, Any]
    message: str
    property_name: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", freeze(self.params))

    def to_dict(self) -> dict[str, Any]:
        """The error as JSON: ``{"pointer", "keyword", "params", "message"}``, plus
        ``"propertyName"`` when the error is about a property name. The params are a fresh copy."""
        result: dict[str, Any] = {
            "pointer": self.pointer,
            "keyword": self.keyword,
            "params": thaw(self.params),
            "message": self.message,
        }
        if self.property_name is not None:
            result["propertyName"] = self.property_name
        return result


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """The outcome of :func:`validate_character`.

    Attributes:
        valid: Whether the document matches the schema.
        errors: Every violation found (empty when valid).
    """

    valid: bool
    errors: tuple[ValidationError, ...]

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON: ``{"valid", "errors": [...]}``."""
        return {"valid": self.valid, "errors": [error.to_dict() for error in self.errors]}


def validate_character(document: object) -> ValidationResult:
    """Checks a document against the bundled gurps-character schema.

    Every violation is reported (not just the first), with the pointer, keyword, params and message
    the reference library gives. Only the schema is checked: the format version is not (see
    ``check_envelope``) and neither are the rules (see ``verify_character``).

    Args:
        document: Anything. Mappings with text keys are JSON objects, lists and tuples are arrays.

    Returns:
        ``ValidationResult(valid, errors)``. Never raises: a value that is not JSON data where the
        schema expects some is reported as a violation there.
    """
    engine = _engine()
    try:
        if engine.fast is not None and engine.fast(document):
            return _VALID
        return _result([_convert(error, engine.reported) for error in engine.iter_errors(document)])
    except Exception:  # a mapping that fails when read is not a usable JSON object
        return _result([_error("", "type", {"type": "object"}, "must be object")])


_VALID = ValidationResult(valid=True, errors=())


def _result(errors: list[ValidationError]) -> ValidationResult:
    return ValidationResult(valid=not errors, errors=tuple(errors))


def _error(pointer: str, keyword: str, params: Mapping[str, Any], text: str) -> ValidationError:
    return ValidationError(pointer, keyword, params, f"{pointer or '(root)'}: {text}")


# ---------------------------------------------------------------- JSON values, as JavaScript sees them


def _is_finite_number(value: object) -> bool:
    """A JSON number that is a finite double (``bool`` excluded)."""
    if isinstance(value, float):
        return value - value == 0.0  # false for inf and nan
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            float(value)
        except OverflowError:  # JavaScript reads such a literal as Infinity
            return False
        return True
    return False


def _is_integer(value: object) -> bool:
    if isinstance(value, float):
        return value - value == 0.0 and value.is_integer()
    return _is_finite_number(value)


def _is_object(value: object) -> bool:
    return isinstance(value, Mapping) and all(isinstance(key, str) for key in value)


def _is_array(value: object) -> bool:
    return isinstance(value, list | tuple)


_TYPES: dict[str, Callable[[object], bool]] = {
    "null": lambda value: value is None,
    "boolean": lambda value: isinstance(value, bool),
    "integer": _is_integer,
    "number": _is_finite_number,
    "string": lambda value: isinstance(value, str),
    "array": _is_array,
    "object": _is_object,
}


def _json_equal(value: object, expected: object) -> bool:
    """JSON equality (Ajv's ``fast-deep-equal`` on parsed JSON); never calls ``==`` on unknown types."""
    if isinstance(expected, str):
        return isinstance(value, str) and value == expected
    if expected is None or isinstance(expected, bool):
        return value is expected or (isinstance(value, bool) and value == expected)
    if isinstance(expected, int | float):
        return (
            isinstance(value, int | float)
            and _is_finite_number(value)
            and float(value) == float(expected)  # doubles, as JavaScript compares them
        )
    if isinstance(expected, list | tuple):
        return (
            isinstance(value, list | tuple)
            and len(value) == len(expected)
            and all(_json_equal(a, b) for a, b in zip(value, expected, strict=True))
        )
    if isinstance(expected, Mapping):
        return (
            _is_object(value)
            and isinstance(value, Mapping)
            and len(value) == len(expected)
            and all(key in value and _json_equal(value[key], item) for key, item in expected.items())
        )
    return False


_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def _code_points(text: str) -> str:
    """The text as JavaScript sees it in ``u`` mode: surrogate pairs stored as two Python characters
    become the one character they encode."""
    if text.isascii() or _SURROGATE_PAIR.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _js_number_text(value: object) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return js_number_text(value)
    return str(value)


def _multiple_of(value: int | float, divisor: int | float) -> bool:
    """Ajv's test: ``value / divisor`` must equal ``parseInt`` of itself, so the quotient must be a
    finite whole number below 1e21 (JavaScript writes larger ones with an exponent)."""
    if divisor == 0:
        return False
    quotient = float(value) / float(divisor)
    return quotient - quotient == 0.0 and quotient.is_integer() and abs(quotient) < 1e21


# ---------------------------------------------------------------- keywords
#
# Each is a jsonschema keyword function: (validator, keyword value, instance, schema) -> errors.
# Errors are made by ``_report`` as jsonschema errors that carry Ajv's keyword, params and text.


def _report(keyword: str, params: dict[str, Any], text: str) -> Any:
    return _engine().reported(keyword, params, text)


def _type(validator: Any, types: Any, instance: Any, schema: Any) -> Iterator[Any]:
    names = [types] if isinstance(types, str) else list(types)
    if not any(validator.is_type(instance, name) for name in names):
        yield _report("type", {"type": types}, f"must be {','.join(names)}")


def _required(validator: Any, required: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "object"):
        for name in required:
            if name not in instance:
                yield _report("required", {"missingProperty": name}, f"must have required property '{name}'")


def _pattern_properties(validator: Any, patterns: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "object"):
        for pattern, subschema in patterns.items():
            regex = _ecma.compile(pattern)
            for key, value in instance.items():
                if regex.search(_code_points(key)):
                    yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional(schema: Any, instance: Any) -> Iterator[str]:
    known = schema.get("properties", {})
    patterns = [_ecma.compile(pattern) for pattern in schema.get("patternProperties", {})]
    for key in instance:
        if key not in known and not any(regex.search(_code_points(key)) for regex in patterns):
            yield key


def _additional_properties(validator: Any, allowed: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    if allowed is False:
        for key in _additional(schema, instance):
            # The reference rewrites Ajv's "must NOT have additional properties" to name the property.
            yield _report("additionalProperties", {"additionalProperty": key}, f'unknown property "{key}"')
    elif allowed is not True:
        for key in _additional(schema, instance):
            yield from validator.descend(instance[key], allowed, path=key)


def _property_names(validator: Any, subschema: Any, instance: Any, schema: Any) -> Iterator[Any]:
    # Ajv reports the name's own errors with propertyName set, then a "propertyNames" error that the
    # reference drops; the name's errors are reported at the object's pointer.
    if validator.is_type(instance, "object"):
        for key in instance:
            for error in validator.descend(key, subschema):
                if getattr(error, "property_name", None) is None:
                    error.property_name = key
                yield error


def _const(validator: Any, const: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not _json_equal(instance, const):
        yield _report("const", {"allowedValue": const}, "must be equal to constant")


def _enum(validator: Any, enum: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not any(_json_equal(instance, option) for option in enum):
        yield _report("enum", {"allowedValues": enum}, "must be equal to one of the allowed values")


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "string") and not _ecma.compile(pattern).search(_code_points(instance)):
        yield _report("pattern", {"pattern": pattern}, f'must match pattern "{pattern}"')


_FORMATS: dict[str, Callable[[str], bool]] = {"date-time": is_date_time}
"""The formats that are asserted. Others are annotations only (the bundled schema uses none)."""


def _format(validator: Any, name: Any, instance: Any, schema: Any) -> Iterator[Any]:
    check = _FORMATS.get(name)
    if check is not None and validator.is_type(instance, "string") and not check(instance):
        yield _report("format", {"format": name}, f'must match format "{name}"')


def _length_keyword(keyword: str, too_short: bool) -> Callable[..., Iterator[Any]]:
    word = "fewer" if too_short else "more"

    def check(validator: Any, limit: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if validator.is_type(instance, "string"):
            length = len(_code_points(instance))
            if length < limit if too_short else length > limit:
                text = f"must NOT have {word} than {_js_number_text(limit)} characters"
                yield _report(keyword, {"limit": limit}, text)

    return check


def _items_keyword(keyword: str, too_few: bool) -> Callable[..., Iterator[Any]]:
    word = "fewer" if too_few else "more"

    def check(validator: Any, limit: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if validator.is_type(instance, "array") and (
            len(instance) < limit if too_few else len(instance) > limit
        ):
            text = f"must NOT have {word} than {_js_number_text(limit)} items"
            yield _report(keyword, {"limit": limit}, text)

    return check


def _limit_keyword(keyword: str, comparison: str) -> Callable[..., Iterator[Any]]:
    passes: Callable[[Any, Any], bool] = {
        ">=": lambda value, limit: value >= limit,
        "<=": lambda value, limit: value <= limit,
        ">": lambda value, limit: value > limit,
        "<": lambda value, limit: value < limit,
    }[comparison]

    def check(validator: Any, limit: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if validator.is_type(instance, "number") and not passes(float(instance), limit):
            text = f"must be {comparison} {_js_number_text(limit)}"
            yield _report(keyword, {"comparison": comparison, "limit": limit}, text)

    return check


def _multiple_of_keyword(validator: Any, divisor: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "number") and not _multiple_of(instance, divisor):
        text = f"must be multiple of {_js_number_text(divisor)}"
        yield _report("multipleOf", {"multipleOf": divisor}, text)


def _not(validator: Any, subschema: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if next(iter(validator.descend(instance, subschema)), None) is None:
        yield _report("not", {}, "must NOT be valid")


_KEYWORDS: dict[str, Callable[..., Iterator[Any]]] = {
    "type": _type,
    "required": _required,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
    "propertyNames": _property_names,
    "const": _const,
    "enum": _enum,
    "pattern": _pattern,
    "format": _format,
    "minLength": _length_keyword("minLength", too_short=True),
    "maxLength": _length_keyword("maxLength", too_short=False),
    "minItems": _items_keyword("minItems", too_few=True),
    "maxItems": _items_keyword("maxItems", too_few=False),
    "minimum": _limit_keyword("minimum", ">="),
    "maximum": _limit_keyword("maximum", "<="),
    "exclusiveMinimum": _limit_keyword("exclusiveMinimum", ">"),
    "exclusiveMaximum": _limit_keyword("exclusiveMaximum", "<"),
    "multipleOf": _multiple_of_keyword,
    "not": _not,
}
"""The assertion keywords with Ajv's reports. jsonschema's own applicators (``properties``,
``items``, ``$ref`` ...) do the walking; they never report errors themselves."""

_SUPPORTED_KEYWORDS = frozenset(
    {*_KEYWORDS, "properties", "items", "prefixItems", "$ref", "$defs", "allOf", "$schema", "$id"}
    | {"title", "description", "default", "examples", "$comment", "x-gurps", "x-gurps-tables"}
)
"""Every keyword a schema given to this validator may use; the tests hold the bundled schema to it."""


# ---------------------------------------------------------------- the fast path for valid documents
#
# Most documents are valid, and jsonschema's walk costs dozens of times what parsing the JSON does.
# So the schema is also compiled once into plain checks that answer one question: is this surely
# valid? _FastCompiler makes closures for every node; _FastGenerator writes the common nodes as
# Python source (no call per value) and uses the closures for the rest. They accept only the plain
# shapes json.loads produces (dict, list, str, int, float, bool, None) and say False whenever they
# are unsure; jsonschema then has the final word and the report.
# A False never makes a valid document invalid, and the tests check that a True always agrees with
# jsonschema.

_Check = Callable[[Any], bool]
_INT_LIMIT = 2**1024 - 2**970
"""Integers at or beyond this size round to an infinite double."""
_NEGATIVE_INT_LIMIT = -_INT_LIMIT
"""Its negation, made once (negating it per value would make a new 1024-bit int each time)."""
_ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "$comment", "$schema", "$id", "$defs"}
    | {"x-gurps", "x-gurps-tables"}
)


_PLAIN = frozenset({dict, list, str, int, float, bool, type(None)})
"""The types json.loads produces: the only ones the fast path judges."""


class _Unsupported(Exception):
    """A schema construct the fast path does not compile; every document then takes the slow path."""


def _fast_int(value: object) -> bool:
    if type(value) is int:
        return _NEGATIVE_INT_LIMIT < value < _INT_LIMIT
    return type(value) is float and value.is_integer()


def _fast_number(value: object) -> bool:
    if type(value) is int:
        return _NEGATIVE_INT_LIMIT < value < _INT_LIMIT
    return type(value) is float and value - value == 0.0


_FAST_TYPES: dict[str, _Check] = {
    "null": lambda value: value is None,
    "boolean": lambda value: type(value) is bool,
    "integer": _fast_int,
    "number": _fast_number,
    "string": lambda value: type(value) is str,
    "array": lambda value: type(value) is list,
    "object": lambda value: type(value) is dict,
}


def _compile_fast_check(schema: Mapping[str, Any]) -> _Check | None:
    """The fast check for ``schema``, or None when the schema uses what it does not compile."""
    try:
        return _FastGenerator(schema).compile()
    except _Unsupported:
        return None


class _FastCompiler:
    """Compiles schema nodes to checks. Each keyword group checks its own type, so a node with one
    type is a single closure."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.refs: dict[str, _Check] = {}

    def ref(self, ref: str) -> _Check:
        if ref not in self.refs:
            if not ref.startswith("#/$defs/") or "/" in ref[8:] or "~" in ref:
                raise _Unsupported(ref)
            target = self.root.get("$defs", {}).get(ref[8:])
            if not isinstance(target, Mapping):
                raise _Unsupported(ref)
            # a $ref may lead back to itself: refer through a cell until it is compiled
            cell: list[_Check] = []
            self.refs[ref] = lambda value: cell[0](value)
            cell.append(self.node(target))
            self.refs[ref] = cell[0]
        return self.refs[ref]

    def node(self, schema: Any) -> _Check:
        if schema is True:
            return lambda value: True
        if not isinstance(schema, Mapping):
            raise _Unsupported(schema)
        keywords = {key: value for key, value in schema.items() if key not in _ANNOTATIONS}
        checks: list[_Check] = []
        if "$ref" in keywords:
            checks.append(self.ref(keywords.pop("$ref")))
        types = keywords.pop("type", None)
        names = [types] if isinstance(types, str) else list(types) if types is not None else None
        if names is not None and not set(names) <= set(_FAST_TYPES):
            raise _Unsupported(types)
        single = names[0] if names is not None and len(names) == 1 else None
        by_type = {
            "object": self.object_keywords(keywords),
            "array": self.array_keywords(keywords),
            "string": self.string_keywords(keywords),
            "number": self.number_keywords(keywords, _fast_int if single == "integer" else _fast_number),
        }
        checks.extend(self.untyped_keywords(keywords))
        if keywords:
            raise _Unsupported(sorted(keywords))
        if single is not None:
            # the keyword group of that type checks the type itself; the others never apply
            own = by_type.get("number" if single == "integer" else single)
            checks.append(own if own is not None else _FAST_TYPES[single])
        elif names is not None or any(by_type.values()):
            checks.append(self.mixed(names, by_type))
        if not checks:
            return lambda value: True
        return _all(checks)

    @staticmethod
    def mixed(names: list[str] | None, by_type: dict[str, _Check | None]) -> _Check:
        """Several allowed types (or none given): each keyword group applies to its own type."""
        allowed = tuple(_FAST_TYPES[name] for name in names) if names is not None else None
        guarded = tuple((_FAST_TYPES[name], own) for name, own in by_type.items() if own is not None)

        def check(value: Any) -> bool:
            if type(value) not in _PLAIN:  # unsure what the keywords of the slow path make of it
                return False
            if allowed is not None and not any(kind(value) for kind in allowed):
                return False
            return all(own(value) for kind, own in guarded if kind(value))

        return check

    def object_keywords(self, keywords: dict[str, Any]) -> _Check | None:
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

    def array_keywords(self, keywords: dict[str, Any]) -> _Check | None:
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

    def string_keywords(self, keywords: dict[str, Any]) -> _Check | None:
        if not any(name in keywords for name in ("minLength", "maxLength", "pattern", "format")):
            return None
        low, high = keywords.pop("minLength", 0), keywords.pop("maxLength", None)
        regex = _ecma.compile(keywords.pop("pattern")) if "pattern" in keywords else None
        form = _FORMATS.get(keywords.pop("format", ""))

        def check(value: Any) -> bool:
            if type(value) is not str:
                return False
            text = value if value.isascii() else _code_points(value)
            if len(text) < low or (high is not None and len(text) > high):
                return False
            if regex is not None and regex.search(text) is None:
                return False
            return form is None or form(value)

        return check

    def number_keywords(self, keywords: dict[str, Any], kind: _Check) -> _Check | None:
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
                and (divisor is None or _multiple_of(number, divisor))
            )

        return check

    def untyped_keywords(self, keywords: dict[str, Any]) -> list[_Check]:
        checks: list[_Check] = []
        if "enum" in keywords:
            options = list(keywords.pop("enum"))
            if all(type(option) is str for option in options):
                texts = frozenset(options)
                checks.append(lambda value: type(value) is str and value in texts)
            else:
                checks.append(lambda value: any(_json_equal(value, option) for option in options))
        if "const" in keywords:
            const = keywords.pop("const")
            checks.append(lambda value: _json_equal(value, const))
        if "not" in keywords:
            checks.append(self.negation(keywords.pop("not")))
        return checks

    @staticmethod
    def negation(schema: Any) -> _Check:
        """``not``: the inner check must be exact (a False that means "unsure" would pass here), so
        only ``const`` and ``enum``, which compare exactly, are compiled."""
        if not isinstance(schema, Mapping) or set(schema) - _ANNOTATIONS - {"const", "enum"}:
            raise _Unsupported(schema)
        inner: list[_Check] = []
        if "const" in schema:
            const = schema["const"]
            inner.append(lambda value: _json_equal(value, const))
        if "enum" in schema:
            options = list(schema["enum"])
            inner.append(lambda value: any(_json_equal(value, option) for option in options))
        return lambda value: not all(check(value) for check in inner)


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
"""``_FAST_TYPES`` as expressions on a variable ({0}) with the int limits' literals ({1}, {2})."""
_LIMIT_LITERALS = (f"({_NEGATIVE_INT_LIMIT})", str(_INT_LIMIT))
"""The int limits as Python literals: a constant costs less to read than a global."""

_LIMITS = (("minimum", ">="), ("maximum", "<="), ("exclusiveMinimum", ">"), ("exclusiveMaximum", "<"))
_INLINE_LINES = 15
"""The most statements a ``$defs`` entry is written in place as, instead of called."""
_BELOW = {">=": "<=", ">": "<"}
"""The lower limits' comparisons, written with the limit first (``0 <= v``) to chain them."""


class _FastGenerator:
    """Writes the fast check as Python source, as :mod:`.formula._codegen` does for formulas.

    The common shapes (closed objects, arrays, strings, numbers, string enums, ``$ref``) become
    statements inside one function per large ``$defs`` entry (small ones are written in place of
    their ``$ref``), so checking a value costs no call; every other node is checked by the closure
    :class:`_FastCompiler` makes for it, so the answers are the closures' answers. Text from the
    schema enters the code only as ``repr`` writes it (names, enum options, small exact numbers:
    literals of equal values, see :meth:`literal`); everything else (key sets, patterns, formats,
    other numbers) is a bound constant.
    """

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.closures = _FastCompiler(root)
        self.namespace: dict[str, Any] = {
            "_code_points": _code_points,
            "_multiple_of": _multiple_of,
        }
        self.functions: dict[str, str] = {}
        self.inlining: set[str] = set()
        self.sizes: dict[str, int] = {}
        self.sources: list[str] = []
        self.count = 0

    def compile(self) -> _Check:
        name = self.function(self.root)
        exec(compile("\n".join(self.sources), "<schema>", "exec"), self.namespace)
        check: _Check = self.namespace[name]
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
            raise _Unsupported(ref)
        target = self.root.get("$defs", {}).get(ref[8:])
        if not isinstance(target, Mapping):
            raise _Unsupported(ref)
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
            raise _Unsupported(schema)
        keywords = {key: value for key, value in schema.items() if key not in _ANNOTATIONS}
        if not self.inlined(keywords):
            check = self.constant(self.closures.node(schema))
            self.emit(lines, depth, f"if not {check}({var}): return False")
            return
        # in _FastCompiler's order: $ref, enum, then the type and its keywords
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
                raise _Unsupported(keywords)  # not inlined (see inlined()); never reached
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
        form = _FORMATS.get(keywords.get("format", ""))
        if low <= 1 and high is None and "pattern" not in keywords:
            # one code point or more: not empty
            emit(lines, depth, f"if type({var}) is not str{f' or not {var}' if low else ''}: return False")
            if form is not None:
                emit(lines, depth, f"if not {self.constant(form)}({var}): return False")
            return
        emit(lines, depth, f"if type({var}) is not str: return False")
        text = self.fresh("s")
        emit(lines, depth, f"{text} = {var} if {var}.isascii() else _code_points({var})")
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
                emit(lines, depth, f"if not _multiple_of({var}, {self.literal(divisor)}): return False")
            return
        emit(lines, depth, f"if type({var}) is int:")
        emit(lines, depth + 1, f"if not {_LIMIT_LITERALS[0]} < {var} < {_LIMIT_LITERALS[1]}: return False")
        emit(lines, depth, f"elif type({var}) is not float or {bad}: return False")
        number = self.fresh("n")
        emit(lines, depth, f"{number} = float({var})")
        for keyword, op in limits:
            emit(lines, depth, f"if not {number} {op} {self.constant(keywords[keyword])}: return False")
        if divisor is not None:
            emit(lines, depth, f"if not _multiple_of({number}, {self.constant(divisor)}): return False")

    def typed_boolean(self, keywords: Mapping[str, Any], var: str, lines: list[str], depth: int) -> None:
        self.emit(lines, depth, f"if type({var}) is not bool: return False")

    def typed_null(self, keywords: Mapping[str, Any], var: str, lines: list[str], depth: int) -> None:
        self.emit(lines, depth, f"if {var} is not None: return False")


def _anything(schema: Any) -> bool:
    """Whether every value matches ``schema`` (``true``, or annotations only)."""
    return schema is True or (isinstance(schema, Mapping) and not set(schema) - _ANNOTATIONS)


def _nullable(types: Any) -> str | None:
    """For a type list of ``null`` and one of integer, number or text: that type."""
    if not isinstance(types, list | tuple) or len(types) != 2 or "null" not in types:
        return None
    other = types[1] if types[0] == "null" else types[0]
    return other if other in ("integer", "number", "string") else None


def _excluded_number(schema: Any) -> int | float | None:
    """For ``not: {"const": n}`` with an exact number ``n`` (see :func:`_plain_const`): ``n``. A
    number in the document then fails exactly when it equals ``n`` (as doubles)."""
    if not isinstance(schema, Mapping) or set(schema) - _ANNOTATIONS != {"const"}:
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


def _all(checks: list[_Check]) -> _Check:
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda value: first(value) and second(value)
    return lambda value: all(check(value) for check in checks)


# ---------------------------------------------------------------- the validator, built once


@dataclass(frozen=True, slots=True)
class _Engine:
    validator: Any
    reported: type[Any]
    fast: _Check | None

    def iter_errors(self, document: object) -> Iterable[Any]:
        return self.validator.iter_errors(document)  # type: ignore[no-any-return]


@once
def _engine() -> _Engine:
    """The one validator: the bundled schema in a registry with the vocabulary, our keywords."""
    from jsonschema import Draft202012Validator, validators  # type: ignore[import-untyped, unused-ignore]
    from jsonschema.exceptions import ValidationError as JsonschemaError  # type: ignore[import-untyped, unused-ignore]
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    class Reported(JsonschemaError):  # type: ignore[misc]
        """A jsonschema error that carries the reference's keyword, params and text."""

        def __init__(self, keyword: str, params: dict[str, Any], text: str) -> None:
            super().__init__(text, validator=keyword)
            self.keyword = keyword
            self.params = params
            self.text = text
            self.property_name: str | None = None

    schema = read_json_resource(SCHEMA_FILE)
    vocabulary = read_json_resource(VOCABULARY_FILE)
    registry: Registry[Any] = Registry().with_resources(
        (document["$id"], DRAFT202012.create_resource(document)) for document in (schema, vocabulary)
    )
    type_checker = Draft202012Validator.TYPE_CHECKER.redefine_many(
        {name: _type_check(check) for name, check in _TYPES.items()}
    )
    validator_class = validators.extend(Draft202012Validator, validators=_KEYWORDS, type_checker=type_checker)
    return _Engine(validator_class(schema, registry=registry), Reported, _compile_fast_check(schema))


def _type_check(check: Callable[[object], bool]) -> Callable[[object, object], bool]:
    """A predicate as jsonschema's type checkers take it: ``(checker, value)``."""
    return lambda _checker, value: check(value)


def _convert(error: Any, reported: type[Any]) -> ValidationError:
    pointer = pointer_of(error.absolute_path)
    if not isinstance(error, reported):  # a keyword outside _SUPPORTED_KEYWORDS
        return _error(pointer, str(error.validator), {}, "must be valid")
    name = error.property_name
    if name is not None:
        text = f'invalid key "{name}"'
        return ValidationError(pointer, error.keyword, error.params, f"{pointer or '(root)'}: {text}", name)
    return _error(pointer, error.keyword, error.params, error.text)
