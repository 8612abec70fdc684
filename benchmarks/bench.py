"""How fast the library is, measured against the cost of reading the same JSON.

For each document — the two examples and characters grown to 50, 500 and 5,000 skills — every
operation is timed on the same text in the same process, interleaved with ``json.loads`` of that
text, and reported as the median time per call and as a ratio to ``json.loads``. Ratios travel
between machines far better than times do.

Usage::

    python benchmarks/bench.py            # the full run, a Markdown table
    python benchmarks/bench.py --quick    # a short run (a few seconds)
    python benchmarks/bench.py --json     # the same numbers as JSON
    python benchmarks/bench.py --sizes 50,500   # other generated sizes ('' for the examples only)
    python benchmarks/bench.py --gc       # with the garbage collector running, as in a real process
    python benchmarks/bench.py --gcs-sizes ''   # no generated GCS files (only ../shared/gcs, if any)
    python benchmarks/bench.py --built-size 0   # no GCS file built to hurt the importer
    python benchmarks/bench.py --hurt-base 0    # no weapons x skills built to hurt (default 75)

The generated characters are the example Rurik with extra, valid skills whose level and cost,
and every total that depends on them (the skill points, points spent, the budget and unspent
points), are set to what the library's own recomputation gives, so each one is schema-valid and
rules-compliant: the benchmark times the documents engines actually handle.

Exporting (``export_gcs``) a document as a new GCS file is timed with the other operations, and
writing play back into a GCS file (``export_gcs`` with ``base``) with the imports below (goal: at
most 3x ``json.loads`` of a typical 50-100 kB file).

Importing GCS files: ``import_gcs`` is timed the same way against ``json.loads`` of the same text,
on GCS characters of our own (``tests/support/gcs_samples.py``) grown to about 50 kB, 500 kB and 2 MB (to
show that the cost grows linearly), and, when ``../shared/gcs`` is present, on each of GCS's own
files there (the median and worst ratio over all of them, and the median over the typical
50-100 kB ones). The goal: at most 10x ``json.loads`` on a typical 50-100 kB file. One more row
imports a file of about 2 MB built to hurt the importer (``tests/support/gcs_built.py``: thousands of
bonuses meeting thousands of skills, spells and weapons, text multiplied through names and
placeholders), whose goal is at most 150x (a quadratic import took 540 s on such a file).

Finding weapons' skills: characters built with many weapons and many skills (``tests/support/gcs_built.py``
``weapons_and_skills``: no weapon named as a skill, most naming theirs deep in long notes), at 1,
4 and 16 times ``--hurt-base`` of each (75: about 57 kB of GCS file, 16 times that about
900 kB). ``import_gcs`` of the GCS file, and ``combat_stats`` (every weapon's skill and level)
and ``export_gcs`` of the document typed from its import, are timed at each size; linear work
keeps the cost per weapon at 16 times the size within 1.5 times the cost at 1 (finding each
weapon's skill by asking every skill took 14 s in ``combat_stats`` at 800 of each).

Timing: each sample runs an operation enough times to take about ``--sample`` seconds with the
garbage collector paused (as :mod:`timeit` does; ``--gc`` keeps it running); a round takes one
sample of every operation of a document, and the medians over all rounds are reported. The noise
is the interquartile range of the per-call times over their median.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gurps_character import (
    MAX_DOCUMENT_BYTES,
    SCHEMA,
    CharacterError,
    Fighter,
    apply_damage,
    combat_stats,
    export_gcs,
    import_gcs,
    parse_character,
    serialize_character,
    update_character,
    validate_character,
    verify_character,
)
from gurps_character.formula import recompute
from gurps_character.yaml import dump_yaml_character, parse_yaml_character

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
SHARED_GCS = ROOT.parent / "shared" / "gcs"
NOW = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)

sys.path.insert(0, str(ROOT))
from tests.support import (  # noqa: E402
    gcs_built,
    gcs_samples,
)

OPERATIONS = (
    "json.loads",
    "parse_character",
    "validate_character",
    "verify_character",
    "combat_stats",
    "apply_damage",
    "update_character",
    "serialize_character",
    "export_gcs",
    "Fighter.from_character",
    "fight exchange",
    "parse_yaml_character",
    "dump_yaml_character",
)
"""What is timed, in table order; ``json.loads`` is the yardstick. The YAML functions (issue 14)
have no goal: reading is ruamel.yaml's pure-Python parser, there to show what YAML costs."""

