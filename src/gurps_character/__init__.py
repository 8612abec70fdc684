"""Load, validate, verify and update GURPS 4th Edition characters (gurps-character format v1.3).

Every failure is a :class:`CharacterError` with a stable ``code``. Documents are plain JSON data
(dicts and lists); functions never modify their input and return fresh objects.
"""

from __future__ import annotations

from importlib import metadata as _metadata

from .conditions import (
    Condition,
    ConditionEffects,
    FollowUp,
    FollowUpKind,
    FpState,
    HpState,
    PoolChange,
    PoolState,
    Roll,
    RollKind,
    Threshold,
    change_pool,
    get_condition,
)
from .constants import FORMAT, LATEST_VERSION, MAX_DOCUMENT_BYTES, SCHEMA, SUPPORTED_MINOR, VOCABULARY
from .damage import (
    DamageType,
    Hit,
    HitLocation,
    PainThreshold,
    WeaponDamage,
    apply_hit,
    resolve_damage_notation,
    resolve_hit,
)
from .document import GurpsCharacter
from .errors import CharacterError, ErrorCode
from .gcs import ExportNote, GcsExport, GcsImport, ImportNote, export_gcs, import_gcs
from .load import Envelope, Parsed, check_envelope, parse_character, serialize_character
from .stats import (
    Attributes,
    CombatStats,
    DamageDice,
    DamageResistance,
    EncumbranceLevel,
    SkillDefense,
    SkillStat,
    Weapons,
    combat_stats,
)
from .update import (
    Pool,
    PoolName,
    UpdatableField,
    apply_damage,
    get_pool,
    get_updatable_fields,
    heal,
    recover_fatigue,
    spend_fatigue,
    update_character,
)
from .validate import ValidationError, ValidationResult, validate_character
from .verify import Deviation, Inconsistency, Issue, VerificationReport, verify_character

try:
    __version__ = _metadata.version("gurps-character")
except _metadata.PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0"

__all__ = [
    "FORMAT",
    "LATEST_VERSION",
    "MAX_DOCUMENT_BYTES",
    "SCHEMA",
    "SUPPORTED_MINOR",
    "VOCABULARY",
    "Attributes",
    "CharacterError",
    "CombatStats",
    "Condition",
    "ConditionEffects",
    "DamageDice",
    "DamageResistance",
    "DamageType",
    "Deviation",
    "EncumbranceLevel",
    "Envelope",
    "ErrorCode",
    "ExportNote",
    "FollowUp",
    "FollowUpKind",
    "FpState",
    "GcsExport",
    "GcsImport",
    "GurpsCharacter",
    "Hit",
    "HitLocation",
    "HpState",
    "ImportNote",
    "Inconsistency",
    "Issue",
    "PainThreshold",
    "Parsed",
    "Pool",
    "PoolChange",
    "PoolName",
    "PoolState",
    "Roll",
    "RollKind",
    "SkillDefense",
    "SkillStat",
    "Threshold",
    "UpdatableField",
    "ValidationError",
    "ValidationResult",
    "VerificationReport",
    "WeaponDamage",
    "Weapons",
    "__version__",
    "apply_damage",
    "apply_hit",
    "change_pool",
    "check_envelope",
    "combat_stats",
    "export_gcs",
    "get_condition",
    "get_pool",
    "get_updatable_fields",
    "heal",
    "import_gcs",
    "parse_character",
    "recover_fatigue",
    "resolve_damage_notation",
    "resolve_hit",
    "serialize_character",
    "spend_fatigue",
    "update_character",
    "validate_character",
    "verify_character",
]
