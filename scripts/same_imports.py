#!/usr/bin/env python3
"""Checks that this checkout imports every GCS file exactly as another commit does.

    python scripts/same_imports.py [--ref main] [--hostile 300] [--no-variations] [FOLDER...]

For work that must change no result (making the importer faster): every input is imported by
the package of ``--ref`` (its ``src`` taken with ``git archive``) and by this checkout's, each in
a fresh process, and the two results are compared byte for byte as JSON: the document and the
notes, or the error's code, message and details; and, for every document imported, its combat
view (``combat_stats``, plain and extended). The inputs:

* every ``*.gcs`` file below each FOLDER (default: ``../shared/gcs`` and ``tests/fixtures/gcs``;
  a folder that does not exist is left out), as text, as bytes and as the parsed mapping;
* GCS characters of our own (``tests/support/gcs_samples.py``) in every file version and grown to
  50 kB, 500 kB and 2 MB, and the files built to hurt the importer (``tests/support/gcs_built.py``);
* with ``../shared/gcs``, its files edited as users and older GCS versions do
  (``scripts/gcs_variations.py``; ``--no-variations`` leaves them out);
* ``--hostile N`` hostile files (``tests/support/gcs_strategies.py``, seeds 0 to N-1): odd values,
  numbers beyond bounds, deep nesting, cut text.

Exit status 1 when any result differs; the first differences are shown with the JSON Pointer
where the two results part.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import importlib.util
import json
import os
import pickle
import random
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
NOW = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)
SHOWN = 5
"""Differences shown in full at most."""

Inputs = list[tuple[str, Any]]


# ---------------------------------------------------------------- the inputs


def _files(folders: list[Path]) -> Inputs:
    found: Inputs = []
    for folder in folders:
        for path in sorted(folder.rglob("*.gcs")):
            raw = path.read_bytes()
            found.append((f"{path}", raw))
            text = raw.decode("utf-8", "replace")
            found.append((f"{path} (text)", text))
            with contextlib.suppress(ValueError):  # an XML file: its text and bytes are enough
                found.append((f"{path} (mapping)", json.loads(text)))
    return found


def _generated() -> Inputs:
    sys.path.insert(0, str(ROOT))
    from tests.support import gcs_built, gcs_samples

    found: Inputs = []
    for version in (2, 4, 5):
        found.append((f"gcs_samples.character(version={version})", gcs_samples.character(version=version)))
    for version in (1, 2, 4, 5):
        found.append((f"gcs_samples.minimal({version})", gcs_samples.minimal(version)))
    for size in (50_000, 500_000, 1_950_000):
        found.append((f"gcs_samples.grown({size})", gcs_samples.grown(size)[1]))
    for version in (2, 4):
        found.append(
            (f"gcs_samples.grown(50000, version={version})", gcs_samples.grown(50_000, version=version)[1])
        )
    found.append(("gcs_built.adversarial(300000)", gcs_built.adversarial(300_000)[1]))
    for name in (
        "skill_bonuses",
        "broad_criteria",
        "spell_bonuses",
        "attribute_bonuses",
        "weapon_defaults",
        "weapon_bonuses",
        "dr_bonuses",
        "techniques",
        "container_modifiers",
        "long_names",
        "placeholders",
    ):
        build = getattr(gcs_built, name)
        found.append((f"gcs_built.{name}(40)", build(40)))
        found.append((f"gcs_built.without_calc(gcs_built.{name}(40))", gcs_built.without_calc(build(40))))
    return found


def _variations() -> Inputs:
    """The shared files edited by every edit of ``scripts/gcs_variations.py`` that applies."""
    if not (SHARED / "gcs" / "check.py").exists():
        return []
    variations = _module("gcs_variations", ROOT / "scripts" / "gcs_variations.py")
    check = _module("gcs_check", SHARED / "gcs" / "check.py")
    found: Inputs = []
    for path in sorted((SHARED / "gcs").glob("*.gcs")):
        kind, data, _ = check.classify(path.read_bytes())
        if kind not in ("v1", "v2", "v4", "v5"):
            continue
        for edit, _ in variations.EDITS:
            edited = copy.deepcopy(data)
            if edit(edited):
                found.append((f"{path.name} edited by {edit.__name__}", json.dumps(edited)))
    return found


def _hostile(count: int) -> Inputs:
    if count <= 0:
        return []
    sys.path.insert(0, str(ROOT))
    from tests.support.gcs_strategies import gcs_source
    from tests.support.strategies import RandomChooser

    found: Inputs = []
    for seed in range(count):
        source = gcs_source(RandomChooser(random.Random(seed)))
        try:
            pickle.dumps(source)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
            continue  # an object only this process can hold; the suite's hostile tests cover it
        found.append((f"hostile seed {seed}", source))
    return found


def _module(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- one side's results


def _result(source: Any) -> Any:
    """What one import gives, as JSON data: the document, notes and combat view, or the error."""
    from gurps_character import CharacterError, combat_stats, import_gcs

    try:
        imported = import_gcs(source, now=NOW)
    except CharacterError as err:
        return {"error": {"code": err.code, "message": str(err), "details": err.details}}
    except Exception as err:  # a crash must be the same crash on both sides, too
        return {"crash": f"{type(err).__name__}: {err}"}
    out: dict[str, Any] = {
        "document": imported.document,
        "notes": [note.to_dict() for note in imported.notes],
    }
    try:
        stats = combat_stats(imported.document)
        out["combat"] = stats.to_dict()
        out["combatExtended"] = stats.to_dict(extended=True)
    except CharacterError as err:
        out["combat"] = {"error": {"code": err.code, "message": str(err), "details": err.details}}
    return out


def _json(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as err:
        return f"not JSON ({type(err).__name__}): {value!r}"


def worker(inputs_path: Path, output_path: Path, full: bool) -> None:
    """Imports every input of the pickle at ``inputs_path``; writes one JSON line per input (its
    name and the SHA-256 of its result's JSON, or with ``full`` the result itself)."""
    sys.path.insert(0, str(ROOT))  # hostile inputs may hold objects of the test helpers
    with inputs_path.open("rb") as stream:
        inputs: Inputs = pickle.load(stream)
    with output_path.open("w", encoding="utf-8") as out:
        for name, source in inputs:
            written = _json(_result(source))
            line = {"name": name, "result": written} if full else {"name": name, "sha256": _digest(written)}
            out.write(json.dumps(line) + "\n")


def _digest(written: str) -> str:
    return hashlib.sha256(written.encode("utf-8", "surrogatepass")).hexdigest()


# ---------------------------------------------------------------- both sides


def _export(ref: str, into: Path) -> Path:
    """The package source of ``ref`` (and the schema it reads from beside it), unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", ref, "src", "schema"],
        check=True,
        capture_output=True,
    ).stdout
    into.mkdir(parents=True, exist_ok=True)
    tar_path = into / "src.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def _run(
    source_root: Path, inputs_path: Path, output_path: Path, *, full: bool = False
) -> list[dict[str, str]]:
    """Runs :func:`worker` in a fresh process importing the package from ``source_root``."""
    environment = dict(os.environ, PYTHONPATH=str(source_root), PYTHONHASHSEED="0")
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(inputs_path), str(output_path)]
    check = [sys.executable, "-c", "import gurps_character; print(gurps_character.__file__)"]
    where = subprocess.run(check, env=environment, check=True, capture_output=True, text=True).stdout
    if not Path(where.strip()).is_relative_to(source_root):
        raise SystemExit(f"the package came from {where.strip()}, not from {source_root}")
    subprocess.run([*command, *(["--full"] if full else [])], env=environment, check=True)
    with output_path.open(encoding="utf-8") as stream:
        return [json.loads(line) for line in stream]


def _parting(before: Any, after: Any, pointer: str = "") -> Iterator[str]:
    """Where two JSON values differ, as JSON Pointers with both values (the first few)."""
    if type(before) is not type(after):
        yield f"{pointer or '/'}: {_json(before)[:200]} became {_json(after)[:200]}"
    elif isinstance(before, dict):
        if list(before) != list(after):
            yield f"{pointer or '/'}: keys {list(before)[:20]} became {list(after)[:20]}"
        for key in before:
            if key in after:
                yield from _parting(before[key], after[key], f"{pointer}/{key}")
    elif isinstance(before, list):
        if len(before) != len(after):
            yield f"{pointer or '/'}: {len(before)} items became {len(after)}"
        for index, (old, new) in enumerate(zip(before, after, strict=False)):
            yield from _parting(old, new, f"{pointer}/{index}")
    elif _json(before) != _json(after):
        yield f"{pointer or '/'}: {_json(before)[:200]} became {_json(after)[:200]}"


def _show(names: list[str], inputs: Inputs, ours: Path, theirs: Path, work: Path) -> None:
    chosen = [item for item in inputs if item[0] in set(names[:SHOWN])]
    subset = work / "differing.pickle"
    subset.write_bytes(pickle.dumps(chosen))
    before = _run(theirs, subset, work / "before-full.jsonl", full=True)
    after = _run(ours, subset, work / "after-full.jsonl", full=True)
    for old, new in zip(before, after, strict=True):
        print(f"\n{old['name']}:")
        old_value, new_value = (json.loads(side["result"]) for side in (old, new))
        for index, where in enumerate(_parting(old_value, new_value)):
            if index == 8:
                print("    ...")
                break
            print(f"    {where}")


def main(argv: list[str] | None = None) -> int:
    """The command line; see the module's docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("folders", nargs="*", type=Path, help="folders of .gcs files (searched recursively)")
    parser.add_argument("--ref", default="main", help="the commit to compare with (default main)")
    parser.add_argument("--hostile", type=int, default=300, help="hostile files (default 300)")
    parser.add_argument("--no-variations", action="store_true", help="leave the edited shared files out")
    parser.add_argument("--worker", nargs=2, type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--full", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.worker:
        inputs_path, output_path = options.worker
        worker(inputs_path, output_path, options.full)
        return 0
    folders = options.folders or [SHARED / "gcs", ROOT / "tests" / "fixtures" / "gcs"]
    inputs = _files([folder for folder in folders if folder.is_dir()]) + _generated()
    if not options.no_variations:
        inputs += _variations()
    inputs += _hostile(options.hostile)
    names = [name for name, _ in inputs]
    if len(set(names)) != len(names):
        raise SystemExit("two inputs have the same name")
    print(f"{len(inputs)} inputs; importing them with {options.ref} and with this checkout", flush=True)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        inputs_path = work / "inputs.pickle"
        inputs_path.write_bytes(pickle.dumps(inputs))
        theirs = _export(options.ref, work / "ref")
        ours = ROOT / "src"
        before = _run(theirs, inputs_path, work / "before.jsonl")
        after = _run(ours, inputs_path, work / "after.jsonl")
        differing = [
            old["name"] for old, new in zip(before, after, strict=True) if old["sha256"] != new["sha256"]
        ]
        if differing:
            _show(differing, inputs, ours, theirs, work)
    print(f"\nsame-imports: {len(inputs) - len(differing)} of {len(inputs)} inputs give the same results")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