TARGETS: dict[str, float] = {
    "parse_character": 10.0,
    "validate_character": 4.0,
    "verify_character": 5.0,
    "combat_stats": 2.5,  # the schema check first (issue 16): the fast check plus the view
    "apply_damage": 2.0,
    "update_character": 2.0,
    "serialize_character": 6.0,
    # a new GCS file (issue 20): about three times the text of the document, written by one generic
    # writer since issue 31 (a call made once per save: the simplest correct writer wins)
    "export_gcs": 20.0,
    # issue 30: once a fighter is built, one attack, the best defense (failed), the hit resolved
    # and applied with the state updated; HP changes through change_pool's arithmetic, written
    # by path copying (only the objects on the way to the pool and meta)
    "fight exchange": 2.0,
}
"""The goals, as the highest ratio to ``json.loads`` on the examples."""

IMPORT_TARGET = 10.0
"""The goal for ``import_gcs`` over ``json.loads`` of the same text, on a typical 50-100 kB file."""

WRITE_BACK_TARGET = 3.0
"""The goal for ``export_gcs`` writing play back into a typical 50-100 kB GCS file (``base``), over
``json.loads`` of that file."""

GCS_SIZES = (50_000, 500_000, 1_950_000)
"""The generated GCS files, in bytes (the largest just under the 2,000,000-byte limit)."""

TYPICAL_BYTES = (50_000, 100_000)
"""What a typical GCS character file weighs."""

IMPORT_LIMIT = 4 * MAX_DOCUMENT_BYTES
"""The documents' limit the imports here are given: a GCS file near the 2,000,000-byte limit
makes a document over it, which ``import_gcs`` refuses by default (it would not be read back);
the rows measure the import's cost per byte all the same."""

BUILT_BYTES = 1_950_000
"""The file built to hurt the importer (``tests/support/gcs_built.py``: every class of issue 22 item 1
at once), in bytes."""

BUILT_TARGET = 150.0
"""The goal for ``import_gcs`` over ``json.loads`` on that file: linear work, spending at most
the importer's budget of comparisons (a quadratic import took 540 s on 1.96 MB, about
27,000 times ``json.loads``)."""

LINEARITY_TARGET = 1.5
"""The goal for cost per skill at the largest size over cost per skill at the smallest."""

HURT_BASE = 75
"""Weapons and skills of the smallest character built with many of each."""

HURT_SCALES = (1, 4, 16)
"""The sizes of the characters built with many weapons and skills, in :data:`HURT_BASE` units."""

HURT_OPERATIONS = ("import_gcs", "combat_stats", "export_gcs")
"""What is timed on them (see the module documentation)."""

GROWN = "rurik + "
"""The names of the generated characters start with this."""


@dataclass(frozen=True)
class Document:
    """A benchmark subject: its name, its JSON text and its number of skills."""

    name: str
    text: str
    skills: int


# ---------------------------------------------------------------- documents


def _set(document: dict[str, Any], pointer: str, value: Any) -> None:
    *path, last = pointer[1:].split("/")
    target: Any = document
    for token in path:
        target = target[int(token)] if isinstance(target, list) else target[token]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value


def _plain(value: Any) -> Any:
    to_dict = getattr(value, "to_dict", None)
    return to_dict() if callable(to_dict) else value


def _settle(document: dict[str, Any]) -> None:
    """Sets every derived value and every unpaid override to what its formula gives, until nothing
    changes (totals depend on other totals)."""
    for _ in range(20):
        changed = False
        for result in recompute(SCHEMA, document):
            if result.role == "overridable" and result.override == "paid":
                continue
            computed = _plain(result.computed)
            if computed != result.stored:
                _set(document, result.pointer, computed)
                changed = True
        if not changed:
            return
    raise RuntimeError("the generated document does not settle")


_ATTRIBUTES = ("st", "dx", "iq", "ht", "will", "per")
_DIFFICULTIES = (("E", -1), ("A", 0), ("H", 1), ("VH", 2))


