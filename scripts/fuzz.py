#!/usr/bin/env python3
"""Throws random and mutated input at every public function and reports what happened.

    python scripts/fuzz.py --minutes 10 [--seed 7] [--out fuzz-findings]
    python scripts/fuzz.py --replay 7:1234        # run one case again, with its traceback
    python scripts/fuzz.py --only import_gcs      # one function only (replay with --only too)
    python scripts/fuzz.py --measure              # time a document (and a GCS import) at the byte limit
    python scripts/fuzz.py --built                # GCS files built to hurt: does the time grow linearly?

Each case is generated from ``random.Random("<seed>:<case>")``, so any case can be replayed
from its two numbers. Inputs are valid characters built from the schema, the examples, both
with hostile mutations (wrong types, booleans, NaN and infinities, huge integers, Python objects,
cycles, deep nesting), mutated JSON text and bytes, random formulas and rule tables, and GCS files
for ``import_gcs`` (``tests/support/gcs_strategies.py``: every file version, plausible or random, with odd
values, keys and nesting; as mappings, text and bytes).

The classes of input each bug of issue 16 belonged to are generated on purpose: digit strings
beyond ``int()``'s limit (versions, amounts, changes, pointers, ``$ref`` tokens), points and
pools no double holds, whole numbers stored as floats, invalid documents given to functions that
read them, ``NaN`` inside a string before a bare one, formulas near the length limit, read-only
schemas whose dict changes behind them, and (once per campaign) threads meeting the library cold.

For every call the fuzzer checks the library's promises:

* it returns, or raises ``CharacterError`` (``FormulaError`` from the formula module;
  ``TypeError`` only when ``now`` is not an aware datetime) -- anything else is a finding, and
  so is a ``CharacterError`` made by the last-resort guard (its ``__cause__`` is foreign: the
  root cause needs a fix);
* results carry whole numbers as ``int``; a function that needs a valid document or pool only
  answers for one; an ``invalidJson`` position points at the offending text;
* a long formula is answered within half a second, and a schema changed behind a read-only view
  gives the answers of a fresh copy; a formula's compiled code answers what the closures used for
  large formulas answer (the formulas include the classes of issue 22: names given as numbers,
  booleans or arrays, infinities, ``length`` and filters of any token);
* it finishes within ``--timeout`` seconds;
* its arguments are unchanged afterwards;
* a returned document shares no dict or list with the input;
* for a valid input: ``parse -> serialize -> parse`` gives an equal document, and updates give
  valid documents;
* an import gives a document that is valid, claim-consistent (``verify_character``) and
  serializable;
* an export gives GCS JSON text and notes of known kinds; for a valid document exported as a new
  character, importing the file back (as written, and without its ``calc`` blocks) gives the
  document's numbers, or a ``differs`` note says why not (``tests/support/gcs_roundtrip.py``);
* the command line's text output (``check``, ``validate``, ``stats``, ``recompute`` on a file whose
  name and strings hold line breaks, escape sequences, U+2028/2029 and bidi controls) has no raw
  control character: file text can neither forge a report line nor drive the terminal.

Once per campaign (POSIX), the command line's writes face hostile conditions (issue 22): a reader
of stdout that leaves after a few bytes (the run must end with 141), a slow reader of a
non-blocking pipe (it must receive every byte), Ctrl-C at a random point of ``import --jobs``
(only whole documents may remain, no temporary file) and another program creating ``convert``'s
output while it runs (that file must never be replaced).

YAML is also built to hurt (``tests/support/yaml_strategies.py``): text holding U+0085, U+2028, U+2029
and what JSON allows in strings only, in every YAML style and as JSON text, with any line ends
(what YAML reads must not change with them), and alias bombs of long text.

``--measure`` also times ``import_gcs`` on GCS files up to the byte limit and on containers nested
as deep as the limit allows, and ``--built`` (part of ``--measure``) on the files built to hurt it
(``tests/support/gcs_built.py``, issue 22: every bonus meeting every skill, text multiplied through names
and placeholders) at two sizes, a finding when a file 4 times as large takes more than 8 times as
long. The import generator makes such files too, and every import's document must stay within 6
times its file's text (plus 200 kB).

Findings are printed, and each kind (function, exception, place) is saved once to ``--out``
with its replay command and traceback. The exit status is 1 when anything was found.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import dataclasses
import faulthandler
import functools
import inspect
import io
import json
import math
import os
import pickle
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import FrameType, MappingProxyType
from typing import Any, get_args

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import gurps_character as gc  # noqa: E402
from gurps_character import SCHEMA, CharacterError  # noqa: E402
from gurps_character import formula as gf  # noqa: E402
from gurps_character import yaml as gy  # noqa: E402
from gurps_character._frozen import thaw  # noqa: E402
from gurps_character._yaml_read import MAX_REPEATED_TEXT  # noqa: E402
from gurps_character.cli import main as cli_main  # noqa: E402
from gurps_character.formula import FormulaError  # noqa: E402
from gurps_character.formula._ast import Binary, Negate, Number  # noqa: E402
from gurps_character.formula._evaluator import _HELPERS  # noqa: E402
from gurps_character.formula._interpret import interpret  # noqa: E402
from gurps_character.formula._tables import prepare_tables  # noqa: E402
from gurps_character.formula._values import output_value  # noqa: E402
from tests.support import (  # noqa: E402
    gcs_built,
    gcs_roundtrip,
    gcs_samples,
)
from tests.support import gcs_strategies as gcs_gen  # noqa: E402
from tests.support import strategies as gen  # noqa: E402
from tests.support import yaml_strategies as yaml_gen  # noqa: E402

FORMULA_FUNCTIONS = frozenset(
    {"parse_formula", "evaluate", "recompute", "deviations", "parse_dice", "round_up", "resolve_schema_ref"}
    | {"plain_value", "Dice.roll"}
)


class _Timeout(BaseException):
    """Raised inside a call that ran out of time."""


@dataclass
class Case:
    """One call: the function, its arguments and what the fuzzer knows about them."""

    name: str
    function: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    valid_document: Any = None  # the input document when it is known to be schema-valid
    odd_now: bool = False  # `now` is not an aware datetime: TypeError is allowed
    note: str = ""
    expected_error: str | None = None  # the error code the call must raise (a bomb's refusal)


@dataclass
class Outcome:
    """What a call did."""

    kind: str  # "ok", "CharacterError:<code>", "FormulaError", ..., or "UNEXPECTED ..."
    seconds: float
    problem: str | None = None  # a broken promise
    trace: str | None = None


# ---------------------------------------------------------------- inputs

_VALID_POINTERS = ("/secondary/hp/current", "/secondary/fp/current")
_OTHER_POINTERS = (
    "/secondary/hp/value",
    "",
    "/",
    "secondary/hp/current",
    "/secondary/hp/current/",
    "/secondary/hp/current/0",
    "/secondary/~1hp/current",
    "/secondary/hp~0/current",
    "/skills/0/level",
    "/extensions/com.example.x",
)


def _document(chooser: gen.Chooser) -> tuple[Any, bool]:
    """An input document and whether it is known to be valid."""
    kind = chooser.integer(0, 19)
    if kind < 5:
        return gen.valid_document(chooser, deep=gen.pick(chooser, (0, 0, 50, 5_000, 120_000))), True
    if kind < 7:
        return gen.example(gen.pick(chooser, ("rurik", "jotun"))), True
    if kind < 16:
        base, _ = (
            _document(chooser) if kind < 10 else (gen.example(gen.pick(chooser, ("rurik", "jotun"))), True)
        )
        return gen.mutate_document(chooser, base, deep=gen.pick(chooser, (10, 3_000, 120_000))), False
    if kind < 18:
        if gen.chance(chooser, 50):
            return _issue16_document(chooser)
        return gen.hostile_value(chooser, deep=120_000), False
    return gen.json_value(chooser), False


def _text_of(chooser: gen.Chooser, document: Any) -> str | None:
    try:
        if gen.chance(chooser, 50):
            return json.dumps(
                document, indent=gen.pick(chooser, (None, 2, "\t")), ensure_ascii=gen.chance(chooser, 50)
            )
        return gc.serialize_character(document, indent=gen.pick(chooser, (0, 2)))
    except (ValueError, TypeError, RecursionError, CharacterError):
        return None


def _source(chooser: gen.Chooser) -> tuple[Any, bool]:
    """A ``parse_character`` source and whether it is a valid character."""
    kind = chooser.integer(0, 19)
    document, valid = _document(chooser)
    if kind < 6:
        if kind == 5 and gen.chance(chooser, 10):
            document = gen.valid_document(chooser)
            document["extensions"] = {"com.example.bomb": gen.shared_bomb(chooser.integer(20, 80))}
            return document, False
        return document, valid
    if kind == 6:
        depth = gen.pick(chooser, (1_000, 100_000, 999_990))
        opener, closer = ("[", "]") if gen.chance(chooser, 50) else ('{"a":', "}")
        body = opener * depth + "1" * (opener != "[") + closer * depth
        return (body if gen.chance(chooser, 50) else body.encode()), False
    if kind == 7:
        return "x" * (gc.MAX_DOCUMENT_BYTES + 1) if gen.chance(chooser, 50) else "é" * 1_000_001, False
    if kind == 8 and gen.chance(chooser, 30):  # the word in a string first, then bare
        word = gen.pick(chooser, ("NaN", "Infinity", "-Infinity", "1e400", "1" + "0" * 400))
        return '{"format": "' + word + '",\n  "formatVersion": ' + word + "}", False
    text = _text_of(chooser, document)
    if text is None:
        return document, valid
    if kind < 13:
        if gen.chance(chooser, 70):
            return text, valid
        try:
            return text.encode("utf-8"), valid
        except UnicodeEncodeError:  # lone surrogates: no longer UTF-8
            return text.encode("utf-8", "surrogatepass"), False
    return gen.mutate_text(chooser, text), False


def _long_formula(chooser: gen.Chooser) -> str:
    """A formula near the 10,000-character limit (compiling one took a second)."""
    parts: list[str] = []
    size = 0
    while True:
        part = gen.random_formula(chooser, depth=2)
        if size + len(part) + 3 > 10_000:
            return " + ".join(parts) or "1"
        parts.append(f"({part})")
        size += len(part) + 5


def _yaml_source(chooser: gen.Chooser) -> tuple[Any, Any, str | None]:
    """A ``parse_yaml_character`` source, what it must read as (the document, or the source itself
    when only its validity is known; None otherwise), and the error code it must be refused with.

    Besides mutated text, YAML built to hurt (``tests/support/yaml_strategies.py``): valid documents whose
    text holds U+0085, U+2028, U+2029 and what JSON allows in strings only, written in every YAML
    style or as JSON text, with any line ends; and small alias bombs of long text."""
    kind = chooser.integer(0, 19)
    if kind < 4:
        document = yaml_gen.with_line_break_text(
            chooser, gen.valid_document(chooser) if gen.chance(chooser, 50) else gen.example("jotun")
        )
        writer = chooser.integer(0, 2)
        if writer == 0:
            text = yaml_gen.yaml_in_styles(chooser, document)
        elif writer == 1:
            text = gc.serialize_character(document, indent=gen.pick(chooser, (0, 2)))
        else:
            text = gy.dump_yaml_character(document)
        if gen.chance(chooser, 50) and "\r" not in text:
            text = yaml_gen.with_line_ends(chooser, text)
        return text, document, None
    if kind == 4:
        bomb, repeated = yaml_gen.text_alias_bomb(chooser, MAX_REPEATED_TEXT)
        return bomb, None, "invalidYaml" if repeated > MAX_REPEATED_TEXT else None
    source, valid = _mutated_yaml_source(chooser)
    return source, (source if valid else None), None


def _mutated_yaml_source(chooser: gen.Chooser) -> tuple[Any, bool]:
    """Valid or mutated YAML (or JSON) text, and whether it is a valid character."""
    document, valid = _document(chooser)
    try:
        text: str | None = gy.dump_yaml_character(document)
    except CharacterError:
        text = _text_of(chooser, document)  # JSON is YAML too
        valid = False
    if text is None:
        return document, False  # not text at all: an argument error
    kind = chooser.integer(0, 9)
    if kind < 4:
        return (text if gen.chance(chooser, 70) else text.encode("utf-8", "surrogatepass")), valid
    for _ in range(chooser.integer(0, 3)):
        at = chooser.integer(0, len(text))
        text = text[:at] + gen.pick(chooser, gen.YAML_JUNK) + text[at:]
    return gen.mutate_text(chooser, text), False


def _hand_made_tree(chooser: gen.Chooser) -> Any:
    one = Number(1.0, "1", 0)
    size = gen.pick(chooser, (10, 1_000, 20_000, 200_000))
    if gen.chance(chooser, 50):
        return Binary(one, (("+", one),) * size, 0)
    tree: Any = one
    for _ in range(size):
        tree = Negate(tree, 0)
    return tree


def _number_argument(chooser: gen.Chooser) -> Any:
    return gen.pick(
        chooser,
        (
            0,
            1,
            7,
            chooser.integer(0, 100),
            chooser.integer(-100, 100),
            10**400,
            2**1024,
            2**63,
            1e300,
            3.0,
            2.5,
            -1,
            math.nan,
            math.inf,
            True,
            None,
            "3",
            LONG_DIGITS,
            -(10**5000),
            gen.hostile_value(chooser),
        ),
    )


LONG_DIGITS = "9" * 5000
"""Over Python's limit on the digits ``int()`` reads from text (4,300)."""


