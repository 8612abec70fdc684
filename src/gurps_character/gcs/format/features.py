"""The features (bonuses) in force in a GCS character: from enabled traits and their enabled
modifiers, and from equipped, carried equipment. They explain where GCS's numbers come from.

How a feature's text criteria are matched and indexed is in :mod:`.criteria`; the bonuses that
reach a weapon in :mod:`.weapon_bonuses`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .criteria import MAX_COMPARISONS, Budget, CriterionIndex, any_matches, matches, take_merged, text_weight
from .fields import (
    MAX_DEPTH,
    Node,
    Walked,
    boolean,
    fill_placeholders,
    filled_text,
    is_container,
    kind_of,
    mapping,
    node_list,
    number,
    number_or_text,
    section_nodes,
    text,
    walk,
)

__all__ = [
    "Feature",
    "Features",
    "collect_features",
    "display_name",
    "owner_features",
    "selection_of",
    "skill_bonuses",
    "spell_colleges",
    "trait_level",
    "weapon_indexer",
]


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature in force: the GCS feature object, who grants it, and its level multiplier."""

    data: Node
    owner: str
    pointer: str
    level: float

    @property
    def kind(self) -> str:
        return text(self.data, "type")

    def amount(self) -> float:
        """``amount``, times the owner's level when the feature is ``per_level``."""
        amount = number(self.data, "amount") or 0
        return amount * self.level if boolean(self.data, "per_level") else amount


def trait_level(node: Node) -> float:
    """A trait's current level: ``calc.current_level`` when GCS wrote it, else ``levels``."""
    current = number(mapping(node, "calc"), "current_level")
    if current is not None:
        return current
    return number_or_text(node, "levels") or 0


def display_name(node: Node) -> str:
    """A node's name with its placeholders filled (equipment is named by ``description``)."""
    name = node.get("name")
    if type(name) is not str or not name:
        name = node.get("description")
        if type(name) is not str:
            return ""
    return (fill_placeholders(name, node) if "@" in name else name).strip()  # (a call spared)


class Features:
    """The features in force, by kind, with the indexes the importer looks them up by (each
    built once, when first needed) and the import's :class:`Budget` of comparisons."""

    def __init__(self, features: list[Feature]) -> None:
        self.all = features
        self.budget = Budget(MAX_COMPARISONS)
        self._by_kind: dict[str, list[Feature]] = {}
        for feature in features:
            self._by_kind.setdefault(feature.kind, []).append(feature)
        self._attribute: dict[tuple[str, str], list[Feature]] | None = None
        self._attribute_totals: dict[tuple[str, str], float] = {}
        self._reductions: dict[str, list[Feature]] | None = None
        self._indexes: dict[str, tuple[CriterionIndex, list[Feature]]] = {}

    def of_kind(self, kind: str) -> list[Feature]:
        return self._by_kind.get(kind, [])

    def indexed(
        self,
        name: str,
        kinds: tuple[str, ...],
        build: Callable[[CriterionIndex, int, Feature], None],
        default_compare: str = "is",
    ) -> tuple[CriterionIndex, list[Feature]]:
        """An index over the features of ``kinds`` (in that order), built once under ``name``
        by ``build(index, position, feature)``, and those features."""
        found = self._indexes.get(name)
        if found is None:
            everything = [feature for kind in kinds for feature in self.of_kind(kind)]
            index = CriterionIndex(self.budget, default_compare)
            for position, feature in enumerate(everything):
                build(index, position, feature)
            found = self._indexes[name] = (index, everything)
        return found

    def skill_bonus_candidates(self, name: str) -> list[Feature]:
        """The ``skills_with_name`` skill bonuses that may apply to a skill name, in file order."""
        index, everything = self.indexed("skill", ("skill_bonus",), _index_skill_bonus)
        return [everything[position] for position in index.candidates([name])]

    def spell_bonus_candidates(self, colleges: list[str], source: str, name: str) -> list[Feature]:
        """The ``spell_bonus`` features that may apply to a spell of these colleges, power source
        and name, in file order."""
        found: list[list[int]] = []
        everything: list[Feature] = []
        for match, values in (
            ("college_name", colleges),
            ("power_source_name", [source]),
            ("spell_name", [name]),
        ):
            index, everything = self.indexed(f"spell:{match}", ("spell_bonus",), _spell_bonus_indexer(match))
            found.append(index.candidates(values))
        return [everything[position] for position in take_merged(found, self.budget)]

    def weapon_candidates(self, kinds: tuple[str, ...], skill: str, owner: str) -> list[Feature]:
        """The features of ``kinds`` in force that may reach a weapon (those selecting weapons by
        a required skill that may be ``skill``, or by a name that may be ``owner``), in the order
        of ``kinds``, then file order."""
        by_skill, everything = self.indexed(
            f"weapon-skill:{kinds}", kinds, weapon_indexer("weapons_with_required_skill")
        )
        by_name, _ = self.indexed(f"weapon-name:{kinds}", kinds, weapon_indexer("weapons_with_name"))
        found = [by_skill.candidates([skill]), by_name.candidates([owner])]
        return [everything[position] for position in take_merged(found, self.budget)]

    def attribute_bonuses(self, attribute: str, limitation: str = "") -> list[Feature]:
        """``attribute_bonus`` features for an attribute id (``limitation`` ``""`` for plain ones,
        or ``striking_only``, ``lifting_only``, ``throwing_only``; GCS writes a plain one's as
        nothing or ``none``)."""
        if self._attribute is None:
            self._attribute = {}
            for feature in self.of_kind("attribute_bonus"):
                key = (text(feature.data, "attribute").lower(), _limitation(text(feature.data, "limitation")))
                self._attribute.setdefault(key, []).append(feature)
        return self._attribute.get((attribute, _limitation(limitation)), [])

    def attribute_bonus(self, attribute: str, limitation: str = "") -> float:
        """The sum of :meth:`attribute_bonuses` (added up once)."""
        key = (attribute, _limitation(limitation))
        total = self._attribute_totals.get(key)
        if total is None:
            total = self._attribute_totals[key] = sum(
                feature.amount() for feature in self.attribute_bonuses(attribute, limitation)
            )
        return total

    def cost_reductions(self, attribute: str) -> list[Feature]:
        """The ``cost_reduction`` features for an attribute id, in file order."""
        if self._reductions is None:
            self._reductions = {}
            for feature in self.of_kind("cost_reduction"):
                self._reductions.setdefault(text(feature.data, "attribute").lower(), []).append(feature)
        return self._reductions.get(attribute, [])