def grow(base: Mapping[str, Any], skills: int) -> dict[str, Any]:
    """``base`` with ``skills`` skills in all, every total recomputed; valid and rules-compliant."""
    document: dict[str, Any] = json.loads(json.dumps(base))
    points = document["points"]
    unspent = points["budget"] - points["spent"]
    listed: list[dict[str, Any]] = document["skills"][:skills]
    for index in range(len(listed), skills):
        difficulty, offset = _DIFFICULTIES[index % len(_DIFFICULTIES)]
        listed.append(
            {
                "name": f"Generated Skill {index + 1}",
                "attribute": _ATTRIBUTES[index % len(_ATTRIBUTES)],
                "difficulty": difficulty,
                # a normalized level from -1 to 2: every one is a level that can be bought
                "relativeLevel": (index // len(_DIFFICULTIES)) % 4 - 1 - offset,
                "level": 0,
                "points": 1,
            }
        )
    document["skills"] = listed
    _settle(document)
    points["budget"] = points["spent"] + unspent  # the campaign grew with the character
    _settle(document)
    return document


def documents(sizes: Sequence[int]) -> list[Document]:
    """The two examples as they are on disk, then Rurik grown to each size."""
    found = []
    for name in ("rurik", "jotun"):
        text = (EXAMPLES / f"{name}.json").read_text(encoding="utf-8")
        found.append(Document(name, text, len(json.loads(text)["skills"])))
    rurik = json.loads(found[0].text)
    for size in sizes:
        grown = grow(rurik, size)
        found.append(Document(f"{GROWN}{size} skills", serialize_character(grown), size))
    for subject in found:
        _check(subject, compliant=subject.name != "jotun")
    return found


def _check(subject: Document, *, compliant: bool) -> None:
    """Every subject must be what engines handle: valid, honest about its rules, and the generated
    ones compliant (Jötun lists a deviation on purpose)."""
    report = parse_character(subject.text).report  # raises when invalid
    if not report.claim_consistent or (compliant and not report.rules_compliant):
        raise RuntimeError(f"{subject.name} does not verify: {report.to_dict()}")


# ---------------------------------------------------------------- timing


def _exchange(document: Mapping[str, Any]) -> Callable[[], object]:
    """One full exchange between two fighters built once from the document: an attack with its
    first melee weapon (roll 10), the defender's best defense (roll 16, failed), the hit (8
    basic damage of the weapon's type) resolved and applied, both states updated."""
    attacker = Fighter.from_character(document, name="attacker").start_turn().fighter
    attacker = attacker.choose("attack").fighter
    defender = Fighter.from_character(document)
    weapon = combat_stats(document).weapons.melee[0].name

    def exchange() -> object:
        attack = attacker.attack(weapon=weapon, roll=10).attack
        assert attack is not None
        defended = defender.defend(attack, roll=16)
        return defended.fighter.take_hit(8, attack=attack, now=NOW)

    return exchange


def operations(subject: Document) -> dict[str, Callable[[], object]]:
    """Each operation as a call without arguments, on a document already read from the text."""
    text = subject.text
    document = json.loads(text)
    hp = document["secondary"]["hp"]["value"]
    loads = json.loads
    yaml_text = dump_yaml_character(document)
    return {
        "json.loads": lambda: loads(text),
        "parse_character": lambda: parse_character(text),
        "validate_character": lambda: validate_character(document),
        "verify_character": lambda: verify_character(document),
        "combat_stats": lambda: combat_stats(document),
        "apply_damage": lambda: apply_damage(document, 3, now=NOW),
        "update_character": lambda: update_character(document, {"/secondary/hp/current": hp - 1}, now=NOW),
        "serialize_character": lambda: serialize_character(document),
        "export_gcs": lambda: export_gcs(document, now=NOW),
        "Fighter.from_character": lambda: Fighter.from_character(document),
        "fight exchange": _exchange(document),
        "parse_yaml_character": lambda: parse_yaml_character(yaml_text),
        "dump_yaml_character": lambda: dump_yaml_character(document),
    }


def _loops(call: Callable[[], object], sample: float) -> int:
    """How many calls take about ``sample`` seconds."""
    loops = 1
    while True:
        started = time.perf_counter()
        for _ in range(loops):
            call()
        elapsed = time.perf_counter() - started
        if elapsed >= sample / 4 or loops >= 1 << 20:
            return max(1, round(loops * sample / max(elapsed, 1e-9)))
        loops *= 4


def _sample(call: Callable[[], object], loops: int) -> float:
    started = time.perf_counter()
    for _ in range(loops):
        call()
    return (time.perf_counter() - started) / loops


def measure(
    subject: Document, rounds: int, sample: float, *, collect: bool = False
) -> dict[str, list[float]]:
    """Per-call times of every operation, one sample per operation per round, interleaved.

    The garbage collector is paused during the samples (as :mod:`timeit` does) unless ``collect``.
    """
    return measure_calls(operations(subject), rounds, sample, collect=collect)


def measure_calls(
    calls: Mapping[str, Callable[[], object]], rounds: int, sample: float, *, collect: bool = False
) -> dict[str, list[float]]:
    """Per-call times of ``calls``, one sample of each per round, interleaved (see :func:`measure`)."""
    for call in calls.values():  # warm up: caches built once per process, code paths hot
        call()
    loops = {name: _loops(call, sample) for name, call in calls.items()}
    times: dict[str, list[float]] = {name: [] for name in calls}
    enabled = gc.isenabled()
    try:
        for _ in range(rounds):
            gc.collect()
            if not collect:
                gc.disable()
            for name, call in calls.items():
                times[name].append(_sample(call, loops[name]))
            if enabled:
                gc.enable()
    finally:
        if enabled:
            gc.enable()
    return times


# ---------------------------------------------------------------- results


def _quartiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    low, _, high = statistics.quantiles(values, n=4)
    return low, high


def summarize(subject: Document, times: dict[str, list[float]]) -> dict[str, Any]:
    """Medians, ratios to ``json.loads`` and the spread of one document's times."""
    base = statistics.median(times["json.loads"])
    results: dict[str, Any] = {}
    for name, values in times.items():
        median = statistics.median(values)
        low, high = _quartiles(values)
        results[name] = {
            "median_s": median,
            "ratio": median / base,
            "spread": (high - low) / median,
            "per_skill_s": median / subject.skills if subject.skills else None,
        }
    return {
        "name": subject.name,
        "skills": subject.skills,
        "bytes": len(subject.text.encode("utf-8")),
        "operations": results,
    }


def _generated(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted((row for row in rows if row["name"].startswith(GROWN)), key=lambda row: row["skills"])


def _added_skill(low: dict[str, Any], high: dict[str, Any], name: str) -> float:
    """The cost of one more skill between two generated sizes."""
    spent = high["operations"][name]["median_s"] - low["operations"][name]["median_s"]
    return float(spent / (high["skills"] - low["skills"]))


def linearity(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """How each operation grows with the number of skills.

    ``per_skill``: the cost per skill at the largest generated size over the cost per skill at
    the smallest (the goal: at most 1.5). ``marginal``: the cost of each added skill between the
    two largest sizes over that between the two smallest (1 when the growth is linear; the fixed
    cost of the rest of the document does not hide a superlinear part in this one).
    """
    generated = _generated(rows)
    if len(generated) < 2:
        return {}
    small, large = generated[0], generated[-1]
    growth: dict[str, dict[str, float]] = {}
    for name in OPERATIONS:
        entry = {
            "per_skill": large["operations"][name]["per_skill_s"] / small["operations"][name]["per_skill_s"]
        }
        if len(generated) >= 3:
            early = _added_skill(generated[0], generated[1], name)
            late = _added_skill(generated[-2], generated[-1], name)
            entry["marginal"] = late / early if early > 0 else float("nan")
        growth[name] = entry
    return growth


def targets(rows: list[dict[str, Any]], growth: dict[str, dict[str, float]]) -> dict[str, dict[str, Any]]:
    """Each goal, the worst value measured, and whether it is met."""
    examples = [row for row in rows if not row["name"].startswith(GROWN)]
    verdicts: dict[str, dict[str, Any]] = {}
    for name, goal in TARGETS.items():
        worst = max(row["operations"][name]["ratio"] for row in examples)
        verdicts[name] = {"target": goal, "measured": worst, "met": worst <= goal}
    for name, value in growth.items():
        verdicts[f"{name}, cost per skill"] = {
            "target": LINEARITY_TARGET,
            "measured": value["per_skill"],
            "met": value["per_skill"] <= LINEARITY_TARGET,
        }
    return verdicts


def _time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def markdown(report: dict[str, Any]) -> str:
    """The results as Markdown: times and ratios, growth with the number of skills, the goals."""
    rows = report["documents"]
    header = ["operation", *(f"{row['name']} ({row['bytes'] / 1000:.0f} kB)" for row in rows)]
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * len(rows)]
    for name in OPERATIONS:
        cells = [f"`{name}`"]
        for row in rows:
            result = row["operations"][name]
            ratio = "" if name == "json.loads" else f" ({result['ratio']:.2f}×)"
            cells.append(f"{_time(result['median_s'])}{ratio}")
        lines.append("| " + " | ".join(cells) + " |")
    spreads = [result["spread"] for row in rows for result in row["operations"].values()]
    lines += [
        "",
        f"Medians of {report['rounds']} interleaved rounds, the garbage collector "
        f"{'running' if report['garbage_collection'] else 'paused'}; in brackets, the ratio to `json.loads` "
        f"of the same text in the same round. Noise (interquartile range over the median): "
        f"{statistics.median(spreads):.0%} typically, {max(spreads):.0%} at worst.",
    ]
    growth = report["linearity"]
    if growth:
        generated = _generated(rows)
        first, last = generated[0]["skills"], generated[-1]["skills"]
        marginal = all("marginal" in value for value in growth.values())
        lines += ["", f"| growth with skills | cost per skill, {last} over {first} |"]
        lines[-1] += " cost of an added skill, large over small |" if marginal else ""
        lines.append("|---|---:|" + ("---:|" if marginal else ""))
        for name in OPERATIONS:
            cells = [f"`{name}`", f"{growth[name]['per_skill']:.2f}×"]
            if marginal:
                cells.append(f"{growth[name]['marginal']:.2f}×")
            lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "| goal | target | measured | met |", "|---|---:|---:|---|"]
    for name, verdict in report["targets"].items():
        met = "yes" if verdict["met"] else "**no**"
        lines.append(f"| {name} | ≤ {verdict['target']}× | {verdict['measured']:.2f}× | {met} |")
    imported = report.get("import")
    if imported is not None:
        lines += import_markdown(imported)
        lines += ["", "| goal | target | measured | met |", "|---|---:|---:|---|"]
        for name, verdict in imported["targets"].items():
            met = "yes" if verdict["met"] else "**no**"
            lines.append(f"| {name} | ≤ {verdict['target']}× | {verdict['measured']:.2f}× | {met} |")
    if report.get("weapon_skills") is not None:
        lines += ["", "Weapons × skills built to hurt (at 1×, 4× and 16× the weapons and skills):"]
        lines += hurt_markdown(report["weapon_skills"])
    lines += ["", f"{report['implementation']} {report['python']} on {report['machine']}."]
    return "\n".join(lines)


def run(
    sizes: Sequence[int],
    rounds: int,
    sample: float,
    *,
    collect: bool = False,
    gcs_sizes: Sequence[int] = GCS_SIZES,
    shared_gcs: Path | None = SHARED_GCS,
    built: int = BUILT_BYTES,
    hurt: int = HURT_BASE,
) -> dict[str, Any]:
    """Measures every document and every GCS import; the whole report as JSON-ready data."""
    rows = [
        summarize(subject, measure(subject, rounds, sample, collect=collect)) for subject in documents(sizes)
    ]
    growth = linearity(rows)
    imported = import_report(gcs_sizes, shared_gcs, rounds, sample, collect=collect, built=built)
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": f"{platform.system()} {platform.machine()}",
        "rounds": rounds,
        "sample_s": sample,
        "garbage_collection": collect,
        "documents": rows,
        "linearity": growth,
        "targets": targets(rows, growth),
        "import": imported,
        "weapon_skills": hurt_report(hurt, rounds, sample, collect=collect) if hurt else None,
    }


