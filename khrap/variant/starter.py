"""`khrap new`: a commented starting file for house rules.

The file extends the chosen variant and lists the fields a table most often changes, each with a
line saying what it does and its current value, commented out: uncomment a line and change the value.
As written it is valid and plays exactly like the variant it extends (only its title differs), so
`khrap validate` passes at once and warns about nothing.  The explanations are the schema's own
field descriptions, so they say what the rule sheet and the engine do.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from khrap.variant.catalog import load_checked
from khrap.variant.derived import enabled
from khrap.variant.expect import flow
from khrap.variant.schema import Play, Variant

__all__ = ["starter_text"]

# Top-level fields a table most often changes, in the order they are offered.
_TOP = ("players", "hand_size", "base_stake", "ante", "statuses", "deck", "overridden_becomes", "allow_debt",
        "next_dealer", "draw_from")
_PLAY = ("must_beat", "must_overtrump", "follow_suit", "trump_if_void")


_MORE_ABOUT = {"deck": "The deck: its ranks, each in all four suits (or `by_players`: a deck by number of players)."}


def _about(model: type[BaseModel], field: str) -> str:
    text = model.model_fields[field].description or _MORE_ABOUT.get(field, "")
    return " ".join(text.split())


def _title(path: Path) -> str:
    words = path.stem.replace("-", " ").replace("_", " ").strip()
    return (words[:1].upper() + words[1:]) if words else "My house rules"


def starter_text(base: str, path: Path) -> str:
    """The text of a starting file at ``path`` that extends ``base`` (a built-in name or a file)."""
    loaded = load_checked(base)
    v = loaded.variant
    dump: dict[str, Any] = v.model_dump(mode="json", exclude_none=True)
    lean = v.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    dump["statuses"] = lean.get("statuses", dump["statuses"])  # `{tricks: 2, stake: {pots: 1}}`, not every default
    ref = base if not Path(base).suffix else _relative(Path(base), path)
    title = v.name.get("en", base)
    out = [
        f"# House rules starting from {title} ({base}).",
        "# Each commented line below shows a rule as it is now: remove the '#' and change the value.",
        "# Leave out what you do not change: it is inherited. Check the file with:",
        f"#   khrap validate {path}",
        f"# and read what it changes with:  khrap diff {base} {path}",
        "# Every field is described in docs/variant-reference.md.",
        f"extends: {flow(ref)}",
        "",
        "# The title of the rule sheet, per language.",
        f"name: {{en: {flow(_title(path))}}}",
    ]
    for field in _TOP:
        if field not in dump:
            continue
        out += ["", f"# {_about(Variant, field)}", f"# {field}: {flow(dump[field])}"]
    out += ["", f"# {_about(Variant, 'play')}", "# play:"]
    for field in _PLAY:
        out += [f"#   {field}: {flow(dump['play'][field])}  # {_about(Play, field)}"]
    out += ["", "# A call is switched off (out of every step) with `enabled: false`.", "# calls:"]
    for cid, call in enabled(v).items():
        out.append(f"#   {flow(cid)}: {{enabled: true}}  # {call.name.get('en', cid)}: "
                   f"{' '.join(call.description.get('en', '').split())}".rstrip(": "))
    if v.instant_wins:
        out += ["", "# An instant win is switched off with `enabled: false`.", "# instant_wins:"]
        for wid, win in v.instant_wins.items():
            out.append(f"#   {flow(wid)}: {{enabled: {flow(win.enabled)}}}  # {win.name.get('en', wid)}")
    return "\n".join(out) + "\n"


def _relative(base: Path, path: Path) -> str:
    """``base`` as written in ``extends:`` of a file at ``path`` (paths there are relative to the file)."""
    import os

    return Path(os.path.relpath(base.resolve(), path.resolve().parent)).as_posix()
