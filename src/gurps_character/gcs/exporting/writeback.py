"""Play written back into the GCS file a document was imported from.

A bot or a virtual tabletop tracks a fight on the imported document (HP and FP lost); the
write-back puts that state into the player's ``.gcs`` file: GCS's ``damage`` on the HP and FP
attributes, their ``calc.current``, and ``modified_date``. The file's text is patched at the exact
places of those values, so every other byte stays as it was (keys, order, indentation, the
formatting of GCS 4.x files included) and a ``diff`` shows only what play changed. Without the
file's text, the GCS data the importer kept is written out as GCS writes files. Any text the
importer reads can be written into, however deeply it nests.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from json import JSONDecoder
from json.encoder import encode_basestring
from typing import Any, Final

from ..._json import decoder_for
from ...constants import MAX_DOCUMENT_BYTES
from ...errors import CharacterError
from ...update import format_timestamp
from ..format.json_spans import Member, SpanError, items, members, only_space_after, root
from ..format.json_text import GcsJsonError, GcsTextTooLong, as_gcs_file, compact_text, gcs_text
from .notes import ExportNote, NoteList

__all__ = ["BASE_MISMATCH", "write_back"]

BASE_MISMATCH: Final = "baseMismatch"
"""The error code for a GCS file that is not the one the document was imported from."""

_POOLS: Final = (("hp", "HP", "/secondary/hp"), ("fp", "FP", "/secondary/fp"))
_OLD_DATE: Final = re.compile(r"\s*[A-Za-z]{3}[a-z]*\.?\s+\d{1,2},\s*\d{4},?\s+\d{1,2}:\d{2}\s*[AaPp][Mm]\s*")
_MONTHS: Final = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_BOM: Final = "\ufeff"
_PLAY_KEYS: Final = frozenset({"modified_date", "hp_damage", "fp_damage"})
"""Top-level keys a write-back may change (``hp_damage`` and ``fp_damage``: version 1 files)."""
_ZERO_LEFT_OUT: Final = (1, 4, 5)
"""The file versions whose GCS leaves a damage of 0 out of the file (GCS 4.x wrote version 2's
``damage`` on every pool, 0 included)."""


@dataclass(slots=True)
class _Pool:
    """One pool's place in the file: its attribute entry (or, in version 1, the top level)."""

    container: list[Member]
    damage: Member | None
    """The damage member readers take: the last of its key (JSON readers, GCS's among them, keep
    the last value of a key written twice)."""
    repeated: list[Member]
    """Members of the same key before it (a file edited by hand), removed with it."""
    anchor: Member | None
    """The member the damage follows when it has to be added."""
    calc_current: Member | None
    maximum: float | None
    key: str
    """The damage's key: ``damage``, or ``hp_damage`` / ``fp_damage`` in version 1."""


