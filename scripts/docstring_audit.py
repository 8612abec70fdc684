#!/usr/bin/env python3
"""Audits the public docstrings against the API reference's standard (issue 32, item 5).

    python scripts/docstring_audit.py [--verbose]

Every public name is walked: ``gurps_character.__all__``, ``gurps_character.formula.__all__``,
``gurps_character.yaml.__all__`` (and ``gurps_character.sheet.__all__`` where that module
exists), and for each class its public methods and properties and its dataclass fields. A gap
is reported for:

* ``missing``: no docstring (a constant or type alias: no string right after its assignment);
* ``args``: a function with parameters and no ``Args:`` section, a parameter it leaves out, or
  a name it documents that the function does not take;
* ``returns``: no ``Returns:`` (or ``Yields:``) for a return that is not None;
* ``raises``: no ``Raises:`` naming :class:`CharacterError` where the function can raise it, or
  a code it can raise that the section does not name;
* ``code``: a ``Raises:`` section naming a code that is not in ``errors.ErrorCode``;
* ``fields``: a dataclass (or ``TypedDict``) whose ``Attributes:`` section leaves out a field
  or names one that does not exist;
* ``module``: a public module without a docstring naming at least three of its public names;
* ``xref``: a cross-reference to a private path (``:func:`._x```, ``gurps_character._x``),
  which the reference cannot resolve.

What a function can raise is read from the code: the codes of every ``CharacterError(...)`` it
builds, directly or in any function of the package it calls or names (a callback), followed
transitively. ``guarded``'s net (``invalidDocument`` for a failure nobody foresaw) is left out:
it is documented once, on :class:`CharacterError`'s codes, not on every function.

Exit status 1 when any gap is found. ``tests/package/test_docstrings.py`` runs the same audit.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import dataclasses
import functools
import importlib
import importlib.util
import inspect
import re
import sys
import textwrap
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "PUBLIC_MODULES",
    "Gap",
    "audit",
    "documented_names",
    "main",
    "named_codes",
    "reachable_codes",
    "unlisted_codes",
]

PACKAGE = "gurps_character"
PUBLIC_MODULES = (PACKAGE, f"{PACKAGE}.formula", f"{PACKAGE}.yaml", f"{PACKAGE}.sheet")
"""The modules whose ``__all__`` is the public surface; one missing from a checkout is skipped."""

SECTION = re.compile(
    r"(Args|Arguments|Attributes|Example|Examples|Note|Notes|Raises|Returns|Yields|Warning):"
)
ENTRY = re.compile(r"    (\*{0,2}[A-Za-z_][A-Za-z0-9_.]*)(?: \([^)]*\))?:(?: |$)")
LITERAL = re.compile(r"``([A-Za-z][A-Za-z0-9]*)``")
CODE_LIKE = re.compile(r"[a-z]+(?:[A-Z][a-z]*)+")
"""A camelCase word, the shape of every error code (``schema`` aside, which is in the list)."""
NAPOLEON_SPAN = re.compile(
    r"((?::(?:[a-zA-Z0-9]+[\-_+:.])*[a-zA-Z0-9]+:`.+?`)|(?:``.+?``)|(?::meta .+:.*)|(?:`.+?\s*<.*?>`))"
)
"""Inline literals and roles, where napoleon looks for no colon (one capturing group, for split)."""
SINGLE_COLON = re.compile(r"(?<!:):(?!:)")
XREF = re.compile(
    r":(?:py:)?(?:func|class|meth|attr|data|mod|exc|obj|const|type):`~?([^`<]+?)(?: <([^>]+)>)?`"
)
PRIVATE_PATH = re.compile(r"(?:^|\.)_[A-Za-z0-9]")
NET_CODE = "invalidDocument"
"""The code of ``errors.guarded``'s net, left out of what a function is expected to list."""
MODULE_NAMES = 3
"""How many of its public names a public module's docstring names at least."""


