"""Generate ``src/gurps_character/document.py``: the document types, as TypedDicts, from the schema.

Usage::

    python scripts/generate_types.py          # rewrite the module
    python scripts/generate_types.py --check  # exit 1 when the committed module is stale

The mapping is deliberately small:

- an object with ``properties`` becomes a ``TypedDict``; a property that is not in ``required`` is
  ``NotRequired[...]``. A class whose property names are not all identifiers (the root's ``$schema``)
  uses the functional ``TypedDict("Name", {...})`` syntax;
- an object without ``properties`` (``extensions``) is ``dict[str, Any]``;
- ``$defs/<name>`` becomes a type named ``<Name>``; an inline object is named after its ``title``, or
  after its property (prefixed with the owning type's name below the top level);
- a name that one of the library's results also has (:data:`RENAMED`: ``Dice``, ``WeaponDamage``,
  ``Attributes`` ...) gets the prefix ``Stored`` (``StoredDice``: the dice as the document stores
  them), so that no two public classes of the package share a name; the old name stays a deprecated
  alias (a ``DeprecationWarning`` at run time) until :data:`ALIASES_REMOVED_IN`. Enum aliases named
  after such a type keep its schema name (``WeaponDamageType``);
- ``enum`` becomes a ``Literal`` alias (``<Owner><Property>`` unless it is a ``$defs`` entry), ``const``
  an inline ``Literal``;
- JSON types: string -> str, integer -> int, number -> float, boolean -> bool, null -> None,
  array -> list[<items>]; a list of types is a union.

The output is already in ``ruff format`` style and is written in dependency order, so every name is
defined before it is used. The module has no ``from __future__ import annotations``: string annotations
would hide ``NotRequired`` from ``TypedDict`` at run time (``__required_keys__`` would list every key).
Standard library only.
"""

from __future__ import annotations

import argparse
import json
import keyword
import re
import sys
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_PATH = ROOT / "schema" / "gurps-character.schema.json"
OUTPUT_PATH = ROOT / "src" / "gurps_character" / "document.py"
ROOT_NAME = "GurpsCharacter"
LINE_LENGTH = 110
INDENT = "    "

JSON_TYPES = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}
TYPING_NAMES = ("TYPE_CHECKING", "Any", "Literal", "NotRequired", "TypeAlias", "TypedDict")

RENAMED = {
    name: f"Stored{name}"
    for name in (
        "Attributes",  # gurps_character.stats.Attributes
        "Deviation",  # gurps_character.verify.Deviation
        "Dice",  # gurps_character.formula.Dice
        "EncumbranceLevel",  # gurps_character.stats.EncumbranceLevel
        "Issue",  # gurps_character.verify.Issue
        "SkillDefense",  # gurps_character.stats.SkillDefense
        "WeaponDamage",  # gurps_character.damage.WeaponDamage
        "Weapons",  # gurps_character.stats.Weapons
    )
}
"""Schema names that the library's results also have -> the name of the document type."""
ALIASES_REMOVED_IN = "0.3.0"
"""The release that drops the deprecated aliases (the names of :data:`RENAMED` before 0.2.0)."""


class SchemaShapeError(ValueError):
    """The schema uses a construct this generator does not translate."""


@dataclass(frozen=True, slots=True)
class Property:
    name: str
    annotation: str
    required: bool
    doc: str


@dataclass(frozen=True, slots=True)
class Shape:
    """A TypedDict."""

    name: str
    pointer: str
    doc: str
    properties: tuple[Property, ...]


@dataclass(frozen=True, slots=True)
class Alias:
    """A ``Literal`` type alias for an ``enum``."""

    name: str
    pointer: str
    values: tuple[Any, ...]


