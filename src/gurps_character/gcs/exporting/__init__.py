"""Writing GCS files: :func:`~.export.export_gcs` is the entry point.

* :mod:`.writeback`: play (the pools' damage) patched into the file the character came from,
  every other byte kept.
* A new file from any character: :mod:`.new_character` builds GCS's nodes through
  :mod:`.sheet` (the export's shared state), :mod:`.stats` (attributes, damage table, derived
  values and points, a module each),
  :mod:`.traits` (traits, languages, reactions), :mod:`.skills`, :mod:`.equipment`,
  :mod:`.body` (hit locations and DR), :mod:`.profile` (profile and notes) and the weapons:
  :mod:`.weapons` (the modes, on their items or traits) with :mod:`.weapon_skills` (the skill
  each is used with) and :mod:`.damage_fields` (damage as GCS's fields and text),
  :mod:`.weapon_calc` (their computed values) and :mod:`.defenses` (Parry and Block);
  :mod:`.text` writes them as GCS's text.
* :mod:`.notes` says what the new file could not say as the document says it.
"""
