"""Printable rule sheets generated from variant files (``khrap rules``, ``khrap diff``)."""
