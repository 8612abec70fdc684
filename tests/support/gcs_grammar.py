"""Plausible GCS character files of every version, built from a small grammar of the structures
GCS writes (FORMAT.md): traits with modifiers and features, skills, techniques, spells, nested
equipment with modifiers and weapons, attribute definitions, hit locations, notes. Values are
random but sane, so every generated file is one GCS could have saved (``calc`` blocks included or
left out, as old versions did)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

__all__ = ["gcs_files"]

VARIANTS = ("v1", "v2", "v4", "v5", "v5-2025")

_NAMES = st.sampled_from(
    [
        "Combat Reflexes",
        "Ally (@Who@)",
        "Bad Temper",
        "Language: Elvish",
        "Cultural Familiarity (Elves)",
        "High TL",
        "Status",
        "Appearance (Attractive)",
        "Magery",
        "Striking ST",
        "",
        "Increased Size Modifier",
        "Quirk: likes tea",
        "Wealth",
        "Acute Vision",
        "DR",
    ]
)
_SKILL_NAMES = st.sampled_from(
    ["Broadsword", "Stealth", "Shield", "Judo", "Bow", "Brawling", "Area Knowledge", "Fast-Draw", ""]
)
_ATTRS = st.sampled_from(["dx", "iq", "ht", "st", "will", "per", "vision", "cm"])
_DIFFICULTY = st.sampled_from(["e", "a", "h", "vh", "w"])
_WEIGHT_UNITS = st.sampled_from(["lb", "kg", "oz", "g", "#", "tn", "t"])
_DICE = st.sampled_from(["1d-3", "1d-2", "1d", "1d+2", "2d-1", "2d", "3d+1", "0d", "1d-6"])


def _number(low: int, high: int) -> st.SearchStrategy[Any]:
    """An integer, sometimes a quarter-step decimal, sometimes (old files) the same as text."""
    return st.one_of(
        st.integers(low, high),
        st.integers(low * 4, high * 4).map(lambda q: q / 4),
        st.integers(low, high).map(str),
    )


class _Ids:
    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.count = 0

    def node(self, kind: str, type_name: str) -> dict[str, Any]:
        self.count += 1
        if self.variant.startswith("v5"):
            return {"id": f"{kind}{self.count:016d}"}
        node: dict[str, Any] = {"type": type_name, "id": f"00000000-0000-4000-8000-{self.count:012d}"}
        if self.variant == "v1":
            node["version"] = 1
        return node


@st.composite
def _feature(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(
        st.sampled_from(
            [
                "attribute_bonus",
                "dr_bonus",
                "skill_bonus",
                "reaction_bonus",
                "cost_reduction",
                "conditional_modifier",
                "spell_bonus",
                "weapon_bonus",
                "weapon_effective_st_bonus",
                "weapon_dr_divisor_bonus",
                "weapon_parry_bonus",
                "weapon_min_st_bonus",
            ]
        )
    )
    amount = draw(st.one_of(st.integers(-5, 5), st.sampled_from([20, -20, 21])))
    if kind == "attribute_bonus":
        feature: dict[str, Any] = {
            "attribute": draw(
                st.sampled_from(
                    [
                        "st",
                        "dx",
                        "ht",
                        "iq",
                        "sm",
                        "dodge",
                        "parry",
                        "hp",
                        "will",
                        "per",
                        "speed",
                        "move",
                        "block",
                        "fp",
                    ]
                )
            ),
            "amount": amount,
        }
        if draw(st.booleans()):  # GCS writes a plain bonus's as nothing, "" or "none"
            feature["limitation"] = draw(
                st.sampled_from(["striking_only", "lifting_only", "throwing_only", "none", ""])
            )
    elif kind == "dr_bonus":
        feature = {
            "locations": draw(st.sampled_from([["torso"], ["all"], [], ["skull", "face"]])),
            "amount": amount,
        }
        if draw(st.booleans()):
            feature["specialization"] = "crushing"
    elif kind == "skill_bonus":
        feature = {
            "selection_type": draw(st.sampled_from(["skills_with_name", "weapons_with_name", "this_weapon"])),
            "name": {
                "compare": draw(st.sampled_from(["is", "starts_with", "contains"])),
                "qualifier": draw(_SKILL_NAMES),
            },
            "amount": amount,
        }
    elif kind == "cost_reduction":
        feature = {
            "attribute": draw(st.sampled_from(["st", "dx", "hp", "ht"])),
            "percentage": draw(st.integers(0, 80)),
        }
    elif kind == "spell_bonus":
        feature = {"match": "college_name", "name": {"compare": "is", "qualifier": "Fire"}, "amount": amount}
    elif kind.startswith("weapon_"):
        selection = draw(st.sampled_from(["weapons_with_required_skill", "weapons_with_name", "this_weapon"]))
        feature = {"selection_type": selection, "amount": amount}
        if selection == "weapons_with_required_skill":
            feature["name"] = {"compare": "is", "qualifier": draw(_SKILL_NAMES)}
            feature["level"] = {
                "compare": draw(st.sampled_from(["at_least", "at_most", "any", "is"])),
                "qualifier": draw(st.integers(-2, 3)),
            }
        elif selection == "weapons_with_name":
            feature["name"] = {
                "compare": draw(st.sampled_from(["is", "starts_with"])),
                "qualifier": draw(_NAMES),
            }
        if draw(st.booleans()):
            feature["specialization"] = {
                "compare": "is",
                "qualifier": draw(st.sampled_from(["Swing", "Bite"])),
            }
        for flag in ("per_die", "leveled", "percent"):
            if draw(st.booleans()):
                feature[flag] = True
    else:
        feature = {"situation": "from elves", "amount": amount}
    if draw(st.booleans()):
        feature["per_level"] = True
    return {"type": kind, **feature}


@st.composite
def _weapon(draw: st.DrawFn, ids: _Ids, skill: str) -> dict[str, Any]:
    melee = draw(st.booleans())
    weapon = ids.node("w" if melee else "W", "melee_weapon" if melee else "ranged_weapon")
    upper = ids.variant == "v1"
    weapon["damage"] = {
        "type": draw(
            st.sampled_from(
                [
                    "cut",
                    "imp",
                    "cr",
                    "pi+",
                    "burn",
                    "cr ex",
                    "",
                    "burn/point",
                    "cr ex/2 points",
                    "+1d burn/point",
                    "ctrl",
                    "HT-3 aff",
                    "spec.",
                    "cut (2)",
                    "Cough/Weep",
                ]
            )
        ),
        "st": draw(
            st.sampled_from(
                ["sw", "thr", "none", "", "thr_leveled", "lift_thr", "tk_sw", "iq_thr", "sw_leveled"]
            )
        ),
        "base": draw(st.sampled_from(["1", "-1", "2d+1", "", "0", "1d", "-1d", "2dx2", "$st/2"])),
    }
    for key, values in (
        ("base_leveled", ["1d", "2", "1d-1"]),
        ("modifier_per_die", [1, -2, 0.5]),
        ("armor_divisor", [2, 0.5, 3, 4]),
        ("st_mul", [2, 0.5]),
        ("leveled", [True]),
        ("sv", [1]),
    ):
        if draw(st.integers(0, 4)) == 0:
            target = weapon if key == "sv" else weapon["damage"]
            target[key] = draw(st.sampled_from(values))
    weapon["usage"] = draw(st.sampled_from(["Swing", "Thrust", "", "Shoot"]))
    weapon["strength"] = draw(st.sampled_from(["10", "12R†", "", "9"]))
    weapon["defaults"] = [
        {"type": "DX" if upper else "dx", "modifier": draw(st.integers(-6, 0))},
        {"type": "Skill" if upper else "skill", "name": skill, "modifier": draw(st.integers(-2, 0))},
    ]
    if melee:
        weapon["reach"] = draw(st.sampled_from(["1", "C,1", "", "1-2"]))
        weapon["parry"] = draw(st.sampled_from(["0", "-1F", "0U", "No", "", "+1"]))
        if draw(st.booleans()):
            weapon["block"] = draw(st.sampled_from(["0", "+2", "No"]))
    else:
        weapon.update(
            accuracy="3",
            range=draw(st.sampled_from(["x15/x20", "120/1,200", "10", ""])),
            rate_of_fire="1",
            shots="1(2)",
            bulk="-6",
            recoil=draw(st.sampled_from(["1", "2", "1/7", ""])),
        )
    if ids.variant != "v1" and draw(st.booleans()):
        weapon["calc"] = {
            "level": draw(st.integers(0, 20)),
            "damage": draw(_DICE) + draw(st.sampled_from([" cut", "(2) cr", " burn/point", " ctrl", ""])),
            "parry": draw(st.sampled_from(["9", "10F", "8U", "No"])),
        }
    return weapon


@st.composite
def _trait_modifier(draw: st.DrawFn, ids: _Ids) -> dict[str, Any]:
    modifier = ids.node("m", "modifier")
    modifier["name"] = draw(st.sampled_from(["Native", "Spoken", "Written", "Limited", "Enhanced", ""]))
    if ids.variant == "v5-2025" and draw(st.booleans()):
        modifier["cost_adj"] = draw(
            st.sampled_from(["+50%", "-20%", "+5", "-6", "x2", "x0.5", "x150%", "", "-100%"])
        )
    else:
        modifier["cost"] = draw(st.integers(-100, 100))
        kind = draw(st.sampled_from(["percentage", "points", "multiplier", None]))
        if kind:
            modifier["cost_type"] = kind
    if draw(st.booleans()):
        modifier["affects"] = draw(st.sampled_from(["total", "base_only", "levels_only"]))
    if draw(st.booleans()):
        modifier["disabled"] = True
    if draw(st.booleans()):
        modifier["levels"] = draw(st.integers(1, 3))
    modifier["notes" if ids.variant != "v5-2025" else "local_notes"] = draw(
        st.sampled_from(["Native", "Broken", ""])
    )
    return modifier


@st.composite
def _trait(draw: st.DrawFn, ids: _Ids, depth: int) -> dict[str, Any]:
    old = ids.variant in ("v1", "v2")
    container = depth < 3 and draw(st.integers(0, 4)) == 0
    if container:
        trait = ids.node("T", "advantage_container" if old else "trait_container")
        kind = draw(
            st.sampled_from(
                ["group", "meta_trait", "alternative_abilities", "ancestry", "race", "attributes", None]
            )
        )
        if kind:
            trait["container_type"] = kind
        trait["children"] = draw(st.lists(_trait(ids, depth + 1), max_size=3))
    else:
        trait = ids.node("t", "advantage" if old else "trait")
        trait["base_points"] = draw(st.integers(-50, 50))
        if draw(st.booleans()):
            trait["can_level"] = True
            trait["levels"] = draw(st.one_of(st.integers(0, 5), st.just(0.5), st.integers(0, 5).map(str)))
            trait["points_per_level"] = draw(st.integers(-10, 10))
        if draw(st.integers(0, 3)) == 0:
            trait["cr"] = draw(st.sampled_from([6, 9, 12, 15, 1]))
        if draw(st.booleans()):
            trait["features"] = draw(st.lists(_feature(), max_size=3))
        if draw(st.integers(0, 3)) == 0:
            trait["weapons"] = [draw(_weapon(ids, draw(_SKILL_NAMES)))]
    trait["name"] = draw(_NAMES)
    if "@Who@" in trait["name"]:
        trait["replacements"] = {"Who": "Bob"}
    if draw(st.booleans()):
        trait["modifiers"] = draw(st.lists(_trait_modifier(ids), max_size=3))
    if draw(st.integers(0, 5)) == 0:
        trait["disabled"] = True
    if old:
        trait["categories"] = draw(
            st.sampled_from([["Advantage"], ["Disadvantage", "Mental"], ["Quirk"], []])
        )
    else:
        trait["tags"] = draw(
            st.sampled_from([["Advantage"], ["Disadvantage", "Mental"], ["Quirk"], ["Language"]])
        )
    if draw(st.booleans()):
        trait["calc"] = {"points": draw(st.integers(-100, 100))}
    return trait


@st.composite
def _skill(draw: st.DrawFn, ids: _Ids, depth: int) -> dict[str, Any]:
    upper = ids.variant == "v1"
    shape = draw(
        st.sampled_from(["skill", "skill", "technique", "container"] if depth < 3 else ["skill", "technique"])
    )
    if shape == "container":
        skill = ids.node("S", "skill_container")
        skill["name"] = draw(st.sampled_from(["Combat", "", "Social"]))
        skill["children"] = draw(st.lists(_skill(ids, depth + 1), max_size=3))
        return skill
    name = draw(_SKILL_NAMES)
    if shape == "technique":
        skill = ids.node("q", "technique")
        skill.update(
            name="Arm Lock",
            difficulty=draw(st.sampled_from(["a", "h"])),
            default={
                "type": "Skill" if upper else "skill",
                "name": name,
                "modifier": draw(st.integers(-6, 0)),
            },
        )
        if draw(st.booleans()):
            skill["limit"] = draw(st.integers(0, 5))
    else:
        skill = ids.node("s", "skill")
        attribute = draw(_ATTRS)
        difficulty = f"{attribute}/{draw(_DIFFICULTY)}"
        skill.update(name=name, difficulty=difficulty.upper() if upper else difficulty)
        if draw(st.booleans()):
            skill["specialization"] = draw(st.sampled_from(["Flint Hills", "", "Rivers"]))
        if draw(st.booleans()):
            skill["tech_level"] = draw(st.sampled_from(["3", "", "8"]))
        skill["defaults"] = draw(
            st.sampled_from(
                [
                    [],
                    [{"type": "DX" if upper else "dx", "modifier": -5}],
                    [
                        {"type": "skill", "name": "Unknown Skill", "modifier": -3},
                        {"type": "nosuch", "modifier": -4},
                    ],
                ]
            )
        )
        if draw(st.integers(0, 4)) == 0:
            skill["defaulted_from"] = {
                "type": "dx",
                "modifier": -5,
                "level": 7,
                "adjusted_level": 7,
                "points": -7,
            }
        if draw(st.integers(0, 3)) == 0:
            skill["encumbrance_penalty_multiplier"] = draw(st.integers(0, 9))
    skill["points"] = draw(st.one_of(st.integers(0, 24), st.just(0.5)))
    if draw(st.integers(0, 3)) == 0:
        skill["weapons"] = [draw(_weapon(ids, name))]
    if draw(st.booleans()):
        skill["calc"] = {
            "level": draw(st.integers(0, 20)),
            "rsl": draw(st.sampled_from(["DX+1", "IQ-2", "+1", "-", "Per+0"])),
        }
    return skill


@st.composite
def _spell(draw: st.DrawFn, ids: _Ids) -> dict[str, Any]:
    ritual = draw(st.booleans())
    spell = ids.node("r" if ritual else "p", "ritual_magic_spell" if ritual else "spell")
    spell.update(
        name=draw(st.sampled_from(["Fireball", "Light", ""])),
        college=draw(st.sampled_from([["Fire"], [], "Fire"])),
        difficulty=draw(st.sampled_from(["iq/h", "iq/vh", "will/h", "IQ/H"])),
        points=draw(st.integers(0, 12)),
        casting_cost="2",
        casting_time="1 sec",
        duration="1 min",
        power_source="Arcane",
        spell_class="Regular",
    )
    if ritual:
        spell.update(
            base_skill=draw(st.sampled_from(["Ritual Magic", "Thaumatology", ""])),
            prereq_count=draw(st.integers(0, 3)),
        )
    if draw(st.booleans()):
        spell["calc"] = {"level": draw(st.integers(0, 20)), "rsl": "IQ+1"}
    return spell


@st.composite
def _equipment_modifier(draw: st.DrawFn, ids: _Ids) -> dict[str, Any]:
    modifier = ids.node("f", "eqp_modifier")
    modifier["name"] = draw(st.sampled_from(["Fine", "Cheap", "Ornate", ""]))
    modifier["cost_type"] = draw(
        st.sampled_from(
            ["to_original_cost", "to_base_cost", "to_final_base_cost", "to_final_cost", "nonsense"]
        )
    )
    modifier["cost"] = draw(st.sampled_from(["+10", "x2", "+50%", "-20%", "x0.5", "", "+1.5", "x150%", "-5"]))
    modifier["weight_type"] = draw(
        st.sampled_from(["to_original_weight", "to_base_weight", "to_final_base_weight", "to_final_weight"])
    )
    modifier["weight"] = draw(st.sampled_from(["+1 lb", "x2", "-10%", "", "+0.5 kg", "x0.5", "+2"]))
    for flag in ("cost_is_per_level", "cost_is_per_pound", "weight_is_per_level", "disabled"):
        if draw(st.integers(0, 3)) == 0:
            modifier[flag] = True
    return modifier


@st.composite
def _equipment(draw: st.DrawFn, ids: _Ids, depth: int) -> dict[str, Any]:
    new_keys = ids.variant == "v5-2025"
    container = depth < 4 and draw(st.integers(0, 3)) == 0
    item = ids.node("E" if container else "e", "equipment_container" if container else "equipment")
    item["description"] = draw(st.sampled_from(["Broadsword", "Backpack", "Rope", "", "Shield"]))
    # a quantity edited below 0 counts as none (GCS never multiplies by it)
    item["quantity"] = draw(st.one_of(st.integers(0, 20), st.just(1.5), st.just(-2)))
    value = draw(
        st.one_of(st.integers(0, 1000), st.integers(0, 1000).map(str), st.just("1,200"), st.just(12.5))
    )
    weight = draw(
        st.one_of(
            st.tuples(st.integers(0, 30), _WEIGHT_UNITS).map(lambda p: f"{p[0]} {p[1]}"),
            st.just("1.5 kg"),
            st.just("1,000 lb"),
            st.integers(0, 10),
            st.just(""),
        )
    )
    item["base_value" if new_keys else "value"] = value
    item["base_weight" if new_keys else "weight"] = weight
    if draw(st.booleans()):
        item["equipped"] = True
    if draw(st.integers(0, 3)) == 0:
        item["level"] = draw(st.integers(0, 3))
    if draw(st.integers(0, 2)) == 0:
        item["modifiers"] = draw(st.lists(_equipment_modifier(ids), max_size=3))
    if draw(st.integers(0, 2)) == 0:
        item["weapons"] = draw(st.lists(_weapon(ids, draw(_SKILL_NAMES)), max_size=2))
    if draw(st.integers(0, 3)) == 0:
        features = draw(st.lists(_feature(), max_size=2))
        if draw(st.booleans()):
            features.append(
                {
                    "type": "contained_weight_reduction",
                    "reduction": draw(st.sampled_from(["50%", "5 lb", "10"])),
                }
            )
        item["features"] = features
    if container:
        item["children"] = draw(st.lists(_equipment(ids, depth + 1), max_size=3))
    if draw(st.booleans()):
        item["calc"] = {
            "extended_value": draw(st.integers(0, 5000)),
            "extended_weight": f"{draw(st.integers(0, 100))} lb",
        }
    return item


_STANDARD = [
    ("st", "integer", "10", 10),
    ("dx", "integer", "10", 20),
    ("iq", "integer", "10", 20),
    ("ht", "integer", "10", 10),
    ("will", "integer", "$iq", 5),
    ("fright_check", "integer", "$will", 2),
    ("per", "integer", "$iq", 5),
    ("vision", "integer", "$per", 2),
    ("basic_speed", "decimal", "($dx+$ht)/4", 20),
    ("basic_move", "integer", "floor($basic_speed)", 5),
    ("fp", "pool", "$ht", 3),
    ("hp", "pool", "$st", 2),
    ("cm", "integer", "10", 3),
    ("dodge", "integer", "floor($basic_speed)+3", 15),
    ("move", "integer", "$basic_move", 5),
    ("sep", "primary_separator", "", 0),
]


@st.composite
def _attribute_block(draw: st.DrawFn, variant: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rare = ("sep", "cm", "dodge", "move")
    chosen = [entry for entry in _STANDARD if draw(st.integers(0, 9)) > (6 if entry[0] in rare else 0)]
    definitions, values = [], []
    base_key = "base" if variant == "v5-2025" else "attribute_base"
    for ident, kind, base, cost in chosen:
        definition: dict[str, Any] = {
            "id": ident,
            "type": kind,
            "name": ident.upper(),
            base_key: base.replace("floor(", "Math.floor(") if base_key == "base" else base,
            "cost_per_point": cost,
        }
        if ident in ("st", "hp"):
            definition["cost_adj_percent_per_sm"] = 10
        if kind == "pool":
            state: dict[str, Any] = {
                "state": "Collapse",
                "ops": draw(st.sampled_from([["halve_move", "halve_dodge"], ["halve_st"], []])),
            }
            if variant == "v2":
                state.update(multiplier=0, divisor=1, addition=0)
            elif variant == "v5-2025":
                state["value"] = "0"
            else:
                state["expression"] = "0"
            definition["thresholds"] = [state]
        definitions.append(definition)
        if kind.endswith("separator"):
            continue
        entry: dict[str, Any] = {
            "attr_id": ident,
            "adj": draw(st.one_of(st.integers(-5, 5), st.just(0.25), st.just(-0.5))),
        }
        if kind == "pool" and draw(st.booleans()):
            entry["damage"] = draw(st.integers(0, 30))
        if variant != "v2" and draw(st.booleans()):
            entry["calc"] = {"value": draw(st.integers(0, 20)), "points": draw(st.integers(-50, 50))}
            if kind == "pool":
                entry["calc"]["current"] = draw(st.integers(-10, 20))
        values.append(entry)
    return definitions, values


@st.composite
def gcs_files(draw: st.DrawFn) -> dict[str, Any]:
    """A GCS character file of a random version, as GCS could have saved it."""
    variant = draw(st.sampled_from(VARIANTS))
    ids = _Ids(variant)
    version = int(variant[1])
    data: dict[str, Any] = {"version": version}
    if version < 5:
        data["type"] = "character"
    if draw(st.booleans()):
        data["total_points"] = draw(st.integers(0, 500))
    data["created_date"] = (
        draw(st.sampled_from(["Jun 21, 2021, 8:45 PM", "Jan 1, 2020, 12:00 AM", "garbage"]))
        if version < 4
        else draw(st.sampled_from(["2024-06-01T10:00:00-07:00", "2025-01-01T00:00:00Z", ""]))
    )
    profile: dict[str, Any] = {"name": draw(st.sampled_from(["Hero", "", "Pegasus"]))}
    for key, options in (
        ("player_name", ["Sam", ""]),
        ("height", ["5'6\"", "6' 1\"", "170 cm", ""]),
        ("weight", ["115 lb", "60 kg", "", "1,200 lb"]),
        ("SM", [0, 1, -2, 3]),
        ("tech_level", ["3", "", "8/9"]),
        ("age", ["32", ""]),
    ):
        if draw(st.booleans()):
            profile[key] = draw(st.sampled_from(options))
    if draw(st.integers(0, 5)) > 0:
        data["profile"] = profile
    settings: dict[str, Any] = {"default_weight_units": draw(_WEIGHT_UNITS)}
    if version <= 1:
        for flag in (
            "use_know_your_own_strength",
            "use_reduced_swing",
            "use_thrust_equals_swing_minus_2",
            "base_will_on_10",
            "base_per_on_10",
        ):
            if draw(st.integers(0, 3)) == 0:
                settings[flag] = True
        for key in ("ST", "DX", "IQ", "HT"):
            if draw(st.integers(0, 5)) > 0:
                data[key] = draw(st.integers(1, 25))
        for key in (
            "will_adj",
            "per_adj",
            "speed_adj",
            "move_adj",
            "HP_adj",
            "FP_adj",
            "hp_damage",
            "fp_damage",
        ):
            if draw(st.booleans()):
                data[key] = draw(st.sampled_from([-2, -1, 0, 1, 2, 0.25, 5]))
    else:
        settings["damage_progression"] = draw(
            st.sampled_from(
                [
                    "basic_set",
                    "knowing_your_own_strength",
                    "no_school_grognard_damage",
                    "thrust_equals_swing_minus_2",
                    "swing_equals_thrust_plus_2",
                    "tbone_1",
                    "tbone_2_clean",
                    "phoenix_flame_d3",
                ]
            )
        )
        if draw(st.integers(0, 5)) > 0:
            definitions, values = draw(_attribute_block(variant))
            settings["attributes"] = definitions
            data["attributes"] = values
        locations = [
            {"id": "skull", "choice_name": "Skull", "table_name": "Skull", "dr_bonus": 2},
            {"id": "torso", "choice_name": "Torso", "table_name": "Torso"},
            {
                "id": "wing",
                "choice_name": "Wing",
                "table_name": "Wing",
                "sub_table": {"name": "Sub", "locations": [{"id": "tail", "choice_name": "Tail"}]},
            },
        ]
        if draw(st.booleans()):
            settings["hit_locations" if version == 2 else "body_type"] = {
                "name": "Humanoid",
                "roll": "3d",
                "locations": locations,
            }
    data["settings"] = settings
    data["advantages" if version < 4 else "traits"] = draw(st.lists(_trait(ids, 0), max_size=5))
    data["skills"] = draw(st.lists(_skill(ids, 0), max_size=5))
    if draw(st.booleans()):
        data["spells"] = draw(st.lists(_spell(ids), max_size=3))
    data["equipment"] = draw(st.lists(_equipment(ids, 0), max_size=4))
    if draw(st.booleans()):
        data["other_equipment"] = draw(st.lists(_equipment(ids, 0), max_size=2))
    if draw(st.booleans()):
        note = ids.node("n", "note")
        note["markdown" if variant == "v5-2025" else "text"] = draw(st.sampled_from(["A note\r\nline", ""]))
        data["notes"] = [note]
    if version >= 2 and draw(st.booleans()):
        data["calc"] = {
            "swing": draw(_DICE),
            "thrust": draw(_DICE),
            "basic_lift": draw(st.sampled_from(["20 lb", "13.5 lb", "0 lb", "1,250 lb"])),
            "move": draw(st.lists(st.integers(0, 8), min_size=5, max_size=5)),
            "dodge": draw(st.lists(st.integers(1, 12), min_size=5, max_size=5)),
        }
        if draw(st.booleans()):
            data["calc"]["dodge_bonus"] = 1
    return data
