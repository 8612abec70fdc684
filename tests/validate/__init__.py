"""Tests of :mod:`gurps_character.validate`: Ajv's findings, the fast check, ECMA patterns."""
