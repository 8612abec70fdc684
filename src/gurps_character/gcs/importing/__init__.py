"""Reading a GCS file into a gurps-character document, one module per part of the sheet.

* :mod:`.reading`: the file's size, JSON and version; :mod:`.document` assembles the import
  (:func:`~.document.import_gcs`) and :mod:`.context` is what its parts share.
* The sheet's parts: :mod:`.attributes` (with :mod:`.expressions`, GCS's attribute bases),
  :mod:`.traits` (with :mod:`.trait_tree`, the tree and each node's points and share;
  :mod:`.trait_costs`, GCS's price of a trait and its modifiers; and :mod:`.trait_notes`, what an
  entry's notes say), :mod:`.skills` (with :mod:`.skill_rules`, GCS's levels where the file saved
  none and the load skills are encumbered by), :mod:`.equipment` (with :mod:`.gear_values`, cost and weight
  where the file saved none), :mod:`.weapons` (with :mod:`.weapon_modes`, the weapons' owners,
  modes and defaults; :mod:`.weapon_skills`, the skills those defaults name; and
  :mod:`.weapon_levels`, each mode's level, parry and block), :mod:`.body` (hit locations) and
  :mod:`.derived` (Basic Lift, encumbrance, Move, Dodge, thrust and swing).
* :mod:`.integrity` lists where GCS's numbers and the format's formulas disagree, and
  :mod:`.notes` says what could not be carried over as it was.
"""