def _limitation(limit: str) -> str:
    return "" if limit in ("", "none") else limit


def _index_skill_bonus(index: CriterionIndex, position: int, feature: Feature) -> None:
    if (text(feature.data, "selection_type") or "skills_with_name") == "skills_with_name":
        index.add(feature.data.get("name"), position)


def _spell_bonus_indexer(match: str) -> Callable[[CriterionIndex, int, Feature], None]:
    """Indexes the spell bonuses of one ``match`` by their name criterion (all colleges' go to
    the colleges' index, as accepting every spell)."""

    def build(index: CriterionIndex, position: int, feature: Feature) -> None:
        kind = text(feature.data, "match") or "all_colleges"
        wanted = feature.data.get("name")
        if match == "college_name" and kind == "all_colleges":
            index.add(None, position)
        elif kind == match:
            # colleges are matched as GCS matches a list: text, or no comparison, is any
            index.add(wanted if match != "college_name" or type(wanted) is dict else None, position)

    return build


_SELECTIONS = ("weapons_with_required_skill", "weapons_with_name", "this_weapon")


def selection_of(data: Node) -> str:
    selection = text(data, "selection_type")
    return selection if selection in _SELECTIONS else "weapons_with_required_skill"


def weapon_indexer(selection: str) -> Callable[[CriterionIndex, int, Feature], None]:
    def build(index: CriterionIndex, position: int, feature: Feature) -> None:
        if selection_of(feature.data) == selection:
            index.add(feature.data.get("name"), position)

    return build


# ---------------------------------------------------------------- the features in force


def _modifier_features(node: Node, pointer: str, owner: str, level: float, out: list[Feature]) -> None:
    modifiers = node_list(node, "modifiers")
    if not modifiers:  # the usual case, without starting a walk
        return
    for modifier, where, _ in walk(modifiers, pointer + "/modifiers", skip_disabled=True):
        if kind_of(modifier).endswith("_container"):
            continue
        modifier_level = number_or_text(modifier, "levels") or level
        for index, feature in enumerate(node_list(modifier, "features")):
            if type(feature) is dict:
                out.append(Feature(feature, owner, f"{where}/features/{index}", modifier_level))


