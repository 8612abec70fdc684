"""Tests of :mod:`gurps_character.formula`, the rule language."""
