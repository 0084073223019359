"""Seats change hands (issue 27): the host gives a seat to a bot or to a new link, a player leaves, and one
seat's link open twice is not silent.  In-process: the host's protocol with fake connections."""

from __future__ import annotations

import json

import pytest

from khrap.variant.catalog import builtin
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table
from tests.web.conftest import fixed_seeds
from tests.web.test_protocol import Clock
from tests.web.test_stale import Inbox


def _table(store: Store | None = None) -> tuple[Host, Table]:
    host = Host(store or Store(":memory:"), takeover_seconds=1e12, clock=Clock())
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=100, base_stake=1,
                         bots={3: "rule"}, deals=3, seed_source=fixed_seeds("seats"))
    host.add(table)
    return host, table


def _hello(host: Host, token: str, **extra):
    client = host.connect(Inbox())
    host.receive(client, json.dumps({"type": "hello", "token": token, **extra}))
    return client


def _say(host: Host, client, **message) -> dict:
    client.conn.messages.clear()
    host.receive(client, json.dumps(message))
    return client.conn.messages[0] if client.conn.messages else {}


def test_the_host_gives_a_seat_to_a_new_link_and_the_old_link_is_told_plainly() -> None:
    host, table = _table()
    old = table.seats[1].token
    player = _hello(host, old)
    boss = _hello(host, table.host_token)
    assert boss.seat is None and boss.host
    state = boss.conn.messages[-1]
    assert state["host"]["links"] == {"0": table.seats[0].token, "1": old, "2": table.seats[2].token}
    assert player.conn.messages[-1]["host"] is None  # a player's view holds no other seat's link
    player.conn.messages.clear()
    _say(host, boss, type="seat", seat=1, to="link")
    new = table.seats[1].token
    assert new != old and table.seats[1].human and table.seats[1].why == "link"
    told = player.conn.messages
    assert told[0]["type"] == "error" and told[0]["code"] == "revoked" and told[0]["why"] == "link"
    assert "no longer plays" in told[0]["reason"] and told[-1] == {"type": "closed", "reason": "seat handed over"}
    assert told[0]["reason"].endswith("ask the host for yours")  # (it said "ask him": the host is not always a he)
    assert player not in host.clients[table.id] and table.seats[1].connections == 0
    again = _hello(host, old)  # the old link, opened later: the same plain sentence, no table
    assert again.conn.messages[0]["code"] == "revoked" and again.table is None
    fresh = _hello(host, new)
    assert fresh.seat == 1 and fresh.conn.messages[-1]["me"] == 1
    assert boss.conn.messages[-1]["host"]["links"]["1"] == new


def test_the_host_gives_a_seat_to_a_bot_which_then_plays_it() -> None:
    host, table = _table()
    players = [_hello(host, table.seats[s].token) for s in range(3)]
    boss = _hello(host, table.host_token)
    for p in players:
        _say(host, p, type="next")
    assert table.in_deal
    seat = table.session.to_act
    assert host.automated(table) is None  # a person is to act
    _say(host, boss, type="seat", seat=seat, to="bot")
    assert not table.seats[seat].human and table.seats[seat].bot == "normal"
    assert host.automated(table) == (seat, "normal")
    assert "1" not in boss.conn.messages[-1]["host"]["links"] or seat != 1
    refused = _say(host, boss, type="seat", seat=seat, to="bot")
    assert refused["type"] == "refused" and "already" in refused["reason"]


def test_only_the_host_hands_seats_over_and_nonsense_is_refused() -> None:
    host, table = _table()
    player = _hello(host, table.seats[0].token)
    watcher = _hello(host, table.spectator_token)
    for client in (player, watcher):
        answer = _say(host, client, type="seat", seat=1, to="bot")
        assert answer["type"] == "refused" and "host" in answer["reason"]
        wrong = _say(host, client, type="host", token=table.spectator_token)
        assert wrong["type"] == "refused"
    boss = _hello(host, table.host_token)
    for seat, to in ((7, "bot"), (-1, "bot"), (True, "bot"), ("1", "bot"), (1.0, "link"), (1, "spectator"),
                     (1, None), (None, "link"), (1, "left")):
        answer = _say(host, boss, type="seat", seat=seat, to=to)
        assert answer["type"] == "refused", (seat, to)
    assert [st.why for st in table.seats] == [None] * 4
    assert _say(host, player, type="host", token=table.host_token)["host"] is not None  # shown: the host's view
    assert _say(host, watcher, type="leave")["type"] == "refused"


def test_a_player_who_leaves_is_replaced_by_his_bot_and_the_table_says_so() -> None:
    host, table = _table()
    leaver, other = _hello(host, table.seats[2].token), _hello(host, table.seats[0].token)
    old = table.seats[2].token
    leaver.conn.messages.clear()
    host.receive(leaver, json.dumps({"type": "leave"}))
    assert leaver.conn.messages[0]["code"] == "revoked" and leaver.conn.messages[0]["why"] == "left"
    seat = other.conn.messages[-1]["table"]["seats"][2]
    assert seat["human"] is False and seat["bot"] == "normal" and seat["why"] == "left"
    assert _hello(host, old).conn.messages[0]["why"] == "left"


