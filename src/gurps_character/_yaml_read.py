"""YAML 1.2 text to JSON data, from ruamel.yaml's parser events.

Only the parser is borrowed: no constructor ever runs, so no tag can build a Python object. The
events are turned into dicts, lists and JSON scalars here, with YAML 1.2's core schema deciding
what a plain scalar is (``no`` and ``on`` are text, ``0777`` is 777, ``1:30`` and ``2001-01-01``
are text, ``~`` is null), whatever version the library itself defaults to.

Anything that is not JSON data is refused with its position (:class:`YamlDataError`): tags other
than the JSON ones (``!!str``, ``!!int``, ``!!float``, ``!!bool``, ``!!null``, ``!!map``,
``!!seq``), duplicate or non-text keys, ``.inf`` and ``.nan``, a second document, and any
``%YAML`` version but 1.2. A number no double can hold (``1e400``) is treated as in JSON text:
read as an infinity, reported by the caller (:func:`read_yaml`). Aliases are copied where they
stand, up to the million repeated values that :func:`copy_json` allows for shared data and
:data:`MAX_REPEATED_TEXT` characters of repeated text (keys included: a long text aliased
thousands of times is as large once written out as the containers of a bomb), so an alias bomb
is refused after a bounded amount of work. Nesting is limited to :data:`MAX_YAML_DEPTH` levels:
ruamel's scanner spends time proportional to the depth on every token.

Characters are read as YAML 1.2 reads them, not as ruamel.yaml's scanner does (U+0085, U+2028
and U+2029 are no line breaks; JSON's characters are allowed in quoted text), and positions count
``\\r\\n`` and ``\\r`` as line ends: see :mod:`._yaml_text`.

Everything is iterative: no recursion on deep data.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple, NoReturn

from ._json import _MAX_REPEATED
from ._yaml_text import StandInsExhaustedError, YamlText, line_and_column
from .constants import MAX_DOCUMENT_BYTES
from .errors import CharacterError

__all__ = [
    "INSTALL_HINT",
    "MAX_REPEATED_TEXT",
    "MAX_YAML_DEPTH",
    "Position",
    "YamlDataError",
    "locate",
    "read_yaml",
    "require_ruamel",
]

MAX_YAML_DEPTH = 100
"""The deepest nesting of mappings and sequences read (and written) as YAML."""

MAX_REPEATED_TEXT = MAX_DOCUMENT_BYTES
"""The most characters of text (values and keys) that aliases may repeat: no more than the
largest document holds. (The values they repeat are limited as Python's shared data is.)"""

INSTALL_HINT = 'pip install "gurps-character[yaml]"'
"""The command that installs what reading YAML needs (shown by ``missingExtra``)."""

Position = tuple[int, int]
"""A 1-based ``(line, column)``."""


class YamlDataError(ValueError):
    """YAML text that is not JSON data, or not YAML: the reason and the 1-based position."""

    def __init__(self, reason: str, line: int, column: int) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        super().__init__(f"line {line}, column {column}: {reason}")


# ---------------------------------------------------------------- YAML 1.2 core schema

_CORE = "tag:yaml.org,2002:"
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_DECIMAL = re.compile(r"[-+]?[0-9]+")
_OCTAL = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")
_NOT_FINITE = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_SAFE_INT = 2**53
_EXACT_DIGITS = 15  # integer literals this short are exact doubles (as in _json)


class _Refused(ValueError):
    """A scalar that is not JSON data; the reader adds the position."""


def _integer(text: str) -> int | float:
    """An integer literal as a JavaScript reader holds it: beyond 2**53 rounded to a double,
    beyond the doubles an infinity (see :class:`_Reader`)."""
    if _DECIMAL.fullmatch(text):
        if len(text.lstrip("+-")) <= _EXACT_DIGITS:
            return int(text)
        rounded = float(text)  # never int() first: a million digits would take seconds
    else:
        value = int(text[2:], 8 if text[1] == "o" else 16)
        if -_SAFE_INT <= value <= _SAFE_INT:
            return value
        try:
            rounded = float(value)
        except OverflowError:
            rounded = math.inf
    if math.isinf(rounded):
        return -math.inf if text.startswith("-") else math.inf
    return int(rounded)


def _core_value(text: str) -> Any:
    """What a plain scalar is under YAML 1.2's core schema. ``.inf`` and ``.nan`` are refused;
    a number too large for a double is an infinity."""
    if text in _NULLS:
        return None
    if text in _BOOLS:
        return _BOOLS[text]
    if _DECIMAL.fullmatch(text) or _OCTAL.fullmatch(text) or _HEX.fullmatch(text):
        return _integer(text)
    if _FLOAT.fullmatch(text):
        return float(text)  # 1e400 is an infinity, as JSON.parse reads it (see _Reader)
    if _NOT_FINITE.fullmatch(text):
        raise _Refused(f"{text} is not a JSON number")
    return text


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def _tag_name(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


def _tagged_scalar(tag: str, text: str) -> Any:
    """A scalar with an explicit tag: the JSON tags only, and the value must be of that kind."""
    kind = tag[len(_CORE) :] if tag.startswith(_CORE) else None
    if kind == "str":
        return text
    if kind not in ("null", "bool", "int", "float"):
        raise _Refused(f"the tag {_short(_tag_name(tag))} is not JSON data")
    value = _core_value(text)
    fits = {
        "null": value is None,
        "bool": isinstance(value, bool),
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, int | float) and not isinstance(value, bool),
    }[kind]
    if not fits:
        raise _Refused(f"{_short(text)!r} is not a valid !!{kind}")
    return float(value) if kind == "float" else value


def _scalar(event: Any) -> Any:
    tag = event.tag
    if tag is None:
        return _core_value(event.value) if event.style is None else event.value
    if tag == "!":  # the non-specific tag: text
        return event.value
    return _tagged_scalar(tag, event.value)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "a mapping" if isinstance(value, dict) else "a sequence"


# ---------------------------------------------------------------- events to data


def _events(text: YamlText) -> Iterator[Any]:
    """ruamel.yaml's parser events for the text, read with YAML 1.2's line breaks (see
    :class:`YamlText`); syntax errors turned into :class:`YamlDataError`."""
    from ruamel.yaml import YAML  # the optional extra; imported only when YAML is read
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    checked = 0  # the text before this index holds no character misplaced outside quotes
    yaml = YAML(typ="safe", pure=True)
    yaml.Scanner = _json_keys_scanner()
    try:
        for event in yaml.parse(text.parsed):
            start = event.start_mark.index
            misplaced = text.quoted_only(checked, start)
            if misplaced is not None:
                char = text.original[misplaced]
                reason = f"the character U+{ord(char):04X} is allowed in YAML only inside quoted text"
                raise YamlDataError(reason, *text.position(misplaced))
            quoted = type(event).__name__ == "ScalarEvent" and event.style in ("'", '"')
            checked = event.end_mark.index if quoted else max(checked, start)
            if text.parsed is not text.original:
                _restore(event, text)
            yield event
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        reason = text.restore_message(err.problem or err.context or "invalid YAML")
        line, column = text.position(mark.index) if mark is not None else (1, 1)
        raise YamlDataError(reason, line, column) from None
    except ReaderError as err:
        char = err.character
        shown = f"U+{char:04X}" if isinstance(char, int) else repr(char)
        reason = f"the character {shown} is not allowed in YAML"
        raise YamlDataError(reason, *text.position(int(err.position))) from None
    except YAMLError as err:  # any other complaint of the library: no position known
        raise YamlDataError(text.restore_message(str(err)) or "invalid YAML", 1, 1) from None


_SIMPLE_KEY_LIMIT = 1024
"""The most characters of an implicit key, outside JSON-like keys of flow mappings."""


@functools.cache
def _json_keys_scanner() -> type:
    """ruamel.yaml's scanner, but with YAML 1.2's rule for JSON-like keys.

    YAML 1.2 limits an implicit key to one line and 1024 characters, except a JSON-like key (a
    quoted scalar) in a flow mapping, which may be of any length and have its ``:`` on a later
    line, as JSON allows: ``{"<2,000 characters>": 1}`` and ``{"a"\n: 1}`` are YAML. ruamel.yaml
    applies the limit everywhere (it would refuse such JSON text); this scanner keeps a quoted key
    of a flow mapping waiting for its ``:`` and leaves every other key to the usual rule.
    """
    from ruamel.yaml.scanner import Scanner, ScannerError

    class JsonKeysScanner(Scanner):
        def stale_possible_simple_keys(self) -> None:
            try:
                contexts, buffer = self.flow_context, self.reader.buffer
            except AttributeError:  # another version's internals: its own rule
                super().stale_possible_simple_keys()
                return
            reader = self.reader
            for level, key in list(self.possible_simple_keys.items()):
                if 0 < level <= len(contexts) and contexts[level - 1] == "{" and buffer[key.index] in "\"'":
                    continue  # a JSON-like key of a flow mapping: no limit
                if key.line != reader.line or reader.index - key.index > _SIMPLE_KEY_LIMIT:
                    if key.required:
                        context, problem = "while scanning a simple key", "could not find expected ':'"
                        raise ScannerError(context, key.mark, problem, reader.get_mark())
                    del self.possible_simple_keys[level]

    return JsonKeysScanner


def _restore(event: Any, text: YamlText) -> None:
    """Puts the original characters back into what an event carries from the text."""
    value = getattr(event, "value", None)
    if isinstance(value, str):
        event.value = text.restore(value)
    anchor = getattr(event, "anchor", None)
    if isinstance(anchor, str):
        event.anchor = text.restore(anchor)
    # Tags keep their stand-ins (none is a JSON tag either way); messages restore them.


_OPEN: Any = object()  # an anchor whose value is still being read


class _Target:
    """A node of the trie of wanted positions: one per JSON Pointer token on a wanted path."""

    __slots__ = ("children", "key", "path", "value")

    def __init__(self, path: tuple[str, ...]) -> None:
        self.path = path
        self.children: dict[str, _Target] = {}
        self.value = False  # the position of the value at this path is wanted
        self.key = False  # the position of its key is wanted

    def descendants(self) -> Iterator[_Target]:
        stack = list(self.children.values())
        while stack:
            item = stack.pop()
            yield item
            stack.extend(item.children.values())


class _Extent(NamedTuple):
    """What a value stands for once its aliases are expanded: what copying it costs."""

    values: int  # values in it, itself included (a mapping's keys too)
    text: int  # characters of text in it (keys included)
    height: int  # mapping and sequence levels in it, itself included


_SCALAR = _Extent(1, 0, 0)


def _scalar_extent(value: Any) -> _Extent:
    return _Extent(1, len(value), 0) if isinstance(value, str) else _SCALAR


class _Frame:
    """A mapping or sequence being filled."""

    __slots__ = ("anchor", "container", "height", "index", "key", "node", "text", "values")

    def __init__(self, container: Any, anchor: str | None, node: _Target | None) -> None:
        self.container = container
        self.anchor = anchor
        self.node = node  # where this container is in the trie of wanted positions
        self.key: str | None = None  # a mapping's key awaiting its value
        self.index = 0  # a sequence's next index
        self.values = 1  # as in _Extent, aliases expanded
        self.text = 0
        self.height = 1

    def extent(self) -> _Extent:
        return _Extent(self.values, self.text, self.height)

    def add(self, extent: _Extent) -> None:
        self.values += extent.values
        self.text += extent.text
        self.height = max(self.height, extent.height + 1)


class _Reader:
    """One pass over the events: the data, and the positions asked for (see :func:`locate`)."""

    def __init__(self, text: str, targets: _Target | None) -> None:
        try:
            self.text = YamlText(text)
        except StandInsExhaustedError as err:
            raise YamlDataError(str(err), *line_and_column(text, err.index)) from None
        self.trie = targets
        self.found: dict[tuple[str, tuple[str, ...]], Position] = {}
        self.anchors: dict[str, Any] = {}  # name -> (value, _Extent) or _OPEN
        self.repeated = 0  # values the aliases added
        self.repeated_text = 0  # characters of text the aliases added
        self.out_of_range: YamlDataError | None = None  # the first number no double holds

    def fail(self, reason: str, mark: Any) -> NoReturn:
        raise YamlDataError(self.text.restore(reason), *self.position(mark))

    def position(self, mark: Any) -> Position:
        return self.text.position(mark.index)

    def read(self) -> Any:
        stack: list[_Frame] = []
        root: list[Any] = []
        documents = 0
        for event in _events(self.text):
            name = type(event).__name__
            mark = event.start_mark
            if name == "ScalarEvent":
                try:
                    value = _scalar(event)
                except _Refused as err:
                    self.fail(str(err), mark)
                if type(value) is float and math.isinf(value) and self.out_of_range is None:
                    reason = f"the number {_short(event.value)} is out of range"
                    self.out_of_range = YamlDataError(reason, *self.position(mark))
                self.place(stack, root, value, _scalar_extent(value), mark, event.anchor)
            elif name in ("MappingStartEvent", "SequenceStartEvent"):
                mapping = name == "MappingStartEvent"
                self.check_collection_tag(event.tag, mapping, mark)
                if len(stack) >= MAX_YAML_DEPTH:
                    self.fail(f"the data is nested more than {MAX_YAML_DEPTH} levels deep", mark)
                container: Any = {} if mapping else []
                node = self.place(stack, root, container, _Extent(0, 0, 0), mark, None)
                if event.anchor is not None:
                    self.anchors[event.anchor] = _OPEN
                stack.append(_Frame(container, event.anchor, node))
            elif name in ("MappingEndEvent", "SequenceEndEvent"):
                frame = stack.pop()
                if frame.anchor is not None:
                    self.anchors[frame.anchor] = (frame.container, frame.extent())
                if stack:
                    stack[-1].add(frame.extent())
            elif name == "AliasEvent":
                self.alias(stack, root, event.anchor, mark)
            elif name == "DocumentStartEvent":
                if documents:
                    self.fail("a second document: a character is one YAML document", mark)
                version = event.version
                if version is not None and tuple(version) != (1, 2):
                    shown = ".".join(str(part) for part in version)
                    self.fail(f"%YAML {shown}: only YAML 1.2 is read", mark)
            elif name == "DocumentEndEvent":
                documents += 1
            elif name == "StreamEndEvent" and not root:
                self.fail("the text holds no YAML document", mark)
        return root[0]

    def check_collection_tag(self, tag: str | None, mapping: bool, mark: Any) -> None:
        if tag is None or tag == "!" or tag == _CORE + ("map" if mapping else "seq"):
            return
        self.fail(f"the tag {_short(_tag_name(tag))} is not JSON data", mark)

    def alias(self, stack: list[_Frame], root: list[Any], anchor: str, mark: Any) -> None:
        entry = self.anchors.get(anchor)
        if entry is None:
            self.fail(f"the alias *{_short(anchor)} has no anchor before it", mark)
        if entry is _OPEN:
            self.fail(f"the alias *{_short(anchor)} is inside the value it names", mark)
        value, extent = entry
        # Whatever an alias names costs what it expands to: a long text repeated a thousand
        # times is a thousand texts once the data is written out.
        self.repeated += extent.values
        if self.repeated > _MAX_REPEATED:
            self.fail(f"the aliases repeat more than {_MAX_REPEATED} values: the data is too large", mark)
        self.repeated_text += extent.text
        if self.repeated_text > MAX_REPEATED_TEXT:
            self.fail(
                f"the aliases repeat more than {MAX_REPEATED_TEXT} characters of text: the data is too large",
                mark,
            )
        if len(stack) + extent.height > MAX_YAML_DEPTH:
            self.fail(f"the data is nested more than {MAX_YAML_DEPTH} levels deep", mark)
        self.place(stack, root, _copy(value), extent, mark, None, alias=True)

    def place(
        self,
        stack: list[_Frame],
        root: list[Any],
        value: Any,
        extent: _Extent,
        mark: Any,
        anchor: str | None,
        *,
        alias: bool = False,
    ) -> _Target | None:
        """Puts a value (or a key) where it belongs; the trie node of its position."""
        if anchor is not None:
            self.anchors[anchor] = (value, extent)
        if not stack:
            if root:  # cannot happen: the parser gives one node per document
                self.fail("a second value at the top level", mark)
            root.append(value)
            return self.note(self.trie, mark, alias=alias)
        frame = stack[-1]
        frame.add(extent)
        container = frame.container
        if isinstance(container, list):
            container.append(value)
            frame.index += 1
            return self.child(frame, str(frame.index - 1), mark, alias=alias)
        if frame.key is None:  # a key
            if not isinstance(value, str):
                shown = "" if isinstance(value, dict | list) else f" {_short(self.plain(value))}"
                self.fail(f"the key{shown} is {_kind(value)}, not text (quote it)", mark)
            if value in container:
                self.fail(f"the key {_short(value)!r} appears twice in this mapping", mark)
            frame.key = value
            self.child(frame, value, mark, key=True)
            return None
        key, frame.key = frame.key, None
        container[key] = value
        return self.child(frame, key, mark, alias=alias)

    @staticmethod
    def plain(value: Any) -> str:
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def child(
        self, frame: _Frame, token: str, mark: Any, *, key: bool = False, alias: bool = False
    ) -> _Target | None:
        node = frame.node.children.get(token) if frame.node is not None else None
        if node is None:
            return None
        if key:
            if node.key:
                self.found[("key", node.path)] = self.position(mark)
            return None
        return self.note(node, mark, alias=alias)

    def note(self, node: _Target | None, mark: Any, *, alias: bool) -> _Target | None:
        if node is None:
            return None
        position = self.position(mark)
        if node.value:
            self.found[("value", node.path)] = position
        if alias:  # what lies inside an alias is shown where the alias stands
            for inner in node.descendants():
                if inner.value:
                    self.found.setdefault(("value", inner.path), position)
                if inner.key:
                    self.found.setdefault(("key", inner.path), position)
            return None
        return node


def _copy(value: Any) -> Any:
    """A fresh copy of what the reader built (dicts, lists and scalars, infinities included; no
    cycles, nothing shared), without recursion."""
    if not isinstance(value, dict | list):
        return value
    root = value.copy()
    stack = [root]
    while stack:
        item = stack.pop()
        entries = item.items() if isinstance(item, dict) else enumerate(item)
        for key, child in entries:
            if isinstance(child, dict | list):
                item[key] = child = child.copy()
                stack.append(child)
    return root


def read_yaml(text: str) -> tuple[Any, YamlDataError | None]:
    """The JSON data of a YAML 1.2 document, and the first number in it too large for a double.

    Such a number is read as ``JSON.parse`` reads ``1e400`` in JSON text, as an infinity, so that
    the caller can report it where the schema refuses a number, as for JSON; it is never handed
    out in a document.

    Raises:
        YamlDataError: the text is not YAML, or not JSON data (with the 1-based position).
        CharacterError: ``missingExtra`` when ruamel.yaml is not installed.
    """
    require_ruamel()
    reader = _Reader(text, None)
    data = reader.read()
    return data, reader.out_of_range


def locate(
    text: str, targets: Iterable[tuple[str, tuple[str, ...]]]
) -> dict[tuple[str, tuple[str, ...]], Position]:
    """The positions of values (``("value", tokens)``) and keys (``("key", tokens)``) named by
    their JSON Pointer tokens, in YAML text that :func:`read_yaml` accepts. What lies inside an
    alias is placed at the alias."""
    trie = _Target(())
    for kind, tokens in targets:
        node = trie
        for depth, token in enumerate(tokens, 1):
            if token not in node.children:
                node.children[token] = _Target(tokens[:depth])
            node = node.children[token]
        if kind == "key":
            node.key = True
        else:
            node.value = True
    reader = _Reader(text, trie)
    reader.read()
    return reader.found


def require_ruamel() -> None:
    """Raises ``missingExtra`` when ruamel.yaml, the optional YAML parser, is not installed."""
    try:
        import ruamel.yaml  # noqa: F401
    except ImportError:
        raise CharacterError(
            "missingExtra",
            f"Reading YAML needs the optional ruamel.yaml library: {INSTALL_HINT}",
            {"extra": "yaml", "install": INSTALL_HINT},
        ) from None
