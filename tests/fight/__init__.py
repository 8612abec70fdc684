"""Tests of a fight turn by turn (:mod:`gurps_character.fight`) and the critical tables."""