def write_back(
    document: Mapping[str, Any],
    kept: Mapping[str, Any],
    base: object,
    now: datetime | None,
    max_bytes: int = MAX_DOCUMENT_BYTES,
) -> tuple[str, tuple[ExportNote, ...]]:
    """The GCS file with the document's HP and FP damage written in, and the notes.

    Args:
        document: A valid document imported from GCS.
        kept: The GCS data the importer kept for it.
        base: The original file's text or bytes, or None to write ``kept`` as GCS writes files.
        now: The time written as ``modified_date`` (when anything changes).
        max_bytes: The size limit for ``base``.

    Raises:
        CharacterError: ``baseMismatch`` (another GCS character), ``invalidJson`` or ``tooLarge``
            (``base`` is no JSON text, or too long), ``invalidArgument`` (``base`` is neither text
            nor bytes).
        TypeError: ``now`` is naive.
    """
    format_timestamp(now)  # refuses a naive or impossible time before anything is done
    notes = NoteList()
    version = kept.get("version")
    bom = ""
    if base is None:
        try:
            text = _kept_text(kept, max_bytes, notes)
        except GcsJsonError as err:
            raise CharacterError(
                "invalidDocument", f"The kept GCS data is not JSON data: {err}.", {"reason": str(err)}
            ) from None
        if version not in (4, 5):
            notes.add(
                "",
                "approximated",
                f"The document came from a GCS file of version {version}, which GCS 4.x wrote with other "
                "spacing: without that file's text (base), the file is written as current GCS writes "
                "JSON, so its bytes differ from the original beyond play.",
            )
        encoded = None
    else:
        text, bom, encoded = _base_text(base, max_bytes)
    decoder = decoder_for(text, encoded)
    try:
        top, end = members(text, root(text), decoder)
        if not only_space_after(text, end):
            raise SpanError("text after the top-level object")
        pools = _pools(text, top, version, decoder)
    except SpanError as err:
        raise CharacterError(
            "invalidJson", f"The GCS file given is not JSON text: {err}.", {"reason": str(err)}
        ) from None
    if base is not None:
        _check_identity(top, kept, version, notes)
    edits: list[tuple[int, int, str]] = []
    written: list[str] = []
    imported = _play_members(kept, version)
    for ident, label, pointer in _POOLS:
        pool = pools.get(ident)
        zero_left_out = version in _ZERO_LEFT_OUT or ident not in imported
        _write_pool(text, document, ident, label, pointer, pool, zero_left_out, edits, written, notes)
    if not edits:
        notes.add(
            "",
            "playWritten",
            "The document's HP and FP damage are the file's: nothing to write, the file is unchanged.",
        )
        return bom + text, notes.notes()
    imported_date = kept.get("modified_date")
    if type(imported_date) is str and _damage_written(document, pools) == _play(kept, version):
        # play undone (healed to the damage the file had at the import): the file is the imported
        # one again, its date included, so a date changed later is a save in GCS (_check_identity)
        _stamp(text, top, imported_date, edits, notes)
    else:
        _stamp(text, top, now, edits, notes)
    notes.add("", "playWritten", f"Written into the GCS file: {'; '.join(written)}.")
    return bom + _patched(text, edits), notes.notes()


def _kept_text(kept: Mapping[str, Any], max_bytes: int, notes: NoteList) -> str:
    """The kept GCS data as GCS lays a file out; without white space (and a note) when that
    layout, which indents every line by its depth, would be over ``max_bytes``: a file the
    importer read, nested deeply without GCS's layout, is written back as a file it reads again.

    Raises:
        GcsJsonError: the kept data is not JSON data.
    """
    try:
        text = gcs_text(kept, max_bytes)
    except GcsTextTooLong:
        pass
    else:
        if len(text) * 4 <= max_bytes or len(text.encode("utf-8")) <= max_bytes:
            return text  # (a character takes at most 4 bytes of UTF-8)
    notes.add(
        "",
        "approximated",
        f"The GCS data laid out as GCS lays out files (a tab for each level of nesting on every "
        f"line) would make a file of over {max_bytes:,} bytes: it is written without white space, "
        "which GCS reads as well, so its bytes differ from the original beyond play; give the "
        "original file (base) to keep them.",
    )
    return as_gcs_file(compact_text(kept))[0]


def _base_text(base: object, max_bytes: int) -> tuple[str, str, bytes | None]:
    """The file's text without its byte order mark, the mark (kept in the result), and the text's
    UTF-8 when it is at hand (given as bytes, or encoded to measure it)."""
    encoded: bytes | None = None
    if isinstance(base, bytes | bytearray | memoryview):
        encoded = bytes(base)
        if len(encoded) > max_bytes:
            raise _too_large(len(encoded), max_bytes)
        try:
            text = encoded.decode("utf-8")
        except UnicodeDecodeError as err:
            raise CharacterError(
                "invalidJson",
                f"The GCS file given is not UTF-8 text (byte {err.start}).",
                {"reason": "not UTF-8"},
            ) from None
    elif isinstance(base, str):
        text = base
        if 4 * len(text) > max_bytes:  # UTF-8 takes at most 4 bytes a character: else surely within
            encoded = text.encode("utf-8", "surrogatepass")
            if len(encoded) > max_bytes:
                raise _too_large(len(encoded), max_bytes)
    else:
        raise CharacterError(
            "invalidArgument",
            f"base must be the GCS file's text or bytes, not a {type(base).__name__}.",
            {"name": "base"},
        )
    if text.startswith(_BOM):
        return text[1:], _BOM, encoded[len(_BOM.encode()) :] if encoded is not None else None
    return text, "", encoded


