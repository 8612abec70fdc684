"""Recomputing a document's rule values from the schema's ``x-gurps`` formulas.

The schema is walked alongside the document (``properties``, local ``$ref``, array ``items``);
every node annotated with a formula and ``role: "derived"`` or ``"overridable"`` is evaluated
with the object that owns it as ``local``, wherever the document has that value. The walk is
planned once for the library's own schema (``gurps_character.SCHEMA``); any other schema, a
read-only view included (the dict behind it may change), is planned on each call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal
from urllib.parse import unquote

from .._once import once
from .._pointer import escape_token, unescape_token
from ._errors import FormulaError
from ._evaluator import Compiled, compile_formula
from ._identity import bundled_schema, is_bundled_schema
from ._jsnum import MAX_SAFE_INTEGER as _SAFE
from ._jsnum import as_number
from ._jsvalue import js_strict_equal
from ._tables import prepare_tables
from ._values import MISSING, FormulaValue, output_value, plain_value

__all__ = ["RecomputeResult", "RuleDeviation", "check_rules", "deviations", "recompute", "resolve_schema_ref"]

_MAX_REF_CHAIN: Final = 32
_MAX_WALK_DEPTH: Final = 200


@dataclass(frozen=True, slots=True)
class RecomputeResult:
    """One rule value of a document: what it stores and what its formula gives.

    Attributes:
        pointer: JSON Pointer of the value in the document, e.g. ``/secondary/hp/value``.
        role: ``"derived"`` or ``"overridable"`` (the schema's ``x-gurps.role``).
        override: ``"paid"`` or ``"unpaid"`` for overridable values (``None`` when the schema
            says nothing).
        formula: The formula text.
        sheet_field: The schema's ``x-gurps.sheetField`` for the value, if any.
        stored: The document's value (dice as the stored ``{notation, dice, adds}`` object).
        computed: The formula's value (dice as :class:`Dice`).
    """

    pointer: str
    role: str
    override: str | None
    formula: str
    sheet_field: Any
    stored: Any
    computed: FormulaValue

    def to_dict(self) -> dict[str, Any]:
        """The recompute result as JSON data.

        Returns:
            ``{pointer, role, override?, formula, sheetField?, stored, computed}`` as JSON values.
        """
        out: dict[str, Any] = {"pointer": self.pointer, "role": self.role}
        if self.override is not None:
            out["override"] = self.override
        out["formula"] = self.formula
        if self.sheet_field is not None:
            out["sheetField"] = output_value(self.sheet_field)
        out["stored"] = _json(self.stored)
        out["computed"] = _json(self.computed)
        return out


@dataclass(frozen=True, slots=True)
class RuleDeviation:
    """A value that differs from its formula.

    Attributes:
        pointer: JSON Pointer of the value.
        reason: ``"override"`` (an unpaid override: a rule deviation) or ``"inconsistent"`` (a
            derived value that does not match its formula).
        expected: What the formula gives (dice as notation).
        actual: What the document stores (dice as notation).
    """

    pointer: str
    reason: Literal["override", "inconsistent"]
    expected: Any
    actual: Any

    def to_dict(self) -> dict[str, Any]:
        """The rule deviation as JSON data.

        Returns:
            ``{pointer, reason, expected, actual}`` as JSON values.
        """
        return {
            "pointer": self.pointer,
            "reason": self.reason,
            "expected": _json(self.expected),
            "actual": _json(self.actual),
        }


_new = object.__new__
_SETTERS: Final = tuple(
    RecomputeResult.__dict__[name].__set__
    for name in ("pointer", "role", "override", "formula", "sheet_field", "stored", "computed")
)
"""The slots' own setters: building a result without the frozen ``__init__``'s checks is twice
as fast, and recompute() builds one per value of every document."""


def _json(value: Any) -> Any:
    value = output_value(value)
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if isinstance(value, list):
        return [_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _json(item) for key, item in value.items()}
    return value


# ---------------------------------------------------------------------------------- $ref


def resolve_schema_ref(schema: Mapping[str, Any], node: Any) -> Any:
    """A schema node with its local ``$ref`` resolved (JSON Schema 2020-12 semantics).

    Keywords beside ``$ref`` apply too and win over the referenced node's; their ``x-gurps``
    keys are merged over the referenced node's ``x-gurps``, sibling keys winning. References
    chain; a reference that is not local (``#...``) or leads nowhere leaves the node as is.

    Args:
        schema: The whole schema (the document ``#`` refers to).
        node: A node of it.

    Returns:
        ``node`` itself when it has no usable ``$ref``, otherwise a new mapping.
    """
    return _resolve(schema, node, 0)


def _resolve(schema: Any, node: Any, depth: int) -> Any:
    if not isinstance(node, Mapping):
        return node
    ref = node.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#") or depth >= _MAX_REF_CHAIN:
        return node
    target = _resolve_pointer(schema, unquote(ref[1:]))
    if not isinstance(target, Mapping):
        return node
    target = _resolve(schema, target, depth + 1)
    merged = dict(target)
    merged.pop("$ref", None)
    for key, value in node.items():
        if key != "$ref":
            merged[key] = value
    own, referenced = node.get("x-gurps"), target.get("x-gurps")
    if isinstance(own, Mapping) and isinstance(referenced, Mapping):
        merged["x-gurps"] = {**referenced, **own}
    return merged


def _resolve_pointer(document: Any, pointer: str) -> Any:
    if pointer == "":
        return document
    if not pointer.startswith("/"):
        return None
    current = document
    for token in pointer[1:].split("/"):
        token = unescape_token(token)
        if isinstance(current, Mapping):
            if token not in current:
                return None
            current = current[token]
        elif isinstance(current, list | tuple) and token.isdigit() and token.isascii():
            if len(token) > len(str(len(current))):  # no such index; int() refuses 4,300 digits
                return None
            index = int(token)
            if index >= len(current):
                return None
            current = current[index]
        else:
            return None
    return current


# ---------------------------------------------------------------------------------- the plan


@dataclass(frozen=True, slots=True)
class _Spec:
    """What a formula-bearing schema node says about its value."""

    role: str
    override: str | None
    formula: str
    sheet_field: Any
    compiled: Compiled | None
    error: FormulaError | None


class _Plan:
    """The part of the schema below one node that leads to formulas (built once, then read)."""

    __slots__ = ("flat", "items", "leaf", "properties", "spec")

    def __init__(self) -> None:
        self.spec: _Spec | None = None
        self.leaf: _Spec | None = None  # the spec, when there is nothing below it
        self.properties: tuple[tuple[str, str, _Plan], ...] = ()
        self.items: _Plan | None = None
        # for an object whose formulas all sit on its own properties (a skill): each property's
        # name, pointer token, spec and compiled formula, so that array items cost no call
        self.flat: tuple[tuple[str, str, _Spec, Compiled], ...] | None = None


def _build_plan(schema: Mapping[str, Any]) -> _Plan:
    memo: dict[int, _Plan] = {}
    building: set[int] = set()

    def useful(plan: _Plan, key: int) -> bool:
        return key in building or plan.spec is not None or bool(plan.properties) or plan.items is not None

    def build(raw: Mapping[str, Any]) -> _Plan:
        key = id(raw)
        if key in memo:
            return memo[key]
        plan = memo[key] = _Plan()
        building.add(key)
        node = resolve_schema_ref(schema, raw)
        plan.spec = _spec_of(node.get("x-gurps"))
        properties = node.get("properties")
        children = []
        if isinstance(properties, Mapping):
            for name, sub in properties.items():
                if isinstance(name, str) and isinstance(sub, Mapping):
                    child = build(sub)
                    if useful(child, id(sub)):
                        children.append((name, "/" + escape_token(name), child))
        plan.properties = tuple(children)
        items = node.get("items")
        if isinstance(items, Mapping):
            child = build(items)
            plan.items = child if useful(child, id(items)) else None
        plan.leaf = plan.spec if not plan.properties and plan.items is None else None
        if plan.spec is None and plan.items is None and plan.properties:
            flat: list[tuple[str, str, _Spec, Compiled]] = []
            for name, token, child in plan.properties:
                leaf = child.leaf
                if leaf is None or leaf.compiled is None:
                    break
                flat.append((name, token, leaf, leaf.compiled))
            else:
                plan.flat = tuple(flat)
        building.discard(key)
        return plan

    return build(schema)


def _spec_of(annotation: Any) -> _Spec | None:
    if not isinstance(annotation, Mapping):
        return None
    role, formula = annotation.get("role"), annotation.get("formula")
    if not isinstance(formula, str) or not formula:
        return None
    override = annotation.get("override")
    compiled: Compiled | None = None
    error: FormulaError | None = None
    try:
        compiled = compile_formula(formula)
    except FormulaError as exc:  # reported when a document has the value
        error = exc
    return _Spec(
        role=str(role),
        override=override if isinstance(override, str) else None,
        formula=str(formula),
        sheet_field=annotation.get("sheetField"),
        compiled=compiled,
        error=error,
    )


def _plan_for(schema: Mapping[str, Any]) -> _Plan:
    # only the library's own schema is known not to change: any other is planned per call
    return _bundled_plan() if is_bundled_schema(schema) else _build_plan(schema)


@once
def _bundled_plan() -> _Plan:
    return _build_plan(bundled_schema())


# ---------------------------------------------------------------------------------- the walk


_Found = tuple[_Spec, str, Any, Any]
"""A formula-bearing value found by the walk: (spec, pointer, stored, computed), both raw."""


def _walk(
    plan: _Plan,
    value: Any,
    pointer: str,
    parent: Any,
    root: Any,
    tables: Any,
    out: list[_Found],
    depth: int,
) -> None:
    if depth > _MAX_WALK_DEPTH:
        raise FormulaError("The document nests deeper than the schema walk allows")
    spec = plan.spec
    if spec is not None:
        out.append((spec, pointer, value, _run(spec, root, parent, tables)))  # a formula on an object
    properties = plan.properties
    if properties and (type(value) is dict or isinstance(value, Mapping)):
        for name, token, child in properties:
            sub = value.get(name, MISSING)
            if sub is MISSING:
                # The reference recomputes an absent value too (stored null), without going
                # below it: a missing /points/unspent is a derived value that does not add up.
                if child.spec is not None:
                    out.append((child.spec, pointer + token, None, _run(child.spec, root, value, tables)))
                continue
            leaf = child.leaf
            if leaf is not None:  # most formula nodes: evaluate without another call level
                compiled = leaf.compiled
                if compiled is None:
                    _run(leaf, root, value, tables)  # raises the formula's error
                out.append((leaf, pointer + token, sub, compiled(root, value, tables)))  # type: ignore[misc]
            else:
                _walk(child, sub, pointer + token, value, root, tables, out, depth + 1)
    items = plan.items
    if items is not None and (type(value) is list or isinstance(value, list | tuple)):
        flat = items.flat if depth < _MAX_WALK_DEPTH else None
        for index, item in enumerate(value):
            if flat is not None and type(item) is dict:  # _walk() for such an item, inline
                prefix = f"{pointer}/{index}"
                for name, token, leaf, compiled in flat:
                    sub = item.get(name, None)  # absent: stored null, as the reference has it
                    out.append((leaf, prefix + token, sub, compiled(root, item, tables)))
            else:
                _walk(items, item, f"{pointer}/{index}", value, root, tables, out, depth + 1)


def _run(spec: _Spec, root: Any, local: Any, tables: Any) -> Any:
    compiled = spec.compiled
    if compiled is None:
        raise spec.error or FormulaError(f"Cannot evaluate {spec.formula!r}")
    return compiled(root, local, tables)


def _find(schema: Any, document: Any) -> list[_Found]:
    if not isinstance(schema, Mapping):
        raise FormulaError(f"The schema must be a mapping, not {type(schema).__name__}")
    try:
        plan = _plan_for(schema)
        out: list[_Found] = []
        tables = prepare_tables(schema.get("x-gurps-tables"))
        _walk(plan, document, "", document, document, tables, out, 0)
        return out
    except FormulaError:
        raise
    except MemoryError:  # pragma: no cover
        raise
    except RecursionError:
        raise FormulaError("The schema or the document nests too deeply") from None
    except Exception as exc:  # a hostile mapping somewhere in the input
        raise FormulaError(f"Cannot recompute: {type(exc).__name__}: {exc}") from exc


def recompute(schema: Mapping[str, Any], document: Any) -> list[RecomputeResult]:
    """Recomputes every derived and overridable value of a document from the schema's formulas.

    Args:
        schema: The gurps-character schema (``gurps_character.SCHEMA`` or a plain ``dict``).
        document: A character; anything else (or a partial one) gives fewer or no results.

    Returns:
        One :class:`RecomputeResult` per formula-bearing value the document has, in schema
        order (array items in document order).

    Raises:
        FormulaError: A schema formula is broken, the schema is not a mapping, or the document
            is cyclic or absurdly deep.
    """
    results = []
    for spec, pointer, stored, computed in _find(schema, document):
        # the usual cases of output_value() inline: this loop runs for every value of every document
        if type(stored) is not int or not -_SAFE <= stored <= _SAFE:
            stored = output_value(stored)
        if type(computed) is float and computed.is_integer() and -_SAFE <= computed <= _SAFE:
            computed = int(computed)
        elif type(computed) is not int:
            computed = output_value(computed)
        result = _new(RecomputeResult)
        _SETTERS[0](result, pointer)
        _SETTERS[1](result, spec.role)
        _SETTERS[2](result, spec.override)
        _SETTERS[3](result, spec.formula)
        _SETTERS[4](result, spec.sheet_field)
        _SETTERS[5](result, stored)
        _SETTERS[6](result, computed)
        results.append(result)
    return results


def deviations(
    schema: Mapping[str, Any], document: Any, results: list[RecomputeResult] | None = None
) -> list[RuleDeviation]:
    """The values that differ from their formula, by an independent recomputation.

    Unpaid overrides are ``reason="override"``; derived values that do not match are
    ``"inconsistent"``. Paid overrides (bought-up HP, Will, Per, ...) are legitimate and in-play
    state has no formula, so neither is ever reported. The document's own ``integrity`` block is
    ignored.

    Args:
        schema: The gurps-character schema.
        document: A character.
        results: :func:`recompute`'s results for the same document, to avoid recomputing.

    Returns:
        One :class:`RuleDeviation` per differing value, in :func:`recompute` order; ``expected``
        and ``actual`` as plain values (dice as notation).

    Raises:
        FormulaError: As :func:`recompute`, or ``results`` is not a list of results.
    """
    if results is None:
        found = [
            (spec.role, spec.override, pointer, stored, computed)
            for spec, pointer, stored, computed in _find(schema, document)
        ]
    else:
        if not isinstance(results, list | tuple) or not all(isinstance(r, RecomputeResult) for r in results):
            raise FormulaError("results must be a list of RecomputeResult")
        found = [(r.role, r.override, r.pointer, r.stored, r.computed) for r in results]
    reported: list[RuleDeviation] = []
    for role, override, pointer, stored, computed in found:
        if role == "derived":
            reason: Literal["override", "inconsistent"] = "inconsistent"
        elif role == "overridable" and override != "paid":
            reason = "override"
        else:
            continue
        kind, stored_kind = type(computed), type(stored)
        if (
            (kind is float or kind is int)
            and (stored_kind is int or stored_kind is float)
            and computed == stored
        ):
            continue  # the usual case, decided without the general comparison
        expected, actual = plain_value(computed), plain_value(stored)
        if not _same(expected, actual):
            reported.append(RuleDeviation(pointer, reason, output_value(expected), output_value(actual)))
    return reported


_NOISE = 1e-9
"""Numbers this close are the same value to the rule check (float noise, as in the reference)."""


def _same(expected: Any, actual: Any) -> bool:
    """The reference's comparison of a computed and a stored value: two numbers less than 1e-9
    apart (booleans are no numbers), anything else strictly equal (``===``)."""
    computed, stored = as_number(expected), as_number(actual)
    if computed is not None and stored is not None:
        return abs(computed - stored) < _NOISE  # NaN and infinities are never close
    return js_strict_equal(expected, actual)


def check_rules(schema: Mapping[str, Any], document: Any, watched: str) -> tuple[list[RuleDeviation], Any]:
    """``deviations(schema, document, recompute(schema, document))`` without building the
    results, and the computed value at the pointer ``watched`` (``MISSING`` when the document
    has no such value).

    What the rule check of every document needs, at a fraction of the cost: values are converted,
    compared and reported exactly as :func:`recompute` and :func:`deviations` do (and fail the
    same way), but only the deviations are kept.

    Raises:
        FormulaError: As :func:`recompute`.
    """
    reported: list[RuleDeviation] = []
    watched_value: Any = MISSING
    for spec, pointer, stored, computed in _find(schema, document):
        if type(computed) is float and type(stored) is int and stored == computed and abs(stored) <= _SAFE:
            # the usual value: a whole number equal to its formula's, nothing to convert or report
            if watched_value is MISSING and pointer == watched:
                watched_value = stored
            continue
        # recompute()'s conversions, in its order (output_value() may refuse a value)
        if type(stored) is not int or not -_SAFE <= stored <= _SAFE:
            stored = output_value(stored)
        if type(computed) is float and computed.is_integer() and -_SAFE <= computed <= _SAFE:
            computed = int(computed)
        elif type(computed) is not int:
            computed = output_value(computed)
        if watched_value is MISSING and pointer == watched:
            watched_value = computed
        # deviations()
        role = spec.role
        if role == "derived":
            reason: Literal["override", "inconsistent"] = "inconsistent"
        elif role == "overridable" and spec.override != "paid":
            reason = "override"
        else:
            continue
        kind, stored_kind = type(computed), type(stored)
        if (
            (kind is float or kind is int)
            and (stored_kind is int or stored_kind is float)
            and computed == stored
        ):
            continue
        expected, actual = plain_value(computed), plain_value(stored)
        if not _same(expected, actual):
            reported.append(RuleDeviation(pointer, reason, output_value(expected), output_value(actual)))
    return reported, watched_value
