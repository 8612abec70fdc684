#!/usr/bin/env python3
"""Checks that this checkout exports every document to GCS exactly as another commit does.

    python scripts/same_exports.py [--ref main] [--generated 300]

For work that must change no result (making ``export_gcs`` faster): every document is exported
as a new GCS file (at a fixed time) by the package of ``--ref`` (its ``src`` and ``schema`` taken
with ``git archive``) and by this checkout's, each in a fresh process, and the two results are
compared: the text byte for byte and the notes, or the error's code, message and details. The
documents:

* the bundled examples (``examples/*.json``, ``examples/*.yaml``);
* with ``../shared``: the reference's characters, every valid document of the conformance
  corpus, and every ``../shared/gcs`` file that imports, with its GCS extension removed (so it
  exports as a new file, not as a write-back);
* ``--generated N`` documents drawn from the bundled schema (``tests/support/strategies.py``, a fixed
  seed), and as many mutated ones, of which the valid ones are kept.

The input is never modified (checked too). Exit status 1 when any result differs.

``--any-ids`` compares the files with each TID named by its kind and its place among the file's
TIDs, for a change of how TIDs are made that must change nothing else.
"""

from __future__ import annotations

import argparse
import copy
import gzip
import hashlib
import json
import os
import pickle
import random
import re
import subprocess
import sys
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
SHOWN = 5
"""Differences shown at most."""

Inputs = list[tuple[str, Any]]

_TID = re.compile(r'"id": "([A-Za-z])[A-Za-z0-9_-]{16}"')
"""A node's TID, as the file writes it."""


def _ids_by_place(result: Any) -> Any:
    """An export's result with each TID of its file named by its kind and its place among them."""
    if result[0] != "exported":
        return result
    places: dict[str, int] = {}

    def renamed(found: re.Match[str]) -> str:
        place = places.setdefault(found.group(0), len(places))
        return f'"id": "{found.group(1)}#{place}"'

    return (result[0], _TID.sub(renamed, result[1]), *result[2:])


def _documents(generated: int) -> Inputs:
    """Every document to export, named, each once."""
    from gurps_character import CharacterError, import_gcs, parse_character
    from gurps_character.yaml import parse_yaml_character

    found: dict[str, tuple[str, Any]] = {}

    def add(name: str, document: Any) -> None:
        if not isinstance(document, dict) or not _exportable(document):
            return
        try:
            key = hashlib.sha256(pickle.dumps(document)).hexdigest()
        except (TypeError, ValueError, RecursionError, pickle.PicklingError):
            return  # valid yet no plain data (a read-only mapping inside): not for another process
        found.setdefault(key, (name, document))

    for path in sorted((ROOT / "examples").glob("*.json")):
        add(path.name, json.loads(path.read_text(encoding="utf-8")))
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        add(path.name, dict(parse_yaml_character(path.read_text(encoding="utf-8")).character))
    for path in sorted((SHARED / "reference").glob("*.json")):
        if "schema" not in path.name:
            add(f"reference/{path.name}", json.loads(path.read_text(encoding="utf-8")))
    for path in sorted((SHARED / "conformance").glob("cases*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                case = json.loads(line)
                for value in case.get("args", {}).values():
                    if isinstance(value, str) and '"gurps-character"' in value:
                        try:
                            value = dict(parse_character(value).character)
                        except CharacterError:
                            continue
                    add(case["id"], value)
    for path in sorted((SHARED / "gcs").glob("*.gcs")):
        try:
            document = copy.deepcopy(dict(import_gcs(path.read_bytes(), now=NOW).document))
        except CharacterError:
            continue
        document.pop("extensions", None)
        add(f"gcs/{path.name}", document)
    sys.path.insert(0, str(ROOT))
    from tests.support.strategies import RandomChooser, mutate_document, valid_document

    rng = random.Random(20)
    for index in range(generated):
        add(f"generated-{index}", valid_document(RandomChooser(rng), deep=rng.choice((0, 0, 0, 30))))
    for index in range(generated):
        chooser = RandomChooser(rng)
        add(f"mutated-{index}", mutate_document(chooser, valid_document(chooser), deep=50))
    return list(found.values())


def _exportable(document: Any) -> bool:
    """A valid gurps-character document of a version the export reads (a new file is made only
    of those)."""
    from gurps_character import CharacterError, validate_character
    from gurps_character.load import check_envelope

    if document.get("format") != "gurps-character":
        return False
    try:
        check_envelope(document)
        return validate_character(document).valid
    except (CharacterError, RecursionError, TypeError, ValueError):
        return False


def _worker(inputs: Path, output: Path) -> None:
    """Exports every document of ``inputs`` with the package on the path; pickles the results."""
    from gurps_character import CharacterError, export_gcs

    results: list[tuple[str, Any]] = []
    with inputs.open("rb") as handle:
        documents: Inputs = pickle.load(handle)
    for name, document in documents:
        before = pickle.dumps(document)
        try:
            exported = export_gcs(document, now=NOW)
            result: Any = ("exported", exported.text, [note.to_dict() for note in exported.notes])
        except CharacterError as err:
            result = ("refused", err.code, str(err), json.dumps(err.details, sort_keys=True, default=repr))
        if pickle.dumps(document) != before:
            result = ("modified the input",)
        results.append((name, result))
    with output.open("wb") as handle:
        pickle.dump(results, handle)


def _export_with(src: Path, inputs: Path, output: Path) -> list[tuple[str, Any]]:
    environment = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, __file__, "--worker", str(inputs), str(output)]
    subprocess.run(command, env=environment, check=True)
    with output.open("rb") as handle:
        results: list[tuple[str, Any]] = pickle.load(handle)
    return results


def _checkout(ref: str, folder: Path) -> Path:
    """``src`` and ``schema`` of ``ref``, unpacked into ``folder``; the package's path."""
    archive = folder / "ref.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), ref, "src", "schema"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return folder / "src"


def main(argv: list[str] | None = None) -> int:
    """The command line; see the module's docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--ref", default="main", help="the commit to compare with (default main)")
    parser.add_argument("--generated", type=int, default=300, help="documents drawn from the schema")
    parser.add_argument(
        "--any-ids", action="store_true", help="compare TIDs by their kind and place only (not their text)"
    )
    parser.add_argument("--worker", nargs=2, type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.worker:
        _worker(*options.worker)
        return 0
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        inputs = folder / "inputs.pickle"
        with inputs.open("wb") as handle:
            pickle.dump(_documents(options.generated), handle)
        theirs = _export_with(_checkout(options.ref, folder), inputs, folder / "theirs.pickle")
        ours = _export_with(ROOT / "src", inputs, folder / "ours.pickle")
    if options.any_ids:
        ours = [(name, _ids_by_place(result)) for name, result in ours]
        theirs = [(name, _ids_by_place(result)) for name, result in theirs]
    differing = [name for (name, mine), (_, other) in zip(ours, theirs, strict=True) if mine != other]
    exported = sum(result[0] == "exported" for _, result in ours)
    print(f"{len(ours)} documents ({exported} exported): {len(differing)} differ from {options.ref}.")
    for name in differing[:SHOWN]:
        print(f"  {name}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
