"""A house rule sent to the server whose mistakes are inherited from a built-in names the built-in by its file
name, never by the server's folders (a stranger learns nothing of where khrap is installed): before, the
'inherited' notes and a mistake located in the built-in said /…/variants/khrap.yaml:11:7."""

from __future__ import annotations

from khrap.variant.catalog import variants_dir
from khrap.web.app import check_upload

# khrap with 9 cards for 4 players: its 36-card deck (khrap.yaml:11) is too small, its calls' draws no longer
# make a hand, and its 'fives' stage (khrap.yaml:134) offers take-five to players who are out
NINE = "extends: khrap\nplayers: {min: 4, max: 6}\nhand_size: 9\n"


def test_an_inherited_mistake_names_the_built_in_not_the_servers_folder() -> None:
    for lang in ("en", "ru", "lt", "fi", "hy"):
        variant, errors = check_upload(NINE, lang)
        assert variant is None and len(errors) >= 3
        words = [e[key] for e in errors for key in ("message", "text")]
        assert not [w for w in words if str(variants_dir()) in w or "/variants/" in w]
        assert errors[0]["text"].startswith("upload.yaml:2:24: ")
        assert errors[0]["text"].endswith(" khrap.yaml:11:7)"), errors[0]["text"]
        assert any(e["text"].startswith("khrap.yaml:134:14: ") for e in errors)
