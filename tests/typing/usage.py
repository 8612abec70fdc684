"""A typed consumer of the public API: every name of ``gurps_character.__all__`` and
``gurps_character.formula.__all__``, with the annotations a user would write.

Not a test module (pytest does not collect it). Two things check it:

* ``mypy --strict`` (the repository's run covers ``tests/``, and ``tests/package/test_wheel.py`` checks this
  file against the package installed from the wheel), so a signature that loses its precision,
  say a result that turns into ``Any``, breaks the build;
* ``tests/package/test_wheel.py`` also runs it as a script in the wheel's virtual environment:
  ``python usage.py examples/rurik.json`` prints ``ok``.

``assert_type`` pins a type exactly; a plain annotation only says it is assignable.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal, assert_type, get_args

import gurps_character
from gurps_character import (
    FORMAT,
    HIT_LOCATIONS,
    LATEST_VERSION,
    LOCATION_NAMES,
    MAX_DOCUMENT_BYTES,
    SCHEMA,
    SUPPORTED_MINOR,
    VOCABULARY,
    Attack,
    AttackDirection,
    AttackManeuver,
    AttackOptions,
    AttackSkill,
    Attributes,
    Body,
    BodyLocation,
    CharacterAttack,
    CharacterDefense,
    CharacterError,
    CharacterKind,
    CombatModifier,
    CombatStats,
    Condition,
    ConditionEffects,
    ContestResult,
    ContestWinner,
    CriticalEffect,
    CriticalTable,
    DamageDice,
    DamageResistance,
    DamageType,
    DbSource,
    DefenderManeuver,
    Defense,
    DefenseChoice,
    DefenseKind,
    DefenseOptions,
    Deviation,
    EncumbranceLevel,
    Envelope,
    ErrorCode,
    ExportNote,
    Fighter,
    FightEvent,
    FightStep,
    FollowUp,
    FollowUpKind,
    FpState,
    GcsExport,
    GcsImport,
    GurpsCharacter,
    Hit,
    HitLocation,
    HpState,
    ImportNote,
    Inconsistency,
    Issue,
    LoadedCharacter,
    LocationRole,
    MeleeWeaponStats,
    NoDefenseReason,
    NoDefenseWhy,
    OwedRoll,
    OwedRollKind,
    PainThreshold,
    ParryStyle,
    Parsed,
    Pool,
    PoolChange,
    PoolName,
    PoolState,
    Posture,
    RangedWeaponStats,
    Roll,
    RolledLocation,
    RollKind,
    RollResult,
    SkillDefense,
    SkillStat,
    Threshold,
    UpdatableField,
    ValidationError,
    ValidationResult,
    VerificationReport,
    WeaponBlock,
    WeaponDamage,
    WeaponDamageLine,
    WeaponParry,
    Weapons,
    __version__,
    apply_damage,
    apply_hit,
    attack_skill,
    best_defense,
    block_score,
    body_of,
    can_attempt,
    change_pool,
    character_attack_skill,
    character_defense,
    character_defenses,
    check_envelope,
    combat_stats,
    critical_effect,
    critical_table_for,
    defense,
    dodge_score,
    export_gcs,
    feint_penalty,
    get_condition,
    get_pool,
    get_updatable_fields,
    heal,
    hit_location,
    hits_after_dodge,
    import_gcs,
    load_character,
    location_penalty,
    location_role,
    parry_score,
    parse_character,
    quick_contest,
    rapid_fire_bonus,
    rapid_fire_hits,
    recover_fatigue,
    regular_contest_round,
    resolve_damage_notation,
    resolve_hit,
    roll_3d,
    rule_location,
    serialize_character,
    size_modifier,
    speed_range_penalty,
    spend_fatigue,
    success_roll,
    update_character,
    validate_character,
    verify_character,
)
from gurps_character.formula import (
    Dice,
    FormulaError,
    FormulaSyntaxError,
    FormulaValue,
    Node,
    RecomputeResult,
    RuleDeviation,
    deviations,
    evaluate,
    parse_dice,
    parse_formula,
    plain_value,
    recompute,
    resolve_schema_ref,
    round_up,
)
from gurps_character.sheet import render_card, render_sheet
from gurps_character.yaml import (
    INSTALL_HINT,
    MAX_YAML_DEPTH,
    dump_yaml_character,
    load_yaml_document,
    parse_yaml_character,
)

NOW: Final = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)


def constants() -> None:
    """The format constants and the read-only schema views."""
    fmt: str = FORMAT
    latest: str = LATEST_VERSION
    limit: int = MAX_DOCUMENT_BYTES
    minor: int = SUPPORTED_MINOR
    schema: Mapping[str, Any] = SCHEMA
    vocabulary: Mapping[str, Any] = VOCABULARY
    version: str = __version__
    assert fmt == "gurps-character" and latest.startswith(f"1.{minor}.") and limit > 0
    assert str(schema["$id"]).endswith(latest) and "$id" in vocabulary and version
    assert version == gurps_character.__version__


def load(text: str) -> GurpsCharacter:
    """Parsing, validation, verification, the envelope and writing back."""
    parsed: Parsed = parse_character(text)
    character: GurpsCharacter = parsed.character
    report: VerificationReport = parse_character(text.encode("utf-8"), max_bytes=MAX_DOCUMENT_BYTES).report
    assert_type(parse_character(character).character, GurpsCharacter)
    name: str = character["profile"]["name"]
    speed: float = character["secondary"]["basicSpeed"]["value"]
    assert name and speed > 0

    compliant: bool = report.rules_compliant
    experimental: bool = report.experimental
    declared: bool | None = report.declared_compliant
    consistent: bool = report.claim_consistent
    unpaid: tuple[Deviation, ...] = report.deviations
    drift: tuple[Inconsistency, ...] = report.inconsistencies
    issues: tuple[Issue, ...] = report.issues
    for deviation in unpaid:
        why: str | None = deviation.justification
        assert deviation.pointer and why != ""
    for inconsistency in drift:
        expected: int | float | str | None = inconsistency.expected
        assert expected != inconsistency.actual
    for issue in issues:
        code: Literal["overBudget"] = issue.code
        assert code and issue.message
    assert compliant in (True, False) and experimental in (True, False) and declared in (True, False, None)
    assert consistent in (True, False)
    report_json: dict[str, Any] = report.to_dict()
    assert report_json["rulesCompliant"] is compliant
    assert_type(verify_character(character), VerificationReport)

    result: ValidationResult = validate_character(character)
    assert result.valid and result.errors == ()
    broken = validate_character({"format": FORMAT})
    errors: tuple[ValidationError, ...] = broken.errors
    first: ValidationError = errors[0]
    pointer: str = first.pointer
    keyword: str = first.keyword
    params: Mapping[str, Any] = first.params
    message: str = first.message
    property_name: str | None = first.property_name
    assert not broken.valid and isinstance(pointer, str) and keyword and message and property_name is None
    assert isinstance(params, Mapping) and broken.to_dict()["valid"] is False and first.to_dict()

    envelope: Envelope = check_envelope(character)
    major: int = envelope.major
    assert (major, envelope.minor) <= (1, SUPPORTED_MINOR) and envelope.to_dict()["major"] == 1

    written: str = serialize_character(character)
    tabbed: str = serialize_character(character, indent="\t")
    assert json.loads(written) == json.loads(tabbed)
    return character


def errors() -> None:
    """The one exception type and its codes."""
    try:
        parse_character("{}")
    except CharacterError as err:
        code: str = err.code
        details: dict[str, Any] = err.details
        message: str = err.message
        as_json: dict[str, Any] = err.to_dict()
        known: tuple[ErrorCode, ...] = get_args(ErrorCode)
        assert code in known and isinstance(err, ValueError) and message == str(err)
        assert as_json["code"] == code and isinstance(details, dict)
    else:  # pragma: no cover
        raise AssertionError("'{}' is not a character")


def gcs_import() -> None:
    """A GCS character in: a document and the notes on what it leaves out."""
    hp = {"attr_id": "hp", "adj": 0, "calc": {"value": 10, "current": 10, "points": 0}}
    gcs = {"version": 5, "total_points": 0, "profile": {"name": "Guard"}, "attributes": [hp]}
    imported: GcsImport = import_gcs(gcs, now=NOW)
    document: dict[str, Any] = imported.document
    notes: tuple[ImportNote, ...] = imported.notes
    for note in notes:
        source: str = note.source
        kind: str = note.kind
        message: str = note.message
        as_json: dict[str, str] = note.to_dict()
        assert as_json == {"source": source, "kind": kind, "message": message}
    assert_type(import_gcs(json.dumps(gcs), max_bytes=MAX_DOCUMENT_BYTES), GcsImport)
    loaded: LoadedCharacter = load_character(gcs, now=NOW)
    format_read: CharacterKind = loaded.kind
    also: LoadedCharacter = load_character(json.dumps(gcs).encode("utf-8"), kind="gcs", max_bytes=10**6)
    assert format_read == also.kind == "gcs" and loaded.notes and loaded.report.experimental in (True, False)
    assert loaded.to_dict()["kind"] == "gcs" and loaded.character["profile"]["name"] == "Guard"
    assert validate_character(document).valid
    played = apply_damage(document, 2, now=NOW)
    written: GcsExport = export_gcs(played, base=json.dumps(gcs), now=NOW)
    text: str = written.text
    for export_note in written.notes:
        shown: ExportNote = export_note
        assert shown.to_dict() == {"source": shown.source, "kind": shown.kind, "message": shown.message}
    assert '"damage": 2' in text
    fresh = dict(document)
    fresh.pop("extensions")
    assert_type(export_gcs(fresh, now=NOW, max_bytes=MAX_DOCUMENT_BYTES), GcsExport)


def play(character: GurpsCharacter) -> None:
    """In-play state: what may change, the pools and their helpers."""
    fields: tuple[UpdatableField, ...] = get_updatable_fields()
    for field in fields:
        pointer: str = field.pointer
        kind: str | None = field.type
        title: str | None = field.title
        description: str | None = field.description
        labels: Mapping[str, str] = field.labels
        bounds: Mapping[str, str] = field.bounds
        reference: str | None = field.reference
        assert pointer and kind and title and description is not None and reference
        assert "min" in bounds and isinstance(labels, Mapping) and field.to_dict()["pointer"] == pointer

    which: PoolName = "hp"
    hp: Pool = get_pool(character, which)
    current: int | float = hp.current
    maximum: int | float = hp.max
    assert current <= maximum and hp.to_dict()["max"] == maximum

    # an update returns the type of document it is given: GurpsCharacter here
    character = apply_damage(character, 1, now=NOW)
    hurt: GurpsCharacter = apply_damage(character, 2, now=NOW)
    healed: GurpsCharacter = heal(hurt, 1, now=NOW)
    tired: GurpsCharacter = spend_fatigue(healed, 2)
    rested: GurpsCharacter = recover_fatigue(tired, 2, now=NOW)
    assert get_pool(rested, "hp").current == current - 2
    changed: GurpsCharacter = update_character(character, {"/secondary/fp/current": 1}, now=NOW)
    plain: dict[str, Any] = dict(character)
    pairs: dict[str, Any] = update_character(plain, [("/secondary/fp/current", 2)], now=NOW)
    listed: dict[str, Any] = update_character(plain, [{"pointer": "/secondary/fp/current", "value": 3}])
    assert changed["meta"]["updatedAt"] == "2026-10-05T10:00:00.000Z"
    assert get_pool(pairs, "fp").current == 2 and get_pool(listed, "fp").current == 3


def conditions(character: GurpsCharacter) -> None:
    """Conditions: pool states, effects, rolls, and what a change owes."""
    condition: Condition = get_condition(character)
    hp_state: PoolState = condition.hp
    fp_state: PoolState = condition.fp
    effects: ConditionEffects = condition.effects
    halve: bool = effects.halve_move or effects.halve_dodge or effects.halve_st
    move: tuple[int, ...] = condition.move
    dodge: tuple[int, ...] = condition.dodge
    st: int = condition.st
    rolls: tuple[Roll, ...] = condition.rolls
    state: HpState | FpState = hp_state.state
    assert state in get_args(HpState) and fp_state.state in get_args(FpState)
    assert not halve and len(move) == len(dodge) and st > 0 and rolls == ()
    assert condition.to_dict()["effects"] == effects.to_dict()

    change: PoolChange = change_pool(character, "hp", -2 * hp_state.max, now=NOW)
    pool: PoolName = change.pool
    requested: int = change.requested
    taken: int = change.taken
    clamped: bool = change.clamped
    before: PoolState = change.before
    after: PoolState = change.after
    crossed: tuple[Threshold, ...] = change.crossed
    follow_ups: tuple[FollowUp, ...] = change.follow_ups
    spill: PoolChange | None = change.spill
    document: dict[str, Any] = change.document
    assert pool == "hp" and requested == taken and not clamped and spill is None
    assert after.current < before.current and document["meta"]["updatedAt"]
    for threshold in crossed:
        at: int = threshold.at
        n: int | None = threshold.n
        assert at <= before.current and (n is None or n >= 1) and threshold.to_dict()
    for follow_up in follow_ups:
        what: FollowUpKind = follow_up.kind
        modifier: int | None = follow_up.modifier
        assert what in get_args(FollowUpKind) and (modifier is None or modifier <= 0)
    after_condition = get_condition(document)
    for roll in after_condition.rolls:
        roll_kind: RollKind = roll.kind
        attribute: Literal["ht", "will", "dx"] = roll.attribute
        assert roll_kind in get_args(RollKind) and attribute and roll.to_dict()["kind"] == roll_kind
    assert after_condition.rolls and change.to_dict()["pool"] == "hp"

    fatigue = change_pool(character, "fp", -100, spill_to_hp=True)
    assert fatigue.clamped and (fatigue.spill is None or fatigue.spill.pool == "hp")


def damage(character: GurpsCharacter) -> None:
    """Damage resolution: a weapon's notation, one hit, and applying it."""
    weapon: WeaponDamage = resolve_damage_notation(character, "sw+2 (2) cut")
    damage_type: DamageType | None = weapon.damage_type
    assert damage_type is not None  # None only for a damage word no hit resolves (ctrl)
    kind: DamageType = damage_type
    divisor: float = weapon.armor_divisor
    roll: str = weapon.dice_notation
    assert weapon.dice >= 0 and weapon.minimum == 1 and roll and weapon.to_dict()["damageType"] == kind
    where: HitLocation = "neck"
    pain: PainThreshold = "normal"
    hit: Hit = resolve_hit(
        character, 9, kind, location=where, armor_divisor=divisor, dr=3, tight_beam=weapon.tight_beam
    )
    hit = resolve_hit(character, 9, kind, location=where, armor_divisor=divisor, pain_threshold=pain)
    injury: int = hit.injury
    multiplier: float = hit.wounding_multiplier
    rolls: tuple[Roll, ...] = hit.rolls
    shock: int = hit.shock
    assert injury >= 0 and multiplier == 2 and shock <= 0 and hit.to_dict()["injury"] == injury
    assert all(roll.when == "immediately" for roll in rolls)
    change: PoolChange = apply_hit(character, hit, now=NOW)
    after: dict[str, Any] = change.document
    assert change.taken == -injury and after["meta"]["updatedAt"]