@dataclass(frozen=True, slots=True)
class Gap:
    """One shortfall of one public name's docstring.

    Attributes:
        name: The public dotted name (``gurps_character.Fighter.attack``).
        kind: ``missing``, ``args``, ``returns``, ``raises``, ``code``, ``fields``, ``module``
            or ``xref``.
        detail: What is wrong, in words.
    """

    name: str
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind:8} {self.name}: {self.detail}"


# ---------------------------------------------------------------- docstrings


def _own_doc(obj: Any) -> str | None:
    """The docstring written for ``obj`` itself: not inherited, not a dataclass's generated one."""
    doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else getattr(obj, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    if inspect.isclass(obj) and doc.startswith(f"{obj.__name__}("):
        return None
    return inspect.cleandoc(doc)


def _sections(doc: str) -> dict[str, list[str]]:
    """The Google-style sections of a cleaned docstring: header to its indented lines."""
    sections: dict[str, list[str]] = {}
    current: str | None = None
    for line in doc.splitlines():
        match = SECTION.fullmatch(line)
        if match:
            current = "Args" if match.group(1) == "Arguments" else match.group(1)
            sections.setdefault(current, [])
        elif current is not None:
            if line and not line.startswith(" "):
                current = None
            else:
                sections[current].append(line)
    return sections


def _entries(lines: list[str]) -> list[str]:
    """The names an ``Args``, ``Attributes`` or ``Raises`` section documents."""
    return [match.group(1).lstrip("*") for line in lines if (match := ENTRY.match(line))]


# ---------------------------------------------------------------- what a function can raise


def _codes() -> frozenset[str]:
    from gurps_character.errors import ErrorCode

    return frozenset(typing.get_args(ErrorCode))


def _ours(obj: object) -> bool:
    return str(getattr(obj, "__module__", "") or "").split(".")[0] == PACKAGE


@functools.cache
def _definitions(module_name: str) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function and method of a module's source, by qualified name."""
    module = sys.modules[module_name]
    if module.__file__ is None:
        return {}
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    found: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found[prefix + node.name] = node
            elif isinstance(node, ast.ClassDef):
                visit(node.body, f"{prefix}{node.name}.")

    visit(tree.body, "")
    return found


def _function(obj: object) -> types.FunctionType | None:
    """The plain function behind a function, method, property or decorated function."""
    if isinstance(obj, property):
        obj = obj.fget
    if isinstance(obj, staticmethod | classmethod):
        obj = obj.__func__
    if not callable(obj):
        return None
    obj = inspect.unwrap(obj)
    return obj if isinstance(obj, types.FunctionType) and _ours(obj) else None


def _targets(value: object) -> Iterator[types.FunctionType]:
    """The functions of the package that naming ``value`` may run: the function itself, or a
    class's own constructor and ``__post_init__``."""
    if inspect.isclass(value):
        if not _ours(value):
            return
        for klass in value.__mro__:
            if not _ours(klass):
                continue
            for special in ("__new__", "__init__", "__post_init__"):
                function = _function(klass.__dict__.get(special))
                if function is not None:
                    yield function
        return
    function = _function(value)
    if function is not None:
        yield function


def _owner(function: types.FunctionType) -> type | None:
    """The class a method is defined in, looked up from its qualified name."""
    parts = function.__qualname__.split(".")
    if len(parts) < 2 or "<locals>" in parts:
        return None
    owner: Any = sys.modules[function.__module__]
    for part in parts[:-1]:
        owner = getattr(owner, part, None)
    return owner if inspect.isclass(owner) else None


@functools.cache
def _direct(function: types.FunctionType) -> tuple[frozenset[str], tuple[types.FunctionType, ...]]:
    """The codes ``function`` builds itself, and the package's functions it calls or names."""
    node = _definitions(function.__module__).get(function.__qualname__)
    if node is None:
        return frozenset(), ()
    names = {**vars(sys.modules[function.__module__]), **_local_imports(function, node)}
    owner = _owner(function)
    codes: set[str] = set()
    callees: list[types.FunctionType] = []
    shielded = _shielded(node)
    for child in ast.walk(node):
        if id(child) in shielded:
            continue
        if isinstance(child, ast.Call) and _builds_error(child.func) and child.args:
            first = child.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                codes.add(first.value)
            elif isinstance(first, ast.Name) and isinstance(names.get(first.id), str):
                codes.add(names[first.id])
        value: object = None
        if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Load):
            value = names.get(child.id)
        elif isinstance(child, ast.Attribute) and isinstance(child.value, ast.Name):
            base = child.value.id
            if base in ("self", "cls") and owner is not None:
                value = inspect.getattr_static(owner, child.attr, None)
            elif isinstance(names.get(base), types.ModuleType | type):
                value = inspect.getattr_static(names[base], child.attr, None)
        callees.extend(_targets(value))
    return frozenset(codes), tuple(callees)


