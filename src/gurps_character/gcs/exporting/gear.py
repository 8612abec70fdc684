"""Weapons for an exported character: each on its item (or, without cost and weight, on a
trait, as GCS keeps natural attacks), with the skill it is used with, its damage and level as GCS
resolves them; the Parry and Block GCS computes from them, made the document's.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from ..._notation import HIT_TYPES, NotationError, parse_notation
from ..._phrases import PhraseIndex
from ..format.weapon_damage import damage_from_calc
from .lists import split_skill_name
from .sheet import (
    ADJUSTMENTS,
    EQUIPMENT_KEYS,
    LIMIT,
    WEAPON_CALC_KEYS,
    Derived,
    SheetBase,
    dice_text,
    leading_int,
    order_damage,
    plain,
    reordered,
    signed,
    text_of,
)

__all__ = ["GearPart"]

_PARRY: Final = re.compile(r"\s*[+-]?\d+\s*([FU]*)\s*", re.IGNORECASE)

_RULE_OF_20: Final = 20
_BASE_NAMES: Final = MappingProxyType({"thr": "thrust", "sw": "swing"})
"""The document's names of GCS's ``st`` bases."""
_NOT_WORD: Final = re.compile(r"[^a-z0-9]+")
_WORD: Final = re.compile(r"[a-z0-9]+")
"""The words :data:`_NOT_WORD` leaves."""
_ASCII_WORD_CHARACTERS: Final = "".join(
    character if character.isascii() and (character.isdigit() or character.islower()) else " "
    for character in map(chr, range(128))
)
"""The ASCII characters as :data:`_NOT_WORD` leaves them (by code): letters a-z and digits, all
others a space (a table for ``str.translate``)."""
_SHIELD: Final = re.compile(r"\bshield\b", re.IGNORECASE)
_LAST_PARENTHESES: Final = re.compile(r"\s*\([^()]*\)\s*$")


_RANGED_TEXTS: Final = (
    ("minST", "strength"),
    ("accuracy", "accuracy"),
    ("range", "range"),
    ("rateOfFire", "rate_of_fire"),
    ("shots", "shots"),
)
"""A ranged weapon's texts: the document's key and GCS's, in GCS's order."""


_Recipe = tuple[str | None, int, str]
"""How a mode's damage resolves, read when it was made (:func:`_common_damage`): ``thr`` or
``sw`` with its adds and the damage word, or None, 0 and the resolved text (fixed dice)."""
_Mode = tuple[dict[str, Any], str | None, int, int, int | None, tuple[int, str] | None, _Recipe | None]
"""A weapon mode written: its GCS node; the skill it is used with; the weapon's index and the
damage line's (-1 for a ranged weapon), which make its pointer when a note needs it; its minimum
ST; its parry's modifier and flags (None when it cannot parry); its damage's recipe (None when
the damage is not of the common form)."""


class GearPart(SheetBase):
    """Weapons, Parry and Block."""

    _modes: Sequence[_Mode] = ()
    """The weapon modes written, for their levels, damage and parry (set by :meth:`_weapons`)."""
    _skill_finder: _SkillFinder | None = None
    """The skills indexed for the weapons' (made for the first weapon)."""
    _skill_places: dict[str, int] | None = None
    """Where each skill name is first in ``skill_names`` (made when first asked)."""

    def _weapons(self) -> None:
        weapons = self.doc.get("weapons", {})
        modes: list[_Mode] = []
        self._modes = modes
        for kind in ("melee", "ranged"):
            for index, weapon in enumerate(weapons.get(kind, [])):
                raw = weapon["name"]
                name = raw.strip() if type(raw) is str else None
                if name is None or name != raw:
                    name = self.name(raw, f"/weapons/{kind}/{index}/name", "weapon")
                cost = weapon.get("cost", 0)  # (none is 0, as cost_and_weight reads it)
                weight = weapon.get("weight", 0)
                if (
                    (type(cost) is not int and type(cost) is not float)
                    or not -LIMIT <= cost <= LIMIT
                    or (type(weight) is not int and type(weight) is not float)
                    or not -LIMIT <= weight <= LIMIT
                ):  # (the usual numbers need no pointer for a note)
                    cost, weight = self.cost_and_weight(weapon, f"/weapons/{kind}/{index}")
                owner: dict[str, Any]
                if cost or weight or "cost" in weapon or "weight" in weapon:
                    owner = self.new_item(name, cost, weight, text_of(weapon.get("notes")))
                    if weapon.get("legalityClass") is not None:
                        owner["legality_class"] = str(weapon["legalityClass"])
                        owner = reordered(owner, EQUIPMENT_KEYS)
                        self.equipment[-1] = owner
                        self.item_by_name[name] = self.item_by_name.get(name) or owner
                else:
                    owner = self.new_trait(
                        name, 0, ["Advantage", "Natural Attack"], text_of(weapon.get("notes"))
                    )
                    self.note(
                        f"/weapons/{kind}/{index}",
                        "added",
                        f"'{name[:60]}' has no cost or weight: in the GCS file it is a 0-point trait with "
                        "the "
                        "weapon (GCS keeps natural attacks on traits).",
                    )
                skill = self._weapon_skill(weapon, name, kind, index)
                if kind == "melee":
                    self._melee(weapon, owner["weapons"], skill, index, modes)
                else:
                    self._ranged(weapon, owner["weapons"], skill, index, modes)

    def _weapon_skill(self, weapon: Mapping[str, Any], name: str, kind: str, index: int) -> str | None:
        """The document skill a weapon (``name``, stripped) is used with: one named as the weapon
        (its name, or its name without a parenthesized part), else the longest skill name its notes
        mention, else the longest one its name contains as words; None (a DX default) when none
        fits."""
        finder = self._skill_finder
        if finder is None:  # made for the first weapon
            finder = self._skill_finder = _SkillFinder(self.skill_names)
        found = finder.named(name)
        if found is None:
            notes = weapon.get("notes")
            if isinstance(notes, str) and notes:
                found = finder.in_notes(notes.lower())
        if found is None:
            found = finder.in_words(name.lower())
        if found is not None:
            return found
        self.note(
            f"/weapons/{kind}/{index}",
            "defaulted",
            f"No skill of the document goes by the weapon '{name[:60]}': in GCS it defaults to DX-4.",
        )
        return None

    def _defaults(self, skill: str | None) -> list[dict[str, Any]]:
        """A GCS weapon's defaults: its skill's (GCS's name and specialization), or DX-4."""
        if skill is None:
            return [{"type": "dx", "modifier": -4}]
        parts = self.skill_parts.get(skill)
        if parts is None:  # as ListsPart._skills reads it, which takes it from here
            parts = self.skill_parts[skill] = split_skill_name(skill)
        name, spec, _ = parts
        if spec:
            return [{"type": "skill", "name": name, "specialization": spec}]
        return [{"type": "skill", "name": name}]

    def _melee(
        self,
        weapon: Mapping[str, Any],
        owned: list[dict[str, Any]],
        skill: str | None,
        index: int,
        modes: list[_Mode],
    ) -> None:
        """A GCS melee weapon for each of a weapon's damage lines, added to its owner's ``owned``
        weapons and to ``modes``."""
        reach = weapon.get("reach")
        parry = weapon.get("parry")
        parry_text: str | None = None
        parried: tuple[int, str] | None = None
        if type(parry) is dict or isinstance(parry, Mapping):
            parry_text, parried = _parry(parry)
        defaults = self._defaults
        new_id = self.ids.new
        for line, damage in enumerate(weapon.get("damage", []) or _NO_DAMAGE):
            notation = damage.get("notation")
            notation = notation.strip() if type(notation) is str else text_of(notation).strip()
            common = _common_damage(notation)
            if common is None:
                fields, recipe = self._damage(notation, f"/weapons/melee/{index}/damage/{line}"), None
            else:
                fields, recipe = common
            if reach and parry_text is not None:  # the usual mode, made at once (the same order)
                node: dict[str, Any] = {
                    "id": new_id("melee_weapon"),
                    "sv": 1,
                    "damage": fields,
                    "reach": reach,
                    "parry": parry_text,
                    "defaults": defaults(skill),
                }
            else:
                node = {"id": new_id("melee_weapon"), "sv": 1, "damage": fields}
                if reach:
                    node["reach"] = reach
                if parry_text is not None:
                    node["parry"] = parry_text
                node["defaults"] = defaults(skill)
            modes.append((node, skill, index, line, None, parried, recipe))
            owned.append(node)

    def _ranged(
        self,
        weapon: Mapping[str, Any],
        owned: list[dict[str, Any]],
        skill: str | None,
        index: int,
        modes: list[_Mode],
    ) -> None:
        """A ranged weapon's GCS weapon, added to its owner's ``owned`` weapons and to ``modes``."""
        node: dict[str, Any] = {"id": self.ids.new("ranged_weapon"), "sv": 1}
        damage = weapon.get("damage") or _NO_DAMAGE[0]
        notation = damage.get("notation")
        notation = notation.strip() if type(notation) is str else text_of(notation).strip()
        common = _common_damage(notation)
        recipe: _Recipe | None = None
        if common is None:
            node["damage"] = self._damage(notation, f"/weapons/ranged/{index}/damage")
        else:
            node["damage"], recipe = common
        for key, target in _RANGED_TEXTS:
            value = weapon.get(key)
            if key == "range":
                value = value.get("notation") if type(value) is dict or isinstance(value, Mapping) else None
            if value:
                node[target] = value
        bulk = weapon.get("bulk")
        if bulk is not None:
            if type(bulk) is not int or not -LIMIT <= bulk <= LIMIT:  # (the usual need no pointer)
                bulk = int(self.bounded(bulk, f"/weapons/ranged/{index}/bulk", "Bulk"))
            node["bulk"] = str(bulk)
        recoil = weapon.get("recoil")
        if recoil is not None:
            if type(recoil) is not int or not -LIMIT <= recoil <= LIMIT:
                recoil = int(self.bounded(recoil, f"/weapons/ranged/{index}/recoil", "Recoil"))
            node["recoil"] = str(recoil)
        node["defaults"] = self._defaults(skill)
        modes.append((node, skill, index, -1, _minimum_st(node.get("strength")), None, recipe))
        owned.append(node)

    def _damage(self, notation: str, pointer: str) -> dict[str, Any]:
        """GCS's damage fields for a damage line's notation (stripped) not of the common form
        (its text as written when GCS has no fields for it)."""
        if not notation:
            self.note(f"{pointer}/notation", "differs", "A damage text of only spaces is no damage in GCS.")
        fields = _damage_fields(notation)
        if fields is None:
            if notation and notation != "-":
                read_as_dice = damage_from_calc(notation).roll is not None
                self.note(
                    f"{pointer}/notation",
                    "differs" if read_as_dice else "approximated",
                    f"GCS has no damage fields for '{notation[:60]}': the file holds it as the damage "
                    "type's text"
                    + (", which GCS shows as it is and which reads as dice there." if read_as_dice else "."),
                )
            return {"type": notation if notation != "-" else ""}
        return fields

    def _skill_level(self, skill: str | None) -> float:
        """A weapon's level from its skill, or from its DX-4 default (GCS's rule of 20: an
        attribute counts at most 20 for a default)."""
        if skill is not None:
            position = self._skill_place(skill)
            if position is not None:  # (else not the document's: a DX default)
                level = self.doc["skills"][position].get("level")
                if type(level) is int and -LIMIT <= level <= LIMIT:
                    return level
                return math.floor(self.bounded(level, "", "Skill level"))
        return min(self.values["dx"], _RULE_OF_20) - 4

    def _weapon_details(self, derived: Derived) -> None:
        """Each weapon's computed values (level, resolved damage, parry) and the document's
        thrust or swing difference carried in its damage."""
        modes = self._modes
        if not modes:
            return
        st = self.values["st"]
        striking = st + derived.striking
        encumbrance: int | None = None  # worked out for the first fencing parry: most have none
        shift = derived.shift
        shifted = bool(shift)
        thrust = derived.thrust
        swing = derived.swing
        bases = self.defense_bases
        levels: dict[str | None, float] = {}  # a skill's level read once (a note on it is made once anyway)
        for node, skill, index, line, minimum, parried, recipe in modes:
            level = levels.get(skill)
            if level is None:
                level = levels[skill] = self._skill_level(skill)
            if minimum is not None and minimum > striking:
                level -= minimum - striking
            if parried is not None and "F" in parried[1]:  # a fencing parry loses the encumbrance level
                if encumbrance is None:
                    encumbrance = self.encumbrance_level(derived.lift_pounds)
                penalty = encumbrance
            else:
                penalty = 0
            # GCS's parry and block halve the default's level before the fencing penalty and
            # the floor at 0 (truncating toward zero)
            bases.append(3 + math.trunc(level / 2) - penalty)
            level -= penalty
            if level < 0:
                level = 0
            if shifted and _BASE_NAMES.get(node["damage"].get("st", "")) in shift:  # (_shift_damage's test)
                self._shift_damage(node, _mode_pointer(index, line), derived)
                recipe = None  # (the damage may be another now)
            if minimum is not None and minimum > 0 and 3 * minimum < striking:  # (_uncap_damage's test)
                self._uncap_damage(node, _mode_pointer(index, line), minimum, striking)
            calc: dict[str, Any] = {}
            if level:
                calc["level"] = level if type(level) is int else plain(level)
            if recipe is None:
                resolved = _resolved_damage(node["damage"], {"thr": thrust, "sw": swing})
                if resolved:
                    calc["damage"] = resolved
            else:
                calc["damage"] = _recipe_text(recipe, thrust, swing)
            if line < 0:  # a ranged weapon's muscle-powered range
                reach = node.get("range")
                if reach and isinstance(reach, str):
                    muscle = _muscle_range(reach, st)
                    if muscle:
                        calc["range"] = muscle
            if calc or parried is not None:  # (GCS leaves an empty calc out; a parry may fill this one)
                node["calc"] = calc

    def _uncap_damage(self, node: dict[str, Any], pointer: str, minimum: int | None, striking: float) -> None:
        """GCS figures a weapon's thrust or swing at no more than 3 times its minimum ST; where the
        wielder's ST is above that, the minimum is left out, so GCS deals the document's damage."""
        if minimum is None or minimum <= 0 or striking <= 3 * minimum:
            return
        if node["damage"].get("st") not in ("thr", "sw"):
            return
        del node["strength"]
        self.note(
            f"{pointer}/minST",
            "notCarried",
            f"The minimum ST {minimum} is not in the file: GCS would figure the damage at ST "
            f"{3 * minimum} at most (3 times the minimum), where the document figures it at the "
            f"wielder's ST {plain(striking)}.",
        )

    def _shift_damage(self, node: dict[str, Any], pointer: str, derived: Derived) -> None:
        damage = node["damage"]
        base = _BASE_NAMES.get(damage.get("st", ""))
        if base is None or base not in derived.shift:
            return
        want, got = derived.shift[base], derived.thrust if base == "thrust" else derived.swing
        adds = int(damage.get("base", "0") or 0)
        if want[0] == got[0]:
            adds += want[1] - got[1]
            damage.pop("base", None)
            if adds:
                damage["base"] = str(adds)
            if "armor_divisor" in damage:  # the one key GCS writes after the base
                order_damage(damage)
            self.note(
                pointer,
                "approximated",
                f"In GCS this damage is {damage.get('st')}{signed(adds) if adds else ''}: the document's "
                f"{base} "
                f"{dice_text(*want)} is not GCS's {dice_text(*got)}.",
            )
            return
        fixed = dice_text(want[0], want[1] + adds)
        damage.pop("st", None)
        damage["base"] = fixed
        if "armor_divisor" in damage:
            order_damage(damage)
        self.note(
            pointer,
            "approximated",
            f"In GCS this damage is a fixed {fixed}: the document's {base} {dice_text(*want)} is not GCS's "
            f"{dice_text(*got)}, so it no longer follows ST in GCS.",
        )

    def _defense(self, key: str, derived: Derived) -> None:
        """The best parry (or block) GCS computes from the weapons, made the document's."""
        stored = _defenses(self.doc, key)
        raw = stored.get("value")
        wanted: int | None
        if type(raw) is int and -LIMIT <= raw <= LIMIT:
            wanted = raw
        else:
            wanted = (
                None if raw is None else math.floor(self.bounded(raw, f"/defenses/{key}/value", key.title()))
            )
        best: int | None = None
        able: list[tuple[dict[str, Any], int, str]] = []  # mode, defense, flags
        if key == "parry":  # (the document's weapons give no block: a block comes from _carrier)
            for (node, _, _, _, _, parried, _), base in zip(self._modes, self.defense_bases, strict=True):
                if parried is not None:
                    modifier, flags = parried
                    value = base + modifier
                    able.append((node, value, flags))
                    if best is None or value > best:
                        best = value
        bonus = 0
        if wanted is not None and wanted < 0:
            self.note(
                f"/defenses/{key}/value",
                "differs",
                f"GCS shows no {key.title()} below 0: the document's {wanted} is 0 in GCS.",
            )
            wanted = 0
        if wanted is None:
            if best is not None:
                self.note(
                    f"/defenses/{key}/value",
                    "differs",
                    f"The document has no {key.title()}, but GCS gives {best} with the weapons that can "
                    f"{key}.",
                )
        elif best is None:
            self._carrier(key, stored.get("skill"), wanted, derived)
        elif best != wanted:
            bonus = wanted - best
            self.adjust(
                {"type": "attribute_bonus", "attribute": key, "amount": bonus},
                f"{signed(bonus)} {key.title()}: the document's {key.title()} {wanted} where its best "
                f"weapon gives {best}",
            )
            derived.calc_bonuses[f"{key}_bonus"] = bonus
            derived.calc[f"{key}_bonus"] = bonus
            self.note(
                f"/defenses/{key}/value",
                "deviation",
                f"{key.title()} {wanted} where the weapons give {best}{self.why(f'/defenses/{key}/value')}: "
                "GCS adds "
                f"{signed(bonus)} {key.title()} from '{ADJUSTMENTS}'.",
            )
        for node, value, flags in able:
            text = f"{max(value + bonus, 0)}{flags}"
            calc = node["calc"]
            if text != node[key]:
                calc[key] = text
                if "range" in calc:  # the one key of _weapon_details' that GCS writes after these
                    node["calc"] = reordered(calc, WEAPON_CALC_KEYS)
            elif not calc:  # (left empty: GCS leaves it out)
                del node["calc"]

    def _carrier(self, key: str, skill: object, wanted: int, derived: Derived) -> None:
        """A weapon mode that gives the document's Parry or Block when no weapon of it does: a
        shield's bash for Block (on the document's shield, when it has one), else a mode on the
        skill the defense comes from."""
        skill_name = skill.strip() if isinstance(skill, str) else None
        if skill_name is not None and self._skill_place(skill_name) is None:
            skill_name = None
        level = self._skill_level(skill_name)
        modifier = wanted - 3 - math.trunc(level / 2)
        title = key.title()
        node: dict[str, Any] = {"id": self.ids.new("melee_weapon"), "sv": 1}
        shield = _shield(self.item_by_name) if key == "block" else None
        if shield is not None:
            node["damage"] = {"type": "cr", "st": "thr"}
            node["usage"] = usage = "Shield Bash"
            node["reach"] = "1"
            owner_name = shield["description"]
            owner = shield
        else:
            node["damage"] = {"type": ""}
            node["usage"] = usage = title
            owner = self._skill_node(skill_name) if skill_name is not None else self.adjustments_trait()
            owner_name = skill_name or ADJUSTMENTS
        node[key] = str(modifier)
        node["defaults"] = self._defaults(skill_name)
        calc: dict[str, Any] = {}
        if level > 0:
            calc["level"] = plain(max(level, 0))
        if shield is not None:  # a bash: thrust crushing (_resolved_damage's text of it)
            calc["damage"] = f"{dice_text(*derived.thrust)} cr"
        calc[key] = str(wanted)
        node["calc"] = calc
        owner["weapons"].append(node)
        self.note(
            f"/defenses/{key}/value",
            "added",
            f"GCS computes {title} from a weapon that can {key}; none of the document's does: the "
            "file gives "
            f"'{owner_name[:60]}' a '{usage}' mode with {key} {modifier}, for {title} "
            f"{wanted}.",
        )

    def _skill_node(self, skill: str) -> dict[str, Any]:
        position = self._skill_place(skill)
        if position is None:
            return self.adjustments_trait()
        return self.skills[position]  # (a node for each skill, in order)

    def _skill_place(self, skill: str) -> int | None:
        """Where ``skill`` is first in ``skill_names`` (indexed once: a search per weapon's
        skill would cost weapons x skills)."""
        places = self._skill_places
        if places is None:
            places = self._skill_places = {}
            for place, name in enumerate(self.skill_names):
                places.setdefault(name, place)
        return places.get(skill)