def locations(character: GurpsCharacter) -> None:
    """One vocabulary of hit locations, and a body table's locations."""
    arm: HitLocation | None = rule_location("arms")
    assert arm == "arm" and LOCATION_NAMES["feet"] == "foot" and "groin" in HIT_LOCATIONS
    role: LocationRole = location_role("wing")
    body: Body | None = body_of(character)
    if body is not None:
        first: BodyLocation = body.locations[0]
        natural: int = first.natural_dr
        assert (natural >= 0 and first.role in ("limb", "torso")) or role == "limb"


def combat(character: GurpsCharacter) -> None:
    """The read-only combat view."""
    stats: CombatStats = combat_stats(character)
    attributes: Attributes = stats.attributes
    st: int = attributes.st
    parry: SkillDefense = stats.parry
    parry_value: int | None = parry.value
    damage: DamageDice = stats.damage
    thrust: Dice = damage.thrust
    levels: tuple[EncumbranceLevel, ...] = stats.encumbrance
    max_load: float = levels[0].max_load
    resistance: tuple[DamageResistance, ...] = stats.damage_resistance
    skills: tuple[SkillStat, ...] = stats.skills
    weapons: Weapons = stats.weapons
    melee: tuple[MeleeWeaponStats, ...] = weapons.melee
    ranged: tuple[RangedWeaponStats, ...] = weapons.ranged
    hp: Pool = stats.hp
    basic_speed: float = stats.basic_speed
    assert st > 0 and (parry_value is None or isinstance(parry_value, int))
    assert thrust.dice >= 0 and max_load > 0 and hp.max > 0 and basic_speed > 0
    assert all(entry.dr >= 0 for entry in resistance) and all(skill.level for skill in skills)
    assert isinstance(melee, tuple) and stats.to_dict()["attributes"]["st"] == st
    now_level: EncumbranceLevel = stats.current_encumbrance
    move: int = stats.current_move
    dodge: int = stats.current_dodge
    assert 0 <= move <= now_level.move and dodge <= now_level.dodge and stats.carried_weight >= 0
    for row in melee:
        lines: tuple[WeaponDamageLine, ...] = row.damage
        weapon_parry: WeaponParry = row.parry
        weapon_block: WeaponBlock = row.block
        level: int | None = row.level
        skill: str | None = row.skill
        for line in lines:
            resolved: WeaponDamage | None = line.resolved
            rolled: int = resolved.roll(random.Random(1)) if resolved is not None else 0
            assert rolled >= 0 and (resolved is not None or line.unresolved_reason)
        assert (weapon_parry.value is None or level is not None) and skill != ""
        assert weapon_block.value is None or weapon_block.value > 0
    assert all(row.to_dict() == row.to_dict(extended=False) for row in ranged)
    assert stats.to_dict(extended=True)["currentMove"] == move


