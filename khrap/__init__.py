"""khrap: a rules-as-data engine for the Khrap family of trick-taking games."""

__version__ = "0.1.0"
