"""The features (bonuses) in force in a GCS character: from enabled traits and their enabled
modifiers, and from equipped, carried equipment. They explain where GCS's numbers come from."""

from __future__ import annotations

from dataclasses import dataclass

from ._fields import (
    MAX_DEPTH,
    Node,
    boolean,
    fill_placeholders,
    is_container,
    kind_of,
    mapping,
    node_list,
    number,
    number_or_text,
    text,
    walk,
)

__all__ = [
    "Feature",
    "Features",
    "WeaponIdentity",
    "collect_features",
    "display_name",
    "matches",
    "owner_features",
    "skill_bonuses",
    "spell_colleges",
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


class Features:
    """The features in force, by kind."""

    def __init__(self, features: list[Feature]) -> None:
        self.all = features
        self._by_kind: dict[str, list[Feature]] = {}
        self._skill_index: dict[str, list[int]] | None = None
        self._skill_other: list[int] = []
        for feature in features:
            self._by_kind.setdefault(feature.kind, []).append(feature)

    def of_kind(self, kind: str) -> list[Feature]:
        return self._by_kind.get(kind, [])

    def skill_bonus_candidates(self, name: str) -> list[Feature]:
        """The ``skills_with_name`` skill bonuses that may apply to a skill name, in file order:
        those naming it exactly and those with another kind of name criterion."""
        if self._skill_index is None:
            self._skill_index, self._skill_other = {}, []
            for position, feature in enumerate(self.of_kind("skill_bonus")):
                data = feature.data
                if (text(data, "selection_type") or "skills_with_name") != "skills_with_name":
                    continue
                criterion = data.get("name")
                if type(criterion) is dict and (text(criterion, "compare") or "is") == "is":
                    criterion = text(criterion, "qualifier")
                if type(criterion) is str:
                    self._skill_index.setdefault(criterion.lower(), []).append(position)
                else:
                    self._skill_other.append(position)
        positions = self._skill_index.get(name.lower(), [])
        if self._skill_other:
            positions = sorted(positions + self._skill_other)
        everything = self.of_kind("skill_bonus")
        return [everything[position] for position in positions]

    def attribute_bonuses(self, attribute: str, limitation: str = "") -> list[Feature]:
        """``attribute_bonus`` features for an attribute id (``limitation`` ``""`` for plain ones,
        or ``striking_only``, ``lifting_only``, ``throwing_only``)."""
        found = []
        for feature in self.of_kind("attribute_bonus"):
            if text(feature.data, "attribute").lower() != attribute:
                continue
            limit = text(feature.data, "limitation")
            if (limit in ("", "none") and not limitation) or limit == limitation:
                found.append(feature)
        return found

    def attribute_bonus(self, attribute: str, limitation: str = "") -> float:
        return sum(feature.amount() for feature in self.attribute_bonuses(attribute, limitation))


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


def collect_features(data: Node, traits_key: str) -> Features:
    """The features of enabled traits (with their enabled modifiers), of skills and spells, and
    of equipped items of the carried equipment (an item inside an unequipped container is not
    equipped), in GCS's order."""
    found: list[Feature] = []
    for node, pointer, _ in walk(node_list(data, traits_key), f"/{traits_key}", skip_disabled=True):
        name = display_name(node)
        level = trait_level(node)
        _own_features(node, pointer, name, level, found)
        _modifier_features(node, pointer, name, level, found)
    for key in ("skills", "spells"):  # GCS counts them too (Brawling's +1 per die to punches)
        for node, pointer, _ in walk(node_list(data, key), f"/{key}"):
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
    qualifier = text(criteria, "qualifier").lower()
    value = value.lower()
    checks = {
        "any": True,
        "is": value == qualifier,
        "is_not": value != qualifier,
        "contains": qualifier in value,
        "does_not_contain": qualifier not in value,
        "starts_with": value.startswith(qualifier),
        "does_not_start_with": not value.startswith(qualifier),
        "ends_with": value.endswith(qualifier),
        "does_not_end_with": not value.endswith(qualifier),
    }
    return checks.get(compare, False)


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
    found = []
    for feature in features.skill_bonus_candidates(name):
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
        for feature in features.of_kind("spell_bonus"):
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
    for kind in kinds:
        for feature in features.of_kind(kind):
            if _reaches(feature, weapon, ("weapons_with_required_skill", "weapons_with_name")):
                found.append(feature)
    for feature in weapon.own:
        if (
            feature.kind in kinds
            and _reaches(feature, weapon, ("this_weapon", "weapons_with_name"))
            and all(feature.pointer != other.pointer for other in found)
        ):
            found.append(feature)
    return found


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
    found = [
        feature
        for feature in features.of_kind("skill_bonus")
        if text(feature.data, "selection_type") == "weapons_with_name" and _named_weapon(feature.data, weapon)
    ]
    for feature in weapon.own:
        if (
            feature.kind == "skill_bonus"
            and text(feature.data, "selection_type") == "this_weapon"
            and matches(feature.data.get("specialization"), weapon.usage)
        ):
            found.append(feature)
    return found