def attack_and_defense() -> None:
    """Attack and defense arithmetic: no document, numbers and strings in, dataclasses out."""
    maneuver: AttackManeuver = "all_out_attack_determined"
    stance: Posture = "kneeling"
    swing: AttackSkill = attack_skill(14, maneuver=maneuver, location="arms", target_sm=1)
    shot = attack_skill(
        13, ranged=True, distance_yards=8, target_speed_yards=2.0, aim_turns=2, acc=2, braced=True, rof=5
    )
    effective: int = swing.effective
    first: CombatModifier = swing.modifiers[0]
    name, value, page = first
    assert (name, value, page) == ("all_out_attack_determined", 4, "B365") and not swing.capped
    assert shot.effective == 13 + 3 + 1 + 1 - 4 and swing.to_dict()["effective"] == effective
    rolled: RollResult = success_roll(effective, 5)
    assert rolled.success and rolled.critical and rolled.critical_success and not rolled.critical_failure
    assert rolled.to_dict() == {"success": True, "critical": True, "margin": effective - 5, "roll": 5}
    rolled_3d: int = roll_3d(random.Random(7))
    seeded: RollResult = success_roll(effective, rng=random.Random(7))
    assert seeded.roll == rolled_3d and 3 <= rolled_3d <= 18
    assert can_attempt(effective) and can_attempt(-4, defense=True)
    contest: ContestResult = quick_contest(12, 9, 12, 11)
    winner: ContestWinner | None = contest.winner
    assert winner == "a" and contest.margin_of_victory == 2
    assert regular_contest_round(5, 11, 3, 12) == "a" and feint_penalty(14, 8, 12, 13) == 6
    assert speed_range_penalty(8) == -4 and size_modifier(4) == 2 and location_penalty("skull") == -7
    where: RolledLocation = hit_location(10)
    assert where == "torso" and rapid_fire_bonus(5) == 1
    hits: int = rapid_fire_hits(4, 2, 5)
    assert hits == 3 and hits_after_dodge(hits, True, 1, False) == 1
    kind: DefenseKind = "parry"
    style: ParryStyle = "fencing"
    last: DefenderManeuver = "all_out_defense_parry"
    direction: AttackDirection = "side"
    base: int = parry_score(14, parry_modifier=0, combat_reflexes=True, enhanced=0)
    parry: Defense = defense(
        kind, base, maneuver_of_defender=last, retreat=True, parry_style=style, attack_direction=direction
    )
    assert parry.value == 11 + 2 + 3 - 2 and parry.reason is None and parry.to_dict()["value"] == parry.value
    none = defense("dodge", dodge_score(5.75), maneuver_of_defender="all_out_attack_double", posture=stance)
    reason: NoDefenseReason | None = none.reason
    assert none.value is None and reason == "all_out_attack" and block_score(12, enhanced=1) == 10