def _whole_floats(value: Any) -> Any:
    """The same JSON with every integer within doubles written as a float (``5`` as ``5.0``)."""
    if isinstance(value, dict):
        return {key: _whole_floats(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole_floats(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= 2**53:
        return float(value)
    return value


def _issue16_document(chooser: gen.Chooser) -> tuple[Any, bool]:
    """A document of one of the classes issue 16's bugs came from, and whether it is valid."""
    document = gen.valid_document(chooser) if gen.chance(chooser, 50) else gen.example("rurik")
    kind = chooser.integer(0, 5)
    if kind == 0:  # whole numbers as floats: still valid, and results must say 5, not 5.0
        return _whole_floats(document), True
    if kind == 1:  # a version no int() reads
        document["formatVersion"] = gen.pick(
            chooser,
            (
                "1." + LONG_DIGITS + ".0",
                "1.3." + LONG_DIGITS,
                LONG_DIGITS + ".0.0",
                "1.0" + LONG_DIGITS + ".1",
            ),
        )
        return document, False
    if kind == 2:  # points no double holds
        document["points"] = {"budget": gen.pick(chooser, (-(10**400), 10**400, 2**1023)), "spent": 5}
        return document, False
    if kind == 3:  # a pool the schema does not allow
        pool = document["secondary"][gen.pick(chooser, ("hp", "fp"))]
        pool[gen.pick(chooser, ("value", "current"))] = gen.pick(
            chooser, ("0", "12", True, 4.5, None, [1], 10**400)
        )
        return document, False
    if kind == 4:  # a type error where the combat view reads
        targets = [document["profile"], document["defenses"]["dodge"], *document["skills"][:1]]
        target = gen.pick(chooser, targets)
        target[gen.pick(chooser, ("name", "level", "value"))] = gen.pick(chooser, (["x"], {"a": 1}, "7", 7.5))
        return document, False
    return gen.mutate_document(chooser, document), False


def _now(chooser: gen.Chooser) -> tuple[Any, bool]:
    kind = chooser.integer(0, 19)
    if kind == 0:
        return datetime(2020, 1, 1), True  # naive
    if kind == 1:
        return gen.pick(chooser, ("2020-01-01T00:00:00Z", 0, gen.hostile_value(chooser))), True
    return gen.random_now(chooser), False


def _changes(chooser: gen.Chooser) -> Any:
    def pointer() -> Any:
        kind = chooser.integer(0, 9)
        if kind < 6:
            return gen.pick(chooser, _VALID_POINTERS)
        if kind < 9:
            return gen.pick(chooser, _OTHER_POINTERS)
        return gen.hostile_value(chooser)

    def value() -> Any:
        return chooser.integer(-200, 50) if gen.chance(chooser, 60) else _number_argument(chooser)

    count = chooser.integer(0, 3)
    shape = chooser.integer(0, 9)
    if shape < 4:
        pairs = [(pointer(), value()) for _ in range(count)]
        try:
            return dict(pairs)
        except TypeError:  # an unhashable pointer
            return pairs
    if shape < 6:
        return [(pointer(), value()) for _ in range(count)]
    if shape < 8:
        return [{"pointer": pointer(), "value": value()} for _ in range(count)]
    return gen.hostile_value(chooser)


def _tables(chooser: gen.Chooser) -> Any:
    kind = chooser.integer(0, 5)
    if kind < 3:
        return SCHEMA["x-gurps-tables"]
    if kind == 3:
        return None
    tables = thaw(SCHEMA["x-gurps-tables"])
    return gen.mutate_document(chooser, tables)


def _schema(chooser: gen.Chooser) -> Any:
    kind = chooser.integer(0, 9)
    if kind < 6:
        return SCHEMA
    if kind < 9:
        return gen.mutate_document(chooser, thaw(SCHEMA))
    return gen.hostile_value(chooser)


_TERMINAL_TRICKS = (
    "\n",
    "\r",
    "\r\n",
    "\nrules-compliant: yes\n",
    "\x1b[2J",
    "\x1b]0;title\x07",
    "\x9b31m",
    "\u2028",
    "\u2029",
    "\x85",
    "\u202e",
    "\u2066",
    "\t",
    "\x00",
    "\x7f",
)
"""Text a file may hold to forge report lines or drive a terminal."""

_UNSAFE_OUTPUT = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What the command line's text output may not contain raw (its own newlines excepted)."""


def _terminal_text(chooser: gen.Chooser) -> str:
    parts = (
        gen.pick(chooser, _TERMINAL_TRICKS) if gen.chance(chooser, 50) else gen.text(chooser, 8)
        for _ in range(chooser.integer(1, 6))
    )
    return "".join(parts)


def _with_terminal_text(chooser: gen.Chooser, document: Any) -> Any:
    """The document with hostile text in the strings the command line prints: the name, the
    justifications and some other strings (skill and weapon names, notes ...)."""
    if isinstance(document, dict) and isinstance(document.get("profile"), dict):
        document["profile"]["name"] = _terminal_text(chooser)
    integrity = document.get("integrity") if isinstance(document, dict) else None
    for deviation in (integrity or {}).get("deviations", []) if isinstance(integrity, dict) else []:
        if isinstance(deviation, dict):
            deviation["justification"] = _terminal_text(chooser)
    stack, seen = [document], set()
    while stack:
        container = stack.pop()
        if id(container) in seen:  # a mutated document may hold cycles and shared containers
            continue
        seen.add(id(container))
        keys = list(container) if isinstance(container, dict) else list(range(len(container)))
        for key in keys:
            value = container[key]
            if isinstance(value, dict | list):
                stack.append(value)
            elif isinstance(value, str) and gen.chance(chooser, 10):
                container[key] = _terminal_text(chooser)
    return document


@functools.cache
def _cli_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="fuzz-cli-"))


def cli_text(document: Any, name: str) -> str:
    """Everything ``check``, ``validate``, ``stats`` and ``recompute`` print in text mode for the
    document saved as ``name``: stdout and stderr together."""
    path = _cli_folder() / name
    path.write_text(json.dumps(document), "utf-8")
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            for command in ("check", "validate", "stats", "recompute"):
                cli_main([command, str(path)])
    finally:
        path.unlink()
    return printed.getvalue()


def _cli_case(chooser: gen.Chooser) -> Case:
    # JSON documents (the text goes into a file); hostile strings make some of them invalid
    if gen.chance(chooser, 30):
        document: Any = gen.example("jotun")  # a deviation: its justification is printed
    else:
        document = gen.valid_document(chooser)
    name = "".join(
        character
        for character in _terminal_text(chooser)[:80]
        if character not in "/\x00" and not "\ud800" <= character <= "\udfff"
    )
    return Case("cli_text", cli_text, (_with_terminal_text(chooser, document), f"{name}.json"))


_COPY_FIRST = frozenset(
    {"update_character", "apply_damage", "heal", "spend_fatigue", "recover_fatigue", "serialize_character"}
    | {"validate_character", "check_envelope", "get_pool"}
)
"""Functions that copy the document before walking it, or never walk `extensions`."""


def _import_case(chooser: gen.Chooser) -> Case:
    """``import_gcs`` on a hostile GCS file, now and then with an odd byte limit or time."""
    source = gcs_gen.gcs_source(chooser, deep=gen.pick(chooser, (10, 3_000, 3_000, 120_000)))
    kwargs: dict[str, Any] = {}
    odd = False
    if gen.chance(chooser, 10):
        kwargs["max_bytes"] = gen.pick(chooser, (0, 100, 2_000_000, -1, True, 1.5, None, 10**400, "9"))
    if gen.chance(chooser, 20):
        kwargs["now"], odd = _now(chooser)
    return Case("import_gcs", gc.import_gcs, (source,), kwargs, odd_now=odd)


def _export_case(chooser: gen.Chooser) -> Case:
    """``export_gcs`` on a document: a new GCS file for any document (valid, hostile), or play
    written back into a GCS file it was imported from, given as it was, mutated, another file or
    something else."""
    now, odd = _now(chooser) if gen.chance(chooser, 20) else (gcs_roundtrip.NOW, False)
    kwargs: dict[str, Any] = {"now": now}
    if gen.chance(chooser, 40):
        document, valid = _document(chooser)
        return Case("export_gcs", gc.export_gcs, (document,), kwargs, document if valid else None, odd)
    source = gcs_gen.gcs_source(chooser, deep=gen.pick(chooser, (10, 300)))
    try:
        document = gc.import_gcs(source, now=gcs_roundtrip.NOW).document
    except CharacterError:
        document = gc.import_gcs(gcs_samples.text_of(gcs_samples.character(units=1))).document
        source = gcs_samples.text_of(gcs_samples.character(units=1))
    if gen.chance(chooser, 60):
        with contextlib.suppress(CharacterError):  # a file's odd pools may refuse play
            document = gc.apply_damage(document, chooser.integer(0, 30), now=gcs_roundtrip.NOW)
    if gen.chance(chooser, 70):
        base: Any = source
        if isinstance(source, dict):
            try:
                base = json.dumps(source, indent="\t")
            except (ValueError, TypeError, RecursionError):  # NaN, objects or deep nesting: as parsed
                base = source
        if gen.chance(chooser, 20) and isinstance(base, str):
            base = gen.mutate_text(chooser, base)
        elif gen.chance(chooser, 10):
            base = gen.hostile_value(chooser)
        kwargs["base"] = base
    if gen.chance(chooser, 10):
        kwargs["max_bytes"] = gen.pick(chooser, (0, 100, 2_000_000, -1, True, None))
    return Case("export_gcs", gc.export_gcs, (document,), kwargs, None, odd, note="write-back")


def _check_export(case: Case, result: Any) -> str | None:
    """A GCS file that is JSON and its notes; a new character's numbers come back through the
    importer (with and without ``calc``) or are noted as differing."""
    if not isinstance(result.text, str):
        return "export_gcs gave no text"
    if case.kwargs.get("base") is None and not result.text.endswith("\n"):
        return "export_gcs wrote a file that does not end with a newline"  # a base keeps its own end
    data = json.loads(result.text.lstrip("\ufeff"))
    if not isinstance(data, dict):
        return "export_gcs gave JSON that is no object"
    kinds = set(get_args(gc.gcs.ExportNoteKind))
    if any(not isinstance(note, gc.ExportNote) or note.kind not in kinds for note in result.notes):
        return "export_gcs gave a note of no known kind"
    document = case.valid_document
    if document is None or case.kwargs.get("base") is not None:
        return None
    for source in (data, gcs_roundtrip.without_calc(data)):
        imported = gc.import_gcs(source, now=gcs_roundtrip.NOW).document
        found = gcs_roundtrip.differences(document, imported, result.notes)
        if found:
            return f"a number did not come back through GCS and no note says so: {found[0]}"[:500]
    return None


def _load_source(chooser: gen.Chooser) -> tuple[Any, bool, str]:
    """A ``load_character`` source, whether it is a valid character (as a document, or as what
    its format gives), and the format it was made in."""
    kind = chooser.integer(0, 9)
    if kind < 4:
        source, valid = _source(chooser)
        made = "json"
    elif kind < 6:
        source, expected, _ = _yaml_source(chooser)
        valid, made = expected is not None, "yaml"
    elif kind < 8:
        source, valid, made = gcs_gen.gcs_source(chooser, deep=gen.pick(chooser, (10, 3_000))), False, "gcs"
    else:
        source, valid, made = gen.hostile_value(chooser), False, "?"
    if isinstance(source, str) and "\n" not in source and source.lstrip()[:1] not in ("{", "[", "<", ""):
        source = source.encode("utf-8", "surrogatepass")  # a one-line str names a file
    if isinstance(source, str | bytes) and gen.chance(chooser, 25):  # the same content in a file
        suffix = gen.pick(chooser, (".json", ".yaml", ".gcs", ".txt", "", ".JSON"))
        path = _cli_folder() / f"load-{chooser.integer(0, 10**9)}{suffix}"
        if isinstance(source, str):
            try:
                source = source.encode("utf-8")
            except UnicodeEncodeError:  # lone surrogates: a file of them is no longer UTF-8
                source, valid = source.encode("utf-8", "surrogatepass"), False
        path.write_bytes(source)
        source = path if gen.chance(chooser, 50) else str(path)
        valid = valid and suffix.lower() in (f".{made}", ".txt", "")
    return source, valid, made


def _load_case(chooser: gen.Chooser) -> Case:
    """``load_character`` on any source: text, bytes, a mapping, a path (a file of that content, a
    folder, a missing file), in any format, with now and then an odd kind, limit or time."""
    source, valid, _ = _load_source(chooser)
    if gen.chance(chooser, 5):
        source = gen.pick(chooser, (_cli_folder(), str(_cli_folder() / "missing.json"), "hero", Path("\x00")))
        valid = False
    kwargs: dict[str, Any] = {}
    odd = False
    if gen.chance(chooser, 15):
        kwargs["kind"] = gen.pick(chooser, ("json", "yaml", "gcs", None, "xml", 3, "JSON"))
        valid = False  # a kind that is not the content's refuses it
    if gen.chance(chooser, 10):
        kwargs["max_bytes"] = gen.pick(chooser, (0, 100, 2_000_000, -1, True, 1.5, None, 10**400, "9"))
        valid = False
    if gen.chance(chooser, 10):
        kwargs["now"], odd = _now(chooser)
        valid = False  # a time outside the years 1-9999 is refused too
    return Case(
        "load_character", gc.load_character, (source,), kwargs, valid_document=valid or None, odd_now=odd
    )


def _roll(thing: Any, rng: Any) -> int:
    result: int = thing.roll(rng)
    return result


def _roll_case(chooser: gen.Chooser, name: str) -> Case:
    """``Dice.roll`` or ``WeaponDamage.roll`` of sensible and hostile dice, with a seeded, a
    missing or a hostile generator."""
    rng: Any = gen.pick(chooser, (None, random.Random(chooser.integer(0, 10**9)), random.SystemRandom()))
    if gen.chance(chooser, 10):
        rng = gen.hostile_value(chooser)
    if name == "WeaponDamage.roll":
        example = gen.example(gen.pick(chooser, ("rurik", "jotun")))
        notation = _damage_notation(chooser)
        try:
            weapon: Any = gc.resolve_damage_notation(example, notation)
        except CharacterError:
            weapon = gc.resolve_damage_notation(example, "sw+1 cut")
        return Case("WeaponDamage.roll", _roll, (weapon, rng))
    value = gen.pick(chooser, ("3d", "1d+2", "2d-7", "0d", "10000d", "10001d", "1d-1"))
    dice: Any = gf.parse_dice(value)
    if gen.chance(chooser, 20):
        dice = gf.Dice("x", _number_argument(chooser), _number_argument(chooser))
    return Case("Dice.roll", _roll, (dice, rng))


FUNCTIONS = (
    "load_character",
    "load_character",
    "WeaponDamage.roll",
    "Dice.roll",
    "import_gcs",
    "import_gcs",
    "import_gcs",
    "export_gcs",
    "export_gcs",
    "parse_character",
    "parse_character",
    "validate_character",
    "verify_character",
    "combat_stats",
    "get_updatable_fields",
    "update_character",
    "update_character",
    "get_pool",
    "apply_damage",
    "heal",
    "spend_fatigue",
    "recover_fatigue",
    "serialize_character",
    "check_envelope",
    "get_condition",
    "change_pool",
    "stale_schema",
    "parse_formula",
    "evaluate",
    "evaluate",
    "recompute",
    "deviations",
    "parse_dice",
    "round_up",
    "resolve_schema_ref",
    "plain_value",
    "parse_yaml_character",
    "dump_yaml_character",
    "cli_text",
    "resolve_hit",
    "resolve_hit",
    "apply_hit",
    "apply_hit",
    "resolve_damage_notation",
    "body_of",
    "rule_location",
    "location_role",
    "combat",
    "combat",
    "attack_skill",
    "defense",
    "character_attack_skill",
    "character_defense",
)
"""The functions fuzzed, as often as they are listed (``combat`` is one of :data:`COMBAT_FUNCTIONS`
at random)."""

COMBAT_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "success_roll": gc.success_roll,
    "can_attempt": gc.can_attempt,
    "quick_contest": gc.quick_contest,
    "regular_contest_round": gc.regular_contest_round,
    "feint_penalty": gc.feint_penalty,
    "speed_range_penalty": gc.speed_range_penalty,
    "size_modifier": gc.size_modifier,
    "location_penalty": gc.location_penalty,
    "hit_location": gc.hit_location,
    "rapid_fire_bonus": gc.rapid_fire_bonus,
    "rapid_fire_hits": gc.rapid_fire_hits,
    "hits_after_dodge": gc.hits_after_dodge,
    "dodge_score": gc.dodge_score,
    "parry_score": gc.parry_score,
    "block_score": gc.block_score,
    "attack_skill": gc.attack_skill,
    "defense": gc.defense,
}
"""The attack-and-defense functions (numbers and strings in, no document)."""