@dataclass(slots=True)
class _Collector:
    """Walks the schema and collects the types in dependency order."""

    schema: Mapping[str, Any]
    types: list[Shape | Alias] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # type name -> pointer
    defs: dict[str, str] = field(default_factory=dict)  # $defs key -> type name

    def claim(self, name: str, pointer: str) -> None:
        if name in self.names:
            raise SchemaShapeError(f"{pointer} and {self.names[name]} would both be named {name}")
        if name in TYPING_NAMES or keyword.iskeyword(name) or not name.isidentifier():
            raise SchemaShapeError(f"{pointer}: {name!r} is not a usable type name")
        self.names[name] = pointer

    def definition(self, key: str) -> str:
        """The type of ``#/$defs/<key>``, collected on first use."""
        if key not in self.defs:
            definitions = self.schema.get("$defs", {})
            if key not in definitions:
                raise SchemaShapeError(f"unknown definition #/$defs/{key}")
            name = pascal_case(key)
            node = definitions[key]
            pointer = f"#/$defs/{key}"
            if "enum" in node:
                self.defs[key] = self.alias(name, pointer, node["enum"])
            elif is_shape(node):
                self.defs[key] = self.shape(name, pointer, node)
            else:
                raise SchemaShapeError(f"{pointer}: only objects and enums can be named types")
        return self.defs[key]

    def alias(self, name: str, pointer: str, values: Sequence[Any]) -> str:
        self.claim(name, pointer)
        self.types.append(Alias(name, pointer, tuple(values)))
        return name

    def shape(self, name: str, pointer: str, node: Mapping[str, Any]) -> str:
        """The TypedDict for ``node``, named ``name`` (or its :data:`RENAMED` name); the types inside
        it are named after ``name``."""
        public = RENAMED.get(name, name)
        self.claim(public, pointer)
        required = set(node.get("required", ()))
        properties = tuple(
            Property(
                key,
                self.annotation(sub, f"{pointer}/properties/{key}", owner=name, key=key),
                key in required,
                documentation(sub),
            )
            for key, sub in node["properties"].items()
        )
        if name == ROOT_NAME:  # everything else first: the functional syntax needs its names defined
            for key in self.schema.get("$defs", {}):
                self.definition(key)
        self.types.append(Shape(public, pointer, class_doc(node, pointer), properties))
        return public

    def annotation(self, node: Mapping[str, Any], pointer: str, *, owner: str, key: str) -> str:
        """The Python type of a value described by ``node``."""
        if "$ref" in node:
            reference = node["$ref"]
            if not reference.startswith("#/$defs/") or "/" in reference.removeprefix("#/$defs/"):
                raise SchemaShapeError(f"{pointer}: unsupported $ref {reference!r}")
            return self.definition(reference.removeprefix("#/$defs/"))
        if "const" in node:
            return f"Literal[{literal(node['const'])}]"
        if "enum" in node:
            return self.alias(owner + pascal_case(key), pointer, node["enum"])
        declared = node.get("type")
        if declared is None:
            return "Any"
        kinds = [declared] if isinstance(declared, str) else list(declared)
        parts = [self.json_type(kind, node, pointer, owner=owner, key=key) for kind in kinds]
        return " | ".join(parts)

    def json_type(self, kind: str, node: Mapping[str, Any], pointer: str, *, owner: str, key: str) -> str:
        if kind in JSON_TYPES:
            return JSON_TYPES[kind]
        if kind == "array":
            items = node.get("items")
            if not isinstance(items, Mapping):
                return "list[Any]"
            return f"list[{self.annotation(items, f'{pointer}/items', owner=owner, key=key)}]"
        if kind == "object":
            if not is_shape(node):
                return "dict[str, Any]"
            if "title" in node:
                name = pascal_case(node["title"])
            elif owner == ROOT_NAME:
                name = pascal_case(key)
            else:
                name = owner + pascal_case(key)
            return self.shape(name, pointer, node)
        raise SchemaShapeError(f"{pointer}: unknown JSON type {kind!r}")


# --- small helpers ---------------------------------------------------------------------------------


def is_shape(node: Mapping[str, Any]) -> bool:
    return node.get("type") == "object" and isinstance(node.get("properties"), Mapping)


def pascal_case(text: str) -> str:
    """``basicSpeed`` -> ``BasicSpeed``, ``Hit Points`` -> ``HitPoints``."""
    return "".join(word[:1].upper() + word[1:] for word in re.split(r"[^0-9A-Za-z]+", text) if word)