def character_combat(character: GurpsCharacter) -> None:
    """Attack and defense of a character: the sheet fills the base and what it holds."""
    options: AttackOptions = {"maneuver": "move_and_attack", "location": "arm"}
    swing: CharacterAttack = character_attack_skill(character, weapon="Broadsword", **options)
    assert swing.attack == attack_skill(swing.base, **swing.options) and swing.effective == 8
    assert swing.base == swing.sheet_value + sum(value for _, value, _ in swing.adjustments)
    shot = character_attack_skill(character, weapon="Regular Bow", mode="ranged", aim_turns=1)
    pointer: str = shot.pointer
    assert (
        shot.options["acc"] == 2
        and pointer == "/skills/2/level"
        and shot.to_dict()["weapon"] == "Regular Bow"
    )
    stealthy = character_attack_skill(character, skill="knife", shock=-2)
    assert stealthy.effective == 10 and stealthy.weapon is None and stealthy.skill == "Knife"
    chosen: DefenseOptions = {"retreat": True}
    dodge: CharacterDefense = character_defense(character, "dodge", combat_reflexes=False, **chosen)
    value: int | None = dodge.value
    kind: DefenseKind = dodge.kind
    assert kind == "dodge" and value == 9 + 3 - 2 and dodge.defense.to_dict()["value"] == value
    parry = character_defense(character, "parry", weapon="Large Knife")
    assert parry.value == 8 and parry.adjustments == () and parry.to_dict()["source"] == parry.source
    source: DbSource = character_defense(character, "block", shield_db=2).db_source
    choices: tuple[DefenseChoice, ...] = character_defenses(character, retreat=True)
    best: DefenseChoice = best_defense(character, maneuver_of_defender="all_out_attack_strong")
    why: NoDefenseWhy | None = best.reason
    assert source == "passed" and choices[0].kind == "dodge" and why == "all_out_attack"