# ---------------------------------------------------------------- importing GCS files


def gcs_subjects(sizes: Sequence[int]) -> list[Document]:
    """GCS characters of our own grown to about each size in bytes (``skills``: their skills)."""
    found = []
    for size in sizes:
        data, text = gcs_samples.grown(size)
        found.append(Document(f"GCS {size / 1000:.0f} kB", text, len(data["skills"])))
    return found


def built_subject(size: int) -> Document:
    """A file built to hurt the importer, of about ``size`` bytes (``tests/support/gcs_built.py``)."""
    data, text = gcs_built.adversarial(size)
    return Document(f"GCS built to hurt, {size / 1000:.0f} kB", text, len(data["skills"]))


def shared_gcs_subjects(folder: Path) -> list[Document]:
    """GCS's own files in ``folder`` that import (the XML one is refused, as it should be)."""
    found = []
    for path in sorted(folder.glob("*.gcs")):
        text = path.read_text(encoding="utf-8")
        try:
            import_gcs(text, now=NOW)
        except CharacterError:
            continue
        found.append(Document(path.stem, text, 0))
    return found


def import_calls(subject: Document) -> dict[str, Callable[[], object]]:
    """``json.loads`` of a GCS file, its import, and its play written back into it (the imported
    document after 3 HP of damage, exported onto the file's text)."""
    text = subject.text
    loads = json.loads
    played = apply_damage(import_gcs(text, now=NOW, max_bytes=IMPORT_LIMIT).document, 3, now=NOW)
    return {
        "json.loads": lambda: loads(text),
        "import_gcs": lambda: import_gcs(text, now=NOW, max_bytes=IMPORT_LIMIT),
        "write_back": lambda: export_gcs(played, base=text, now=NOW),
    }


