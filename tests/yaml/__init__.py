"""Tests of characters in YAML (:mod:`gurps_character.yaml`)."""
