"""Fair deals that can be checked: a commitment to each deal's seed before the deal, the seed after it.

Before a deal the server draws a 256-bit seed and shows only its commitment,
``SHA-256(seed)``; once the deal is settled it reveals the seed.  Every deck of
that deal (the first shuffle, then one per all-pass redeal) is made from the
seed by :func:`deck_from_seed`, a Fisher-Yates shuffle of the table's canonical
deck driven by SHA-256 in counter mode, simple enough to check by hand or in
the page's JavaScript (``khrap/web/static/fair.js`` does the same steps).

``verify_record`` checks a record file written by ``khrap serve``: each
commitment matches its seed, each dealt deck is the one its seed makes, and the
record replays to what it says (``khrap verify RECORD``).
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Iterator, Sequence

SEED_BYTES = 32
"""A deal's seed: 256 random bits, written as 64 hex digits."""
_EIGHT_WORDS = struct.Struct(">8I")
"""A SHA-256 digest as eight big-endian 32-bit words."""
_WORD_RANGE = 1 << 32
_LIMITS = tuple(_WORD_RANGE - _WORD_RANGE % n if n else 0 for n in range(129))
"""For n choices, the largest multiple of n a 32-bit word may be below (a word at or above it is drawn again),
made once for decks of up to 128 cards."""


def new_seed() -> str:
    """A fresh deal seed (hex), from the operating system's randomness."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """The commitment to a seed: SHA-256 of its bytes, hex."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def _words(seed: bytes, index: int) -> Iterator[int]:
    """32-bit words: SHA-256(seed ‖ index ‖ counter) for counter 0, 1, ... (4-byte big-endian each),
    every digest read as eight big-endian words."""
    start = hashlib.sha256(seed + index.to_bytes(4, "big"))  # (the seed and index hashed once: each digest
    counter = 0  # goes on from a copy of this state; the words read by ``struct``, not eight slices each)
    while True:
        digest = start.copy()
        digest.update(counter.to_bytes(4, "big"))
        yield from _EIGHT_WORDS.unpack(digest.digest())
        counter += 1


def deck_from_seed(canonical: Sequence, seed: str, index: int = 0) -> list:
    """The ``index``-th deck of a deal (0: the deal, 1, 2...: redeals), top card first: ``canonical``
    shuffled by Fisher-Yates from the last place down, each place's pick a word below the largest
    multiple of the choices (rejection sampling, so every order is equally likely)."""
    deck = list(canonical)
    words = _words(bytes.fromhex(seed), index)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n] if n < len(_LIMITS) else _WORD_RANGE - _WORD_RANGE % n
        r = next(words)
        while r >= limit:
            r = next(words)
        j = r % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def is_seed(text: object) -> bool:
    return isinstance(text, str) and len(text) == 2 * SEED_BYTES and all(c in "0123456789abcdef" for c in text)


def verify_record(record: dict) -> tuple[list[str], list[str]]:
    """(lines that hold, problems) for a record written by ``khrap serve``.

    Checks, deal by deal, that the commitment is SHA-256 of the revealed seed and that the decks the
    record dealt are the ones the seed makes; then that the record replays (every dealt deck is the
    one the game dealt from the actions, and the result is the one written)."""
    from khrap.cards import cards_str
    from khrap.session.record import RecordError, from_record

    good: list[str] = []
    bad: list[str] = []
    table = record.get("table") if isinstance(record.get("table"), dict) else {}
    fair = table.get("fair")
    if not isinstance(fair, list) or not fair:
        return good, ["the record holds no fair-deal data (`table.fair`): it was not written by `khrap serve`"]
    try:
        session = from_record(record, check=True)
    except RecordError as err:
        return good, [f"the record does not replay: {err}"]
    canonical = cards_str(session.rules.complete_deck([]))
    dealt = list(record.get("dealt") or [])
    at = 0
    for entry in fair:
        if not isinstance(entry, dict):
            bad.append(f"a `table.fair` entry is not a mapping: {entry!r:.60}")
            continue
        number, seed, commit, count = entry.get("deal"), entry.get("seed"), entry.get("commitment"), entry.get("decks")
        if not is_seed(seed):
            bad.append(f"deal {number}: the seed is not 64 hex digits (not revealed?)")
            continue
        if commitment(seed) != commit:
            bad.append(f"deal {number}: SHA-256 of the seed is {commitment(seed)}, not the commitment {commit}")
            continue
        if not isinstance(count, int) or count < 1 or at + count > len(dealt):
            bad.append(f"deal {number}: `decks` must be the number of decks it dealt, not {count!r}")
            continue
        for i in range(count):
            made = " ".join(deck_from_seed(canonical, seed, i))
            if dealt[at + i] != made:
                bad.append(f"deal {number}: deck {i + 1} dealt is not the one its seed makes")
                break
        else:
            good.append(f"deal {number}: commitment {commit[:16]}… matches its seed; "
                        f"{count} deck{'s' if count > 1 else ''} dealt from it")
        at += count
    if at != len(dealt) and not bad:
        bad.append(f"the record dealt {len(dealt)} decks, the fair-deal data accounts for {at}")
    return good, bad


__all__ = ["commitment", "deck_from_seed", "is_seed", "new_seed", "verify_record"]
