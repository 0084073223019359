"""Hidden information: a seat sees its own hand once looked, the table and public history, nothing else."""

from khrap.cards import parse_cards
from khrap.engine import GameState, Rules
from khrap.variant.catalog import builtin

DECK = "AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"


def table(deck_text: str) -> GameState:
    rules = Rules(builtin("khrap"), 4)
    listed = parse_cards(deck_text)
    state = GameState(rules, 4, decks=[listed + [c for c in rules.deck if c not in listed]])
    state.start_deal()
    return state


def test_observation_holds_own_hand_and_public_cards_only() -> None:
    state = table(DECK)
    state.apply("khrap", 1)
    obs = state.observation(1)
    assert obs["hand"] == ["AS", "KH", "6D", "7C"]
    assert obs["turned"] == ["9H"] and obs["trump"] == "H"
    assert obs["hand_sizes"] == [4, 4, 4, 4]
    text = repr(obs)
    for hidden in ("QH", "6S", "AD", "8C", "7S", "JS"):  # seats 2, 3 and 0 hold these
        assert hidden not in text
    assert "stock" not in obs and obs["stock_count"] == 19  # the count, never the order
    assert "seat 1: khrap" in obs["history"]


def test_every_seat_sees_its_hand_as_dealt_when_no_blind_call_can_be_open() -> None:
    # Issue 27: a hand is seen as soon as dealt unless its seat may still call blind.  Khrap's one
    # blind call, wrap, is the dealer's (seat 0) with an ace turned: 9H is turned, so nobody may wrap.
    state = table(DECK)
    assert state.seat == 1  # nobody has acted yet
    assert state.observation(3)["hand"] == ["7S", "8S", "9S", "TS"]  # dealt 3rd, 7th, 11th, 15th
    assert state.observation(0)["hand"] == ["JS", "7D", "8D", "6C"]  # the dealer too (in the order ♠ ♥ ♦ ♣)
    assert state.legal_words() == ["khrap", "pass"]  # nothing about looking at seat 1's turn


def test_a_dealer_who_may_still_wrap_blind_keeps_his_cards_face_down() -> None:
    # The same deal with the ace of hearts turned: wrap may be open to the dealer (seat 0) once there
    # is a declarer, so his cards stay face down; the others see theirs at once.
    state = table(DECK.replace("9H", "AH"))
    assert state.observation(0)["hand"] is None
    assert state.observation(2)["hand"] == ["6S", "QH", "AD", "8C"]
    state.apply("khrap", 1)
    state.apply("pass", 2)
    state.apply("pass", 3)
    assert state.observation(0)["hand"] is None
    assert "look" in state.legal_words() and "wrap" in state.legal_words()  # his turn: look beside wrap


def test_in_frap_nobody_sees_his_cards_until_blind_frap_is_closed() -> None:
    # Frap's blind-frap is open to every seat while nobody has called frap: all hands stay face down;
    # the first frap closes it, and every seat who has not spoken sees his hand at once.
    rules = Rules(builtin("frap"), 4)
    state = GameState(rules, 4, decks=[list(rules.deck)])
    state.start_deal()
    assert [state.observation(s)["hand"] for s in range(4)] == [None] * 4
    assert "look" in state.legal_words() and "blind-frap" in state.legal_words()
    state.apply("look", 1)
    state.apply("frap", 1)
    assert all(state.observation(s)["hand"] is not None for s in range(4))


def test_hidden_cards_do_not_change_the_observation() -> None:
    # Swap a card of seat 2 (QH, dealt 2nd) with a stock card (TC, unlisted): seat 1 cannot tell.
    other = DECK.replace("QH", "TC")
    a, b = table(DECK), table(other)
    for state in (a, b):
        state.apply("khrap", 1)
        state.apply("help", 2)
    assert a.hands[2] != b.hands[2]
    assert a.observation(1) == b.observation(1)
    assert a.observation(3) == b.observation(3)


def test_exchanged_cards_are_private() -> None:
    state = table(DECK)
    for seat, word in ((1, "khrap"), (2, "help"), (3, "pass"), (0, "pass"), (3, "pass"), (0, "pass")):
        state.apply(word, seat)
    state.apply("exchange 6D 7C", 1)
    assert any("exchanges 6D 7C" in line for line in state.observation(1)["history"])
    seen_by_2 = state.observation(2)["history"]
    assert any("seat 1 exchanges 2" in line for line in seen_by_2)
    assert not any("6D" in line for line in seen_by_2)