_COMMON_DAMAGE: Final = re.compile(r"(?:(thr|sw)|([0-9]{1,6})d)([+-][0-9]{1,6})? ([a-z]+|pi\+\+|pi\+|pi-)")
"""The damage most weapons have (``sw+1 cut``, ``thr imp``, ``2d-1 pi+``): ``thr``, ``sw`` or dice,
adds, one space and the damage word, read without :func:`parse_notation` (a sixth of its time)."""

_NO_DAMAGE: Final = (MappingProxyType({"notation": "-"}),)
"""The damage line of a weapon without one."""


def _common_heads() -> Mapping[str, tuple[str | None, int, str | None]]:
    """The usual first parts of a common damage (``thr``, ``sw-2``, ``2d+1``) as
    :func:`_matched_damage` reads them: ``thr`` or ``sw`` with its adds and their text (None for
    no adds), or None, 0 and the dice's text."""
    heads: dict[str, tuple[str | None, int, str | None]] = {}
    for strength in ("thr", "sw"):
        heads[strength] = (strength, 0, None)
        for adds in range(1, 21):
            heads[f"{strength}+{adds}"] = (strength, adds, str(adds))
            heads[f"{strength}-{adds}"] = (strength, -adds, str(-adds))
    for dice in range(1, 13):
        heads[f"{dice}d"] = (None, 0, dice_text(dice, 0))
        for adds in range(1, 7):
            heads[f"{dice}d+{adds}"] = (None, 0, dice_text(dice, adds))
            heads[f"{dice}d-{adds}"] = (None, 0, dice_text(dice, -adds))
    return MappingProxyType(heads)