def literal(value: Any) -> str:
    if isinstance(value, bool) or value is None or not isinstance(value, str | int):
        raise SchemaShapeError(f"cannot write {value!r} as a Literal")
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def documentation(node: Mapping[str, Any]) -> str:
    """A property's title, description and x-gurps description, as one text."""
    title = node.get("title")
    texts = [
        f"{title}." if title else None,
        node.get("description"),
        node.get("x-gurps", {}).get("description"),
    ]
    return " ".join(text for text in texts if isinstance(text, str) and text)


def class_doc(node: Mapping[str, Any], pointer: str) -> str:
    """Title, description and location of a type, as paragraphs."""
    paragraphs = [f"{node['title']}." if "title" in node else None, node.get("description")]
    return "\n\n".join([*(text for text in paragraphs if isinstance(text, str)), f"Schema: ``{pointer}``."])


def docstring(text: str, indent: str) -> list[str]:
    """A docstring in the shape ``ruff format`` keeps: one line, or wrapped with the quotes alone."""
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if text.endswith('"'):
        text = text[:-1] + '\\"'
    if "\n" not in text and len(indent) + len(text) + 6 <= LINE_LENGTH:
        return [f'{indent}"""{text}"""']
    width = LINE_LENGTH - len(indent) - 3
    lines: list[str] = []
    for number, paragraph in enumerate(text.split("\n\n")):
        if number:
            lines.append("")
        lines.extend(textwrap.wrap(paragraph, width, break_long_words=False, break_on_hyphens=False))
    first, *rest = lines
    return [f'{indent}"""{first}', *(f"{indent}{line}" if line else "" for line in rest), f'{indent}"""']


def comment(text: str, indent: str) -> list[str]:
    width = LINE_LENGTH - len(indent) - 2
    return [f"{indent}# {line}" for line in textwrap.wrap(text, width, break_on_hyphens=False)]


def field_type(prop: Property) -> str:
    return prop.annotation if prop.required else f"NotRequired[{prop.annotation}]"


# --- rendering -------------------------------------------------------------------------------------


def render_alias(alias: Alias) -> list[str]:
    head = f"{alias.name}: TypeAlias = Literal["
    values = [literal(value) for value in alias.values]
    one_line = head + ", ".join(values) + "]"
    lines = (
        [one_line]
        if len(one_line) <= LINE_LENGTH
        else [head, *(f"{INDENT}{value}," for value in values), "]"]
    )
    return [*lines, *docstring(f"The values allowed at ``{alias.pointer}``.", "")]


def render_shape(shape: Shape) -> list[str]:
    if all(prop.name.isidentifier() and not keyword.iskeyword(prop.name) for prop in shape.properties):
        lines = [f"class {shape.name}(TypedDict):", *docstring(shape.doc, INDENT), ""]
        for prop in shape.properties:
            lines.append(f"{INDENT}{prop.name}: {field_type(prop)}")
            if prop.doc:
                lines.extend(docstring(prop.doc, INDENT))
        return lines
    # Functional syntax: some key is not a Python identifier. A string after the call would document
    # the name for Sphinx only, so the text is assigned to ``__doc__`` (``help()`` shows it too).
    lines = [f"{shape.name} = TypedDict(", f'{INDENT}"{shape.name}",', f"{INDENT}{{"]
    for prop in shape.properties:
        if prop.doc:
            lines.extend(comment(prop.doc, INDENT * 2))
        lines.append(f"{INDENT * 2}{json.dumps(prop.name)}: {field_type(prop)},")
    first, *rest = docstring(shape.doc, "")
    return [*lines, f"{INDENT}}},", ")", f"{shape.name}.__doc__ = {first}", *rest]


