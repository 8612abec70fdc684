"""validate_character against the reference library's answers in the shared conformance corpus.

Two kinds of cases carry validation reports: ``validate`` cases, and ``parse`` cases that fail with a
``schema`` error (whose details hold the same errors). Errors are compared as a multiset, as the
corpus checker compares them, and the messages must be identical too. The corpus files are the
project's copies in ``tests/conformance/`` (see its README).
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest

from gurps_character._json import loads_with_infinities
from gurps_character.validate import validate_character
from tests.support.paths import TESTS

CORPUS = sorted((TESTS / "conformance").glob("cases*.jsonl.gz"))


@dataclass(frozen=True)
class Unparsed:
    """A case's document as the JSON text it was given in, read when its test runs: some are
    megabytes, and every worker of a parallel run collects every case."""

    text: str


def _cases() -> list[tuple[str, Any, dict[str, Any]]]:
    """(id, document, expected {valid, errors}) for every case with a validation report."""
    found = []
    for path in CORPUS:
        with gzip.open(path, "rt", encoding="utf-8", errors="surrogatepass") as lines:
            found.extend(_validation_cases(lines))
    return found


def _validation_cases(lines: Iterable[str]) -> list[tuple[str, Any, dict[str, Any]]]:
    found = []
    for line in lines:
        if not line.strip():
            continue
        case = json.loads(line)
        args, expect = case["args"], case["expect"]
        if case["op"] == "validate" and "value" in expect:
            found.append((case["id"], args["document"], expect["value"]))
        elif case["op"] == "parse" and expect.get("error", {}).get("code") == "schema":
            document = Unparsed(args["text"]) if "text" in args else args["object"]
            found.append((case["id"], document, {"valid": False, **expect["error"]["details"]}))
    return found


CASES = _cases()


def _key(error: dict[str, Any]) -> str:
    fields = {name: error[name] for name in ("pointer", "keyword", "params", "propertyName") if name in error}
    return json.dumps(fields, sort_keys=True)


@pytest.mark.parametrize(
    ("document", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_matches_the_reference(document: Any, expected: dict[str, Any]) -> None:
    if isinstance(document, Unparsed):
        document = loads_with_infinities(document.text)
    got = validate_character(document).to_dict()
    assert got["valid"] is expected["valid"]
    assert Counter(map(_key, got["errors"])) == Counter(map(_key, expected["errors"]))
    assert Counter(e["message"] for e in got["errors"]) == Counter(e["message"] for e in expected["errors"])


def test_the_corpus_has_validation_cases() -> None:
    assert len(CORPUS) == 2
    assert len(CASES) >= 50