_COMMON_HEADS: Final = _common_heads()
_HIT_TYPES: Final = frozenset(HIT_TYPES)


def _common_damage(notation: str) -> tuple[dict[str, Any], _Recipe] | None:
    """:func:`_damage_fields` of a notation of :data:`_COMMON_DAMAGE`'s form, with how they
    resolve (:func:`_resolved_damage`'s text of them, thrust and swing left to fill in); None for
    any other notation. The usual ones (:data:`_COMMON_HEADS` and a hit type) are looked up."""
    head, _, kind = notation.partition(" ")
    known = _COMMON_HEADS.get(head) if kind in _HIT_TYPES else None
    if known is None:
        return _matched_damage(notation)
    strength, amount, base = known
    if strength is None:
        return {"type": kind, "base": base}, (None, 0, f"{base} {kind}")
    if base is None:
        return {"type": kind, "st": strength}, (strength, 0, kind)
    return {"type": kind, "st": strength, "base": base}, (strength, amount, kind)


def _matched_damage(notation: str) -> tuple[dict[str, Any], _Recipe] | None:
    """:func:`_common_damage` by :data:`_COMMON_DAMAGE`."""
    match = _COMMON_DAMAGE.fullmatch(notation)
    if match is None:
        return None
    strength, dice, adds, kind = match.groups()
    amount = int(adds) if adds else 0
    if strength is None:
        base = dice_text(int(dice), amount)
        return {"type": kind, "base": base}, (None, 0, f"{base} {kind}")
    if strength == "thr":
        if amount:
            return {"type": kind, "st": "thr", "base": str(amount)}, ("thr", amount, kind)
        return {"type": kind, "st": "thr"}, ("thr", 0, kind)
    if amount:
        return {"type": kind, "st": "sw", "base": str(amount)}, ("sw", amount, kind)
    return {"type": kind, "st": "sw"}, ("sw", 0, kind)


