"""The package as a whole: public names, README, wheel, workflow, benchmark script, layout."""