def make_case(chooser: gen.Chooser, only: str | None = None) -> Case:
    """A random call of a random public function (or of ``only``)."""
    name = only if only is not None else gen.pick(chooser, FUNCTIONS)
    if name == "combat":
        name = gen.pick(chooser, tuple(COMBAT_FUNCTIONS))
    if name in COMBAT_FUNCTIONS:
        return _combat_case(chooser, name)
    if name in CHARACTER_COMBAT:
        return _character_combat_case(chooser, name)
    if name == "import_gcs":
        return _import_case(chooser)
    if name == "export_gcs":
        return _export_case(chooser)
    if name == "load_character":
        return _load_case(chooser)
    if name in ("WeaponDamage.roll", "Dice.roll"):
        return _roll_case(chooser, name)
    if name == "parse_yaml_character":
        source, expected, error = _yaml_source(chooser)
        return Case(name, gy.parse_yaml_character, (source,), valid_document=expected, expected_error=error)
    if name == "cli_text":
        return _cli_case(chooser)
    if name == "parse_character":
        source, valid = _source(chooser)
        kwargs: dict[str, Any] = {}
        if gen.chance(chooser, 15):
            kwargs["max_bytes"] = gen.pick(
                chooser, (0, 10, 1000, 2_000_000, -1, True, 1.5, None, 10**400, "9")
            )
        return Case(name, gc.parse_character, (source,), kwargs, valid_document=source if valid else None)
    if name == "get_updatable_fields":
        return Case(name, gc.get_updatable_fields, ())
    if name in ("parse_formula", "evaluate"):
        text = gen.random_formula(chooser) if gen.chance(chooser, 90) else _long_formula(chooser)
        formula: Any = text if gen.chance(chooser, 90) else gen.hostile_value(chooser)
        if name == "parse_formula":
            return Case(name, gf.parse_formula, (formula,))
        if gen.chance(chooser, 10):
            with contextlib.suppress(FormulaError):
                formula = gf.parse_formula(text)
        elif gen.chance(chooser, 3):  # a tree made by hand: no length or nesting limit applies
            formula = _hand_made_tree(chooser)
        root, _ = _document(chooser)
        kwargs = {"tables": _tables(chooser)}
        if gen.chance(chooser, 40):
            kwargs["local"] = gen.pick(
                chooser, (root, None, gen.hostile_value(chooser), {"value": 3, "base": 1})
            )
        return Case(name, gf.evaluate, (formula, root), kwargs)
    if name in ("parse_dice", "round_up", "plain_value"):
        kind = chooser.integer(0, 3)
        if kind == 0:
            value: Any = gen.pick(
                chooser, ("3d", "1d+2", "2d-1", "0d", "99999999999999999999d+1", "d", "1d+", "\uff13d")
            )
        elif kind == 1:
            value = _number_argument(chooser)
        else:
            value = gen.hostile_value(chooser)
        function: Callable[..., Any] = {
            "parse_dice": gf.parse_dice,
            "round_up": gf.round_up,
            "plain_value": gf.plain_value,
        }[name]
        return Case(name, function, (value,))
    if name == "resolve_schema_ref":
        schema = _schema(chooser)
        node = gen.pick(
            chooser,
            (
                {"$ref": "#/$defs/dice"},
                {"$ref": "#"},
                {"$ref": "#/$defs/nothing", "x-gurps": {}},
                {"$ref": gen.text(chooser, 10)},
                {"$ref": "#/properties/attributes/properties/st", "x-gurps": {"role": "x"}},
                gen.hostile_value(chooser),
            ),
        )
        return Case(name, gf.resolve_schema_ref, (schema, node))

    if name == "stale_schema":
        return Case(name, _stale_schema, (chooser.integer(0, 10**9),))
    document, valid = _document(chooser)
    if name in _COPY_FIRST and gen.chance(chooser, 3):
        # shared lists standing for 2**60 values, where the schema does not look: refused by the
        # functions that copy the document first (the others take documents as trees)
        document = gen.valid_document(chooser)
        document["extensions"] = {"com.example.bomb": gen.shared_bomb(chooser.integer(20, 80))}
        valid = False
    known = document if valid else None
    if name in ("validate_character", "verify_character", "combat_stats", "check_envelope"):
        function = {
            "validate_character": gc.validate_character,
            "verify_character": gc.verify_character,
            "combat_stats": gc.combat_stats,
            "check_envelope": gc.check_envelope,
        }[name]
        return Case(name, function, (document,), valid_document=known)
    if name in ("recompute", "deviations"):
        schema = _schema(chooser)
        if name == "recompute":
            return Case(name, gf.recompute, (schema, document))
        results: Any = None
        if gen.chance(chooser, 40):
            try:
                results = gf.recompute(SCHEMA, document)
            except FormulaError:
                results = gen.hostile_value(chooser)
        return Case(name, gf.deviations, (schema, document, results))
    if name == "dump_yaml_character":
        if known is not None and gen.chance(chooser, 30):  # text YAML 1.1 reads otherwise
            document = known = yaml_gen.with_line_break_text(chooser, document)
        return Case(name, gy.dump_yaml_character, (document,), valid_document=known)
    if name == "serialize_character":
        kwargs = {}
        if gen.chance(chooser, 40):
            kwargs["indent"] = gen.pick(
                chooser, (0, 1, 4, 10, 11, -3, 10**100, "\t", "", "-" * 20, None, True, 2.5)
            )
        return Case(name, gc.serialize_character, (document,), kwargs, valid_document=known)
    if name == "get_pool":
        pool = gen.pick(chooser, ("hp", "fp", "hp", "fp", "HP", "", None, gen.hostile_value(chooser)))
        return Case(name, gc.get_pool, (document, pool), valid_document=known)
    if name == "get_condition":
        return Case(name, gc.get_condition, (document,), valid_document=known)
    if name in ("rule_location", "location_role"):
        asked = gen.pick(chooser, _ASKED) if gen.chance(chooser, 80) else gen.hostile_value(chooser)
        return Case(name, getattr(gc, name), (asked,))
    if name in ("resolve_hit", "body_of") and gen.chance(chooser, 50):
        document = _with_body(chooser, document)
    if name == "body_of":
        return Case(name, gc.body_of, (document,))
    if name == "resolve_hit":
        return Case(name, gc.resolve_hit, (document, *_hit_arguments(chooser)), _hit_options(chooser))
    if name == "resolve_damage_notation":
        return Case(name, gc.resolve_damage_notation, (document, _damage_notation(chooser)))
    now, odd = _now(chooser)
    if name == "change_pool":
        pool = gen.pick(chooser, ("hp", "fp", "hp", "fp", "xp"))
        kwargs = {"now": now, "spill_to_hp": gen.chance(chooser, 50)}
        return Case(name, gc.change_pool, (document, pool, _number_argument(chooser)), kwargs, known, odd)
    if name == "update_character":
        return Case(name, gc.update_character, (document, _changes(chooser)), {"now": now}, known, odd)
    if name == "apply_hit":
        if gen.chance(chooser, 50):
            document, hit = _bodied_hit(chooser)
        else:
            hit = _hit(chooser)
        if gen.chance(chooser, 40):
            hit = _forged(chooser, hit)
        return Case(name, gc.apply_hit, (document, hit), {"now": now}, odd_now=odd)
    amount = chooser.integer(0, 30) if gen.chance(chooser, 50) else _number_argument(chooser)
    function = {
        "apply_damage": gc.apply_damage,
        "heal": gc.heal,
        "spend_fatigue": gc.spend_fatigue,
        "recover_fatigue": gc.recover_fatigue,
    }[name]
    return Case(name, function, (document, amount), {"now": now}, known, odd)


