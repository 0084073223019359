"""The table's view is kept as the evening goes (issue 32: a view is made on every action for every seat):
the log lines, the page's events, the closed tricks, the standings and the carried pot read only what is new
since the last update.  Checked against the same figures made from the whole log at every message, across
deals, languages, a spectator and a session rebuilt from its record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from khrap.engine import events as ev
from khrap.engine.observation import render
from khrap.engine.view import seat_view
from khrap.gamelog import tell
from khrap.session import Session
from khrap.session.record import from_record
from khrap.variant.catalog import builtin, builtin_names, load_variant
from khrap.variant.loader import ANYWHERE, trusting
from khrap.web import host as host_module
from khrap.web.host import Host, encode
from khrap.web.store import Store
from khrap.web.table import OBSERVED, SHARED, Table, _chip_moves, _public_event
from tests.web.conftest import fixed_seeds
from tests.web.test_protocol import Clock

HOUSE = Path(__file__).parent.parent / "house-variants"


_WHOLE: dict[tuple[str, str], Session] = {}


def whole_evening(table: Table) -> Session:
    """The table's session replayed from its record, its whole log kept (the table's releases each ended deal's
    events as the next begins: ``Session.release_ended``), once a step."""
    key = (table.id, table.step)
    found = _WHOLE.get(key)
    if found is None:
        _WHOLE.clear()
        found = _WHOLE[key] = from_record(table.record(), check=False)
        assert not found.releasing and found.log_base == 0
    return found


def from_scratch(table: Table, seat: int | None, lang: str) -> dict:
    """What the view's kept parts must be, made from the whole log as the view once made them (the evening's
    from a replay that keeps every deal's events: ``whole_evening``)."""
    s = table.session
    whole = whole_evening(table)
    log = seat_view(s.state, seat).events if s.deals_started else []
    tricks, cards = [], []
    for e in log:
        if isinstance(e, ev.Played):
            cards.append([e.seat, e.fields["card"], bool(e.fields.get("joker"))])
        elif isinstance(e, ev.TookTrick):
            tricks.append({"winner": e.seat, "cards": [[x, c, j] for x, c, j in cards]})
            cards = []
    settled = [e for e in whole.state.log if isinstance(e, ev.Settled)]
    before = whole.state.log[:whole.deal_log_at] if s.deals_started else []
    carried = next((e.fields["pot"] for e in reversed(before) if isinstance(e, ev.Settled)), 0)
    makers = table._makers(0, len(log)) if s.deals_started else []  # who made each (the whole deal's at once)
    events = [data if by is None else {**data, "by": by} for data, by in zip(
        [_public_event(e, seat) for e in log], makers or [None] * len(log), strict=True)]
    return {"log": tell(log, lang, seat, s.variant), "events": events,
            "winners": [t["winner"] for t in tricks], "trick_cards": [len(t["cards"]) for t in tricks],
            "standings": [list(e.fields["stacks"]) for e in settled], "carried": carried,
            "moves": _chip_moves(log, carried, table.players)["rows"], "step": table.step,
            "in_deal": table.in_deal, "finished": table.finished,
            "settled": next((e.data(seat) for e in reversed(log) if isinstance(e, ev.Settled)), None)}


class Checked:
    def __init__(self, table: Table, seat: int | None, lang: str) -> None:
        self.table, self.seat, self.lang, self.count = table, seat, lang, 0

    def send(self, message: dict) -> None:
        if message["type"] != "state":
            return
        want = from_scratch(self.table, self.seat, self.lang)
        own = render(seat_view(self.table.session.state, self.seat), [], [], [])  # the seat's own observation
        assert list(message["obs"]) == list(OBSERVED) and message["obs"] == {k: own[k] for k in OBSERVED}
        assert message["log"] == want["log"]
        assert message["events"] == want["events"]
        assert message["table"]["standings"] == want["standings"]
        assert message["moves"]["carried"] == want["carried"]
        assert message["moves"]["rows"] == want["moves"]
        assert message["settled"] == want["settled"]
        kept = ("step", "in_deal", "finished")
        assert [message["table"][k] for k in kept] == [want[k] for k in kept]
        shown = message["tricks"]
        assert [t["winner"] for t in shown] == want["winners"][-2:]
        assert message["trick_number"] == len(want["winners"]) + 1
        self.count += 1

    def close(self, reason: str) -> None:
        raise AssertionError(reason)