def test_the_same_link_on_two_devices_the_older_tab_only_watches() -> None:
    host, table = _table()
    others = [_hello(host, table.seats[s].token) for s in (1, 2)]
    laptop = _hello(host, table.seats[0].token)
    phone = _hello(host, table.seats[0].token)
    assert laptop.passive and not phone.passive
    assert laptop.conn.messages[-1]["elsewhere"] is True and phone.conn.messages[-1]["elsewhere"] is False
    refused = _say(host, laptop, type="next")
    assert refused["code"] == "elsewhere" and "another device" in refused["reason"]
    assert not table.seats[0].ready
    for client in (phone, *others):
        _say(host, client, type="next")
    assert table.in_deal
    while table.session.to_act != 0:
        seat = table.session.to_act
        host.apply(table, seat, table.bot_action(seat, "rule"), "bot")
    assert laptop.conn.messages[-1]["legal"] == [] and phone.conn.messages[-1]["legal"]
    step, text = table.step, phone.conn.messages[-1]["legal"][0]["text"]
    assert _say(host, laptop, type="act", action=text, step=step)["code"] == "elsewhere"
    assert table.step == step
    _say(host, laptop, type="claim")  # "Play here": the laptop plays, the phone watches
    assert not laptop.passive and phone.passive
    assert _say(host, phone, type="act", action=text, step=step)["code"] == "elsewhere"
    _say(host, laptop, type="act", action=text, step=step)
    assert table.step != step
    host.disconnect(laptop)  # the playing tab closes: the other one plays the seat again
    assert not phone.passive and phone.conn.messages[-1]["elsewhere"] is False


def test_seats_changed_and_the_host_link_survive_a_restart(tmp_path) -> None:
    store = Store(tmp_path / "t.sqlite")
    host, table = _table(store)
    boss = _hello(host, table.host_token)
    old1, old2 = table.seats[1].token, table.seats[2].token
    _say(host, boss, type="seat", seat=1, to="bot")
    _say(host, boss, type="seat", seat=3, to="link")  # the rule bot's seat, to a person
    leaver = _hello(host, old2)
    _say(host, leaver, type="leave")
    store.close()
    store = Store(tmp_path / "t.sqlite")
    again = Host(store, takeover_seconds=1e12, clock=Clock())
    loaded = again.find(table.seats[3].token)[0]
    assert [(st.human, st.bot, st.why) for st in loaded.seats] == [
        (True, None, None), (False, "normal", "bot"), (False, "normal", "left"), (True, None, "link")]
    assert [st.token for st in loaded.seats] == [st.token for st in table.seats]
    assert _hello(again, old1).conn.messages[0]["why"] == "bot"
    assert _hello(again, old2).conn.messages[0]["why"] == "left"
    assert _hello(again, table.host_token).host


def test_seats_change_hands_a_bounded_number_of_times_and_a_failed_write_changes_nothing(monkeypatch) -> None:
    monkeypatch.setattr("khrap.web.table.MAX_RESEATS", 3)
    host, table = _table()
    boss = _hello(host, table.host_token)
    for _ in range(3):
        assert _say(host, boss, type="seat", seat=0, to="link")["type"] == "state"
    token = table.seats[0].token
    refused = _say(host, boss, type="seat", seat=0, to="link")
    assert refused["type"] == "refused" and "at most 3 times" in refused["reason"]
    assert table.seats[0].token == token and table.reseats == 3
    monkeypatch.setattr("khrap.web.table.MAX_RESEATS", 10)

    def full(*args) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(host.store, "reseat", full)
    player = _hello(host, token)
    with pytest.raises(OSError):  # (the socket's handler logs it and says so: app.serve_socket)
        host.receive(player, json.dumps({"type": "leave"}))
    st = table.seats[0]
    assert (st.human, st.bot, st.token, st.connections, table.reseats) == (True, None, token, 1, 3)
    assert host.find(token) == (table, 0)  # his link still plays his seat


def test_a_seat_given_to_a_new_link_keeps_its_players_name_until_the_link_says_another() -> None:
    # An evening of friends: Кирилл's phone died and the host pressed "New link" on his row.  The row (and every
    # seat's page, the standings, the log) then said "Seat 3": the host no longer saw whose link he was sending.
    host, table = _table()
    player = _hello(host, table.seats[1].token, name="Кирилл")
    boss = _hello(host, table.host_token)
    assert table.seats[1].name == "Кирилл"
    _say(host, boss, type="seat", seat=1, to="link")
    assert player.table is None or player not in host.clients[table.id]
    assert table.seats[1].name == "Кирилл" and boss.conn.messages[-1]["table"]["seats"][1]["name"] == "Кирилл"
    back = _hello(host, table.seats[1].token)  # a browser that keeps no name: the seat's stays
    assert back.conn.messages[-1]["table"]["seats"][1]["name"] == "Кирилл"
    other = _hello(host, table.seats[1].token, name="Dan")  # somebody else, who says his own
    assert other.conn.messages[-1]["table"]["seats"][1]["name"] == "Dan"