def import_row(subject: Document, rounds: int, sample: float, *, collect: bool = False) -> dict[str, Any]:
    """One file's medians and ratios (``import_gcs`` and the write-back over ``json.loads``)."""
    times = measure_calls(import_calls(subject), rounds, sample, collect=collect)
    loads_s = statistics.median(times["json.loads"])
    import_s = statistics.median(times["import_gcs"])
    write_s = statistics.median(times["write_back"])
    low, high = _quartiles(times["import_gcs"])
    return {
        "name": subject.name,
        "bytes": len(subject.text.encode("utf-8")),
        "json_loads_s": loads_s,
        "import_gcs_s": import_s,
        "ratio": import_s / loads_s,
        "spread": (high - low) / import_s,
        "write_back_s": write_s,
        "write_back_ratio": write_s / loads_s,
    }


def _typical(row: Mapping[str, Any]) -> bool:
    return bool(TYPICAL_BYTES[0] <= row["bytes"] <= TYPICAL_BYTES[1])


def import_report(
    sizes: Sequence[int],
    shared: Path | None,
    rounds: int,
    sample: float,
    *,
    collect: bool = False,
    built: int = 0,
) -> dict[str, Any]:
    """``import_gcs`` on the generated GCS files, a file built to hurt it (``built`` bytes, none
    for 0) and the shared ones: ratios, growth, goals."""
    generated = [import_row(subject, rounds, sample, collect=collect) for subject in gcs_subjects(sizes)]
    built_row = import_row(built_subject(built), rounds, sample, collect=collect) if built else None
    shared_rows = []
    if shared is not None and shared.is_dir():
        shared_rows = [
            import_row(subject, rounds, sample, collect=collect) for subject in shared_gcs_subjects(shared)
        ]
    report: dict[str, Any] = {
        "generated": generated,
        "built": built_row,
        "shared": None,
        "linearity": None,
        "targets": {},
    }
    if built_row is not None:
        report["targets"][f"import_gcs, {built_row['name']}"] = {
            "target": BUILT_TARGET,
            "measured": built_row["ratio"],
            "met": built_row["ratio"] <= BUILT_TARGET,
        }
    if len(generated) >= 2:
        small, large = generated[0], generated[-1]
        per_byte = (large["import_gcs_s"] / large["bytes"]) / (small["import_gcs_s"] / small["bytes"])
        report["linearity"] = {"per_byte": per_byte, "from": small["name"], "to": large["name"]}
        report["targets"]["import_gcs, cost per byte"] = {
            "target": LINEARITY_TARGET,
            "measured": per_byte,
            "met": per_byte <= LINEARITY_TARGET,
        }
    typical = [row for row in generated if _typical(row)]
    if shared_rows:
        ratios = [row["ratio"] for row in shared_rows]
        typical_ratios = [row["ratio"] for row in shared_rows if _typical(row)]
        report["shared"] = {
            "files": len(shared_rows),
            "median_ratio": statistics.median(ratios),
            "max_ratio": max(ratios),
            "worst": max(shared_rows, key=lambda row: row["ratio"])["name"],
            "typical_files": len(typical_ratios),
            "typical_median_ratio": statistics.median(typical_ratios) if typical_ratios else None,
            "rows": shared_rows,
        }
        writes = [row["write_back_ratio"] for row in shared_rows]
        report["shared"]["write_back_median_ratio"] = statistics.median(writes)
        report["shared"]["write_back_max_ratio"] = max(writes)
        if typical_ratios:
            typical.append(
                {
                    "name": "../shared/gcs, 50-100 kB (median)",
                    "ratio": statistics.median(typical_ratios),
                    "write_back_ratio": statistics.median(
                        row["write_back_ratio"] for row in shared_rows if _typical(row)
                    ),
                }
            )
    for row in typical:
        report["targets"][f"import_gcs, {row['name']}"] = {
            "target": IMPORT_TARGET,
            "measured": row["ratio"],
            "met": row["ratio"] <= IMPORT_TARGET,
        }
        report["targets"][f"write-back, {row['name']}"] = {
            "target": WRITE_BACK_TARGET,
            "measured": row["write_back_ratio"],
            "met": row["write_back_ratio"] <= WRITE_BACK_TARGET,
        }
    return report


