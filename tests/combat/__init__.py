"""Tests of attack and defense: :mod:`~gurps_character.combat`, the combat view, locations, dice."""
