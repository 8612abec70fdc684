"""The keywords that make jsonschema speak Ajv.

jsonschema's Draft 2020-12 validator walks the schema with its own applicators (``properties``,
``items``, ``$ref`` ...); every keyword that asserts something is ours, so that each error carries
the keyword, params and English text Ajv (``allErrors``) gives the reference library, and so that
values are judged as JSON and JavaScript judge them (:mod:`._values`): ECMA-262 patterns, code-point
lengths, ajv-formats' ``date-time``, JavaScript's ``multipleOf``.

Each keyword is a jsonschema keyword function ``(validator, keyword value, instance, schema)`` that
yields errors of the class :func:`reported_class` makes; :mod:`._engine` turns them into
:class:`~gurps_character.validate.ValidationError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .. import _ecma
from .._once import once
from ._values import FORMATS, code_points, json_equal, multiple_of, number_text

__all__ = ["KEYWORDS", "SUPPORTED_KEYWORDS", "reported_class"]


@once
def reported_class() -> type[Any]:
    """The jsonschema error class our keywords report with, made on first use: jsonschema is
    imported only when the validator is first built."""
    from jsonschema.exceptions import ValidationError as JsonschemaError  # type: ignore[import-untyped, unused-ignore]

    class Reported(JsonschemaError):  # type: ignore[misc]
        """A jsonschema error that carries the reference's keyword, params and text."""

        def __init__(self, keyword: str, params: dict[str, Any], text: str) -> None:
            super().__init__(text, validator=keyword)
            self.keyword = keyword
            self.params = params
            self.text = text
            self.property_name: str | None = None

    return Reported


def _report(keyword: str, params: dict[str, Any], text: str) -> Any:
    return reported_class()(keyword, params, text)


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
                if regex.search(code_points(key)):
                    yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional(schema: Any, instance: Any) -> Iterator[str]:
    known = schema.get("properties", {})
    patterns = [_ecma.compile(pattern) for pattern in schema.get("patternProperties", {})]
    for key in instance:
        if key not in known and not any(regex.search(code_points(key)) for regex in patterns):
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
    if not json_equal(instance, const):
        yield _report("const", {"allowedValue": const}, "must be equal to constant")


def _enum(validator: Any, enum: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not any(json_equal(instance, option) for option in enum):
        yield _report("enum", {"allowedValues": enum}, "must be equal to one of the allowed values")


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "string") and not _ecma.compile(pattern).search(code_points(instance)):
        yield _report("pattern", {"pattern": pattern}, f'must match pattern "{pattern}"')


def _format(validator: Any, name: Any, instance: Any, schema: Any) -> Iterator[Any]:
    check = FORMATS.get(name)
    if check is not None and validator.is_type(instance, "string") and not check(instance):
        yield _report("format", {"format": name}, f'must match format "{name}"')


def _length_keyword(keyword: str, too_short: bool) -> Callable[..., Iterator[Any]]:
    word = "fewer" if too_short else "more"

    def check(validator: Any, limit: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if validator.is_type(instance, "string"):
            length = len(code_points(instance))
            if length < limit if too_short else length > limit:
                text = f"must NOT have {word} than {number_text(limit)} characters"
                yield _report(keyword, {"limit": limit}, text)

    return check


def _items_keyword(keyword: str, too_few: bool) -> Callable[..., Iterator[Any]]:
    word = "fewer" if too_few else "more"

    def check(validator: Any, limit: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if validator.is_type(instance, "array") and (
            len(instance) < limit if too_few else len(instance) > limit
        ):
            text = f"must NOT have {word} than {number_text(limit)} items"
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
            text = f"must be {comparison} {number_text(limit)}"
            yield _report(keyword, {"comparison": comparison, "limit": limit}, text)

    return check


def _multiple_of_keyword(validator: Any, divisor: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "number") and not multiple_of(instance, divisor):
        text = f"must be multiple of {number_text(divisor)}"
        yield _report("multipleOf", {"multipleOf": divisor}, text)


def _not(validator: Any, subschema: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if next(iter(validator.descend(instance, subschema)), None) is None:
        yield _report("not", {}, "must NOT be valid")


KEYWORDS: dict[str, Callable[..., Iterator[Any]]] = {
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

SUPPORTED_KEYWORDS = frozenset(
    {*KEYWORDS, "properties", "items", "prefixItems", "$ref", "$defs", "allOf", "$schema", "$id"}
    | {"title", "description", "default", "examples", "$comment", "x-gurps", "x-gurps-tables"}
)
"""Every keyword a schema given to this validator may use; the tests hold the bundled schema to it."""
