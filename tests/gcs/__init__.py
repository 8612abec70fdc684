"""Tests of :mod:`gurps_character.gcs`, one folder per wing."""