def _too_large(size: int, limit: int) -> CharacterError:
    return CharacterError(
        "tooLarge",
        f"The GCS file is {size} bytes, over the limit of {limit}.",
        {"size": size, "limit": limit},
    )


def _check_identity(top: list[Member], kept: Mapping[str, Any], version: object, notes: NoteList) -> None:
    """Refuses another character; notes a file changed since the import: its content apart from
    play, or its ``modified_date`` while its play is still the import's (a write-back changes the
    date only with the damage, and puts the imported date back with the imported damage)."""
    found = {member.key: member.value for member in top if member.key is not None}
    kept_id, base_id = kept.get("id"), found.get("id")
    if kept_id != base_id:
        raise CharacterError(
            BASE_MISMATCH,
            f"The GCS file given is another character (id {_short(base_id)}) than the one the document "
            f"was imported from (id {_short(kept_id)}).",
            {"expected": kept_id if isinstance(kept_id, str) else None, "found": _json_id(base_id)},
        )
    changed = [
        key for key in kept.keys() | found.keys() if key not in _PLAY_KEYS and not _same(key, kept, found)
    ]
    if found.get("modified_date") != kept.get("modified_date") and _play(found, version) == _play(
        kept, version
    ):
        changed.append("modified_date")
    if changed:
        shown = ", ".join(sorted(changed)[:6])
        notes.add(
            "",
            "sourceChanged",
            f"The GCS file was changed since the document was imported from it ({shown}): play is written "
            "into it all the same, and what was changed there stays.",
        )


def _short(value: object) -> str:
    return value[:40] if isinstance(value, str) else "none"


def _json_id(value: object) -> str | None:
    return value[:100] if isinstance(value, str) else None


def _play(data: Mapping[str, Any], version: object) -> dict[str, float]:
    """The HP and FP damage a file holds (0 where it holds none), by pool."""
    if version == 1:
        return {ident: _number(data.get(f"{ident}_damage")) for ident, _, _ in _POOLS}
    found: dict[str, float] = {}
    entries = data.get("attributes")
    for entry in entries if type(entries) is list else ():
        if type(entry) is dict and entry.get("attr_id") in ("hp", "fp") and entry["attr_id"] not in found:
            found[entry["attr_id"]] = _number(entry.get("damage"))
    return {ident: found.get(ident, 0) for ident, _, _ in _POOLS}


def _damage_written(document: Mapping[str, Any], pools: Mapping[str, _Pool]) -> dict[str, float]:
    """The damage by pool in the file once play is written (a pool the file lacks stays 0)."""
    written: dict[str, float] = {}
    for ident, _, _ in _POOLS:
        entry = document.get("secondary", {}).get(ident, {})
        value = entry.get("value")
        written[ident] = int(value - entry.get("current", value)) if ident in pools else 0
    return written


def _play_members(kept: Mapping[str, Any], version: object) -> set[str]:
    """The pools whose damage the imported file wrote (as a member, 0 included)."""
    if version == 1:
        return {ident for ident, _, _ in _POOLS if f"{ident}_damage" in kept}
    found: set[str] = set()
    seen: set[str] = set()
    entries = kept.get("attributes")
    for entry in entries if type(entries) is list else ():
        if type(entry) is dict and entry.get("attr_id") in ("hp", "fp") and entry["attr_id"] not in seen:
            seen.add(entry["attr_id"])
            if "damage" in entry:
                found.add(entry["attr_id"])
    return found


def _same(key: str, kept: Mapping[str, Any], found: dict[str, Any]) -> bool:
    if key not in kept or key not in found:
        return False
    if key != "attributes":
        return _equal(kept[key], found[key])
    return _equal(_without_play(kept[key]), _without_play(found[key]))


def _equal(left: Any, right: Any) -> bool:
    """``left == right`` for JSON data at any depth: Python's comparison, in C, for data that
    nests within the recursion limit (the usual file: the loop below took most of a write-back's
    time), else :func:`_equal_deep`. The two agree on JSON data (no NaN)."""
    try:
        return bool(left == right)
    except RecursionError:
        return _equal_deep(left, right)