_DAMAGE_TYPES: tuple[gc.DamageType, ...] = get_args(gc.DamageType)
_LOCATIONS: tuple[gc.HitLocation, ...] = get_args(gc.HitLocation)
_BODY_IDS = ("wing", "tail", "fin", "brain", "extremity", "spine", "abdomen", "chinks", "horn_1")
_ASKED: tuple[str, ...] = (*gc.LOCATION_NAMES, *_BODY_IDS, "head", "Arms", "", "arm ")
"""Locations asked for: the rule's names, the format's ids, a body's GCS ids, and near misses."""
_BODIES = ROOT / "tests" / "fixtures" / "gcs" / "bodies"
_EXTENSION = "io.github.gurps-sheet.gcs-import"


@functools.cache
def _imported_bodies() -> tuple[dict[str, Any], ...]:
    """Our own creatures of every body type, imported once (each use takes a copy)."""
    return tuple(gc.import_gcs(path.read_bytes()).document for path in sorted(_BODIES.glob("*.gcs")))


def _body_record(chooser: gen.Chooser) -> Any:
    """A body record: one an import wrote, a made-up one, or one mutated to be hostile."""
    if gen.chance(chooser, 40):
        record = json.loads(
            json.dumps(gen.pick(chooser, _imported_bodies())["extensions"][_EXTENSION]["body"])
        )
    else:
        record = {
            "name": gen.text(chooser, 12),
            "roll": "3d",
            "locations": [
                {
                    "id": gen.pick(chooser, (*_LOCATIONS, *_BODY_IDS)),
                    "name": gen.text(chooser, 8),
                    "hitPenalty": chooser.integer(-10, 0),
                    "naturalDr": chooser.integer(0, 5),
                    "dr": {
                        "all": chooser.integer(0, 12),
                        **({"crushing": chooser.integer(-3, 4)} if gen.chance(chooser, 30) else {}),
                    },
                }
                for _ in range(chooser.integer(1, 8))
            ],
        }
    if gen.chance(chooser, 30):  # hostile: any one value of the record replaced
        row = gen.pick(chooser, record["locations"]) if record["locations"] else record
        key = gen.pick(chooser, ("id", "hitPenalty", "naturalDr", "dr", "name", "rollRange"))
        row[key] = gen.hostile_value(chooser)
    if gen.chance(chooser, 5):
        return gen.hostile_value(chooser)
    return record


def _with_body(chooser: gen.Chooser, document: Any) -> Any:
    """The document with a body table in the importer's extension (a copy), when it is a mapping."""
    if not isinstance(document, dict):
        return document
    bodied = dict(document)
    extensions = bodied.get("extensions")
    bodied["extensions"] = dict(extensions) if isinstance(extensions, dict) else {}
    namespace = bodied["extensions"].get(_EXTENSION)
    bodied["extensions"][_EXTENSION] = {
        **(namespace if isinstance(namespace, dict) else {}),
        "body": _body_record(chooser),
    }
    return bodied


def _bodied_hit(chooser: gen.Chooser) -> tuple[dict[str, Any], Any]:
    """A creature of some body type and a hit resolved on it (on one of its locations)."""
    document = json.loads(json.dumps(gen.pick(chooser, _imported_bodies())))
    body = gc.body_of(document)
    assert body is not None
    location = gen.pick(chooser, body.ids)
    kind = "imp" if location in ("eye", "vitals") else gen.pick(chooser, _DAMAGE_TYPES)
    try:
        return document, gc.resolve_hit(document, chooser.integer(0, 60), kind, location=location)
    except CharacterError:
        return document, gc.resolve_hit(document, chooser.integer(0, 60), "imp", location=location)


_HIT_FIELDS = tuple(f.name for f in dataclasses.fields(gc.Hit))


def _forged(chooser: gen.Chooser, hit: Any) -> Any:
    """A Hit rebuilt by hand (issue 22 item 8): one or two fields replaced by a near value (off
    by one, negative, the other flag) or by anything at all."""
    if not isinstance(hit, gc.Hit):
        return hit
    for _ in range(chooser.integer(1, 2)):
        name = gen.pick(chooser, _HIT_FIELDS)
        current = getattr(hit, name)
        if isinstance(current, bool):
            value: Any = not current if gen.chance(chooser, 70) else gen.hostile_value(chooser)
        elif isinstance(current, int | float) and gen.chance(chooser, 70):
            near = (current + 1, current - 1, -current, -5, current * 2)
            as_float = (float(current),) if abs(current) < 2**53 else ()  # 3.0 for 3, where it fits
            value = gen.pick(chooser, near + as_float)
        elif name == "rolls" and isinstance(current, tuple) and gen.chance(chooser, 50):
            value = gen.pick(
                chooser, ((), [roll.to_dict() for roll in current], list(current), current[:1] * 2)
            )
        elif name == "location" and gen.chance(chooser, 60):
            value = gen.pick(chooser, _ASKED)
        else:
            value = gen.hostile_value(chooser)
        hit = dataclasses.replace(hit, **{name: value})
    return hit


def _hit_arguments(chooser: gen.Chooser) -> tuple[Any, Any]:
    """Basic damage and a damage type for ``resolve_hit``: mostly sensible, now and then hostile."""
    damage = chooser.integer(0, 60) if gen.chance(chooser, 70) else _number_argument(chooser)
    kind = gen.pick(chooser, _DAMAGE_TYPES) if gen.chance(chooser, 85) else gen.hostile_value(chooser)
    return damage, kind


def _hit_options(chooser: gen.Chooser) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if gen.chance(chooser, 70):
        options["location"] = (
            gen.pick(chooser, _ASKED if gen.chance(chooser, 40) else _LOCATIONS)
            if gen.chance(chooser, 85)
            else gen.hostile_value(chooser)
        )
    if gen.chance(chooser, 40):
        options["armor_divisor"] = gen.pick(
            chooser,
            (1, 2, 3, 5, 10, 100, 0.5, 0.2, 0.1, math.inf, 4, 1.5, 0.3, 0.001, 1000, *_NOT_DIVISORS),
        )
    if gen.chance(chooser, 40):
        options["dr"] = chooser.integer(0, 30) if gen.chance(chooser, 70) else _number_argument(chooser)
    if gen.chance(chooser, 20):
        options["pain_threshold"] = gen.pick(chooser, ("high", "low", "normal", None, "HIGH", 1))
    if gen.chance(chooser, 20):
        options["tight_beam"] = gen.pick(chooser, (True, False, 1, None))
    if gen.chance(chooser, 20):
        options["vulnerable_groin"] = gen.pick(chooser, (True, False, "no"))
    return options


_NOT_DIVISORS: tuple[Any, ...] = (1000.5, 0.0009, 0, -2, math.nan, True, "2", 10**400)


def _hit(chooser: gen.Chooser) -> Any:
    """A ``Hit`` resolved against an example, or something else in its place."""
    if gen.chance(chooser, 10):
        return gen.hostile_value(chooser)
    example = gen.example(gen.pick(chooser, ("rurik", "jotun")))
    try:
        return gc.resolve_hit(example, *_hit_arguments(chooser), **_hit_options(chooser))
    except CharacterError:
        return gc.resolve_hit(example, chooser.integer(0, 60), gen.pick(chooser, _DAMAGE_TYPES))


def _damage_notation(chooser: gen.Chooser) -> Any:
    notation = gen.pick(
        chooser,
        (
            "sw+1 cut",
            "thr-1 cr",
            "2d+1 pi",
            "sw+2 (2) cut",
            "1d-2 burn",
            "3d x2 cr",
            "thr imp",
            "2d (0.5) pi+",
            "1d-1 burn/point",
            "1d cr ex/2 points",
            "thr-1 cr +1d/point",
            "1d-3 +1d burn/point",
            "3d+2 ctrl",
            "2 burn",
            "2d pi ex inc (2)",
            "1d burn per 2 points",
            "1d-2(4) imp",
            "1d-2 (1.5) pi",
            "2d (0.001) cr",
            "1d aff",
            "2d spec.",
            "HT-3 aff",
        ),
    )
    if gen.chance(chooser, 10):
        return gen.hostile_value(chooser)
    return gen.mutate_text(chooser, notation) if gen.chance(chooser, 50) else notation


_COMBAT_CHOICES: dict[str, tuple[str, ...]] = {
    "maneuver": get_args(gc.AttackManeuver),
    "maneuver_of_defender": get_args(gc.DefenderManeuver),
    "kind": get_args(gc.DefenseKind),
    "parry_style": get_args(gc.ParryStyle),
    "posture": get_args(gc.Posture),
    "attack_direction": get_args(gc.AttackDirection),
    "location": (*get_args(gc.HitLocation), "arms", "eyes", "legs", "hands", "feet", "Arm", "right_leg"),
}
_COMBAT_RANGES: dict[str, tuple[int, int]] = {
    "roll": (3, 18),
    "rof": (1, 300),
    "recoil": (1, 5),
    "margin": (-12, 15),
    "hits": (0, 20),
    "enhanced": (0, 3),
    "parry_modifier": (-2, 2),
    "target_sm": (-6, 8),
    "aim_turns": (0, 4),
    "acc": (0, 5),
    "bulk": (-8, 0),
    "deceptive": (0, 3),
    "evaluate_turns": (0, 4),
    "shock": (-8, 0),
    "visibility": (-10, 0),
    "parries_so_far": (0, 4),
    "feint": (0, 5),
    "shield_db": (0, 3),
    "encumbrance_level": (0, 4),
}
_YARDS = (0, 1, 2, 2.5, 0.7, 0.1, 8, 10.5, 1760, 1e-5, 5e-324, 1e300, 10**30)


def _combat_value(chooser: gen.Chooser, name: str, default: Any) -> Any:
    """A sensible value for one argument of the combat functions, by its name."""
    if name in _COMBAT_CHOICES:
        return gen.pick(chooser, _COMBAT_CHOICES[name])
    if isinstance(default, bool):
        return gen.chance(chooser, 50)
    if name.endswith("roll") or name in ("roll_a", "roll_b"):
        return chooser.integer(3, 18)
    if name in _COMBAT_RANGES:
        return chooser.integer(*_COMBAT_RANGES[name])
    if "yards" in name or name == "basic_speed":
        if gen.chance(chooser, 50):
            return gen.pick(chooser, _YARDS)
        return chooser.integer(0, 3000) / gen.pick(chooser, (1, 10, 100, 7))
    if name in ("success", "critical", "defense"):
        return gen.chance(chooser, 50)
    return chooser.integer(-10, 30)  # skills and bases


def _combat_case(chooser: gen.Chooser, name: str) -> Case:
    """A call of one combat function: each argument mostly sensible, now and then hostile, and
    keyword arguments left out at random."""
    function = COMBAT_FUNCTIONS[name]
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    hostile = gen.chance(chooser, 30)  # else every argument is a sensible one
    for parameter in inspect.signature(function).parameters.values():
        keyword = parameter.kind is inspect.Parameter.KEYWORD_ONLY
        if keyword and gen.chance(chooser, 50):
            continue
        default = None if parameter.default is inspect.Parameter.empty else parameter.default
        if not hostile or gen.chance(chooser, 80):
            value = _combat_value(chooser, parameter.name, default)
        elif gen.chance(chooser, 50):
            value = _number_argument(chooser)
        else:
            value = gen.hostile_value(chooser, deep=50)
        if keyword:
            kwargs[parameter.name] = value
        else:
            args.append(value)
    if name == "attack_skill" and not hostile and gen.chance(chooser, 80):
        # mostly the options the attack's kind allows, so that most calls get past the checks
        others = _MELEE_ONLY if kwargs.get("ranged") is True else _RANGED_ONLY
        kwargs = {key: value for key, value in kwargs.items() if key not in others}
    return Case(name, function, tuple(args), kwargs)


