"""Tests of the core: loading, the schema, JSON semantics, verification, updates, serializing."""
