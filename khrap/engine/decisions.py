"""The registry of decision kinds: one entry per kind of decision the kernel may wait for.

Each entry (``Decision``) says, once, how its legal actions are listed, how one is applied, why one is
refused (its table in ``legal``), how the machine's raw options and the listing read as ``Action`` objects
and CONTRACT.md words, and what a seat's observation shows of it.  Everything that asks "what kind of
decision is this?" reads the entry of ``Pending.kind`` (a ``Kind``) here instead of comparing words:

    decision = DECISIONS[state.pending.kind]
    decision.listing(state), decision.words(found), decision.refuse(state, seat, action)

``look`` is an action of the call decision (CONTRACT.md: legal only while a blind call is open), listed
and refused with the calls.  The entries are made in ``compiled/face.py`` (the listing and the applying
run at every decision, compiled with the kernel); this module is their public face.
"""

from __future__ import annotations

from typing import Any

from khrap.engine.actions import Action
from khrap.engine.compiled.face import DECISIONS, Decision
from khrap.engine.compiled.face import refusal as face_refusal
from khrap.engine.kinds import CALL, DISCARD, EXCHANGE, PLAY, TRUMP, Kind

__all__ = ["CALL", "DECISIONS", "DISCARD", "EXCHANGE", "PLAY", "TRUMP", "Decision", "Kind", "as_action",
           "display_name", "display_names", "refusal"]


def as_action(kind: Kind, option: Any) -> Action:
    """An option ``Machine.legal`` lists for a decision of ``kind`` (an int, a tuple of cards, an ``Action``),
    as the ``Action`` it stands for; ``str()`` of it is its CONTRACT.md words."""
    return DECISIONS[kind].option(option)


def refusal(state, action: Action) -> str | None:
    """Why the seat to act may not take ``action`` now, or None if he may: the first sentence of the pending
    decision's table (``legal``) that ``action`` does not meet."""
    return face_refusal(state, state.kind, action)


def display_name(word: str, lang: str) -> str | None:
    """The name in ``lang`` (else English) of a word a kind of the registry declares (an offer's answer), or
    None for a word no entry names (a call: the variant names it; a card action: each interface's own)."""
    for decision in DECISIONS.values():
        names = decision.names.get(word)
        if names:
            return names.get(lang) or names.get("en") or word
    return None


def display_names(lang: str) -> dict[str, str]:
    """Every word the registry's entries name, with its name in ``lang``: what a screen shows for them."""
    return {word: display_name(word, lang) or word for d in DECISIONS.values() for word in d.names}