CATCHING = frozenset({"CharacterError", "ValueError", "Exception", "BaseException"})
"""Handlers that stop a ``CharacterError``."""


def _catches(handler: ast.ExceptHandler) -> bool:
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(
        kind is None
        or (isinstance(kind, ast.Name) and kind.id in CATCHING)
        or (isinstance(kind, ast.Attribute) and kind.attr in CATCHING)
        for kind in kinds
    )


def _shielded(node: ast.AST) -> set[int]:
    """The nodes inside a ``try`` whose ``except CharacterError`` (or wider) raises nothing: an
    error there is turned into a result, never raised."""
    shielded: set[int] = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Try) and any(
            _catches(handler) and not any(isinstance(inner, ast.Raise) for inner in ast.walk(handler))
            for handler in child.handlers
        ):
            shielded.update(id(inner) for statement in child.body for inner in ast.walk(statement))
    return shielded


def _local_imports(function: types.FunctionType, node: ast.AST) -> dict[str, object]:
    """The names a function imports inside its body (an optional extra's module, imported when used)."""
    module = sys.modules[function.__module__]
    package = module.__name__ if (module.__file__ or "").endswith("__init__.py") else module.__package__ or ""
    names: dict[str, object] = {}
    for child in ast.walk(node):
        if isinstance(child, ast.ImportFrom) and child.level > 0:
            source = importlib.import_module(
                importlib.util.resolve_name("." * child.level + (child.module or ""), package)
            )
            for alias in child.names:
                names[alias.asname or alias.name] = getattr(source, alias.name, None)
    return names


def _builds_error(func: ast.expr) -> bool:
    return (isinstance(func, ast.Name) and func.id == "CharacterError") or (
        isinstance(func, ast.Attribute) and func.attr == "CharacterError"
    )


def reachable_codes(obj: object) -> frozenset[str]:
    """Every ``CharacterError`` code that calling ``obj`` may raise, as far as the code shows.

    Args:
        obj: A function, method, property or class of the package.

    Returns:
        The codes (known ones only; a code passed along from another error is not a new one),
        without ``guarded``'s net.
    """
    start = list(_targets(obj)) if inspect.isclass(obj) else [f for f in [_function(obj)] if f]
    seen: set[types.FunctionType] = set()
    codes: set[str] = set()
    while start:
        function = start.pop()
        if function in seen:
            continue
        seen.add(function)
        direct, callees = _direct(function)
        codes |= direct
        start.extend(callees)
    return frozenset(codes & _codes()) - {NET_CODE}


# ---------------------------------------------------------------- the checks


def _xrefs(name: str, doc: str) -> Iterator[Gap]:
    """Cross-references the reference cannot resolve: to a private path, or to a name of the
    package that no public module shows."""
    for match in XREF.finditer(doc):
        target = match.group(2) or match.group(1)
        if target.startswith(".") or PRIVATE_PATH.search(target):
            yield Gap(name, "xref", f"refers to the private path {target!r}")
        elif not _resolves(target, name):
            yield Gap(name, "xref", f"refers to {target!r}, which no public module documents")


