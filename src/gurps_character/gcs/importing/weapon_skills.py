"""The skills a weapon's defaults name: the character's GCS skills and techniques by name and
specialization, read once per import when a weapon first asks, with GCS's level and relative level
of each, and the best of them that a default's criteria accept."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Final

from ..format.criteria import matches, text_weight
from ..format.fields import (
    Node,
    fill_placeholders,
    filled_text,
    is_container,
    kind_of,
    mapping,
    node_list,
    number,
    text,
    whole_number,
)
from .context import Context
from .skills import SkillSections

__all__ = ["WeaponSkill", "WeaponSkills"]

_RSL_NUMBER: Final = re.compile(r"([+-][0-9]+)\s*$")
_RSL_NAME: Final = re.compile(r"[A-Za-z]\w*")


@dataclass(frozen=True, slots=True)
class WeaponSkill:
    """A GCS skill (or technique) as weapon defaults and bonuses see it."""

    name: str
    specialization: str
    tags: tuple[str, ...]
    level: float | None
    relative: float | None
    has_points: bool
    document_name: str | None


class WeaponSkills:
    """The character's GCS skills and techniques by lower-case name, read when a weapon asks."""

    def __init__(self, ctx: Context, sections: SkillSections) -> None:
        self.ctx = ctx
        self.sections = sections
        self.nodes: dict[str, list[tuple[Node, str]]] | None = None
        self.read: dict[str, list[WeaponSkill]] = {}
        self._every: list[WeaponSkill] | None = None
        self._by_specialization: dict[tuple[None, str], list[WeaponSkill]] = {}
        self._by_name_and_specialization: dict[tuple[str, str], list[WeaponSkill]] = {}
        self._best: dict[tuple[object, ...], WeaponSkill | None] = {}
        self._relative: dict[tuple[str, str], float | None] = {}

    def named(self, name: str) -> list[WeaponSkill]:
        """The skills of a name (any case)."""
        if self.nodes is None:
            self.nodes = {}
            for node, pointer, _ in self.ctx.section("skills"):
                if not is_container(node):
                    key = text(node, "name")
                    key = (fill_placeholders(key, node) if "@" in key else key).strip().lower()
                    self.nodes.setdefault(key, []).append((node, pointer))
        key = name.strip().lower()
        found = self.read.get(key)
        if found is None:
            found = self.read[key] = [self._skill(node, pointer) for node, pointer in self.nodes.get(key, ())]
        return found

    def every(self) -> list[WeaponSkill]:
        if self._every is None:
            self.named("")
            assert self.nodes is not None
            self._every = [found for name in list(self.nodes) for found in self.named(name)]
        return self._every

    def specialized(self, name: str | None, specialization: str) -> list[WeaponSkill]:
        """The skills of a specialization (any case), of a name too unless it is None."""
        if name is not None:  # the skills of the name only: the others need not be read
            key = (name.strip().lower(), specialization.lower())
            found = self._by_name_and_specialization.get(key)
            if found is None:
                found = [skill for skill in self.named(name) if skill.specialization.lower() == key[1]]
                self._by_name_and_specialization[key] = found
            return found
        if not self._by_specialization:
            for skill in self.every():
                wanted = skill.specialization.lower()
                self._by_specialization.setdefault((None, wanted), []).append(skill)
        return self._by_specialization.get((None, specialization.lower()), [])

    def best(
        self, candidates: list[WeaponSkill], criteria: tuple[object, object, object]
    ) -> WeaponSkill | None:
        """The skill of the best level among ``candidates`` that a default's name, specialization
        and tags criteria accept (the first of equal levels), found once for the same
        candidates and criteria; each candidate tried is taken from the import's budget."""
        key = (id(candidates), *(_plain_key(criterion) for criterion in criteria))
        simple = None not in key[1:]
        if simple and key in self._best:
            return self._best[key]
        name, specialization, tags = criteria
        budget = self.ctx.features.budget
        texts = [value for criterion in criteria if type(criterion) is dict for value in criterion.values()]
        weight = 1 + text_weight(*(value for value in texts if type(value) is str))
        best: WeaponSkill | None = None
        for found in candidates:
            if not budget.take(weight + text_weight(found.name, found.specialization, *found.tags)):
                break
            if found.level is None or (
                best is not None and best.level is not None and found.level <= best.level
            ):
                continue
            if (name is not None and not matches(name, found.name)) or (
                specialization is not None and not matches(specialization, found.specialization)
            ):
                continue
            if type(tags) is dict and not any(matches(tags, tag) for tag in found.tags or ("",)):
                continue
            best = found
        if simple:
            self._best[key] = best
        return best

    def relative(self, name: str, specialization: str) -> float | None:
        """The best relative level among the skills of a name (and specialization, when given)
        that have points, or None."""
        key = (name.strip().lower(), specialization.lower())
        if key not in self._relative:
            relative: float | None = None
            for found in self.named(name) if name else []:
                if not found.has_points or found.relative is None:
                    continue
                if specialization and found.specialization.lower() != key[1]:
                    continue
                relative = found.relative if relative is None else max(relative, found.relative)
            self._relative[key] = relative
        return self._relative[key]

    def _skill(self, node: Node, pointer: str) -> WeaponSkill:
        """A skill with GCS's level (the saved one, else the document's) and relative level."""
        calc = mapping(node, "calc")
        level = number(calc, "level")
        position = self.sections.by_gcs_pointer.get(pointer)
        document_entry = self.sections.skills[position] if position is not None else None
        if level is None and document_entry is not None:
            level = document_entry.get("level")
        attribute = text(node, "difficulty").lower().partition("/")[0]
        return WeaponSkill(
            name=filled_text(node, "name").strip(),
            specialization=filled_text(node, "specialization").strip(),
            tags=tuple(tag for tag in node_list(node, "tags") if type(tag) is str),
            level=level,
            relative=_relative_level(calc, level, self.ctx.attribute_values.get(attribute)),
            has_points=kind_of(node) == "technique" or (number(node, "points") or 0) > 0,
            document_name=document_entry["name"] if document_entry is not None else None,
        )


def _relative_level(calc: Node, level: float | None, attribute: float | None) -> float | None:
    found = _RSL_NUMBER.search(text(calc, "rsl"))
    relative = whole_number(found.group(1)) if found else None
    if relative is not None:
        return relative
    if _RSL_NAME.fullmatch(text(calc, "rsl")):
        return 0
    if level is not None and attribute is not None:
        return level - math.floor(attribute)
    return None


def _plain_key(criterion: object) -> object:
    """A criterion as a key, when it is plain: None, text, or text fields only (else None, and
    the search is not remembered)."""
    if criterion is None:
        return ()
    if type(criterion) is str:
        return criterion
    if type(criterion) is dict and len(criterion) <= 4 and all(type(v) is str for v in criterion.values()):
        return tuple(sorted(criterion.items()))
    return None