def import_markdown(report: Mapping[str, Any]) -> list[str]:
    """The import section of the Markdown report."""
    lines = [
        "",
        "| GCS file | bytes | `json.loads` | `import_gcs` | ratio | write-back | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    rows = [*report["generated"], *([report["built"]] if report.get("built") else [])]
    for row in rows:
        lines.append(
            f"| {row['name']} | {row['bytes']:,} | {_time(row['json_loads_s'])} | "
            f"{_time(row['import_gcs_s'])} | {row['ratio']:.2f}× | {_time(row['write_back_s'])} | "
            f"{row['write_back_ratio']:.2f}× |"
        )
    shared = report["shared"]
    if shared is not None:
        typical = shared["typical_median_ratio"]
        lines.append(
            f"| ../shared/gcs ({shared['files']} files) | | | median | {shared['median_ratio']:.2f}× "
            f"| median | {shared['write_back_median_ratio']:.2f}× |"
        )
        if typical is not None:
            lines.append(
                f"| ../shared/gcs, {shared['typical_files']} files of 50-100 kB | | | median "
                f"| {typical:.2f}× |"
            )
        lines.append(f"| ../shared/gcs, worst: {shared['worst']} | | | | {shared['max_ratio']:.2f}× |")
    if report["linearity"] is not None:
        growth = report["linearity"]
        lines += [
            "",
            f"`import_gcs` cost per byte, {growth['to']} over {growth['from']}: {growth['per_byte']:.2f}×.",
        ]
    return lines


# ---------------------------------------------------------------- weapons x skills


def _every_weapon_skill(document: Mapping[str, Any]) -> object:
    """The combat view with every weapon's skill and level worked out (the view works them out
    when first asked)."""
    stats = combat_stats(document)
    return [(row.skill, row.level) for row in stats.weapons.melee] + [
        (row.skill, row.level) for row in stats.weapons.ranged
    ]


def hurt_calls(count: int) -> tuple[int, dict[str, Callable[[], object]]]:
    """The GCS file of ``count`` weapons and skills (its bytes), and the timed calls: its
    import, and the combat view and export of the document typed from the import."""
    text = json.dumps(gcs_built.weapons_and_skills(count))
    typed = gcs_built.typed_document(dict(import_gcs(text, now=NOW, max_bytes=IMPORT_LIMIT).document))
    calls: dict[str, Callable[[], object]] = {
        "import_gcs": lambda: import_gcs(text, now=NOW, max_bytes=IMPORT_LIMIT),
        "combat_stats": lambda: _every_weapon_skill(typed),
        "export_gcs": lambda: export_gcs(typed, now=NOW, max_bytes=IMPORT_LIMIT),
    }
    return len(text.encode("utf-8")), calls


def hurt_report(base: int, rounds: int, sample: float, *, collect: bool = False) -> dict[str, Any]:
    """Each operation's median time at every scale of :data:`HURT_SCALES`, and its cost per
    weapon at the largest scale over the smallest (1 for linear work)."""
    rows: list[dict[str, Any]] = []
    for scale in HURT_SCALES:
        size, calls = hurt_calls(base * scale)
        times = measure_calls(calls, rounds, sample, collect=collect)
        medians = {name: statistics.median(times[name]) for name in HURT_OPERATIONS}
        rows.append({"scale": scale, "weapons": base * scale, "bytes": size, "median_s": medians})
    first, last = rows[0], rows[-1]
    growth = {
        name: (last["median_s"][name] / last["scale"]) / first["median_s"][name] for name in HURT_OPERATIONS
    }
    targets = {
        f"{name}, cost per weapon at {last['scale']}x over 1x": {
            "target": LINEARITY_TARGET,
            "measured": growth[name],
            "met": growth[name] <= LINEARITY_TARGET,
        }
        for name in HURT_OPERATIONS
    }
    return {"base": base, "rows": rows, "per_weapon_growth": growth, "targets": targets}


def hurt_markdown(report: Mapping[str, Any]) -> list[str]:
    """The weapons x skills section of the Markdown report."""
    header = [
        "operation",
        *(f"{row['scale']}× ({row['weapons']:,}, {row['bytes'] / 1000:.0f} kB)" for row in report["rows"]),
    ]
    lines = ["", "| " + " | ".join(header) + " | cost per weapon, largest over 1× |"]
    lines.append("|---|" + "---:|" * (len(report["rows"]) + 1))
    for name in HURT_OPERATIONS:
        cells = [f"`{name}`", *(_time(row["median_s"][name]) for row in report["rows"])]
        cells.append(f"{report['per_weapon_growth'][name]:.2f}×")
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "| goal | target | measured | met |", "|---|---:|---:|---|"]
    for name, verdict in report["targets"].items():
        met = "yes" if verdict["met"] else "**no**"
        lines.append(f"| {name} | ≤ {verdict['target']}× | {verdict['measured']:.2f}× | {met} |")
    return lines