CHARACTER_COMBAT: dict[str, Callable[..., Any]] = {
    "character_attack_skill": gc.character_attack_skill,
    "character_defense": gc.character_defense,
}
"""Attack and defense of a character: a document and names in, the pure functions' results out."""

_FIGHTERS = ROOT / "tests" / "fixtures" / "gcs"


@functools.cache
def _imported_fighters() -> tuple[dict[str, Any], ...]:
    """Our own GCS characters with weapons (several modes, shields, ranged ones), imported once."""
    return tuple(gc.import_gcs(path.read_bytes()).document for path in sorted(_FIGHTERS.glob("*.gcs")))


def _fighter(chooser: gen.Chooser) -> tuple[Any, bool]:
    """A character for the combat layer: an example, an import, changed where the layer reads
    (pools, load, traits, weapon texts), or any document the other functions get."""
    kind = chooser.integer(0, 9)
    if kind < 2:
        return _document(chooser)
    if kind < 5:
        document = gen.example(gen.pick(chooser, ("rurik", "jotun")))
    else:
        document = json.loads(json.dumps(gen.pick(chooser, _imported_fighters())))
    for pool in ("hp", "fp"):
        if gen.chance(chooser, 40):
            most = document["secondary"][pool]["value"]
            document["secondary"][pool]["current"] = chooser.integer(-2 * most - 1, most)
    if gen.chance(chooser, 30):
        document.setdefault("equipment", []).append({"name": "Load", "weight": chooser.integer(0, 400)})
        document.pop("possessionsTotal", None)
    if gen.chance(chooser, 30):
        name = gen.pick(chooser, ("Combat Reflexes", "combat reflexes  (x)", "Combat Reflexesque"))
        document.setdefault("traits", []).append({"name": name, "type": "advantage", "points": 15})
    for weapon in document.get("weapons", {}).get("ranged", []):
        if gen.chance(chooser, 30):
            key = gen.pick(chooser, tuple(_RANGED_TEXTS))
            weapon[key] = gen.pick(chooser, _RANGED_TEXTS[key])
    valid = gc.validate_character(document).valid
    if gen.chance(chooser, 10):
        return gen.mutate_document(chooser, document), False
    return document, valid


_RANGED_TEXTS: dict[str, tuple[Any, ...]] = {
    "accuracy": ("3+1", "Jet", "", "0", "12", " 2", "99999999999999999999"),
    "minST": ("10†", "", "7B", "-", "99999999999999999999", "3"),
    "bulk": (-3, None, 0, -10),
    "recoil": (1, None, 3),
}
"""What a ranged weapon's texts and numbers may hold (valid by the schema, odd for the layer)."""


def _skill_name(chooser: gen.Chooser, document: Any) -> Any:
    """Mostly a skill the character has (its case changed now and then), else any text or a
    hostile value."""
    skills = document.get("skills") if isinstance(document, dict) else None
    names = [
        skill["name"]
        for skill in (skills if isinstance(skills, list) else ())
        if isinstance(skill, dict) and isinstance(skill.get("name"), str)
    ]
    roll = chooser.integer(0, 9)
    if names and roll < 7:
        name: str = gen.pick(chooser, names)
        return name.casefold() if roll == 6 else name
    return gen.pick(chooser, ("Axe", "", gen.text(chooser, 10), gen.hostile_value(chooser, deep=50)))


def _weapon_name(chooser: gen.Chooser, document: Any, kinds: tuple[str, ...]) -> tuple[Any, str | None]:
    """Mostly a weapon of those ``kinds`` the character has (its name, its owner's name before a
    mode, its case changed), else none, any text, or a hostile value; and its kind, when known."""
    names: list[tuple[str, str]] = []
    weapons = document.get("weapons") if isinstance(document, dict) else None
    for kind in kinds:
        entries = weapons.get(kind) if isinstance(weapons, dict) else None
        for entry in entries if isinstance(entries, list) else ():
            if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                names.append((entry["name"], kind))
    roll = chooser.integer(0, 9)
    if names and roll < 6:
        name, kind = gen.pick(chooser, names)
        if roll < 2:
            name = name.split(" (")[0]
        return (name.upper() if roll == 5 else name), kind
    if roll < 8:
        return None, None
    odd = gen.text(chooser, 12) if gen.chance(chooser, 50) else gen.hostile_value(chooser, deep=50)
    return odd, None


def _character_combat_case(chooser: gen.Chooser, name: str) -> Case:
    """A call of the character layer: a character, a weapon (and a mode) or a skill, and options
    drawn as :func:`_combat_case` draws the pure function's (mostly those the weapon's kind
    allows), now and then one it does not take."""
    document, valid = _fighter(chooser)
    function = CHARACTER_COMBAT[name]
    attack = name == "character_attack_skill"
    pure = gc.attack_skill if attack else gc.defense
    weapon, kind = _weapon_name(chooser, document, ("melee", "ranged") if attack else ("melee",))
    hostile = gen.chance(chooser, 20)
    kwargs: dict[str, Any] = {}
    for parameter in inspect.signature(pure).parameters.values():
        if parameter.kind is not inspect.Parameter.KEYWORD_ONLY or gen.chance(chooser, 75):
            continue
        kwargs[parameter.name] = (
            gen.hostile_value(chooser, deep=50)
            if hostile and gen.chance(chooser, 30)
            else _combat_value(chooser, parameter.name, parameter.default)
        )
    if attack and not hostile:
        others = _MELEE_ONLY if kind == "ranged" or kwargs.get("ranged") is True else _RANGED_ONLY
        kwargs = {key: value for key, value in kwargs.items() if key not in others and key != "ranged"}
    if gen.chance(chooser, 5):  # a keyword the pure function does not take (or the layer fills)
        odd = ("base_skill", "reach", "kind") if attack else ("base", "reach")
        kwargs[gen.pick(chooser, odd)] = 3
    if weapon is not None and (attack or gen.chance(chooser, 60)):
        kwargs["weapon"] = weapon
    if gen.chance(chooser, 25 if "weapon" in kwargs else 3):
        kwargs["mode"] = gen.pick(chooser, ("melee", "ranged", "swing", "thrust", "Thrown", "Punch", "", 7))
    args: tuple[Any, ...] = (document,)
    if attack:
        if "weapon" not in kwargs or gen.chance(chooser, 15):
            kwargs["skill"] = _skill_name(chooser, document)
    else:
        args = (
            document,
            gen.pick(chooser, get_args(gc.DefenseKind)) if gen.chance(chooser, 95) else "shield",
        )
        if gen.chance(chooser, 30):
            kwargs["combat_reflexes"] = gen.pick(chooser, (True, False, None, True, False, 1, "yes"))
    return Case(name, function, args, kwargs, valid_document=document if valid else None)


def _check_character_combat(case: Case, result: Any) -> str | None:
    """The layer's result is the pure function's for its base and options, the base is the
    sheet's number plus the adjustments, the JSON form holds no whole float, and only a valid
    document gets an answer."""
    if case.valid_document is None and not gc.validate_character(case.args[0]).valid:
        return f"{case.name} answered for an invalid document"
    if result.base != result.sheet_value + sum(value for _, value, _ in result.adjustments):
        return f"the base {result.base} is not the sheet's {result.sheet_value} plus {result.adjustments}"
    if case.name == "character_attack_skill":
        again = gc.attack_skill(result.base, **result.options)
        if again != result.attack:
            return f"attack_skill({result.base}, **{dict(result.options)}) gives {again}, not {result.attack}"
    else:
        again_defense = gc.defense(result.kind, result.base, **result.options)
        if again_defense != result.defense:
            return f"defense gives {again_defense}, not {result.defense}"
    # (no json.dumps: as for the pure functions, an option of 10**5000 parries gives a value of as
    # many digits, which Python's str() refuses to write)
    where = _whole_float_in(result.to_dict())
    return None if where is None else f"a whole number is a float in the result, at {where}"


_RANGED_ONLY = frozenset(
    {"distance_yards", "target_speed_yards", "aim_turns", "acc", "braced", "bulk", "rof"}
)
_MELEE_ONLY = frozenset({"deceptive", "rapid_strike", "evaluate_turns", "maneuver"})


def _check_combat(case: Case, result: Any) -> str | None:
    """A combat result of the promised type; an attack or a defense the sum of its modifiers."""
    if case.name in ("attack_skill", "defense"):
        base = case.args[0] if case.name == "attack_skill" else case.args[1]
        modifiers = result.modifiers
        if any(not isinstance(value, int) or value == 0 for _, value, _ in modifiers):
            return f"{case.name} listed a modifier of 0 or a non-integer: {modifiers}"
        total = int(base) + sum(value for _, value, _ in modifiers)
        got = result.effective if case.name == "attack_skill" else result.value
        if got is None:
            return None if result.reason is not None and not modifiers else "no value without a reason"
        if got != (min(total, 9) if getattr(result, "capped", False) else total):
            return f"{case.name} gave {got}, not the base plus its modifiers ({total})"
        return _whole_float_in(result.to_dict())
    if hasattr(result, "to_dict"):
        return _whole_float_in(result.to_dict())
    if case.name == "can_attempt":
        right = isinstance(result, bool)
    elif case.name in ("regular_contest_round", "hit_location"):
        right = result is None or isinstance(result, str)
    else:
        right = isinstance(result, int) and not isinstance(result, bool)
    if not right:
        return f"{case.name} returned {gen_short(result)}"
    return None


def _stale_schema(seed: int) -> None:
    """recompute() with a read-only schema whose innermost dicts its caller changes afterwards:
    the answers must be those of a fresh copy (caches keyed on the view gave the old ones)."""
    chooser = gen.RandomChooser(random.Random(seed))
    document = gen.example(gen.pick(chooser, ("rurik", "jotun")))
    schema = thaw(SCHEMA)
    formulas = []  # every x-gurps annotation with a formula, to change behind the views
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            annotation = node.get("x-gurps")
            if isinstance(annotation, dict) and isinstance(annotation.get("formula"), str):
                formulas.append(annotation)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    views = _read_only_views(schema)
    gf.recompute(views, document)
    for annotation in formulas:
        if gen.chance(chooser, 20):
            annotation["formula"] = f"({annotation['formula']}) + {chooser.integer(1, 9)}"
    got = [item.to_dict() for item in gf.recompute(views, document)]
    expected = [item.to_dict() for item in gf.recompute(thaw(views), document)]
    if got != expected:
        raise AssertionError("recompute() answered from a stale cache")