@functools.cache
def documented_names() -> frozenset[str]:
    """Every dotted name the reference documents: the public modules, their ``__all__`` names
    and the public members (methods, properties, fields) of their classes."""
    names: set[str] = set()
    for module in public_modules():
        names.add(module.__name__)
        for short in module.__all__:
            full = f"{module.__name__}.{short}"
            names.add(full)
            obj = getattr(module, short)
            if inspect.isclass(obj) and _ours(obj):
                names.update(f"{full}.{member}" for member in dir(obj) if not member.startswith("_"))
                listed = _entries(_sections(_own_doc(obj) or "").get("Attributes", []))
                names.update(f"{full}.{entry}" for entry in listed)  # napoleon's attributes
    return frozenset(names)


def _resolve(target: str, context: str) -> str | None:
    """The documented name Sphinx finds for ``target`` from the docstring of ``context``: in
    its class, in its module, or as a full name."""
    names = documented_names()
    module = max(
        (found.__name__ for found in public_modules() if context.startswith(found.__name__)), key=len
    )
    rest = context[len(module) + 1 :].split(".") if context != module else []
    candidates = [f"{module}.{target}", target]
    if rest and inspect.isclass(getattr(sys.modules[module], rest[0], None)):
        candidates.insert(0, f"{module}.{rest[0]}.{target}")
    return next((candidate for candidate in candidates if candidate in names), None)


def _resolves(target: str, context: str) -> bool:
    """Whether the reference resolves ``target`` (names of the standard library are left to
    intersphinx)."""
    if _resolve(target, context) is not None:
        return True
    first = target.split(".")[0]
    return first != PACKAGE and (first in sys.stdlib_module_names or hasattr(builtins, first))


def _documented_object(name: str) -> object:
    """The object a documented dotted name stands for."""
    module = max(
        (found for found in public_modules() if name.startswith(found.__name__)),
        key=lambda m: len(m.__name__),
    )
    obj: Any = module
    for part in name[len(module.__name__) + 1 :].split("."):
        obj = inspect.getattr_static(obj, part) if inspect.isclass(obj) else getattr(obj, part)
    return obj


def named_codes(name: str, obj: object) -> frozenset[str]:
    """The codes a ``Raises:`` section names: its own, and those of each function it refers to
    (``as :func:`character_defense```), followed through their ``Raises:`` in turn.

    Args:
        name: The public dotted name of ``obj``, the context its references resolve in.
        obj: A public function or method.

    Returns:
        The codes named.
    """
    codes: set[str] = set()
    pending = [(name, obj)]
    seen: set[str] = set()
    while pending:
        current, found = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        text = "\n".join(_sections(_own_doc_text(found)).get("Raises", []))
        codes.update(word for word in LITERAL.findall(text) if word in _codes())
        for match in XREF.finditer(text):
            resolved = _resolve(match.group(2) or match.group(1), current)
            if resolved is not None:
                pending.append((resolved, _documented_object(resolved)))
    return frozenset(codes)


def _napoleon_type(line: str) -> str | None:
    """The text napoleon takes for a type on the first line of a ``Returns:`` section or of an
    attribute's (property's, constant's) docstring: what stands before the first single colon
    outside inline literals and roles (``Whether it can act: ...`` would show the type
    "Whether it can act"); None when it takes none."""
    before: list[str] = []
    for index, part in enumerate(NAPOLEON_SPAN.split(line)):
        match = SINGLE_COLON.search(part) if index % 2 == 0 else None
        if match:
            rest = part[match.end() :] + "".join(NAPOLEON_SPAN.split(line)[index + 1 :])
            return "".join([*before, part[: match.start()]]).strip() if rest.strip() else None
        before.append(part)
    return None


def _attribute_doc(name: str, doc: str) -> Iterator[Gap]:
    """An attribute's docstring: its references, and no first line napoleon splits into a type."""
    yield from _xrefs(name, doc)
    first = inspect.cleandoc(doc).split("\n", 1)[0]
    if (taken := _napoleon_type(first)) is not None:
        yield Gap(name, "napoleon", f"the first line's colon makes {taken!r} its type")


def _returns_value(signature: inspect.Signature) -> bool:
    annotation = signature.return_annotation
    return annotation not in (None, "None", inspect.Signature.empty)


