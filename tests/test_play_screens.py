"""The terminal game in-process, in every built-in variant: a person choosing by number plays whole deals,
and the screen shows that seat's own cards and no one else's."""

import pytest

from khrap.cards import cards_str
from khrap.play import Table, run
from khrap.session import Session
from khrap.variant.catalog import builtin_names


@pytest.mark.parametrize("name", builtin_names())
def test_a_person_choosing_by_number_plays_two_deals(name: str) -> None:
    game = Session(name, 4 if name != "student-snore" else 3, seed=17)
    out: list[str] = []
    prompts = []
    screens = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        screens.append("\n".join(out))
        out.clear()
        return "1"

    finished = run(game, Table(humans=[0], deals=2), read=read, write=out.append)
    assert finished and game.deals_completed == 2
    assert prompts and set(prompts) == {"seat 0> "}
    text = "\n".join(screens)
    assert "deals 4 cards each (" not in text and "deals 5 cards each (" not in text
    assert "── deal 2 settled" in "\n".join(out)


def test_the_screen_shows_only_the_seats_own_hand() -> None:
    from khrap.play.screen import render

    game = Session("khrap", 4, seed=0, decks=["AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D 9H"])
    game.start_deal()
    screen = render(game, 1)
    assert "your hand (seat 1): AS KH 6D 7C" in screen
    others = [c for seat in (0, 2, 3) for c in cards_str(game.state.hands[seat])]
    assert not [c for c in others if c in screen]
    assert "your hand (seat 3): 7S 8S 9S TS" in render(game, 3)  # seen as soon as dealt (issue 27)
    # With the ace of hearts turned, the dealer (seat 0) may still wrap blind: his cards stay face down.
    blind = Session("khrap", 4, seed=0, decks=["AS QH 7S JS KH 6S 8S 6C 7C 8C 9S 7D 6D AD TS 8D AH"])
    blind.start_deal()
    assert "(you have not looked)" in render(blind, 0) and "JS" not in render(blind, 0)
