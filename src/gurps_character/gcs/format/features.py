"""The features (bonuses) in force in a GCS character: from enabled traits and their enabled
modifiers, and from equipped, carried equipment. They explain where GCS's numbers come from."""

from __future__ import annotations

import bisect
import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass

from .fields import (
    MAX_DEPTH,
    Node,
    Walked,
    boolean,
    fill_placeholders,
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
    "MAX_COMPARISONS",
    "Budget",
    "CriterionIndex",
    "Feature",
    "Features",
    "WeaponIdentity",
    "collect_features",
    "display_name",
    "matches",
    "owner_features",
    "skill_bonuses",
    "spell_colleges",
    "text_weight",
    "trait_level",
    "weapon_amount",
    "weapon_bonuses",
    "weapon_skill_bonuses",
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
    name = text(node, "name") or text(node, "description")
    return fill_placeholders(name, node).strip()


MAX_COMPARISONS = 1_000_000
"""The most comparisons of a bonus (or a weapon default) with a skill, spell or weapon one import
makes. The importer finds the bonuses that may apply through indexes built once, so a real
character makes a few thousand at most; only a file built to make every item meet every bonus
(thousands of bonuses accepting any name, thousands of skills of one name) reaches the limit,
and it keeps the import's time linear in the file's size. The rest are not made, and a note says
so."""


class Budget:
    """What is left of :data:`MAX_COMPARISONS` in one import."""

    __slots__ = ("left", "ran_out")

    def __init__(self, comparisons: int) -> None:
        self.left = comparisons
        self.ran_out = False

    def take(self, count: int = 1) -> bool:
        """Spends ``count`` comparisons; False (and nothing spent) when fewer are left."""
        if count > self.left:
            self.left = 0
            self.ran_out = True
            return False
        self.left -= count
        return True


_NEGATIONS = frozenset({"is_not", "does_not_contain", "does_not_start_with", "does_not_end_with"})


class CriterionIndex:
    """Positions of features indexed once by one of their text criteria (GCS's ``{"compare",
    "qualifier"}``, or text meaning "is"), so that those that may accept a value are found
    without trying each: an exact name by lookup, a prefix, suffix or part of it by looking up
    the value's own prefixes, suffixes and parts of the lengths the criteria have. Criteria that
    accept nearly anything (``any``, the negations, none at all) are candidates for every value.
    A candidate is only a candidate: the caller still checks its criteria with :func:`matches`.
    Every lookup and every candidate is taken from the import's :class:`Budget`."""

    __slots__ = ("_budget", "_default", "_everything", "_exact", "_parts", "_prefixes", "_suffixes")

    def __init__(self, budget: Budget, default_compare: str = "is") -> None:
        self._budget = budget
        self._default = default_compare
        self._exact: dict[str, list[int]] = {}
        self._prefixes: _ByLength = _ByLength()
        self._suffixes: _ByLength = _ByLength()
        self._parts: _ByLength = _ByLength()
        self._everything: list[int] = []

    def add(self, criterion: object, position: int) -> None:
        """Indexes the feature at ``position`` (positions are added in increasing order)."""
        if type(criterion) is str:
            self._exact.setdefault(criterion.lower(), []).append(position)
            return
        if type(criterion) is not dict:
            self._everything.append(position)
            return
        compare = text(criterion, "compare") or self._default
        qualifier = text(criterion, "qualifier").lower()
        if compare == "is":
            self._exact.setdefault(qualifier, []).append(position)
        elif compare == "starts_with":
            self._prefixes.add(qualifier, position)
        elif compare == "ends_with":
            self._suffixes.add(qualifier, position)
        elif compare == "contains":
            self._parts.add(qualifier, position)
        elif compare == "any" or compare in _NEGATIONS:
            self._everything.append(position)
        # another comparison accepts nothing (as matches() says): the feature is left out

    def candidates(self, values: list[str]) -> list[int]:
        """The positions of the features that may accept one of ``values``, in order, each once,
        as many as the budget allows."""
        sources: list[list[int]] = [self._everything] if self._everything else []
        budget = self._budget
        for value in values:
            value = value.lower()
            if not budget.take(1 + len(value) // 256):
                return []
            found = self._exact.get(value)
            if found:
                sources.append(found)
            for by_length, side in ((self._prefixes, 1), (self._suffixes, -1), (self._parts, 0)):
                if by_length.lookups(value, side, budget, sources) is False:
                    return []
        return _take_merged(sources, budget)


def _take_merged(sources: list[list[int]], budget: Budget) -> list[int]:
    """The positions of sorted lists, merged in order, each once, as many as the budget allows
    (the budget runs out when there are more)."""
    if not sources:
        return []
    limit = budget.left
    if len(sources) == 1:
        found = sources[0][: limit + 1]
    else:
        found = list(itertools.islice(heapq.merge(*sources), limit + 1))
    if len(found) > limit:
        budget.take(limit + 1)  # more candidates than comparisons left: the budget runs out
        found = found[:limit]
    else:
        budget.take(len(found))
    return [position for position, _ in itertools.groupby(found)]


class _ByLength:
    """Qualifiers of one comparison (starts with, ends with, contains) by their length."""

    __slots__ = ("count", "lengths", "qualifiers")

    def __init__(self) -> None:
        self.qualifiers: dict[str, list[int]] = {}
        self.lengths: list[int] = []
        self.count = 0

    def add(self, qualifier: str, position: int) -> None:
        self.qualifiers.setdefault(qualifier, []).append(position)
        self.count += 1
        self.lengths = []  # sorted again at the first lookup

    def lookups(self, value: str, side: int, budget: Budget, sources: list[list[int]]) -> bool | None:
        """Adds the lists of the qualifiers ``value`` starts with (``side`` 1), ends with (-1) or
        contains (0); False when the budget ran out."""
        if not self.count:
            return None
        if not self.lengths:
            self.lengths = sorted({len(qualifier) for qualifier in self.qualifiers})
        usable = self.lengths[: bisect.bisect_right(self.lengths, len(value))]
        if side:
            if not budget.take(sum(1 + length // 256 for length in usable)):
                return False
            for length in usable:
                part = value[:length] if side > 0 else value[len(value) - length :]
                found = self.qualifiers.get(part)
                if found:
                    sources.append(found)
            return True
        cost = sum((len(value) - length + 1) * (1 + length // 256) for length in usable)
        scan = len(self.qualifiers) * (1 + len(value) // 256)
        if cost > scan:  # fewer qualifiers than parts: try each qualifier
            if not budget.take(scan):
                return False
            sources.extend(found for qualifier, found in self.qualifiers.items() if qualifier in value)
            return True
        if not budget.take(cost):
            return False
        seen: set[str] = set()
        for length in usable:
            for start in range(len(value) - length + 1):
                part = value[start : start + length]
                found = self.qualifiers.get(part)
                if found and part not in seen:
                    seen.add(part)
                    sources.append(found)
        return True


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
        return [everything[position] for position in _take_merged(found, self.budget)]

    def weapon_candidates(self, kinds: tuple[str, ...], skill: str, owner: str) -> list[Feature]:
        """The features of ``kinds`` in force that may reach a weapon (those selecting weapons by
        a required skill that may be ``skill``, or by a name that may be ``owner``), in the order
        of ``kinds``, then file order."""
        by_skill, everything = self.indexed(
            f"weapon-skill:{kinds}", kinds, _weapon_indexer("weapons_with_required_skill")
        )
        by_name, _ = self.indexed(f"weapon-name:{kinds}", kinds, _weapon_indexer("weapons_with_name"))
        found = [by_skill.candidates([skill]), by_name.candidates([owner])]
        return [everything[position] for position in _take_merged(found, self.budget)]

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


def text_weight(*texts: str) -> int:
    """What comparing these texts with a criterion costs beyond one comparison, in comparisons:
    one more per 256 characters (a long text costs what it takes to read)."""
    return sum(len(value) for value in texts) // 256 + len(texts) // 16


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


def _weapon_indexer(selection: str) -> Callable[[CriterionIndex, int, Feature], None]:
    def build(index: CriterionIndex, position: int, feature: Feature) -> None:
        if _selection(feature.data) == selection:
            index.add(feature.data.get("name"), position)

    return build


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


def matches(criteria: object, value: str) -> bool:
    """Whether a GCS string criterion (``{"compare": "starts_with", "qualifier": "piloting"}``)
    accepts a value; no criterion, or ``any``, accepts everything. Case-insensitive, as in GCS."""
    if type(criteria) is str:
        criteria = {"compare": "is", "qualifier": criteria}
    if type(criteria) is not dict:
        return True
    compare = text(criteria, "compare") or "is"
    if compare == "any":
        return True
    negated = compare.startswith(("is_not", "does_not_"))
    positive = _POSITIVE.get(compare)
    if positive is None:
        return False  # a comparison GCS does not have accepts nothing
    qualifier = text(criteria, "qualifier").lower()
    found = positive(value.lower(), qualifier)
    return not found if negated else found


_POSITIVE: dict[str, Callable[[str, str], bool]] = {
    "is": str.__eq__,
    "is_not": str.__eq__,
    "contains": lambda value, qualifier: qualifier in value,
    "does_not_contain": lambda value, qualifier: qualifier in value,
    "starts_with": str.startswith,
    "does_not_start_with": str.startswith,
    "ends_with": str.endswith,
    "does_not_end_with": str.endswith,
}
"""GCS's text comparisons (the negations by the comparison they negate)."""


def _any_matches(criteria: object, values: list[str]) -> bool:
    if type(criteria) is not dict or (text(criteria, "compare") or "any") == "any":
        return True
    return any(matches(criteria, value) for value in values)


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
    name = fill_placeholders(text(node, "name"), node).strip()
    specialization = fill_placeholders(text(node, "specialization"), node).strip()
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
            and _any_matches(data.get("tags"), tags)
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
                or (match == "college_name" and _any_matches(wanted, colleges))
                or (match == "power_source_name" and matches(wanted, source))
                or (match == "spell_name" and matches(wanted, name))
            ) and _any_matches(data.get("tags"), tags):
                found.append(feature)
    return found


# ---------------------------------------------------------------- weapon bonuses

_SELECTIONS = ("weapons_with_required_skill", "weapons_with_name", "this_weapon")


@dataclass(frozen=True, slots=True)
class WeaponIdentity:
    """What GCS matches a weapon bonus against.

    Attributes:
        owner: The owner's name (placeholders filled): "weapons with name" bonuses match it.
        usage: The weapon's usage (``Swung``): matched by the bonuses' specialization (or usage).
        tags: The owner's tags.
        skill: The name of the skill default with the best level ("" when none): "weapons with
            required skill" bonuses match it.
        specialization: That default's specialization.
        relative_level: The best relative level among the character's skills of that name and
            specialization that have points, or None when there is none.
        own: The owner's own features (and its enabled modifiers'), for "this weapon" bonuses.
    """

    owner: str
    usage: str
    tags: tuple[str, ...]
    skill: str
    specialization: str
    relative_level: float | None
    own: tuple[Feature, ...]


def _selection(data: Node) -> str:
    selection = text(data, "selection_type")
    return selection if selection in _SELECTIONS else "weapons_with_required_skill"


def _numeric_matches(criteria: object, value: float | None) -> bool:
    """A GCS numeric criterion (``{"compare": "at_least", "qualifier": 2}``, by default at least
    0); None is GCS's "no such skill", below every number."""
    if type(criteria) is not dict:
        criteria = {}
    compare = text(criteria, "compare") or "at_least"
    qualifier = number(criteria, "qualifier") or 0
    if compare == "any":
        return True
    if value is None:
        return compare in ("is_not", "at_most")
    checks = {
        "is": value == qualifier,
        "is_not": value != qualifier,
        "at_least": value >= qualifier,
        "at_most": value <= qualifier,
    }
    return checks.get(compare, True)


def _named_weapon(data: Node, weapon: WeaponIdentity) -> bool:
    return (
        matches(data.get("name"), weapon.owner)
        and matches(data.get("specialization"), weapon.usage)
        and _any_matches(data.get("tags"), list(weapon.tags))
    )


def _with_skill(data: Node, weapon: WeaponIdentity) -> bool:
    return (
        _numeric_matches(data.get("level"), weapon.relative_level)
        and matches(data.get("name"), weapon.skill)
        and matches(data.get("specialization"), weapon.specialization)
        and matches(data.get("usage"), weapon.usage)
        and _any_matches(data.get("tags"), list(weapon.tags))
    )


def _reaches(feature: Feature, weapon: WeaponIdentity, selections: tuple[str, ...]) -> bool:
    """Whether a weapon feature of one of the selections picks the weapon."""
    selection = _selection(feature.data)
    if selection not in selections:
        return False
    if selection == "weapons_with_required_skill":
        return _with_skill(feature.data, weapon)
    if selection == "weapons_with_name":
        return _named_weapon(feature.data, weapon)
    return matches(feature.data.get("specialization"), weapon.usage)


def weapon_bonuses(features: Features, weapon: WeaponIdentity, kinds: tuple[str, ...]) -> list[Feature]:
    """The features of the given kinds (``weapon_bonus``, ``weapon_parry_bonus`` ...) that reach
    one weapon, each once, as GCS gathers them: those in force that select weapons by required
    skill (name, specialization, usage, tags, and the skill's relative level) or by name (the
    owner's name, the usage as specialization, tags), then the owner's own ones that select
    "this weapon" (by usage) or weapons by name."""
    found: list[Feature] = []
    budget = features.budget
    weight = _weapon_weight(weapon)
    for feature in features.weapon_candidates(kinds, weapon.skill, weapon.owner):
        if weight and not budget.take(weight):
            break
        if _reaches(feature, weapon, ("weapons_with_required_skill", "weapons_with_name")):
            found.append(feature)
    if not weapon.own or not budget.take(len(weapon.own) * (1 + weight)):
        return found
    seen = {feature.pointer for feature in found}
    for feature in weapon.own:
        if (
            feature.kind in kinds
            and feature.pointer not in seen
            and _reaches(feature, weapon, ("this_weapon", "weapons_with_name"))
        ):
            found.append(feature)
    return found


def _weapon_weight(weapon: WeaponIdentity) -> int:
    return text_weight(weapon.owner, weapon.usage, weapon.skill, weapon.specialization, *weapon.tags)


def weapon_amount(feature: Feature, dice: int = 1) -> float:
    """A weapon bonus's amount for a weapon of ``dice`` dice: times the dice when it is per die
    (``per_die``, or ``per_level`` as GCS 4 wrote it), times its owner's level when it is
    ``leveled``; 0 for negative dice or levels, as GCS."""
    data = feature.data
    amount = number(data, "amount") or 0
    if boolean(data, "per_die") or boolean(data, "per_level"):
        if dice < 0:
            return 0
        amount *= dice
    if boolean(data, "leveled"):
        if feature.level < 0:
            return 0
        amount *= feature.level
    return amount


def weapon_skill_bonuses(features: Features, weapon: WeaponIdentity) -> list[Feature]:
    """The skill bonuses GCS adds to a weapon's level: those in force that select weapons by
    name (the owner's name, the usage as specialization, tags), and the owner's own "this
    weapon" ones (by usage)."""
    index, everything = features.indexed(
        "weapon-level", ("skill_bonus",), _weapon_indexer("weapons_with_name")
    )
    budget = features.budget
    weight = _weapon_weight(weapon)
    found = []
    for position in index.candidates([weapon.owner]):
        if weight and not budget.take(weight):
            break
        feature = everything[position]
        if text(feature.data, "selection_type") == "weapons_with_name" and _named_weapon(
            feature.data, weapon
        ):
            found.append(feature)
    if not weapon.own or not budget.take(len(weapon.own) * (1 + weight)):
        return found
    for feature in weapon.own:
        if (
            feature.kind == "skill_bonus"
            and text(feature.data, "selection_type") == "this_weapon"
            and matches(feature.data.get("specialization"), weapon.usage)
        ):
            found.append(feature)
    return found