def _check_function(name: str, obj: object, *, skip_first: bool = False) -> Iterator[Gap]:
    function = _function(obj)
    doc = _own_doc(function) if function is not None else None
    if function is None or doc is None:
        yield Gap(name, "missing", "no docstring")
        return
    yield from _xrefs(name, doc)
    sections = _sections(doc)
    parameters = list(inspect.signature(function).parameters)
    if skip_first or (parameters and parameters[0] in ("self", "cls")):
        parameters = parameters[1:]
    documented = _entries(sections.get("Args", []))
    if parameters and "Args" not in sections:
        yield Gap(name, "args", f"no Args section for {', '.join(parameters)}")
    else:
        if left_out := [p for p in parameters if p not in documented]:
            yield Gap(name, "args", f"Args leaves out {', '.join(left_out)}")
        if unknown := [p for p in documented if p not in parameters]:
            yield Gap(name, "args", f"Args names {', '.join(unknown)}, which it does not take")
    if _returns_value(inspect.signature(function)) and not ("Returns" in sections or "Yields" in sections):
        yield Gap(name, "returns", "no Returns section")
    returns = [line for line in sections.get("Returns", []) if line.strip()]
    if returns and (taken := _napoleon_type(returns[0].strip())) is not None:
        yield Gap(name, "returns", f"the first line's colon makes {taken!r} the return type")
    yield from _check_raises(name, obj, sections, parameters)


def _check_raises(name: str, obj: object, sections: dict[str, list[str]], words: list[str]) -> Iterator[Gap]:
    """What the ``Raises:`` section says against what the code can raise.

    The code is read generously (a helper that refuses a bad document counts wherever it is
    called, also on a document already checked), so a code it finds may not be raised in fact:
    a code left out is shown by ``--verbose`` for a person to judge, not reported as a gap. A
    code named that the code cannot raise is one, as is no ``Raises:`` at all (a docstring that
    says "Never raises" has considered it)."""
    codes = reachable_codes(obj)
    raises = sections.get("Raises", [])
    text = "\n".join(raises)
    named = {word for word in LITERAL.findall(text) if word in _codes()}
    if codes and "CharacterError" not in _entries(raises) and "Never raises" not in _own_doc_text(obj):
        yield Gap(name, "raises", f"no Raises entry for CharacterError ({', '.join(sorted(codes))})")
    if stale := sorted(named - codes - {NET_CODE}):
        yield Gap(name, "raises", f"Raises names {', '.join(stale)}, which the code never raises")
    unknown = {
        word
        for word in LITERAL.findall(text)
        if CODE_LIKE.fullmatch(word) and word not in _codes() and word not in words
    }
    if unknown:
        yield Gap(name, "code", f"Raises names {', '.join(sorted(unknown))}, not codes of errors.ErrorCode")


def unlisted_codes(name: str, obj: object) -> frozenset[str]:
    """The codes the code may raise that ``obj``'s ``Raises:`` section does not name.

    Args:
        name: The public dotted name of ``obj``.
        obj: A public function or method.

    Returns:
        The codes, for a person to judge (see :func:`reachable_codes`: the reading is generous).
    """
    return reachable_codes(obj) - named_codes(name, obj)


def _own_doc_text(obj: object) -> str:
    function = _function(obj)
    return (_own_doc(function) if function is not None else None) or ""


def _fields(cls: type) -> list[str] | None:
    """The fields a result type documents: a dataclass's or a NamedTuple's; None for another
    class (a ``TypedDict`` of options points to the function whose ``Args`` it repeats, and the
    document's types are generated from the schema)."""
    if dataclasses.is_dataclass(cls):
        return [field.name for field in dataclasses.fields(cls) if not field.name.startswith("_")]
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return list(cls._fields)
    return None