def fight(character: GurpsCharacter) -> None:
    """A fight, turn by turn: two fighters, an exchange, an owed roll, a saved state."""
    table: CriticalTable = critical_table_for("skull")
    effect: CriticalEffect = critical_effect(table, 3)
    assert effect.maximum_damage and effect.dr == "ignored"
    tamsin = Fighter.from_character(character)
    rival = Fighter.from_character(character, name="Rival")
    begun: FightStep = tamsin.start_turn()
    tamsin = begun.fighter.choose("attack").fighter
    swing = tamsin.attack(weapon="Broadsword", roll=10)
    made: Attack | None = swing.attack
    assert made is not None and made.hits and made.defendable
    best: DefenseChoice | None = rival.best_defense(made)
    assert best is not None and best.kind == "parry"
    missed = rival.defend(made, best, roll=18, critical_roll=10)
    hurt = missed.fighter.take_hit(10, attack=made, location="torso")
    events: tuple[FightEvent, ...] = hurt.events
    owed: tuple[OwedRoll, ...] = hurt.fighter.owed
    kinds: list[OwedRollKind] = [roll.kind for roll in owed]
    assert events[0].kind == "hit" and kinds == ["knockdownCheck"]
    saved = hurt.fighter.to_dict()
    assert Fighter.from_dict(saved, hurt.fighter.character) == hurt.fighter


