"""Writing GCS files: :func:`~.export.export_gcs` is the entry point.

* :mod:`.writeback`: play (the pools' damage) patched into the file the character came from,
  every other byte kept.
* A new file from any character: :mod:`.new_character` builds GCS's nodes through
  :mod:`.sheet` (the export's shared state), :mod:`.stats` (attributes, damage table, derived
  values and points, a module each), :mod:`.lists` (traits, skills, equipment, body, profile)
  and :mod:`.gear` (weapons);
  :mod:`.text` writes them as GCS's text.
* :mod:`.notes` says what the new file could not say as the document says it.
"""