def render_deprecated(renamed: Mapping[str, str]) -> list[str]:
    """The old names of renamed types: aliases for type checkers, a module ``__getattr__`` that
    warns at run time (PEP 562), and neither in ``__all__``."""
    if not renamed:
        return []
    lines = [
        f"# The names these types had before 0.2.0, deprecated: they go in {ALIASES_REMOVED_IN}.",
        "_RENAMED: dict[str, str] = {",
        *(f'{INDENT}"{old}": "{new}",' for old, new in sorted(renamed.items())),
        "}",
        "",
        "if TYPE_CHECKING:",
        *(f"{INDENT}{old}: TypeAlias = {new}" for old, new in sorted(renamed.items())),
        "else:",
        "",
        f"{INDENT}def __getattr__(name: str) -> Any:",
        *docstring("A renamed type under its old name, with a DeprecationWarning.", INDENT * 2),
        f"{INDENT * 2}if name in _RENAMED:",
        f"{INDENT * 3}import warnings",
        "",
        f"{INDENT * 3}warnings.warn(",
        f'{INDENT * 4}f"gurps_character.document.{{name}} is deprecated (gone in {ALIASES_REMOVED_IN}): '
        'use {_RENAMED[name]}",',
        f"{INDENT * 4}DeprecationWarning,",
        f"{INDENT * 4}stacklevel=2,",
        f"{INDENT * 3})",
        f"{INDENT * 3}return globals()[_RENAMED[name]]",
        f'{INDENT * 2}raise AttributeError(f"module {{__name__!r}} has no attribute {{name!r}}")',
    ]
    return lines


def render(schema: Mapping[str, Any]) -> str:
    """The text of ``document.py`` for ``schema``."""
    collector = _Collector(schema)
    collector.shape(ROOT_NAME, "#", schema)
    blocks = [
        render_alias(item) if isinstance(item, Alias) else render_shape(item) for item in collector.types
    ]
    renamed = {old: new for old, new in RENAMED.items() if new in collector.names}
    deprecated = render_deprecated(renamed)
    if deprecated:
        blocks.append(deprecated)
    body = "\n\n\n".join("\n".join(block) for block in blocks)
    code = [  # what the module's code (not its docstrings) mentions
        *(
            field_type(prop)
            for item in collector.types
            if isinstance(item, Shape)
            for prop in item.properties
        ),
        *("TypeAlias Literal" if isinstance(item, Alias) else "TypedDict" for item in collector.types),
        *deprecated,
    ]
    used = [name for name in TYPING_NAMES if any(re.search(rf"\b{name}\b", text) for text in code)]
    names = sorted(item.name for item in collector.types)
    header = [
        "# Generated by scripts/generate_types.py from schema/gurps-character.schema.json — do not edit.",
        "# Regenerate with: python scripts/generate_types.py",
        '"""The parts of a gurps-character document, as TypedDicts generated from the bundled schema.',
        "",
        f"``{ROOT_NAME}`` is a whole document; every other class is one object inside it. Keys that the",
        "schema does not require are ``NotRequired``. ``number`` values are typed ``float`` (an ``int`` is",
        "accepted wherever a ``float`` is expected). A type whose schema name a result of the library",
        "also has is called ``Stored<Name>`` (``StoredDice``, ``StoredWeaponDamage``: the thing as the",
        "document stores it); its old name is a deprecated alias until " + ALIASES_REMOVED_IN + ".",
        '"""',
        "",
        f"from typing import {', '.join(used)}",
        "",
        "__all__ = [",
        *(f'{INDENT}"{name}",' for name in names),
        "]",
    ]
    text = "\n".join(header) + "\n\n\n" + body + "\n"
    too_long = [line for line in text.splitlines() if len(line) > LINE_LENGTH]
    if too_long:
        raise SchemaShapeError(f"generated lines longer than {LINE_LENGTH} characters: {too_long}")
    return text


def load_schema(path: Path = SCHEMA_PATH) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check", action="store_true", help="do not write; exit 1 if the committed module is stale"
    )
    options = parser.parse_args(argv)
    text = render(load_schema())
    relative = OUTPUT_PATH.relative_to(ROOT)
    if options.check:
        current = OUTPUT_PATH.read_text(encoding="utf-8") if OUTPUT_PATH.is_file() else None
        if current != text:
            print(f"{relative} is stale: run python scripts/generate_types.py", file=sys.stderr)
            return 1
        print(f"{relative} is up to date")
        return 0
    OUTPUT_PATH.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {relative}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