def _recipe_text(recipe: _Recipe, thrust: tuple[int, int], swing: tuple[int, int]) -> str:
    """:func:`_resolved_damage`'s text of a common damage (:func:`_common_damage`'s recipe of it),
    with thrust and swing as dice and adds."""
    strength, adds, text = recipe
    if strength is None:
        return text
    count, more = thrust if strength == "thr" else swing
    more += adds
    if count > 0:  # dice_text's dice inline
        return f"{count}d{more:+d} {text}" if more else f"{count}d {text}"
    return f"{dice_text(count, more)} {text}"


def _minimum_st(strength: object) -> int | None:
    """The minimum ST a weapon's text gives (:func:`leading_int`'s reading), or None."""
    if type(strength) is str and strength.isdigit() and strength.isascii() and len(strength) <= 6:
        return int(strength)  # (the usual text, read without the pattern)
    return leading_int(strength) if isinstance(strength, str) else None


def _mode_pointer(index: int, line: int) -> str:
    """The document's pointer of a weapon mode (:data:`_Mode`'s index and line)."""
    return f"/weapons/ranged/{index}" if line < 0 else f"/weapons/melee/{index}/damage/{line}"


def _damage_fields(notation: str) -> dict[str, Any] | None:
    """GCS's damage fields for a damage notation; None when GCS has none for it (a text that is
    no notation, an armor divisor of infinity, ``thr`` or ``sw`` multiplied)."""
    try:
        parsed = parse_notation(notation)
    except NotationError:
        return None
    if math.isinf(parsed.armor_divisor) or (parsed.base != "fixed" and parsed.multiplier != 1):
        return None
    out: dict[str, Any] = {"type": parsed.damage_type}
    if parsed.base == "fixed":
        out["base"] = dice_text(parsed.dice, parsed.adds, parsed.multiplier)
    else:
        out["st"] = "thr" if parsed.base == "thrust" else "sw"
        if parsed.adds:
            out["base"] = str(parsed.adds)
    if parsed.armor_divisor != 1:
        out["armor_divisor"] = plain(parsed.armor_divisor)
    return out