def _read_only_views(value: Any) -> Any:
    """Read-only views over the very dicts of ``value`` (which its owner may still change)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, dict | list):
                value[key] = _read_only_views(item)
        return MappingProxyType(value)
    if isinstance(value, list):
        return tuple(_read_only_views(item) for item in value)
    return value


# ---------------------------------------------------------------- running a case


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: FrameType | None) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _allowed(case: Case, error: BaseException) -> bool:
    if isinstance(error, CharacterError):
        # the last-resort guard's catch: allowed to users, a finding here (the root needs a fix)
        caught_by_guard = error.__cause__ is not None and not isinstance(error.__cause__, CharacterError)
        return case.name not in FORMULA_FUNCTIONS and not caught_by_guard
    if isinstance(error, FormulaError):
        return case.name in FORMULA_FUNCTIONS
    return isinstance(error, TypeError) and case.odd_now


def _kind(error: BaseException) -> str:
    if isinstance(error, CharacterError):
        cause = error.__cause__
        if cause is not None and not isinstance(cause, CharacterError):
            return f"CharacterError:{error.code} caught by the guard ({type(cause).__name__})"
        return f"CharacterError:{error.code}"
    return type(error).__name__


def run_case(case: Case, timeout: float) -> Outcome:
    """Calls the function and checks its promises."""
    watched = (case.args, case.kwargs)
    before = gen.snapshot(watched)
    started = time.perf_counter()
    result: Any = None
    try:
        with _time_limit(timeout):
            result = case.function(*case.args, **case.kwargs)
    except _Timeout:
        return Outcome("UNEXPECTED timeout", time.perf_counter() - started, f"no answer within {timeout} s")
    except BaseException as error:
        seconds = time.perf_counter() - started
        if isinstance(error, KeyboardInterrupt):
            raise
        kind = _kind(error)
        if not _allowed(case, error):
            return Outcome(f"UNEXPECTED {kind}", seconds, f"{kind}: {error}"[:500], traceback.format_exc())
        outcome = Outcome(kind, seconds)
        problem = _check_error(case, error)
        if problem is not None:
            outcome.problem, outcome.kind = problem, "UNEXPECTED broken promise"
            return outcome
    else:
        outcome = Outcome("ok", time.perf_counter() - started)
    if case.expected_error is not None and outcome.kind != f"CharacterError:{case.expected_error}":
        outcome.problem = f"expected CharacterError:{case.expected_error}, got {outcome.kind}"
        outcome.kind = "UNEXPECTED broken promise"
        return outcome
    if case.name in ("evaluate", "parse_formula") and outcome.seconds > FORMULA_SECONDS:
        outcome.problem = f"a formula took {outcome.seconds:.2f} s (at most {FORMULA_SECONDS} s)"
        outcome.kind = "UNEXPECTED slow formula"
        return outcome
    if gen.snapshot(watched) != before:
        outcome.problem = "the input was modified"
        outcome.kind = f"UNEXPECTED modified input ({outcome.kind})"
        return outcome
    if outcome.kind == "ok":
        try:
            problem = _check_result(case, result)
        except Exception as error:
            problem = f"checking the result raised {_kind(error)}: {error}"[:500]
            outcome.trace = traceback.format_exc()
        if problem is not None:
            outcome.problem = problem
            outcome.kind = "UNEXPECTED broken promise"
    elif (
        case.valid_document is not None
        and case.name in ("parse_character", "parse_yaml_character", "load_character")
        and "max_bytes" not in case.kwargs
        and not _over_the_byte_limit(case.args[0])
    ):
        outcome.problem = f"a valid document was refused: {outcome.kind}"
        outcome.kind = "UNEXPECTED refused a valid document"
    return outcome


IMPORT_GROWTH = 6
"""An imported document is at most this many times its file's text, plus 200 kB (it keeps the
whole file in its extensions; issue 22 item 2: placeholders made 1 GB of a 100 kB file)."""


def _check_import(result: Any, source: Any = None) -> str | None:
    """An import's document is valid, claim-consistent, can be written and grows linearly."""
    document = result.document
    if isinstance(source, str | bytes | bytearray):
        written = len(json.dumps(document))
        if written > IMPORT_GROWTH * len(source) + 200_000:
            return f"an import wrote {written:,} characters from a file of {len(source):,}"
    validity = gc.validate_character(document)
    if not validity.valid:
        return f"an imported document is invalid: {validity.errors[0].message}"[:500]
    report = gc.verify_character(document)
    if not report.claim_consistent:
        return "an imported document's integrity block does not match the recomputation"
    try:
        gc.serialize_character(document, indent=0)
    except CharacterError as error:
        return f"an imported document cannot be written: {error.code}: {error.message}"[:500]
    try:
        gc.body_of(document)
    except CharacterError as error:
        return f"an imported document's body table cannot be read: {error.code}: {error.message}"[:500]
    return _check_imported_weapons(document)


def _check_imported_weapons(document: dict[str, Any]) -> str | None:
    """Every imported weapon mode has a record (level, parry, block: ints or None) in the same
    place, and its damage resolves or its notes say it is not dice."""
    kept = document["extensions"]["io.github.gurps-sheet.gcs-import"]
    records = kept.get("weapons", {"melee": [], "ranged": []})
    for key in ("melee", "ranged"):
        entries = document["weapons"][key]
        if len(records[key]) != len(entries):
            return f"{len(entries)} {key} weapons but {len(records[key])} records"
        for entry, record in zip(entries, records[key], strict=True):
            for part in ("level", "parry", "block"):
                if record.get(part) is not None and type(record[part]) is not int:
                    return f"a weapon record's {part} is {gen_short(record[part])}"
            line = entry["damage"][0] if key == "melee" else entry["damage"]
            try:
                gc.resolve_damage_notation(document, line["notation"])
            except CharacterError:
                if "(not dice: not rolled)" not in entry.get("notes", ""):
                    name = entry["name"]
                    return f"the damage {line['notation']!r} of {name!r} neither resolves nor says why"[:500]
    return None


def _check_loaded(result: Any) -> str | None:
    """A loaded character is valid, its report is its rule check, and its kind one of three."""
    validity = gc.validate_character(result.character)
    if not validity.valid:
        return f"a loaded character is invalid: {validity.errors[0].message}"[:500]
    if result.report != gc.verify_character(result.character):
        return "a loaded character's report is not verify_character's"
    if result.kind not in ("json", "yaml", "gcs") or (result.kind != "gcs" and result.notes):
        return f"a loaded character of kind {result.kind!r} has {len(result.notes)} notes"
    if not gen.json_equal(result.to_dict()["character"], result.character):
        return "a loaded character's JSON form is not its document"
    return None


def _check_roll(case: Case, result: Any) -> str | None:
    """A roll is a whole number between the least and the most the dice can show."""
    thing = case.args[0]
    if type(result) is not int:
        return f"a roll gave {gen_short(result)}, not an int"
    least, most = thing.dice + thing.adds, 6 * thing.dice + thing.adds
    if case.name == "Dice.roll":
        low, high = max(0, least), max(0, most)
    else:
        low = max(thing.minimum, least * thing.multiplier)
        high = max(thing.minimum, most * thing.multiplier)
    if not low <= result <= high:
        return f"{case.name} of {gen_short(thing)} gave {result}, outside {low}..{high}"
    return None


def _over_the_byte_limit(source: Any) -> bool:
    """Whether a text source is longer than the default limit: a valid document written with
    indentation around deeply nested extensions can be (``tooLarge`` is then the right answer)."""
    if isinstance(source, str):
        return len(source.encode("utf-8", "surrogatepass")) > gc.MAX_DOCUMENT_BYTES
    return isinstance(source, bytes | bytearray) and len(source) > gc.MAX_DOCUMENT_BYTES


def _returned_document(case: Case, result: Any) -> Any:
    if case.name in ("parse_character", "parse_yaml_character", "load_character"):
        return result.character
    if case.name == "import_gcs":
        return result.document
    return result


FORMULA_SECONDS = 0.5
"""The longest a formula may take: parsing and preparing one at the length limit takes tens of
milliseconds, evaluating it a few (compiling it as code took up to a second)."""

_NOT_JSON_WORDS = ("NaN", "Infinity", "-Infinity")


_LINE_ENDS_MOST = 200_000
"""The longest YAML text read again with other line ends (more ends could pass the byte limit)."""


def _yaml_outcome(text: str) -> tuple[Any, ...]:
    try:
        return ("read", gy.parse_yaml_character(text).character)
    except CharacterError as error:
        return ("refused", error.code, error.message, error.details)


def _line_ends_problem(source: Any, outcome: tuple[Any, ...]) -> str | None:
    """Whatever YAML makes of a text, it makes of the text with ``\\r\\n`` or ``\\r`` line ends: the
    same document, or the same error at the same line and column."""
    if not isinstance(source, str) or "\r" in source or "\n" not in source or len(source) > _LINE_ENDS_MOST:
        return None
    for ends in ("\r\n", "\r"):
        other = _yaml_outcome(source.replace("\n", ends))
        same = (
            gen.json_equal(other[1], outcome[1])
            if other[0] == outcome[0] == "read"
            else gen.json_equal(list(other), list(outcome))
        )
        if not same:
            shown = "a document" if other[0] == "read" else f"{other[1]}: {other[2]}"
            return f"with {ends!r} line ends the YAML reads differently: {shown}"[:500]
    return None


def _check_error(case: Case, error: BaseException) -> str | None:
    """A broken promise in an error: an invalidJson position that is not where the text is bad,
    or a YAML error that moves with the line ends."""
    if isinstance(error, CharacterError) and case.name == "parse_yaml_character":
        return _line_ends_problem(case.args[0], ("refused", error.code, error.message, error.details))
    if not (
        isinstance(error, CharacterError) and error.code == "invalidJson" and case.name == "parse_character"
    ):
        return None
    source = case.args[0]
    details = error.details
    if not isinstance(source, str) or "line" not in details:
        return None
    lines = source.split("\n")
    line, column = details["line"], details["column"]
    if not 1 <= line <= len(lines) or not 1 <= column <= len(lines[line - 1]) + 1:
        return f"invalidJson at line {line}, column {column}: outside the text"
    here = lines[line - 1][column - 1 :]
    for word in _NOT_JSON_WORDS:
        if f"): {word} is not JSON" in error.message and not here.startswith(word):
            return (
                f"invalidJson places {word} at line {line}, column {column}, where the text is {here[:12]!r}"
            )
    return None


def _whole_float_in(value: Any) -> str | None:
    """The path of a whole float in a result's JSON (results carry such numbers as ints)."""
    stack: list[tuple[Any, str]] = [(value, "")]
    seen: set[int] = set()  # a result that shares the caller's data may be cyclic
    while stack:
        item, path = stack.pop()
        if isinstance(item, float) and item.is_integer() and abs(item) <= 2**53:
            return path or "(root)"
        if isinstance(item, dict | list):
            if id(item) in seen:
                continue
            seen.add(id(item))
        if isinstance(item, dict):
            stack.extend((child, f"{path}/{key}") for key, child in item.items() if key != "document")
        elif isinstance(item, list):
            stack.extend((child, f"{path}/{index}") for index, child in enumerate(item))
    return None


def gen_short(value: Any) -> str:
    return _short(value)[:100]


_VIEW_FUNCTIONS = (
    "body_of",
    "combat_stats",
    "get_pool",
    "get_condition",
    "change_pool",
    "verify_character",
    "resolve_hit",
    "apply_hit",
    "resolve_damage_notation",
)


def _engines_problem(case: Case, result: Any) -> str | None:
    """A formula small enough to be compiled must give what the closures of a large one give
    (the two engines share the JavaScript rules: a difference is a bug in one of them)."""
    formula, root = case.args
    if not isinstance(formula, str):
        return None
    try:
        node = gf.parse_formula(formula)
        tables = prepare_tables(case.kwargs.get("tables"))
        other = output_value(interpret(node, _HELPERS)(root, case.kwargs.get("local", root), tables))
    except FormulaError as error:
        return f"the closures raised {type(error).__name__} where the compiled code gave {gen_short(result)}"
    if repr(other) != repr(result):
        return f"compiled code gave {gen_short(result)}, the closures {gen_short(other)}"
    return None


