"""Tests of reading GCS files (:mod:`gurps_character.gcs.importing`)."""