def _equal_deep(left: Any, right: Any) -> bool:
    """``left == right`` for JSON data, without recursion (Python's comparison of containers
    recurses, and a GCS file may nest deeper than it goes)."""
    stack = [(left, right)]
    while stack:
        one, other = stack.pop()
        kind = type(one)
        if kind is dict:
            if type(other) is not dict or one.keys() != other.keys():
                return False
            stack.extend((value, other[key]) for key, value in one.items())
        elif kind is list:
            if type(other) is not list or len(one) != len(other):
                return False
            stack.extend(zip(one, other, strict=True))
        elif type(other) is dict or type(other) is list or one != other:
            return False
    return True


def _without_play(entries: Any) -> Any:
    """The attribute list without what a write-back writes (pools' damage and current)."""
    if type(entries) is not list:
        return entries
    plain = []
    for entry in entries:
        if type(entry) is dict and entry.get("attr_id") in ("hp", "fp"):
            entry = {key: value for key, value in entry.items() if key != "damage"}
            calc = entry.get("calc")
            if type(calc) is dict:
                entry["calc"] = {key: value for key, value in calc.items() if key != "current"}
        plain.append(entry)
    return plain


def _pools(text: str, top: list[Member], version: object, decoder: JSONDecoder) -> dict[str, _Pool]:
    """Where each pool's damage and current value are in the file."""
    found: dict[str, _Pool] = {}
    if version == 1:
        by_key = {member.key: member for member in top}
        anchor = next(
            (by_key[key] for key in ("HT", "IQ", "DX", "ST", "total_points", "id") if key in by_key), None
        )
        for ident, _, _ in _POOLS:
            key = f"{ident}_damage"
            found[ident] = _Pool(top, by_key.get(key), _repeated(top, key), anchor, None, None, key)
        return found
    attributes = next((m for m in reversed(top) if m.key == "attributes"), None)
    if attributes is None or type(attributes.value) is not list:
        return found
    settings = next((m.value for m in reversed(top) if m.key == "settings"), None)
    read_as_pools = _pools_defined(settings)
    entries, _ = items(text, attributes.value_start, decoder)
    for entry in entries:
        attr_id = entry.value.get("attr_id") if type(entry.value) is dict else None
        if type(attr_id) is not str or attr_id not in read_as_pools:  # a hostile id may be any value
            continue
        ident = attr_id
        if ident in found:
            continue  # the importer reads the first entry of an id
        inner, _ = members(text, entry.value_start, decoder)
        by_key = {member.key: member for member in inner}
        calc = by_key.get("calc")
        current = maximum = None
        if calc is not None and type(calc.value) is dict:
            calc_members, _ = members(text, calc.value_start, decoder)
            current = next((m for m in reversed(calc_members) if m.key == "current"), None)
            value = calc.value.get("value")
            maximum = value if type(value) in (int, float) else None
        anchor = by_key.get("adj") or by_key.get("attr_id")
        found[ident] = _Pool(
            inner, by_key.get("damage"), _repeated(inner, "damage"), anchor, current, maximum, "damage"
        )
    return found


def _pools_defined(settings: object) -> set[str]:
    """Which of HP and FP the file's attribute definitions make pools, as GCS (and the import)
    reads them: GCS drops an attribute whose definition is gone and keeps damage only on a pool,
    so damage written elsewhere would be written where nothing reads it. Without definitions,
    GCS's standard set (both pools)."""
    definitions = settings.get("attributes") if type(settings) is dict else None
    kinds: dict[str, str] = {}
    for definition in definitions if type(definitions) is list else ():
        if type(definition) is dict and type(definition.get("id")) is str and definition["id"]:
            kind = definition.get("type")
            kinds.setdefault(definition["id"], kind if type(kind) is str else "")
    if not kinds:
        return {"hp", "fp"}
    return {ident for ident in ("hp", "fp") if kinds.get(ident, "").startswith("pool")}


def _repeated(container: list[Member], key: str) -> list[Member]:
    """The members of ``key`` before its last one."""
    return [member for member in container if member.key == key][:-1]


def _number(value: object) -> float:
    return value if type(value) in (int, float) else 0  # type: ignore[return-value]


