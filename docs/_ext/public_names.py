"""References to the library's objects lead to their public names.

The reference documents each object once, under the name users import it by
(``gurps_character.CombatStats``), while type annotations and some docstrings name the module that
defines it (``gurps_character.stats.CombatStats``) or only its bare name. When Sphinx finds no
target for such a reference, this extension resolves it to the documented public name of the same
object, whatever the role (a type alias documented as data is still named by ``:class:`` in a
signature). A type variable (``DocumentT``), a private name (``_ast.Binary``, a part of a public
union) and an unpublished object that the docstring's own module or class does define (a limit
such as ``MAX_NESTING``, a dataclass field) are shown as written, unlinked: they have no entry of
their own. A reference to anything else (a typo, a renamed object) stays broken, and the strict
build reports it.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from functools import cache
from typing import Any, TypeVar

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.domains.python import PythonDomain
from sphinx.environment import BuildEnvironment
from sphinx.util.nodes import make_refnode
from sphinx.util.typing import ExtensionMetadata

__all__ = ["PUBLIC_MODULES", "public_names", "setup"]

PUBLIC_MODULES = (
    "gurps_character",
    "gurps_character.formula",
    "gurps_character.yaml",
    "gurps_character.sheet",
)
"""The modules whose ``__all__`` is the public API."""


@cache
def public_names() -> dict[str, list[str]]:
    """Each public name's last part, with the full public names that end in it."""
    found: dict[str, list[str]] = {}
    for module_name in PUBLIC_MODULES:
        for name in importlib.import_module(module_name).__all__:
            found.setdefault(name, []).append(f"{module_name}.{name}")
    return found


def _lookup(path: str) -> Any:
    """The object a dotted path names (a module, then attributes), or ``None``."""
    parts = path.split(".")
    for split in range(len(parts), 0, -1):
        try:
            value: Any = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        try:
            for attribute in parts[split:]:
                value = getattr(value, attribute)
        except AttributeError:
            return None
        return value
    return None


def _public_target(target: str) -> str | None:
    """The public name of the object ``target`` names, if there is exactly one."""
    candidates = public_names().get(target.rpartition(".")[2], [])
    if "." not in target:
        return candidates[0] if len(candidates) == 1 else None
    if not target.startswith("gurps_character."):
        return None
    wanted = _lookup(target)
    same = [public for public in candidates if wanted is not None and _lookup(public) is wanted]
    return same[0] if len(same) == 1 else None


def _shown_unlinked(target: str) -> bool:
    """Whether ``target`` is one of the library's type variables or private names."""
    if not target.startswith("gurps_character."):
        return False
    if any(part.startswith("_") for part in target.split(".")):
        return True
    return isinstance(_lookup(target), TypeVar)


def _exists_in_context(node: pending_xref, target: str) -> bool:
    """Whether ``target`` names something the referring docstring's module or class defines."""
    module, cls = node.get("py:module"), node.get("py:class")
    owners: list[Any] = []
    documented = re.search(r"docstring of ([\w.]+)", str(node.source or ""))
    for path in (f"{module}.{cls}" if module and cls else None, documented and documented.group(1)):
        found = _lookup(path) if path else None
        if found is not None:
            owners.append(found)
            defining = getattr(found, "__module__", None)
            if isinstance(defining, str) and defining.startswith("gurps_character"):
                owners.append(importlib.import_module(defining))
    if module:
        owners.append(_lookup(module))
    for owner in owners:
        if owner is None:
            continue
        if hasattr(owner, target) or (
            dataclasses.is_dataclass(owner) and target in {field.name for field in dataclasses.fields(owner)}
        ):
            return True
    return False


def resolve(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.Element
) -> nodes.Element | None:
    """Resolves a Python reference that found no target to the public name of the same object."""
    if node.get("refdomain") != "py":
        return None
    target = str(node["reftarget"])
    known = {public for publics in public_names().values() for public in publics}
    public = target if target in known else _public_target(target)
    if public is None:
        shown = _shown_unlinked(target) or ("." not in target and _exists_in_context(node, target))
        return contnode if shown else None
    domain = env.get_domain("py")
    assert isinstance(domain, PythonDomain)
    entry = domain.objects.get(public)
    if entry is None:
        return None
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode, public)


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("missing-reference", resolve)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