def _check_result(case: Case, result: Any) -> str | None:
    if case.name == "evaluate":
        problem = _engines_problem(case, result)
        if problem is not None:
            return problem
    if case.name == "parse_yaml_character":
        problem = _line_ends_problem(case.args[0], ("read", result.character))
        if problem is not None:
            return problem
    returned = _returned_document(case, result)
    # resolve_schema_ref and plain_value return their argument (or parts of it) by contract
    if (
        case.name not in ("resolve_schema_ref", "plain_value")
        and isinstance(returned, dict | list)
        and gen.shared_containers(returned, (case.args, case.kwargs))
    ):
        return "the result shares a dict or list with the input"
    if case.name == "import_gcs":
        return _check_import(result, case.args[0])
    if case.name == "export_gcs":
        return _check_export(case, result)
    if case.name == "load_character":
        return _check_loaded(result)
    if case.name in ("WeaponDamage.roll", "Dice.roll"):
        return _check_roll(case, result)
    if case.name == "combat_stats":
        extended = result.to_dict(extended=True)
        json.dumps(extended)  # every form of the view is JSON
        where = _whole_float_in(extended)
        if where is not None:
            return f"a whole number is a float in the extended view, at {where}"
        condition = gc.get_condition(case.args[0])
        level = next(
            index for index, row in enumerate(result.encumbrance) if row is result.current_encumbrance
        )
        now = (0 if result.overloaded else condition.move[level], condition.dodge[level])
        if (result.current_move, result.current_dodge) != now:
            return (
                f"Move and Dodge now are {result.current_move, result.current_dodge}, get_condition's {now}"
            )
    if case.name in COMBAT_FUNCTIONS:
        return _check_combat(case, result)
    if case.name in CHARACTER_COMBAT:
        return _check_character_combat(case, result)
    if case.name == "cli_text" and (raw := _UNSAFE_OUTPUT.search(result)):
        return f"the command line printed {raw.group()!r} from a file raw: {result[:300]!r}"
    if case.name in _VIEW_FUNCTIONS and result is not None:
        where = _whole_float_in(result.to_dict())
        if where is not None:
            return f"a whole number is a float in the result, at {where}"
    if case.name == "combat_stats" and not gc.validate_character(case.args[0]).valid:
        return "combat_stats answered for an invalid document"
    if case.name in ("get_pool", "get_condition", "change_pool"):
        pools = ("hp", "fp") if case.name == "get_condition" else (case.args[1],)
        secondary = case.args[0].get("secondary") if type(case.args[0]) is dict else None
        for pool in pools:
            holder = secondary.get(pool) if type(secondary) is dict else None
            if not isinstance(holder, dict):
                continue
            for key in ("value", "current"):
                item = holder.get(key, 0)
                if (
                    isinstance(item, bool)
                    or not isinstance(item, int | float)
                    or not float(item).is_integer()
                ):
                    return f"{case.name} answered for a pool whose {key} is {gen_short(item)}"
    valid = case.valid_document
    if valid is None:
        return None
    if case.name == "parse_character":
        document = result.character
        text = gc.serialize_character(document, indent=0)  # indentation could exceed the byte limit
        again = gc.parse_character(text, max_bytes=len(text.encode("utf-8", "surrogatepass"))).character
        if not gen.json_equal(again, document):
            return "parse -> serialize -> parse changed the document"
        if not isinstance(valid, str | bytes) and not gen.json_equal(document, valid):
            return "parse_character changed the document"
    if case.name == "parse_yaml_character":
        document = result.character
        if isinstance(valid, dict) and not gen.json_equal(document, valid):
            return "parse_yaml_character read a document other than the one written"
        again = gy.parse_yaml_character(gy.dump_yaml_character(document), max_bytes=10**9).character
        if not gen.json_equal(again, document):
            return "parse_yaml -> dump_yaml -> parse_yaml changed the document"
    if case.name == "dump_yaml_character" and not gen.json_equal(
        gy.parse_yaml_character(result, max_bytes=10**9).character, valid
    ):
        return "dump_yaml -> parse_yaml changed the document"
    if case.name == "validate_character" and not result.valid:
        return "a valid document was reported invalid"
    if case.name in ("update_character", "apply_damage", "heal", "spend_fatigue", "recover_fatigue"):
        report = gc.validate_character(result)
        if not report.valid:
            return f"an update of a valid document is invalid: {report.errors[0].message}"
        if not gen.json_equal(result.get("extensions"), valid.get("extensions")):
            return "an update changed the extensions"
    if case.name == "serialize_character" and not str(case.kwargs.get("indent", "")).strip():
        size = len(result.encode("utf-8", "surrogatepass"))
        if not gen.json_equal(gc.parse_character(result, max_bytes=size).character, valid):
            return "serialize -> parse changed the document"
    return None


# ---------------------------------------------------------------- the campaign


def _signature(case: Case, outcome: Outcome) -> str:
    place = ""
    if outcome.trace:
        frames = [line.strip() for line in outcome.trace.splitlines() if line.strip().startswith("File ")]
        place = frames[-1] if frames else ""
    return f"{case.name} | {outcome.kind} | {place}"


def _save(out: Path, seed: int, index: int, case: Case, outcome: Outcome, only: str | None = None) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    stem = f"{case.name}-{seed}-{index}"
    report = out / f"{stem}.txt"
    again = f" --only {only}" if only else ""
    report.write_text(
        f"function: {case.name}\noutcome: {outcome.kind}\nproblem: {outcome.problem}\n"
        f"replay: python scripts/fuzz.py --replay {seed}:{index}{again}\nseconds: {outcome.seconds:.3f}\n\n"
        f"{outcome.trace or ''}",
        encoding="utf-8",
    )
    try:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(20_000)
        try:
            data = pickle.dumps((case.name, case.args, case.kwargs))
        finally:
            sys.setrecursionlimit(limit)
        (out / f"{stem}.pickle").write_bytes(data)
    except Exception:
        pass
    return report


_COLD_START = """
import json, sys, threading
sys.setswitchinterval(1e-5)
from gurps_character import validate_character, combat_stats, verify_character, CharacterError
document = json.loads(sys.argv[1])
barrier = threading.Barrier(32)
answers = []

def work(index):
    barrier.wait()
    call = (validate_character, verify_character, combat_stats)[index % 3]
    try:
        answers.append((index % 3, json.dumps(call(document).to_dict(), sort_keys=True)))
    except CharacterError as error:
        answers.append((index % 3, json.dumps(error.to_dict(), sort_keys=True)))

threads = [threading.Thread(target=work, args=(index,)) for index in range(32)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(set(answers)))
"""