def _write_pool(
    text: str,
    document: Mapping[str, Any],
    ident: str,
    label: str,
    pointer: str,
    pool: _Pool | None,
    zero_left_out: bool,
    edits: list[tuple[int, int, str]],
    written: list[str],
    notes: NoteList,
) -> None:
    entry = document.get("secondary", {}).get(ident, {})
    value = entry.get("value")
    current = entry.get("current", value)
    damage = int(value - current)
    if pool is None:
        if damage:
            notes.add(
                f"{pointer}/current",
                "notCarried",
                f"The GCS file has no {label} pool (an attribute of that id its settings define as a "
                f"pool): the {label} lost in play ({damage}) is not written.",
            )
        return
    old = _number(pool.damage.value) if pool.damage is not None else 0
    if old == damage:
        return
    shown = str(damage)
    if pool.damage is not None:
        if damage == 0 and zero_left_out:  # as GCS writes it, or as the imported file was
            edits.extend(_removals(pool.container, [*pool.repeated, pool.damage]))
        else:
            edits.append((pool.damage.value_start, pool.damage.value_end, shown))
    elif pool.anchor is not None:
        edits.append(
            (pool.anchor.value_end, pool.anchor.value_end, _insertion(text, pool.anchor, pool.key, shown))
        )
    else:
        notes.add(
            f"{pointer}/current", "notCarried", f"The file's {label} attribute has no place for damage."
        )
        return
    if pool.calc_current is not None and pool.maximum is not None:
        now_current = pool.maximum - damage
        edits.append((pool.calc_current.value_start, pool.calc_current.value_end, _plain(now_current)))
        written.append(f"{label} damage {damage} ({label} {_plain(now_current)} of {_plain(pool.maximum)})")
    else:
        written.append(f"{label} damage {damage}")


def _plain(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def _removals(container: list[Member], removed: list[Member]) -> list[tuple[int, int, str]]:
    """The edits that remove members of an object with their commas and lines (the object's
    layout kept): each from the end of the member before it; those the object begins with up to
    the first member kept."""
    gone = {id(member) for member in removed}
    kept = [index for index, member in enumerate(container) if id(member) not in gone]
    if not kept:
        return [(container[0].start, container[-1].value_end, "")]
    first = kept[0]
    edits = [(container[0].start, container[first].start, "")] if first else []
    edits.extend(
        (container[index - 1].value_end, member.value_end, "")
        for index, member in enumerate(container)
        if index > first and id(member) in gone
    )
    return edits


def _insertion(text: str, anchor: Member, key: str, value: str) -> str:
    """``,`` + the anchor's line break and indentation + ``"key": value``, to follow the anchor."""
    line_start = text.rfind("\n", 0, anchor.start)
    indent = text[line_start + 1 : anchor.start] if line_start >= 0 else ""
    if line_start < 0 or indent.strip():
        return f', "{key}": {value}'
    newline = "\r\n" if line_start > 0 and text[line_start - 1] == "\r" else "\n"
    return f',{newline}{indent}"{key}": {value}'


def _stamp(
    text: str,
    top: list[Member],
    now: datetime | str | None,
    edits: list[tuple[int, int, str]],
    notes: NoteList,
) -> None:
    """Sets ``modified_date`` to ``now``, in the file's own date style (text: written as it is)."""
    member = next((m for m in reversed(top) if m.key == "modified_date"), None)
    if member is None:
        notes.add("/meta/updatedAt", "notCarried", "The GCS file has no modified_date: none is added.")
        return
    if isinstance(now, str):
        if member.value != now:
            edits.append((member.value_start, member.value_end, encode_basestring(now)))
        return
    moment = (now or datetime.now(UTC)).astimezone(UTC)
    old = member.value if type(member.value) is str else ""
    if _OLD_DATE.fullmatch(old):  # GCS 4.x: "Jun 21, 2021, 8:45 PM"
        hour = moment.hour % 12 or 12
        stamp = (
            f"{_MONTHS[moment.month - 1]} {moment.day}, {moment.year}, {hour}:{moment.minute:02d} "
            f"{'PM' if moment.hour >= 12 else 'AM'}"
        )
    else:
        stamp = f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}T{moment:%H:%M:%S}Z"
    edits.append((member.value_start, member.value_end, encode_basestring(stamp)))


def _patched(text: str, edits: list[tuple[int, int, str]]) -> str:
    parts: list[str] = []
    at = 0
    for start, end, replacement in sorted(edits):
        parts.append(text[at:start])
        parts.append(replacement)
        at = end
    parts.append(text[at:])
    return "".join(parts)