def formulas(character: GurpsCharacter) -> None:
    """The formula language and the independent rule check."""
    tree: Node = parse_formula("floor($.secondary.basicSpeed.value) + 3")
    value: FormulaValue = evaluate(tree, character)
    local: FormulaValue = evaluate("value * 2", character, local=character["secondary"]["hp"])
    tables: Mapping[str, Any] = SCHEMA["x-gurps-tables"]
    swing: FormulaValue = evaluate("lookup('swing', $.attributes.st.value)", character, tables=tables)
    assert isinstance(value, int) and isinstance(local, int) and isinstance(swing, Dice)

    dice: Dice | None = parse_dice("2d-1")
    assert dice is not None and (dice.notation, dice.dice, dice.adds) == ("2d-1", 2, -1)
    assert dice.to_dict() == {"notation": "2d-1", "dice": 2, "adds": -1}
    rounded: int | float = round_up(40 * 0.8)
    plain: Any = plain_value(dice)
    assert rounded == 32 and plain == "2d-1"

    results: list[RecomputeResult] = recompute(SCHEMA, character)
    first: RecomputeResult = results[0]
    computed: FormulaValue = first.computed
    found: list[RuleDeviation] = deviations(SCHEMA, character, results)
    reasons: list[Literal["override", "inconsistent"]] = [item.reason for item in found]
    assert first.pointer and first.formula and computed is not None and "x" not in reasons
    assert first.to_dict()["pointer"] == first.pointer and all(item.to_dict() for item in found)
    node: Any = resolve_schema_ref(SCHEMA, SCHEMA["properties"]["attributes"])
    assert isinstance(node, Mapping)

    try:
        parse_formula("2 * (3 + ")
    except FormulaSyntaxError as err:
        position: int = err.position
        source: str = err.source
        assert source == "2 * (3 + " and position == len(source) and isinstance(err, FormulaError)
    else:  # pragma: no cover
        raise AssertionError("'2 * (3 + ' parsed")
    try:
        evaluate("nosuchfunction(1)", character)
    except FormulaError as err:
        assert isinstance(err, ValueError) and str(err)
    else:  # pragma: no cover
        raise AssertionError("an unknown function evaluated")