def _sizes(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; see the module's docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quick", action="store_true", help="a short run: fewer, shorter samples")
    parser.add_argument(
        "--sizes", type=_sizes, default=None, help="skills of the generated documents (default 50,500,5000)"
    )
    parser.add_argument("--rounds", type=int, default=None, help="samples per operation (default 15)")
    parser.add_argument("--sample", type=float, default=None, help="seconds per sample (default 0.05)")
    parser.add_argument(
        "--gc", action="store_true", help="keep the garbage collector running while timing (default: paused)"
    )
    parser.add_argument(
        "--gcs-sizes",
        type=_sizes,
        default=None,
        help="bytes of the generated GCS files for import_gcs (default 50000,500000,1950000)",
    )
    parser.add_argument(
        "--built-size",
        type=int,
        default=BUILT_BYTES,
        help="bytes of the GCS file built to hurt the importer (default 1950000; 0 for none)",
    )
    parser.add_argument(
        "--hurt-base",
        type=int,
        default=HURT_BASE,
        help="weapons and skills of the smallest character built with many of each (default 75; 0 for none)",
    )
    parser.add_argument(
        "--shared-gcs",
        type=Path,
        default=SHARED_GCS,
        help="a folder of GCS files to time import_gcs on (default ../shared/gcs, skipped when absent)",
    )
    options = parser.parse_args(argv)
    sizes = options.sizes if options.sizes is not None else [50, 500, 5000]
    gcs_sizes = options.gcs_sizes if options.gcs_sizes is not None else list(GCS_SIZES)
    rounds = options.rounds or (3 if options.quick else 15)
    sample = options.sample or (0.005 if options.quick else 0.05)
    report = run(
        sizes,
        rounds,
        sample,
        collect=options.gc,
        gcs_sizes=gcs_sizes,
        shared_gcs=options.shared_gcs,
        built=options.built_size,
        hurt=options.hurt_base,
    )
    if options.json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