@pytest.mark.parametrize("name", ["khrap", "frap"])
def test_the_kept_view_equals_the_view_made_from_the_whole_log(name: str) -> None:
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=Clock())  # (the rate limit never refuses)
    table = Table.create(builtin(name), name=name, source=None, players=4, stacks=1000, base_stake=1, bots={},
                         deals=4, seed_source=fixed_seeds(f"view-cache:{name}"))
    host.add(table)
    langs = ["en", "ru", "en", "ru"]  # the languages the page speaks (host.LANGS)
    conns = [Checked(table, seat, langs[seat]) for seat in range(4)]
    clients = []
    for seat, conn in enumerate(conns):
        client = host.connect(conn)
        host.receive(client, json.dumps({"type": "hello", "token": table.seats[seat].token, "lang": langs[seat]}))
        clients.append(client)
    watcher = Checked(table, None, "ru")
    host.receive(host.connect(watcher), json.dumps({"type": "hello", "token": table.spectator_token, "lang": "ru"}))
    deals = 0
    while not table.finished:
        for client in clients:
            host.receive(client, json.dumps({"type": "next"}))
        deals += 1
        actions = 0
        while table.in_deal:
            seat = table.session.to_act
            host.receive(clients[seat], json.dumps({"type": "act", "action": table.bot_action(seat, "random"),
                                                    "step": table.step}))
            actions += 1
            if deals == 2 and actions == 5:  # the session made again from its record: the kept log starts over
                table._rebuild()
                table._ensure_decks()
    assert deals >= 2 and all(c.count > 20 for c in [*conns, watcher])
    assert len(table._standings()) == table.session.deals_completed  # one row a settled deal
    assert table.session.log_base > 0  # (the ended deals' events were released: the views read none of them)


@pytest.mark.parametrize("name", builtin_names())
def test_the_shared_keys_of_every_seats_observation_are_the_spectators(name: str) -> None:
    # ``Table._shared_observed`` makes them once a change from the spectator's observation for every seat.
    variant = builtin(name)
    players = min(4, variant.players.max)
    table = Table.create(variant, name=name, source=None, players=players, stacks=1000, base_stake=1, bots={},
                         deals=3, seed_source=fixed_seeds(f"shared:{name}"))
    checked = 0
    while not table.finished:
        table.start_deal()
        while table.in_deal:
            state = table.session.state
            everybody = render(seat_view(state, None), [], [], [])
            for seat in range(players):
                own = render(seat_view(state, seat), [], [], [])
                assert {k: own[k] for k in SHARED} == {k: everybody[k] for k in SHARED}
                checked += 1
            seat = table.session.to_act
            table.apply(seat, table.bot_action(seat, "random"))
    assert checked > 40
    assert set(OBSERVED) - set(SHARED) == {"seat", "hand"}


def test_the_table_part_is_made_once_for_the_views_of_a_change_and_again_when_a_seat_changes() -> None:
    """Every viewer in a language shares one ``table`` part of a change (and the patch of it is made once a
    broadcast); a seat's name, readiness or presence, a language, or an action makes it again."""
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=Clock())
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=1000, base_stake=1, bots={},
                         deals=2, seed_source=fixed_seeds("view-cache:part"))
    host.add(table)
    first = host.view(table, 0, "en")
    assert host.view(table, 1, "en")["table"] is first["table"]
    assert host.view(table, None, "en")["table"] is first["table"]
    assert host.view(table, 1, "ru")["table"] is not first["table"]
    table.seats[2].name = "Boris"
    named = host.view(table, 0, "en")["table"]
    assert [st["name"] for st in named["seats"]] == ["", "", "Boris", ""]
    table.seats[3].ready = True
    assert [st["ready"] for st in host.view(table, 0, "en")["table"]["seats"]] == [False, False, False, True]
    client = host.connect(Checked(table, 1, "en"))
    host.receive(client, json.dumps({"type": "hello", "token": table.seats[1].token}))
    assert [st["present"] for st in host.view(table, 0, "en")["table"]["seats"]] == [False, True, False, False]
    step = host.view(table, 0, "en")["table"]["step"]
    table.seats[0].ready = table.seats[2].ready = True
    table.start_deal()
    assert host.view(table, 0, "en")["table"]["step"] != step


MESSAGES = [
    {"type": "state", "log": ["Сдаёт 3 ♥ 10♥"], "n": None, "b": True, "x": 1.5, "nested": {"a": [1, [2, 3]]}},
    {"type": "refused", "reason": "bad \ud800 surrogate"},  # a lone surrogate a client sent back to it
    {"type": "state", "moves": {0: 1, 1: -1}},  # int keys, as the standard encoder writes them
]


