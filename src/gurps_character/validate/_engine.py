"""The validator, built once: jsonschema with our keywords and types, and the fast check."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._once import once
from .._pointer import pointer_of
from .._resources import SCHEMA_FILE, VOCABULARY_FILE, read_json_resource
from ._closures import Check
from ._codegen import compile_fast_check
from ._keywords import KEYWORDS, reported_class
from ._results import ValidationError, make_error
from ._values import JSON_TYPES

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["Engine", "convert", "engine"]


@dataclass(frozen=True, slots=True)
class Engine:
    validator: Any
    reported: type[Any]
    fast: Check | None

    def iter_errors(self, document: object) -> Iterable[Any]:
        return self.validator.iter_errors(document)  # type: ignore[no-any-return]


@once
def engine() -> Engine:
    """The one validator: the bundled schema in a registry with the vocabulary, our keywords."""
    from jsonschema import Draft202012Validator, validators  # type: ignore[import-untyped, unused-ignore]
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    schema = read_json_resource(SCHEMA_FILE)
    vocabulary = read_json_resource(VOCABULARY_FILE)
    registry: Registry[Any] = Registry().with_resources(
        (document["$id"], DRAFT202012.create_resource(document)) for document in (schema, vocabulary)
    )
    type_checker = Draft202012Validator.TYPE_CHECKER.redefine_many(
        {name: _type_check(check) for name, check in JSON_TYPES.items()}
    )
    validator_class = validators.extend(Draft202012Validator, validators=KEYWORDS, type_checker=type_checker)
    return Engine(validator_class(schema, registry=registry), reported_class(), compile_fast_check(schema))


def _type_check(check: Callable[[object], bool]) -> Callable[[object, object], bool]:
    """A predicate as jsonschema's type checkers take it: ``(checker, value)``."""
    return lambda _checker, value: check(value)


def convert(error: Any, reported: type[Any]) -> ValidationError:
    pointer = pointer_of(error.absolute_path)
    if not isinstance(error, reported):  # a keyword outside SUPPORTED_KEYWORDS
        return make_error(pointer, str(error.validator), {}, "must be valid")
    name = error.property_name
    if name is not None:
        text = f'invalid key "{name}"'
        return ValidationError(pointer, error.keyword, error.params, f"{pointer or '(root)'}: {text}", name)
    return make_error(pointer, error.keyword, error.params, error.text)
