"""Tests of what both GCS wings use (:mod:`gurps_character.gcs.format`)."""
