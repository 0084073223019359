"""A refusal reaches the page in its connection's language (issue 27): ``said`` is the refusal worded by
``play.refusals.say`` in the language the client said hello in, ``reason`` stays the protocol's English.
In-process: the host's protocol with fake connections (tests/web/test_stale.py's)."""

from __future__ import annotations

import json
import re

from khrap.variant.catalog import builtin
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds
from tests.web.test_protocol import Clock
from tests.web.test_stale import Inbox

LATIN = re.compile(r"[A-Za-z]")
CYRILLIC = re.compile(r"[а-яА-ЯёЁ]")


def _table(langs: list[str]) -> tuple[Host, Table, list]:
    """A four-person table of Khrap in its first deal; seat N's connection said hello in ``langs[N]``."""
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=Clock())
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=1000, base_stake=1,
                         bots={}, deals=2, seed_source=fixed_seeds("refusal-language"))
    host.add(table)
    clients = []
    for seat, lang in enumerate(langs):
        client = host.connect(Inbox())
        host.receive(client, json.dumps({"type": "hello", "token": table.seats[seat].token, "lang": lang}))
        clients.append(client)
    for client in clients:
        host.receive(client, json.dumps({"type": "next"}))
    assert table.in_deal
    for client in clients:
        client.conn.messages.clear()
    return host, table, clients


def _refusals(client) -> list[dict]:
    return [m for m in client.conn.messages if m["type"] == "refused"]


def _russian(said: str) -> None:
    """Russian words only: the Russian voice writes cards as 10♥ Д♠ and calls by their Russian names."""
    assert CYRILLIC.search(said) and not LATIN.search(said), said


def test_a_stale_action_from_a_second_tab_is_refused_in_its_language() -> None:
    """Two tabs of the seat to act answer the same state: the second's action is stale, and its refusal is
    said in Russian (the tab's language); the English reason is unchanged beside it."""
    langs = ["en"] * 4
    host, table, clients = _table(langs)
    seat = table.session.to_act
    second = host.connect(Inbox())
    host.receive(second, json.dumps({"type": "hello", "token": table.seats[seat].token, "lang": "ru"}))
    step, legal = table.step, [str(a) for a in table.session.legal_actions()]
    host.receive(clients[seat], json.dumps({"type": "claim"}))
    host.receive(clients[seat], json.dumps({"type": "act", "action": legal[0], "step": step}))
    host.receive(second, json.dumps({"type": "claim"}))
    second.conn.messages.clear()
    host.receive(second, json.dumps({"type": "act", "action": legal[-1], "step": step}))
    [refused] = _refusals(second)
    assert refused["stale"] and refused["reason"].startswith("this action answers step")
    _russian(refused["said"])


def test_an_illegal_action_is_refused_in_russian_and_english_as_before() -> None:
    """Seat 1 (Russian) and seat 3 (English) each act out of turn with the current step: the kernel's
    refusal (not_turn: "not seat S's turn; seat T is to act") reaches the Russian page in Russian, the seat
    numbers in it, and the English page word for word as the kernel says it."""
    host, table, clients = _table(["en", "ru", "en", "en"])
    to_act = table.session.to_act
    for seat in (1, 3):
        if seat == to_act:
            continue
        host.receive(clients[seat], json.dumps({"type": "act", "action": "pass", "step": table.step}))
        [refused] = _refusals(clients[seat])
        assert refused["reason"] == f"not seat {seat}'s turn; seat {to_act} is to act", refused
        if seat == 1:
            _russian(refused["said"])
            assert str(seat) in refused["said"] and str(to_act) in refused["said"]
        else:
            assert refused["said"] == refused["reason"]


def test_the_hosts_own_refusals_are_said_in_russian_too() -> None:
    """Refusals the host makes itself (no next deal to be ready for, an action that is not a text): the
    Russian client gets a Russian sentence (play.refusals' generic "not allowed now" where it has no message
    of its own), the English client the host's sentence."""
    host, table, clients = _table(["ru", "en", "en", "en"])
    for client in clients[:2]:
        host.receive(client, json.dumps({"type": "next"}))
        host.receive(client, json.dumps({"type": "act", "action": "", "step": table.step}))
    russian, english = _refusals(clients[0]), _refusals(clients[1])
    assert [m["reason"] for m in russian] == [m["reason"] for m in english] == [
        "there is no next deal to be ready for now", "an action is a text of 1 to 200 characters"]
    for message in russian:
        _russian(message["said"])
    assert [m["said"] for m in english] == [m["reason"] for m in english]