def _own_features(node: Node, pointer: str, owner: str, level: float, out: list[Feature]) -> None:
    for index, feature in enumerate(node_list(node, "features")):
        if type(feature) is dict:
            out.append(Feature(feature, owner, f"{pointer}/features/{index}", level))


def collect_features(data: Node, traits_key: str, walked: Walked | None = None) -> Features:
    """The features of enabled traits (with their enabled modifiers), of skills and spells, and
    of equipped items of the carried equipment (an item inside an unequipped container is not
    equipped), in GCS's order."""
    found: list[Feature] = []
    walked = {} if walked is None else walked
    for node, pointer, _ in section_nodes(data, traits_key, walked, skip_disabled=True):
        name = display_name(node)
        level = trait_level(node)
        _own_features(node, pointer, name, level, found)
        _modifier_features(node, pointer, name, level, found)
    for key in ("skills", "spells"):  # GCS counts them too (Brawling's +1 per die to punches)
        for node, pointer, _ in section_nodes(data, key, walked):
            if node_list(node, "features") and not is_container(node):
                _own_features(node, pointer, display_name(node), 0, found)
    for node, pointer in _equipped(node_list(data, "equipment"), "/equipment"):
        name = display_name(node)
        level = number(node, "level") or 0
        _own_features(node, pointer, name, level, found)
        _modifier_features(node, pointer, name, level, found)
    return Features(found)


def owner_features(node: Node, pointer: str, level: float) -> list[Feature]:
    """The features an item carries itself and through its enabled modifiers (whether or not the
    item is in force): GCS's weapons read their owner's "this weapon" bonuses from them."""
    found: list[Feature] = []
    name = display_name(node)
    _own_features(node, pointer, name, level, found)
    _modifier_features(node, pointer, name, level, found)
    return found


def _equipped(items: list[object], pointer: str) -> list[tuple[Node, str]]:
    """Carried items that are equipped, below equipped containers only, in file order."""
    kept: list[tuple[Node, str]] = []
    stack: list[tuple[list[object], int, str]] = [(items, 0, pointer)]
    while stack:
        nodes, index, base = stack.pop()
        while index < len(nodes):
            node = nodes[index]
            here = f"{base}/{index}"
            index += 1
            if type(node) is not dict or not boolean(node, "equipped"):
                continue
            quantity = number(node, "quantity")
            if quantity is not None and quantity <= 0:
                continue
            kept.append((node, here))
            kids = node.get("children")
            if type(kids) is list and kids and len(stack) + 1 < MAX_DEPTH:
                stack.append((nodes, index, base))
                stack.append((kids, 0, here + "/children"))
                break
    return kept


# ---------------------------------------------------------------- skill and spell bonuses


def spell_colleges(node: Node) -> list[str]:
    """A spell's colleges: a list since GCS 5; GCS 4.x (versions 1 and 2) saved one text, several
    colleges separated by slashes."""
    college = node.get("college")
    if type(college) is str:
        return [part.strip() for part in college.split("/") if part.strip()]
    return [c for c in node_list(node, "college") if type(c) is str]


def skill_bonuses(features: Features, node: Node, spell: bool) -> list[Feature]:
    """The features that give a skill (or spell) its GCS bonus: ``skill_bonus`` selecting skills
    by name, specialization and tags; for spells also ``spell_bonus`` by college, power source or
    name."""
    name = filled_text(node, "name").strip()
    specialization = filled_text(node, "specialization").strip()
    tags = [tag for tag in node_list(node, "tags") if type(tag) is str]
    weight = text_weight(name, specialization, *tags)
    budget = features.budget
    found = []
    for feature in features.skill_bonus_candidates(name):
        if weight and not budget.take(weight):
            break
        data = feature.data
        if (
            matches(data.get("name"), name)
            and matches(data.get("specialization"), specialization)
            and any_matches(data.get("tags"), tags)
        ):
            found.append(feature)
    if spell:
        colleges = spell_colleges(node)
        source = text(node, "power_source")
        weight = text_weight(name, source, *colleges, *tags)
        for feature in features.spell_bonus_candidates(colleges, source, name):
            if weight and not budget.take(weight):
                break
            data = feature.data
            match = text(data, "match") or "all_colleges"
            wanted = data.get("name")
            if (
                match == "all_colleges"
                or (match == "college_name" and any_matches(wanted, colleges))
                or (match == "power_source_name" and matches(wanted, source))
                or (match == "spell_name" and matches(wanted, name))
            ) and any_matches(data.get("tags"), tags):
                found.append(feature)
    return found
