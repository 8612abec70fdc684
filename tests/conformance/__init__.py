"""Case-for-case agreement with the reference library."""
