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
* ``pattern`` and ``propertyNames`` patterns are ECMA-262 regular expressions (:mod:`.._ecma`);
* ``format: "date-time"`` is always checked, by ajv-formats' rules (:mod:`.._datetime`), without any
  optional package;
* ``multipleOf`` divides as JavaScript does and accepts quotients Ajv accepts; string lengths count
  code points.

Only what the schema describes is inspected: values in free-form places (the contents of
``extensions``) are not walked, however deep or odd they are.

Valid documents are the common case, and jsonschema's walk costs dozens of times what parsing the
JSON does. So the schema is also compiled once into a plain check that only answers "surely
valid?" for the plain data ``json.loads`` produces; everything else, and every invalid document,
goes through jsonschema, which has the final word and writes the report.

The parts, each in its own module:

* :mod:`._results`: what a validation gives, :class:`ValidationError` and :class:`ValidationResult`.
* :mod:`._values`: JSON values as JavaScript sees them (types, equality, lengths, ``multipleOf``,
  formats), shared by both paths so they judge alike.
* :mod:`._keywords`: the slow, reporting path, the keywords that make jsonschema speak Ajv. A
  schema keyword is checked here (and tested in ``tests/validate/test_validate.py``).
* The fast "surely valid?" check, in two layers: :mod:`._closures` compiles any node it knows to a
  closure, and :mod:`._codegen` writes the common nodes (closed objects, arrays, strings, numbers,
  string enums, ``$ref``) as the statements of generated functions and calls the closures for the
  rest (in the bundled schema only the names of ``extensions``; in others also mixed types, open
  objects, ``const`` and ``not`` of other values). Two layers, not one: the closures alone check
  the valid examples at 3 to 5 times the generated code's cost (a call per value; ``json.loads`` of
  the text costs about 2 times the generated check), and writing every shape the closures know as
  code too would double the generator for nodes the bundled schema hardly has. The tests hold the
  generated check to the closures, and both to jsonschema (``tests/validate/test_fast.py``).
* :mod:`._engine`: the validator built once, and jsonschema's errors turned into ours.

jsonschema is imported only when the validator is first built, so importing the package (and
:mod:`gurps_character.formula`) never loads it.
"""

from __future__ import annotations

from ._engine import convert, engine
from ._results import VALID, ValidationError, ValidationResult, make_error, result_of

__all__ = ["ValidationError", "ValidationResult", "validate_character"]


def validate_character(document: object) -> ValidationResult:
    """Checks a document against the bundled gurps-character schema.

    Every violation is reported (not just the first), with the pointer, keyword, params and message
    the reference library gives. Only the schema is checked: the format version is not (see
    ``check_envelope``) and neither are the rules (see ``verify_character``).

    Args:
        document: Anything. Mappings with text keys are JSON objects, lists and tuples are arrays.

    Returns:
        ``ValidationResult(valid, errors)``. Never raises (a value that is not JSON data where the
        schema expects some is reported as a violation there).
    """
    validator = engine()
    try:
        if validator.fast is not None and validator.fast(document):
            return VALID
        return result_of([convert(error, validator.reported) for error in validator.iter_errors(document)])
    except Exception:  # a mapping that fails when read is not a usable JSON object
        return result_of([make_error("", "type", {"type": "object"}, "must be object")])
