"""Tests of damage and conditions: :mod:`~gurps_character.damage`, :mod:`~gurps_character.conditions`."""