_DICE: Final = re.compile(r"(\d+)d([+-]\d+)?(?:x(\d+))?|([+-]?\d+)")


def _resolved_damage(damage: Mapping[str, Any], tables: Mapping[str, tuple[int, int]]) -> str:
    """GCS's resolved damage text for a weapon (``2d+1 cut``), with thrust and swing from
    ``tables`` (by ``thr`` and ``sw``)."""
    kind = damage.get("type")
    kind = kind.strip() if type(kind) is str or isinstance(kind, str) else ""
    base = damage.get("base")
    if type(base) is not str and not isinstance(base, str):
        base = ""
    strength = damage.get("st")
    table = tables.get(strength) if strength == "thr" or strength == "sw" else None
    if table is not None:
        count, adds = table
        if base:
            adds += int(base)
        # dice_text's dice inline (the rest through it)
        text = (f"{count}d{adds:+d}" if adds else f"{count}d") if count > 0 else dice_text(count, adds)
    elif base and (match := _DICE.fullmatch(base)) is not None:
        if match.group(4) is not None:  # a fixed amount, as GCS shows it (``2``)
            text = dice_text(0, int(match.group(4)))
        else:
            text = dice_text(int(match.group(1)), int(match.group(2) or 0), int(match.group(3) or 1))
    else:
        text = ""
    divisor = damage.get("armor_divisor")
    if divisor is not None:
        text += f"({plain(divisor)})"
    if not kind:
        return text
    return f"{text} {kind}" if text else kind