def yaml(character: GurpsCharacter) -> None:
    """Characters in YAML (reading needs the optional extra; writing does not)."""
    text: str = dump_yaml_character(character)
    try:
        parsed: Parsed = parse_yaml_character(text, max_bytes=MAX_DOCUMENT_BYTES)
        document: dict[str, Any] = load_yaml_document(text.encode("utf-8"))
    except CharacterError as err:  # installed without the extra (the wheel's test environment)
        assert err.code == "missingExtra" and INSTALL_HINT in err.message
        return
    assert parsed.character == document and MAX_YAML_DEPTH >= 100


def sheets(character: GurpsCharacter) -> None:
    """The sheet and the combat card (rendering needs the optional sheet extra)."""
    try:
        page: str = render_sheet(character, import_notes=())
        card: str = render_card(character, format="svg")
    except CharacterError as err:  # installed without the extra (the wheel's test environment)
        assert err.code == "missingExtra" and err.details["extra"] == "sheet"
        return
    assert page.startswith("<!DOCTYPE html>") and card.startswith("<svg")


def main(argv: list[str]) -> int:
    """``python usage.py <character.json>``: runs every function above on the character."""
    text = Path(argv[1]).read_text(encoding="utf-8")
    constants()
    character = load(text)
    errors()
    gcs_import()
    play(character)
    conditions(character)
    damage(character)
    locations(character)
    combat(character)
    attack_and_defense()
    character_combat(character)
    fight(character)
    formulas(character)
    yaml(character)
    sheets(character)
    print("ok")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