@pytest.mark.parametrize("message", MESSAGES)
def test_the_fast_encoder_writes_what_the_standard_one_does(message: dict, monkeypatch) -> None:
    fast = encode(message)
    monkeypatch.setattr(host_module, "orjson", None)
    standard = encode(message)
    assert json.loads(fast) == json.loads(standard)
    fast.encode("utf-8")  # valid UTF-8 whatever it quotes


class Fresh:
    """A connection that checks each view it is sent against the view made again with nothing kept."""

    def __init__(self, host: Host, table: Table, seat: int | None, lang: str) -> None:
        self.host, self.table, self.seat, self.lang, self.count = host, table, seat, lang, 0

    def send(self, message: dict) -> None:
        if message["type"] != "state":
            return
        kept, self.table._bodies = self.table._bodies, {}  # the general branch: every seat's body made anew
        again = self.host.view(self.table, self.seat, self.lang)
        self.table._bodies = kept
        assert {k: v for k, v in message.items() if k != "n"} == {k: v for k, v in again.items() if k != "n"}
        self.count += 1

    def close(self, reason: str) -> None:
        raise AssertionError(reason)


def test_a_view_made_from_the_kept_body_is_the_view_made_anew() -> None:
    """A seat's view but its table part is kept until the session moves: a change of the seats alone (a seat
    ready, a name, a player come) makes no body again, and every view sent is the one made with nothing kept."""
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=Clock())
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=1000, base_stake=1, bots={},
                         deals=3, seed_source=fixed_seeds("view-cache:body"))
    host.add(table)
    langs = ["en", "ru", "lt", "en"]
    conns = [Fresh(host, table, seat, langs[seat]) for seat in range(4)]
    clients = []
    for seat, conn in enumerate(conns):
        client = host.connect(conn)
        host.receive(client, json.dumps({"type": "hello", "token": table.seats[seat].token, "lang": langs[seat]}))
        clients.append(client)
    watcher = Fresh(host, table, None, "fi")
    host.receive(host.connect(watcher), json.dumps({"type": "hello", "token": table.spectator_token, "lang": "fi"}))
    while not table.finished:
        before = host.parts(table, 2, "lt")
        host.receive(clients[0], json.dumps({"type": "next"}))  # a seat ready: the table part changes only
        host.receive(clients[1], json.dumps({"type": "name", "name": f"Boris {table.step}"}))
        after = host.parts(table, 2, "lt")
        assert after.own is before.own  # the body (the view's parts but the table) was kept
        assert after.common.table != before.common.table
        for client in clients[1:]:
            host.receive(client, json.dumps({"type": "next"}))
        while table.in_deal:
            seat = table.session.to_act
            host.receive(clients[seat], json.dumps({"type": "act", "action": table.bot_action(seat, "random"),
                                                    "step": table.step}))
    assert all(c.count > 20 for c in [*conns, watcher])


@pytest.mark.parametrize(("house", "stacks"), [("khrap-min-stack.yaml", 20), ("khrap-no-debt.yaml", 10)])
def test_a_session_over_before_the_deal_limit_finishes_the_table_when_its_deal_ends(house: str, stacks: int) -> None:
    """``Table.finished`` reads the ``session_over`` events once each (not the deal's log on every call): a table
    whose house rule ends the session (a stack below the minimum, no debts) finishes long before its deal limit,
    when the deal that ended it is settled, and says so in every view."""
    with trusting(ANYWHERE):
        variant = load_variant(str(HOUSE / house))
    table = Table.create(variant, name=house, source=None, players=4, stacks=stacks, base_stake=variant.base_stake,
                         bots={}, deals=500, seed_source=fixed_seeds(f"session-over:{house}"))
    while not table.finished:
        assert table.session.deals_completed < 100, "the session should have ended"
        table.start_deal()
        assert not table.finished
        while table.in_deal:
            seat = table.session.to_act
            table.apply(seat, table.bot_action(seat, "random"))
            log = table.session.state.log
            over = any(isinstance(e, ev.SessionOver) for e in log[table.session.deal_log_at:])
            assert table._session_over() == over  # (the whole deal's log read again: what it must say)
    assert 1 < table.session.deals_completed < 500 and table._session_over()
    assert table.view(0)["table"]["finished"] is True
