"""Tests of writing GCS files (:mod:`gurps_character.gcs.exporting`)."""
