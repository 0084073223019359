"""A scenario file (CONTRACT.md) from a record: any played deal becomes a test.

The scenario lists every deck the deals dealt, so it does not depend on the
seed's shuffles.  Its ``expect:`` is what the recorded session reached: check
it by hand (RULES.md) before a test relies on it.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from khrap.cards import cards_str
from khrap.session.core import Session
from khrap.session.record import DealMark, RecordError, replay_record, result
from khrap.variant.catalog import builtin_names, load_variant
from khrap.variant.loader import VariantError

EXPECT_FIELDS = ("phase", "to_act", "deals_completed", "stacks", "pot", "locked", "tricks")


def _variant_ref(session: Session, out: Path | None, folder: Path | None = None) -> tuple[str, Path | None]:
    """A way for the scenario to name the variant: a built-in, the original file, or a file written beside it.

    The original file is looked for as the record names it (from the record's ``folder``, within the
    trust boundary); a scenario written to a file names it only by a path in the scenario's folder
    (or below), since that is all a scenario may name: otherwise the variant is written beside it.
    """
    data = session.variant_data
    ref = session.variant_name
    if ref in builtin_names() and load_variant(ref).model_dump(mode="json") == data:
        return ref, None
    path = Path(folder or ".") / ref
    if path.suffix in (".yaml", ".yml"):
        try:
            if load_variant(ref, named_in=folder).model_dump(mode="json") == data:
                real = path.resolve()
                if out is None:
                    return str(real), None
                base = out.resolve().parent
                if real.is_relative_to(base):
                    return str(real.relative_to(base)), None
        except (VariantError, OSError, ValueError):
            pass
    if out is None:
        raise RecordError(
            f"the record's variant ({ref}) is neither a built-in nor a file that still matches it: "
            "write the scenario to a file (-o FILE) so the variant can be written beside it"
        )
    beside = out.with_name(out.stem + ".variant.yaml")
    return beside.name, beside


def _deal_range(marks: list[DealMark], deal: int | None) -> tuple[int, int]:
    """Indices of the first and last deal to include (a deal dealt without ante brings its predecessor)."""
    if not marks:
        raise RecordError("the record has no deal yet")
    if deal is None:
        return 0, len(marks) - 1
    if not 1 <= deal <= len(marks):
        raise RecordError(f"the record has {len(marks)} deals; there is no deal {deal}")
    first = deal - 1
    while first > 0 and marks[first].skip_ante:
        first -= 1
    return first, deal - 1


def record_to_scenario(record: dict, deal: int | None = None, out: str | Path | None = None) -> dict[Path | None, str]:
    """Scenario text for the whole record or for deal ``deal`` (1-based).

    Returns ``{path: text}``: the scenario under ``out`` (None: to print), and a
    variant file beside it when the record's variant must be written out.
    """
    out = Path(out) if out is not None else None
    session, marks = replay_record(record)
    first, last = _deal_range(marks, deal)
    start, after = marks[first], (marks[last + 1] if last + 1 < len(marks) else None)
    actions = session.actions[start.actions_at : after.actions_at if after else None]
    if not actions:
        raise RecordError(f"deal {last + 1} has no action yet")
    decks = session.state.decks_dealt[start.decks_at : after.decks_at if after else None]
    end = after.before if after else result(session)
    ref, variant_file = _variant_ref(session, out, getattr(record, "folder", None))
    which = "every deal" if deal is None else f"deal {deal}" if first == last else f"deals {first + 1} to {last + 1}"
    text = _scenario_text(session, which, ref, start, decks, actions, end)
    files: dict[Path | None, str] = {out: text}
    if variant_file is not None:
        files[variant_file] = yaml.safe_dump(session.variant_data, allow_unicode=True, sort_keys=False)
    return files


def _scenario_text(session: Session, which: str, ref: str, start: DealMark, decks: list[list[int]],
                   actions: list[tuple[int, str]], end: dict) -> str:
    lines = [
        f"# {which.capitalize()} of a recorded {session.variant_name} session (seed {session.seed}),",
        "# written by `khrap replay --scenario`.  The expected values are what the session",
        "# reached; check them by hand against RULES.md before a test relies on them.",
        f"variant: {json.dumps(ref)}",
        f"players: {session.players}",
        f"dealer: {start.dealer}",
        f"stacks: {json.dumps(start.stacks)}",
        f"pot: {start.pot}",
        f"seed: {session.seed}",
        "decks:",
        *(f'  - "{" ".join(cards_str(d))}"' for d in decks),
        "actions: |",
        *(f"  {seat} {text}" for seat, text in actions),
        "expect:",
    ]
    done = end["deals_completed"] - start.before["deals_completed"]
    for key in EXPECT_FIELDS:
        value = done if key == "deals_completed" else end[key]
        lines.append(f"  {key}: {json.dumps(value)}")
    return "\n".join(lines) + "\n"
