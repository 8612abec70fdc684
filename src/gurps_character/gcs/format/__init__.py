"""GCS's format and rules that reading and writing a GCS file both need.

* Text and data: :mod:`.json_text` (GCS's JSON text, read and written), :mod:`.json_spans`
  (where a value sits in a text, for patching in place), :mod:`.fields` (typed readers of any
  JSON value), :mod:`.tids` (node ids) and :mod:`.units` (lengths, weights, dice).
* Rules GCS computes: :mod:`.progression` (thrust and swing by ST, Basic Lift),
  :mod:`.skill_levels` (a skill's level by points), :mod:`.features` (bonuses in force, with
  :mod:`.criteria`, GCS's text criteria matched and indexed, and :mod:`.weapon_bonuses`, those
  that reach a weapon) and :mod:`.weapon_damage` (a weapon mode's damage, with :mod:`.gcs_dice`,
  GCS's dice arithmetic, and :mod:`.damage_notation`, the format's damage entry for it).
* :mod:`.standard_sheet`: the standard attributes and humanoid body every new file carries.

Nothing here imports :mod:`..importing` or :mod:`..exporting`.
"""