def cold_start_check(runs: int = 4) -> str | None:
    """32 threads meeting the library in a fresh interpreter must agree (a lazily built validator
    once gave some of them '(root): must be valid')."""
    document = json.dumps({"format": "gurps-character", "profile": {"name": 3}})
    for _ in range(runs):
        result = subprocess.run(
            [sys.executable, "-c", _COLD_START, document],
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        if result.returncode != 0:
            return f"the cold-start run failed: {result.stderr[-500:]}"
        if result.stdout.strip() != "3":  # one answer per function
            return f"threads from a cold start disagreed: {result.stdout.strip()} answers for 3 functions"
    return None


_COMMAND = (sys.executable, "-m", "gurps_character")


def _big_character(rng: random.Random, folder: Path) -> Path:
    """A valid character of 50 kB to 2 MB (thousands of skills): its outputs outgrow any pipe."""
    document = gen.example("rurik")
    skill = document["skills"][0]
    document["skills"] = [dict(skill, name=f"{skill['name']} {n}") for n in range(rng.randint(200, 9_000))]
    path = folder / "big.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _pipe_problem(rng: random.Random, folder: Path) -> str | None:
    """A command writing much to a hostile reader: one that leaves after a few bytes (the run must
    end with 141) or a slow one on a non-blocking pipe (it must receive everything, exit 0)."""
    _big_character(rng, folder)
    args = rng.choice(
        (
            ["update", "--now", "2026-01-01T00:00:00Z", "big.json", "/secondary/hp/current=1"],
            [
                "update",
                "--now",
                "2026-01-01T00:00:00Z",
                "-o",
                "/dev/stdout",
                "big.json",
                "/secondary/hp/current=1",
            ],
            ["recompute", "--json", "big.json"],
            ["recompute", "big.json"],
            ["check", "--json", *["big.json"] * rng.randint(1, 30)],
        )
    )
    environment = (
        dict(os.environ, PYTHONUNBUFFERED="1")
        if rng.random() < 0.5
        else {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    )
    expected = subprocess.run([*_COMMAND, *args], cwd=folder, capture_output=True, check=False, timeout=300)
    reader, writer = os.pipe()
    leaving = rng.random() < 0.5
    if not leaving:
        os.set_blocking(writer, False)
    process = subprocess.Popen(
        [*_COMMAND, *args],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        stdout=writer,
        stderr=subprocess.PIPE,
        env=environment,
    )
    os.close(writer)
    received = bytearray()
    with os.fdopen(reader, "rb", buffering=0) as stream:
        most = rng.randint(0, len(expected.stdout) - 1) if leaving and expected.stdout else -1
        while most < 0 or len(received) <= most:
            chunk = stream.read(rng.choice((1, 100, 4096, 65536)))
            if not chunk:
                break
            received += chunk
            if rng.random() < 0.3:
                time.sleep(rng.random() / 1000)
    _, err = process.communicate(timeout=300)
    what = f"{' '.join(args[:3])} ({'leaving' if leaving else 'slow, non-blocking'} reader)"
    if b"Traceback" in err:
        return f"{what}: a traceback: {err[-300:]!r}"
    if leaving and len(received) < len(expected.stdout) and process.returncode != 141:
        return f"{what}: exit {process.returncode} after the reader left at byte {len(received)}"
    if not leaving and (process.returncode, bytes(received)) != (expected.returncode, expected.stdout):
        return f"{what}: exit {process.returncode}, {len(received)} of {len(expected.stdout)} bytes"
    return None


def _interrupt_problem(rng: random.Random, folder: Path) -> str | None:
    """``import --jobs`` interrupted (Ctrl-C to the process group) after a random number of
    reported files: no temporary file may remain, and every output must be a whole document."""
    source = folder / "gcs"
    source.mkdir(exist_ok=True)
    count = rng.randint(4, 24)
    for index in range(count):
        character = gcs_samples.character(units=rng.randint(1, 60), version=rng.choice((2, 4, 5)))
        (source / f"{index:02d}.gcs").write_text(gcs_samples.text_of(character), encoding="utf-8")
    out = folder / f"out{rng.randrange(10**9)}"
    process = subprocess.Popen(
        [*_COMMAND, "import", "--jobs", str(rng.randint(2, 4)), "--out-dir", str(out), str(source)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stdout is not None
    for _ in range(rng.randint(1, count)):  # after the first report: the interpreter handles Ctrl-C
        process.stdout.readline()
    time.sleep(rng.random() / 10)
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=300)
    if b"Traceback" in err or process.returncode not in (0, 130, -signal.SIGINT):
        return f"import --jobs interrupted: exit {process.returncode}, {err[-300:]!r}"
    for path in out.rglob("*"):
        if path.is_file() and path.name.startswith("."):
            return f"import --jobs interrupted left {path.name}"
        if path.is_file():
            try:
                gc.parse_character(path.read_bytes())
            except CharacterError as error:
                return f"import --jobs interrupted left an incomplete {path.name}: {error.code}"
    return None


def _race_problem(rng: random.Random, folder: Path) -> str | None:
    """``convert`` without ``--force`` while another program creates its output at a random
    moment: that file must never be replaced."""
    target = folder / f"race{rng.randrange(10**9)}.yaml"
    process = subprocess.Popen(
        [*_COMMAND, "convert", str(gen.EXAMPLES / "rurik.json"), "-o", str(target)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(rng.random() * 0.6)
    try:
        with open(target, "x", encoding="utf-8") as theirs:
            theirs.write("another program's file\n")
        ours = True
    except FileExistsError:
        ours = False
    _, err = process.communicate(timeout=300)
    text = target.read_text(encoding="utf-8")
    if ours and text != "another program's file\n":
        return f"convert replaced a file created while it ran (exit {process.returncode})"
    if ours and process.returncode != 2:
        return f"convert reported exit {process.returncode} though its output could not be written"
    if not ours and (process.returncode != 0 or not text.startswith("format: gurps-character")):
        return f"convert: exit {process.returncode}, {err[-200:]!r}"
    return None


def command_line_writes_check(seed: int, rounds: int = 3) -> list[str]:
    """Hostile readers, interrupts and races against the command line's writes (issue 22): each
    round a reader leaving early or slow on a non-blocking pipe, an interrupted ``import --jobs``
    and a ``convert`` racing another program. POSIX only."""
    if os.name != "posix":
        return []
    rng = random.Random(f"{seed}:command-line")
    problems = []
    with tempfile.TemporaryDirectory(prefix="fuzz-writes-") as name:
        folder = Path(name)
        for _ in range(rounds):
            for check in (_pipe_problem, _interrupt_problem, _race_problem):
                problem = check(rng, folder)
                if problem is not None:
                    problems.append(problem)
    return problems


def campaign(minutes: float, seed: int, out: Path, timeout: float, only: str | None = None) -> int:
    """Runs cases until the time is up; prints the summary. Returns the number of findings."""
    cold = cold_start_check()
    print("cold start: threads agree" if cold is None else f"FOUND {cold}", flush=True)
    writes = command_line_writes_check(seed) if only in (None, "cli_text") else []
    for problem in writes:
        print(f"FOUND {problem}", flush=True)
    if only in (None, "cli_text"):
        print(
            "command line writes: whole under hostile readers, interrupts and races" * (not writes),
            flush=True,
        )
    deadline = time.monotonic() + minutes * 60
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    slowest: dict[str, tuple[float, int]] = {}
    findings: dict[str, int] = {}
    saved: dict[str, Path] = {}
    index = 0
    last_report = time.monotonic()
    while time.monotonic() < deadline:
        chooser = gen.RandomChooser(random.Random(f"{seed}:{index}"))
        case = make_case(chooser, only)
        # a call stuck in C code cannot be interrupted: show where it is stuck
        faulthandler.dump_traceback_later(timeout + 30)
        outcome = run_case(case, timeout)
        faulthandler.cancel_dump_traceback_later()
        counts[case.name][outcome.kind] += 1
        if outcome.seconds > slowest.get(case.name, (-1.0, 0))[0]:
            slowest[case.name] = (outcome.seconds, index)
        if outcome.kind.startswith("UNEXPECTED"):
            signature = _signature(case, outcome)
            findings[signature] = findings.get(signature, 0) + 1
            if signature not in saved:
                saved[signature] = _save(out, seed, index, case, outcome, only)
                print(f"FOUND case {seed}:{index}: {signature}\n    {outcome.problem}", flush=True)
        index += 1
        if time.monotonic() - last_report > 60:
            last_report = time.monotonic()
            print(f"... {index} cases, {len(findings)} kinds of finding (case {seed}:{index})", flush=True)
    _summary(index, seed, counts, slowest, findings, saved)
    return len(findings) + (cold is not None) + len(writes)


def _summary(
    total: int,
    seed: int,
    counts: dict[str, collections.Counter[str]],
    slowest: dict[str, tuple[float, int]],
    findings: dict[str, int],
    saved: dict[str, Path],
) -> None:
    print(f"\n{total} cases (seed {seed})\n")
    width = max(len(name) for name in counts) if counts else 10
    for name in sorted(counts):
        outcomes = ", ".join(f"{kind} {count}" for kind, count in counts[name].most_common())
        seconds, index = slowest[name]
        print(f"{name:<{width}}  {sum(counts[name].values()):>6}  slowest {seconds:6.3f} s (case {index})")
        print(f"{'':<{width}}          {outcomes}")
    print()
    if not findings:
        print("no unexpected outcome")
        return
    print(f"{len(findings)} kinds of unexpected outcome:")
    for signature, count in findings.items():
        print(f"  {count:>5} x {signature}\n          {saved[signature]}")


def replay(spec: str, timeout: float, only: str | None = None) -> None:
    """Runs one case again and prints everything about it."""
    seed, _, index = spec.partition(":")
    chooser = gen.RandomChooser(random.Random(f"{int(seed)}:{int(index)}"))
    case = make_case(chooser, only)
    print(f"{case.name}: {', '.join(_short(arg) for arg in case.args)} {_short(case.kwargs)}")
    outcome = run_case(case, timeout)
    print(f"outcome: {outcome.kind} in {outcome.seconds:.3f} s")
    if outcome.problem:
        print(f"problem: {outcome.problem}")
    if outcome.trace:
        print(outcome.trace)


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except RecursionError:
        text = f"<{type(value).__name__} nested too deeply to show>"
    return text if len(text) <= 300 else text[:300] + f"... ({len(text)} characters)"


# ---------------------------------------------------------------- measuring the limits


def measure() -> None:
    """Times parse and verify on documents up to the byte limit, to show linear time."""
    base = gen.example("rurik")
    base["points"]["budget"] = None
    base["points"].pop("unspent", None)
    own = base["skills"]
    skill = own[0]

    def document(count: int) -> str:
        doc = json.loads(json.dumps(base))
        extra = [dict(skill, name=f"{skill['name']} of the Northern Marches {i:05d}") for i in range(count)]
        doc["skills"] = own + extra[: count - len(own)]
        doc["points"]["breakdown"]["skills"] = sum(item["points"] for item in doc["skills"])
        doc["points"]["spent"] = sum(doc["points"]["breakdown"].values())
        return json.dumps(doc, indent=2, ensure_ascii=False)

    # the largest skill count that fits the limit
    low, high = 1, 20_000
    while low < high:
        middle = (low + high + 1) // 2
        if len(document(middle).encode()) <= gc.MAX_DOCUMENT_BYTES:
            low = middle
        else:
            high = middle - 1
    header = ("skills", "bytes", "parse s", "verify s", "validate s", "serialize s", "per MB")
    print(" ".join(f"{name:>{width}}" for name, width in zip(header, (7, 10, 8, 9, 10, 11, 7), strict=True)))
    for count in (low // 8, low // 4, low // 2, low):
        text = document(count)
        size = len(text.encode())
        parse_times, verify_times, validate_times, serialize_times = [], [], [], []
        for _ in range(5):
            started = time.perf_counter()
            parsed = gc.parse_character(text)
            parse_times.append(time.perf_counter() - started)
            started = time.perf_counter()
            gc.verify_character(parsed.character)
            verify_times.append(time.perf_counter() - started)
            started = time.perf_counter()
            gc.validate_character(parsed.character)
            validate_times.append(time.perf_counter() - started)
            started = time.perf_counter()
            gc.serialize_character(parsed.character)
            serialize_times.append(time.perf_counter() - started)
        parse_s, verify_s = min(parse_times), min(verify_times)
        print(
            f"{count:>7} {size:>10} {parse_s:>8.3f} {verify_s:>9.3f} {min(validate_times):>10.3f} "
            f"{min(serialize_times):>11.3f} {parse_s / (size / 1e6):>7.3f}"
        )
        assert parsed.report.rules_compliant, parsed.report
    print("(best of 5; parse includes validation and verification; 'per MB' is parse seconds per MB)")
    print("\nA document whose extension is an array nested as deep as the byte limit allows:")
    shell = json.dumps({**base, "extensions": {"com.example.deep": "HERE"}})
    deepest = (gc.MAX_DOCUMENT_BYTES - len(shell) + len('"HERE"')) // 2
    header = ("depth", "bytes", "parse s", "update s", "verify s", "ser. 0 s", "ser. 2 s")
    print(" ".join(f"{name:>{width}}" for name, width in zip(header, (7, 10, 8, 9, 9, 9, 9), strict=True)))
    for depth in (deepest // 8, deepest // 4, deepest // 2, deepest):
        text = shell.replace('"HERE"', "[" * depth + "]" * depth)
        times = []
        started = time.perf_counter()
        character = gc.parse_character(text).character
        for run in _deep_steps(character):
            times.append(time.perf_counter() - started)
            started = time.perf_counter()
            run()
        times.append(time.perf_counter() - started)
        columns = " ".join(f"{seconds:>9.3f}" for seconds in times[1:])
        print(f"{depth:>7} {len(text.encode()):>10} {times[0]:>8.3f} {columns}")
    print("(indented, the deep documents are over the longest text: tooLarge, found before writing)")


def _best(run: Callable[[], Any], times: int = 3) -> float:
    best = math.inf
    for _ in range(times):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def measure_gcs() -> None:
    """Times ``import_gcs`` on GCS files up to the byte limit, and on containers nested deep."""
    limit = gc.MAX_DOCUMENT_BYTES
    print("\nimport_gcs on GCS characters (tests/support/gcs_samples.py) grown towards the byte limit:")
    header = ("bytes", "skills", "json s", "import s", "ratio", "per MB")
    print(" ".join(f"{name:>{width}}" for name, width in zip(header, (10, 7, 8, 9, 6, 7), strict=True)))
    for target in (limit // 8, limit // 4, limit // 2, limit * 97 // 100):
        data, text = gcs_samples.grown(target)
        size = len(text.encode())
        loads_s = _best(functools.partial(json.loads, text))
        import_s = _best(functools.partial(gc.import_gcs, text, max_bytes=4 * limit))
        skills = len(data["skills"])
        print(
            f"{size:>10} {skills:>7} {loads_s:>8.3f} {import_s:>9.3f} {import_s / loads_s:>6.1f} "
            f"{import_s / (size / 1e6):>7.3f}"
        )
    print("(best of 3; 'ratio': import over json.loads of the same text; 'per MB': import seconds per MB)")
    print("\nTrait containers nested through 'children' as deep as the byte limit allows:")
    opening = '{"id": "T0000000000000000", "name": "deep", "children": ['
    shell = json.dumps(gcs_samples.character(units=2, version=5) | {"traits": "HERE"})
    deepest = (limit - len(shell)) // (len(opening) + 2)
    print(f"{'depth':>7} {'bytes':>10} {'import s':>9}  outcome")
    for depth in (deepest // 8, deepest // 4, deepest // 2, deepest):
        text = shell.replace('"HERE"', "[" + opening * depth + "{}" + "]}" * depth + "]")
        started = time.perf_counter()
        outcome = _try(functools.partial(gc.import_gcs, text, max_bytes=4 * limit))
        seconds = time.perf_counter() - started
        what = f"CharacterError {outcome.code}" if isinstance(outcome, CharacterError) else "imported"
        print(f"{depth:>7} {len(text.encode()):>10} {seconds:>9.3f}  {what}")
    measure_built()


BUILT_RATIO = 8.0
"""The most a file 4 times as large may take, in times the smaller one's time (linear: about 4;
quadratic: about 16). Generous: the machine is shared."""


def measure_built(small: int = 250) -> list[str]:
    """Times ``import_gcs`` on each file built to hurt (``tests/support/gcs_built.py``) of ``small`` and
    4 × ``small`` items, and on all of them at once near the byte limit; returns the builders
    whose time grew more than :data:`BUILT_RATIO` times (issue 22 item 1: a 1.96 MB file took
    540 s)."""
    print(f"\nimport_gcs on files built to hurt (tests/support/gcs_built.py), {small} and {4 * small} items:")
    print(f"{'builder':<22} {'bytes':>9} {'s':>7} {'bytes':>9} {'s':>7} {'ratio':>6}")
    slow = []
    for name, build in gcs_built.BUILDERS.items():
        times, sizes = [], []
        for n in (small, 4 * small):
            text = json.dumps(build(n))
            sizes.append(len(text))
            times.append(
                _best(functools.partial(gc.import_gcs, text, max_bytes=4 * gc.MAX_DOCUMENT_BYTES), times=2)
            )
        ratio = times[1] / max(times[0], 1e-9)
        flag = "  TOO SLOW" if ratio > BUILT_RATIO else ""
        if flag:
            slow.append(name)
        print(f"{name:<22} {sizes[0]:>9} {times[0]:>7.3f} {sizes[1]:>9} {times[1]:>7.3f} {ratio:>6.1f}{flag}")
    _, text = gcs_built.adversarial(gc.MAX_DOCUMENT_BYTES * 98 // 100)
    seconds = _best(functools.partial(gc.import_gcs, text, max_bytes=4 * gc.MAX_DOCUMENT_BYTES), times=1)
    print(f"{'all of them':<22} {len(text.encode()):>9} {seconds:>7.3f}  (near the byte limit)")
    return slow


def _deep_steps(character: Any) -> list[Callable[[], Any]]:
    return [
        lambda: gc.update_character(character, {"/secondary/hp/current": 1}),
        lambda: gc.verify_character(character),
        lambda: gc.serialize_character(character, indent=0),
        lambda: _try(lambda: gc.serialize_character(character)),
    ]


def _try(run: Callable[[], Any]) -> Any:
    try:
        return run()
    except CharacterError as error:
        return error


# ---------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=1.0, help="how long to run (default 1)")
    parser.add_argument("--seed", type=int, default=None, help="the campaign's seed (default: random)")
    parser.add_argument("--out", type=Path, default=Path("fuzz-findings"), help="where reproducers go")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a call may take (default 20)")
    parser.add_argument("--replay", metavar="SEED:CASE", help="run one case again")
    parser.add_argument("--measure", action="store_true", help="time documents up to the byte limit")
    parser.add_argument(
        "--built",
        action="store_true",
        help="time the GCS files built to hurt at two sizes (exit 1 when one grows worse than linearly)",
    )
    parser.add_argument(
        "--only",
        choices=sorted(set(FUNCTIONS) | set(COMBAT_FUNCTIONS)),
        help="fuzz one function (replay needs it again)",
    )
    options = parser.parse_args(argv)
    faulthandler.register(signal.SIGUSR1)  # kill -USR1 <pid> shows where a long run is
    if options.built:
        return 1 if measure_built() else 0
    if options.measure:
        measure()
        measure_gcs()
        return 0
    if options.replay:
        replay(options.replay, options.timeout, options.only)
        return 0
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(10**9)
    print(f"fuzzing for {options.minutes} minutes, seed {seed}", flush=True)
    found = campaign(options.minutes, seed, options.out, options.timeout, options.only)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
