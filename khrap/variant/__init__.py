"""Variant files: the schema, loading with located errors, and the built-in catalog."""
