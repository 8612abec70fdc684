"""Tests of the ``gurps-character`` command line (:mod:`gurps_character.cli`)."""