def _field_docs(cls: type) -> dict[str, str]:
    """The fields documented where they are declared, by a string right after them (what
    autodoc shows as the attribute's docstring): field to docstring."""
    source = sys.modules[cls.__module__].__file__
    if source is None:
        return {}
    for node in ast.walk(ast.parse(Path(source).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            return {
                statement.target.id: after.value.value
                for statement, after in zip(node.body, node.body[1:], strict=False)
                if isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            }
    return {}


def _has_own_doc(cls: type, attribute: str) -> bool:
    """Whether ``attribute`` is a property whose docstring autodoc shows on its own."""
    member = inspect.getattr_static(cls, attribute, None)
    return isinstance(member, property) and member.fget is not None and _own_doc(member.fget) is not None


def _check_class(name: str, cls: type) -> Iterator[Gap]:
    doc = _own_doc(cls)
    if doc is None:
        yield Gap(name, "missing", "no docstring")
        return
    yield from _xrefs(name, doc)
    sections = _sections(doc)
    fields = _fields(cls)
    if fields is not None:
        listed = _entries(sections.get("Attributes", []))
        declared = _field_docs(cls)
        if left_out := [field for field in fields if field not in listed and field not in declared]:
            yield Gap(name, "fields", f"no Attributes entry (or docstring) for {', '.join(left_out)}")
        if twice := [field for field in fields if field in listed and field in declared]:
            yield Gap(name, "fields", f"{', '.join(twice)} documented twice (Attributes and docstring)")
        if issubclass(cls, tuple) and (entries := [field for field in fields if field in listed]):
            # autodoc shows a NamedTuple's fields itself: an entry would describe them twice
            yield Gap(
                name, "fields", f"{', '.join(entries)}: a NamedTuple's fields take a docstring, not an entry"
            )
        if unknown := [entry for entry in listed if entry not in fields and not hasattr(cls, entry)]:
            yield Gap(name, "fields", f"Attributes names {', '.join(unknown)}, which it does not have")
        for field in fields:
            if field in declared:
                yield from _attribute_doc(f"{name}.{field}", declared[field])
    if shown := [entry for entry in _entries(sections.get("Attributes", [])) if _has_own_doc(cls, entry)]:
        yield Gap(
            name, "fields", f"{', '.join(shown)} documented twice (Attributes and the property's docstring)"
        )
    init = cls.__dict__.get("__init__")
    if fields is None and _function(init) is not None and not issubclass(cls, BaseException):
        yield from _check_constructor(name, cls, sections)
    for attribute, member in vars(cls).items():
        if attribute.startswith("_"):
            continue
        qualified = f"{name}.{attribute}"
        if isinstance(member, property):
            function = _function(member)
            if function is not None and (doc := _own_doc(function)) is None:
                yield Gap(qualified, "missing", "no docstring")
            elif doc is not None:
                yield from _attribute_doc(qualified, doc)
        elif _function(member) is not None:
            yield from _check_function(qualified, member, skip_first=not isinstance(member, staticmethod))


def _check_constructor(name: str, cls: type, sections: dict[str, list[str]]) -> Iterator[Gap]:
    """A class built by hand documents its constructor's arguments, in the class's docstring
    or in ``__init__``'s."""
    init = _function(cls.__dict__["__init__"])
    assert init is not None
    parameters = list(inspect.signature(init).parameters)[1:]
    init_doc = _own_doc(init)
    documented = _entries(sections.get("Args", []))
    if init_doc is not None:
        documented += _entries(_sections(init_doc).get("Args", []))
    if left_out := [p for p in parameters if p not in documented]:
        yield Gap(name, "args", f"the constructor's Args leave out {', '.join(left_out)}")


@functools.cache
def _attribute_docs(module_name: str) -> dict[str, str]:
    """Module-level ``NAME = ...`` followed by a string, and where re-exported names come from."""
    module = sys.modules[module_name]
    docs: dict[str, str] = {}
    if module.__file__ is None:
        return docs
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    for node, after in zip(tree.body, tree.body[1:], strict=False):
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        if (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            for target in targets:
                if isinstance(target, ast.Name):
                    docs[target.id] = after.value.value
    return docs


def _data_doc(module: types.ModuleType, name: str) -> str | None:
    """The attribute docstring of a constant or type alias, following ``from .x import name``."""
    seen: set[str] = set()
    pending = [module.__name__]
    while pending:
        current = pending.pop()
        if current in seen or current not in sys.modules:
            continue
        seen.add(current)
        if doc := _attribute_docs(current).get(name, "").strip():
            return doc
        source = sys.modules[current].__file__
        if source is None:
            continue
        for node in ast.walk(ast.parse(Path(source).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and any(alias.name == name for alias in node.names):
                package = current if source.endswith("__init__.py") else current.rpartition(".")[0]
                pending.append(importlib.util.resolve_name("." * node.level + (node.module or ""), package))
    return None


def _check_module(module: types.ModuleType) -> Iterator[Gap]:
    doc = module.__doc__ or ""
    names = [name for name in module.__all__ if not name.startswith("__")]
    mentioned = [name for name in names if re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", doc)]
    if not doc.strip():
        yield Gap(module.__name__, "missing", "no module docstring")
    elif len(mentioned) < min(MODULE_NAMES, len(names)):
        yield Gap(module.__name__, "module", f"the docstring names {len(mentioned)} of its public names")
    yield from _xrefs(module.__name__, doc)


def public_modules() -> list[types.ModuleType]:
    """The public modules present in this checkout."""
    found = []
    for name in PUBLIC_MODULES:
        try:
            found.append(importlib.import_module(name))
        except ModuleNotFoundError as err:
            if err.name != name:
                raise
    return found


def audit(only: str | None = None) -> list[Gap]:
    """Every gap of every public name's docstring.

    Args:
        only: A public dotted name (``gurps_character.Fighter``) to audit alone, with its
            members; None audits everything.

    Returns:
        The gaps, module by module in ``__all__`` order; empty when the docstrings are complete.
    """
    gaps: list[Gap] = []
    for module in public_modules():
        if only is None or only == module.__name__:
            gaps.extend(_check_module(module))
        for short in module.__all__:
            name = f"{module.__name__}.{short}"
            if only is not None and only != name and not only.startswith(f"{name}."):
                continue
            obj = getattr(module, short)
            if inspect.isclass(obj) and _ours(obj):
                gaps.extend(_check_class(name, obj))
            elif inspect.isfunction(obj) and _ours(obj):
                gaps.extend(_check_function(name, obj))
            elif short != "__version__":
                doc = _data_doc(module, short)
                if doc is None:
                    gaps.append(Gap(name, "missing", "no attribute docstring where it is defined"))
                else:
                    gaps.extend(_attribute_doc(name, doc))
    return gaps


def _callables() -> Iterator[tuple[str, object]]:
    """Every public function and method (properties aside), by public name."""
    for module in public_modules():
        for short in module.__all__:
            obj = getattr(module, short)
            name = f"{module.__name__}.{short}"
            if inspect.isfunction(obj) and _ours(obj):
                yield name, obj
            elif inspect.isclass(obj) and _ours(obj):
                for attribute, member in vars(obj).items():
                    if (
                        not attribute.startswith("_")
                        and not isinstance(member, property)
                        and _function(member)
                    ):
                        yield f"{name}.{attribute}", member


def _summary(gaps: list[Gap]) -> str:
    kinds: dict[str, int] = {}
    for gap in gaps:
        kinds[gap.kind] = kinds.get(gap.kind, 0) + 1
    counts = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    return f"{len(gaps)} gaps" + (f" ({counts})" if counts else "")


def main(argv: list[str] | None = None, out: Callable[[str], object] = print) -> int:
    """Runs the audit and prints every gap, then the counts.

    Args:
        argv: The command line's arguments (``sys.argv[1:]`` when None).
        out: Where each line goes.

    Returns:
        The exit status: 0 with no gap, 1 otherwise.
    """
    parser = argparse.ArgumentParser(description=textwrap.dedent(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--verbose", action="store_true", help="also list codes a Raises section may be missing"
    )
    arguments = parser.parse_args(argv)
    gaps = audit()
    for gap in gaps:
        out(str(gap))
    if arguments.verbose:
        for name, function in _callables():
            if codes := unlisted_codes(name, function):
                out(f"unlisted {name}: {', '.join(sorted(codes))} (the code may raise it: judge)")
    out(_summary(gaps))
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