def _shield(items: Mapping[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The first of the items (by name) whose name has the word shield, in any case."""
    for name, item in items.items():  # _names_a_shield, inline
        if name.isascii() and "shield" not in name.lower():
            continue  # (the pattern's other cases of the letters are not ASCII)
        if _SHIELD.search(name) is not None:
            return item
    return None


def _names_a_shield(name: str) -> bool:
    """Whether a name has the word shield, in any case."""
    if name.isascii() and "shield" not in name.lower():
        return False  # (the pattern's other cases of the letters are not ASCII)
    return _SHIELD.search(name) is not None


def _defenses(document: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """The document's ``/defenses/<key>`` object, or an empty one (:func:`member`'s answer)."""
    found: Any = document.get("defenses", {})
    if type(found) is dict or isinstance(found, Mapping):
        found = found.get(key, {})
        if type(found) is dict or isinstance(found, Mapping):
            return found
    return {}


_MUSCLE_RANGE: Final = re.compile(r"\s*x(\d+(?:\.\d+)?)\s*(?:/\s*x(\d+(?:\.\d+)?))?\s*", re.IGNORECASE)
_MULTIPLES: Final = (
    "0.2", "0.5", "1", "1.5", "2", "2.5", "3", "4", "5", "10", "12", "15", "16", "20", "25", "30",
)  # fmt: skip
"""The usual multiples of ST in a muscle-powered range (``x1/x1.5``)."""
_MUSCLE_FACTORS: Final = MappingProxyType(
    {f"x{near}": (float(near), None) for near in _MULTIPLES}
    | {f"x{near}/x{far}": (float(near), float(far)) for near in _MULTIPLES for far in _MULTIPLES}
)
"""The usual muscle-powered ranges' multiples of ST, as :data:`_MUSCLE_RANGE` reads them."""


def _muscle_factors(raw: str) -> tuple[float, float | None] | None:
    """A muscle-powered range's multiples of ST (the far one None when it has one), or None
    when it is no such range."""
    factors = _MUSCLE_FACTORS.get(raw)
    if factors is not None:
        return factors
    match = _MUSCLE_RANGE.fullmatch(raw)
    if match is None:
        return None
    near, far = match.groups()
    return float(near), None if far is None else float(far)


def _muscle_range(raw: str, st: float) -> str:
    """A muscle-powered range (``x1/x1.5``, times ST) in yards as GCS resolves it (``10/15``)."""
    factors = _muscle_factors(raw)
    if factors is None or st <= 0:
        return ""
    near, far = factors
    text = str(math.trunc(near * st))
    return text if far is None else f"{text}/{math.trunc(far * st)}"


class _SkillFinder:
    """The document's skills by lower-case name (the first of each), indexed for a weapon's:
    by its whole name, by the letters of its notes and by the words of its name. Each weapon is
    read once, so the weapons' skills cost the skills' text plus the weapons', not their
    product."""

    __slots__ = ("_by_name", "_in_notes", "_in_words", "_order", "_wordless")

    def __init__(self, names: Iterable[str]) -> None:
        by_name: dict[str, str] = {}
        for key in names:
            if key:
                by_name.setdefault(key.lower(), key)
        self._by_name = by_name
        self._order = {key: place for place, key in enumerate(by_name.values())}
        self._in_notes: PhraseIndex[str] | None = None  # (made for the first notes read)
        self._in_words = PhraseIndex((_WORD.findall(low), (len(key),), key) for low, key in by_name.items())
        wordless = [key for low, key in by_name.items() if not _WORD.search(low)]
        self._wordless = max(wordless, key=len) if wordless else None

    def named(self, name: str) -> str | None:
        """The skill named as the weapon (``name``, stripped), or as it without a last
        parenthesized part."""
        found = self._by_name.get(name.lower())
        if found is None and ")" in name:  # else the name has no parenthesized part to leave out
            found = self._by_name.get(_LAST_PARENTHESES.sub("", name).lower())
        return found

    def in_notes(self, notes: str) -> str | None:
        """The longest skill (the first of those as long) whose lower-case name is in
        ``notes`` (lower-case): letter for letter, not only as words."""
        index = self._in_notes
        if index is None:
            by_name = self._by_name
            index = self._in_notes = PhraseIndex((low, (len(key),), key) for low, key in by_name.items())
        return index.best_in(notes)

    def in_words(self, lowered: str) -> str | None:
        """The longest skill (the first of those as long) whose name's words are words of a
        weapon's lower-case name, in order (words: runs of ``a-z`` and ``0-9``). A skill of no
        such word is in a name spaced as :func:`_spaced_words` spaces it wherever the spaced
        name has two spaces running (a name that starts or ends with no word character)."""
        found = self._in_words.best_in(_WORD.findall(lowered))
        wordless = self._wordless
        if wordless is None or "  " not in f" {_NOT_WORD.sub(' ', lowered)} ":
            return found
        if found is None or (len(wordless), -self._order[wordless]) > (len(found), -self._order[found]):
            return wordless
        return found


def _spaced_words(lowered: str) -> str:
    """A lower-case name as its words (letters and digits), one space around each."""
    if lowered.isascii():
        if lowered.isalnum():  # one word already (most skills)
            return f" {lowered} "
        return f" {' '.join(lowered.translate(_ASCII_WORD_CHARACTERS).split())} "
    return f" {_NOT_WORD.sub(' ', lowered).strip()} "


def _parry_text(parry: Mapping[str, Any]) -> str:
    """GCS's parry field: the modifier and its flags (``0``, ``-1F``, ``0U``), or ``No``."""
    return _parry(parry)[0]


def _parry(parry: Mapping[str, Any]) -> tuple[str, tuple[int, str] | None]:
    """GCS's parry field (:func:`_parry_text`), and the modifier and flags (``F``, ``U``) GCS
    reads from it (the modifier's first six digits); None for ``No``."""
    modifier: Any = parry.get("modifier")
    kind = type(modifier)
    if (
        kind is not int
        and kind is not float
        and (isinstance(modifier, bool) or not isinstance(modifier, int | float))
    ):
        return "No", None  # none, or not a number
    if abs(modifier) > LIMIT:
        return "No", None
    notation = text_of(parry.get("notation"))
    flags = ""
    if "F" in notation.upper():  # no flag without an F (most parries have none)
        match = _PARRY.fullmatch(notation)
        if match is not None and "F" in match.group(1).upper():
            flags = "F"
    if parry.get("unbalanced") is True:
        flags += "U"
    whole = int(modifier)
    text = f"{whole}{flags}" if flags else str(whole)
    read = whole if -1_000_000 < whole < 1_000_000 else leading_int(text)  # (leading_int's six digits)
    return text, (None if read is None else (read, flags))
