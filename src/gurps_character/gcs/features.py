"""The features (bonuses) in force in a GCS character: from enabled traits and their enabled
modifiers, and from equipped, carried equipment. They explain where GCS's numbers come from."""

from __future__ import annotations

from dataclasses import dataclass

from ._fields import (
    Node,
    boolean,
    fill_placeholders,
    kind_of,
    mapping,
    node_list,
    number,
    number_or_text,
    text,
    walk,
)

__all__ = ["Feature", "Features", "collect_features", "trait_level"]


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
        for feature in features:
            self._by_kind.setdefault(feature.kind, []).append(feature)

    def of_kind(self, kind: str) -> list[Feature]:
        return self._by_kind.get(kind, [])

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
    for modifier, where, _ in walk(node_list(node, "modifiers"), pointer + "/modifiers", skip_disabled=True):
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
    """The features of enabled traits (with their enabled modifiers) and of equipped items of
    the carried equipment (an item inside an unequipped container is not equipped)."""
    found: list[Feature] = []
    for node, pointer, _ in walk(node_list(data, traits_key), f"/{traits_key}", skip_disabled=True):
        name = display_name(node)
        level = trait_level(node)
        _own_features(node, pointer, name, level, found)
        _modifier_features(node, pointer, name, level, found)
    for node, pointer, _ in _equipped(node_list(data, "equipment"), "/equipment"):
        name = display_name(node)
        level = number(node, "level") or 0
        _own_features(node, pointer, name, level, found)
        _modifier_features(node, pointer, name, level, found)
    return Features(found)


def _equipped(items: list[object], pointer: str) -> list[tuple[Node, str, int]]:
    """Carried items that are equipped, below equipped containers only."""
    kept: list[tuple[Node, str, int]] = []
    stack: list[tuple[list[object], str]] = [(items, pointer)]
    while stack:
        nodes, base = stack.pop()
        for index, node in enumerate(nodes):
            if type(node) is not dict or not boolean(node, "equipped"):
                continue
            quantity = number(node, "quantity")
            if quantity is not None and quantity <= 0:
                continue
            here = f"{base}/{index}"
            kept.append((node, here, 0))
            kids = node.get("children")
            if type(kids) is list and kids:
                stack.append((kids, here + "/children"))
    return kept
