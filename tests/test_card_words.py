"""A card's words (CONTRACT.md's notation) from its int, ``suit * 13 + rank``: the table ``CARD_WORDS`` that
``card_str`` reads and the server's views index natively (``web.table``), worked by hand."""

import pytest

from khrap.cards import CARD_WORDS, card_str, cards_str


@pytest.mark.parametrize(("card", "words"), [
    (0, "2S"), (8, "TS"), (12, "AS"),  # spades: ranks 2..A are 0..12
    (13, "2H"), (24, "KH"),  # hearts from 13: 13 + 11 is the king
    (34, "TD"),  # diamonds from 26: 26 + 8 is the ten
    (39, "2C"), (51, "AC"),  # clubs from 39; the last card of the deck
])
def test_a_cards_words_are_its_rank_then_its_suit(card: int, words: str) -> None:
    assert CARD_WORDS[card] == card_str(card) == words


def test_every_card_has_its_own_words_and_no_more_than_52() -> None:
    assert len(CARD_WORDS) == len(set(CARD_WORDS)) == 52
    assert cards_str([12, 24, 34]) == ["AS", "KH", "TD"]
    with pytest.raises(IndexError):
        card_str(52)
