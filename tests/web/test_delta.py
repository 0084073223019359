"""Updates that carry what changed (``khrap.web.delta``): a patch applied to the old view makes the new one,
for any two JSON-ready views; a patch holds only what changed; and a connection that asked for patches gets
its whole view first, then patches, and the whole view again when it asks (``full``)."""

from __future__ import annotations

import copy
import gc
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from khrap.variant.catalog import builtin
from khrap.web.delta import Common, OwnParts, Parts, apply, diff, patch
from khrap.web.host import Host
from khrap.web.store import Store
from khrap.web.table import Table
from tests.conftest import examples
from tests.web.conftest import fixed_seeds
from tests.web.test_protocol import Clock

# (no 0 or 1 beside the booleans: a place in a view keeps its type, and inside a list True == 1 to Python)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(2, 9), st.sampled_from(["", "a", "b", "10♥"]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                     st.dictionaries(st.sampled_from("abcdn"), inner, max_size=3)),
                    max_leaves=8)
PARTS = st.dictionaries(st.sampled_from("abcdn"), st.one_of(JSON, st.lists(SCALARS, min_size=1, max_size=3)),
                        max_size=4)
VIEWS = st.fixed_dictionaries({"log": st.lists(SCALARS, max_size=3)},
                              optional={"table": PARTS, "obs": PARTS, "legal": JSON, "n": SCALARS})


@st.composite
def changed(draw, old: object) -> object:
    """A view as the next update may make it of ``old``: parts kept, replaced, grown, removed or added."""
    how = draw(st.sampled_from(["keep", "keep", "replace", "change"]))
    if how == "keep":
        return copy.deepcopy(old)
    if how == "replace" or not isinstance(old, (dict, list)):
        return draw(JSON)
    if isinstance(old, list):  # grown (as a log), or changed
        if draw(st.booleans()):
            return copy.deepcopy(old) + draw(st.lists(JSON, min_size=1, max_size=2))
        return [draw(changed(item)) for item in old]
    new = {key: draw(changed(value)) for key, value in old.items() if draw(st.integers(0, 5))}  # some removed
    new.update(draw(st.dictionaries(st.sampled_from("abcdn"), JSON, max_size=2)))  # some added or replaced
    return new


@st.composite
def updates(draw) -> tuple[dict, dict]:
    old = draw(VIEWS)
    new = draw(changed(old))
    return old, new if isinstance(new, dict) else {}


@pytest.mark.large
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(updates(), st.tuples(VIEWS, VIEWS)))
def test_a_patch_makes_the_new_view_of_the_old_one(views: tuple[dict, dict]) -> None:
    old, new = views
    kept = copy.deepcopy(old)
    made = apply(old, json.loads(json.dumps(diff(old, new))))  # as it goes over the wire
    assert json.dumps(made, sort_keys=True) == json.dumps(new, sort_keys=True)  # (True is not 1 here)
    assert old == kept  # neither view is changed


REST = st.dictionaries(st.sampled_from("abc"), JSON, max_size=3)  # (a view's keys: the rest's and the extras'
EXTRAS = st.dictionaries(st.sampled_from("def"), JSON, max_size=3)  # are apart)
OBSERVED = st.dictionaries(st.sampled_from(["phase", "to_act", "trick"]), JSON, max_size=3)
HAND = st.one_of(st.none(), st.lists(SCALARS, max_size=3))
SETTLED = st.one_of(st.none(), PARTS)
LEGAL = st.lists(JSON, max_size=2)


@st.composite
def parts_updates(draw) -> tuple[Parts, dict, Parts]:
    """A view's parts, the view they made then, and the next update's parts: each part the same object, an equal
    copy or another value; the table's log and events grown in place (the lists a deal's log keeps) or a new
    deal's; the viewer's the table's lists, or its own (a copy, an item its own), grown in place or become so."""
    def then(value: object, strategy) -> object:
        how = draw(st.sampled_from(["same", "same", "copy", "other"]))
        return value if how == "same" else copy.deepcopy(value) if how == "copy" else draw(strategy)

    def own_copy(log: list, events: list) -> tuple[list, list]:  # a seat's own lists: the table's, one item its own
        log, events = copy.deepcopy(log), copy.deepcopy(events)
        if log and draw(st.booleans()):
            log[-1] = draw(SCALARS)
        return log, events

    log, events = draw(st.lists(SCALARS, max_size=3)), draw(st.lists(JSON, max_size=3))
    common = Common(draw(PARTS), draw(OBSERVED), log, events, draw(REST))
    mine = (None, None) if draw(st.booleans()) else own_copy(log, events)  # (None: the table's lists)
    own = OwnParts(draw(st.sampled_from([None, 0, 2])), draw(HAND), *mine, draw(SETTLED), draw(LEGAL))
    old = Parts(common, own, draw(EXTRAS), draw(st.integers(1, 5)))
    held = old.whole()
    grown = draw(st.sampled_from(["grown", "grown", "new"])) == "grown"
    alike = True  # (the viewer's own lists, if any, grew by the table's new items)
    if grown:
        added = draw(st.lists(SCALARS, max_size=2)), draw(st.lists(JSON, max_size=2))
        log += added[0]
        events += added[1]
        if mine[0] is not None:  # its own lists grow as long (a seat holds every event): alike, or an item its own
            alike = draw(st.booleans())
            mine[0].extend(added[0] if alike else draw(st.lists(SCALARS, min_size=len(added[0]),
                                                                 max_size=len(added[0]))))
            mine[1].extend(added[1])
    else:
        log, events = draw(st.lists(SCALARS, max_size=3)), draw(st.lists(JSON, max_size=3))
    how = draw(st.sampled_from(["table's", "own", "became own"]))
    if how == "own" and not grown:  # (a new deal's log: its own lists are new ones)
        how = "became own"
    mine = (None, None) if how == "table's" else mine if how == "own" else own_copy(log, events)
    # The viewer's parts the same object when nothing of its own changed (its lists the table's, or its own grown
    # by the table's items alone: ``Table.parts``), else new ones.
    if draw(st.integers(0, 4)) or not (own.log is None or (grown and alike)):
        own = OwnParts(then(own.me, st.sampled_from([None, 0, 2])), then(own.hand, HAND), *mine,
                       then(own.settled, SETTLED), then(own.legal, LEGAL))
    common = Common(then(common.table, PARTS), then(common.observed, OBSERVED), log, events, then(common.rest, REST))
    new = Parts(common, own, then(old.extras, EXTRAS), old.n + draw(st.integers(0, 2)))
    return old, held, new


@pytest.mark.large
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts_updates())
def test_a_patch_of_the_parts_makes_the_new_view_of_the_old_one(update: tuple[Parts, dict, Parts]) -> None:
    """A broadcast's patch is made from the parts of the two views (``delta.patch``), not from the views: it makes
    the new view of the one held, whatever part is kept, copied, replaced or grown."""
    old, held, new = update
    kept = copy.deepcopy(held)
    memo: dict = {}
    made = patch(old, new, memo)
    assert made == patch(old, new, memo) == patch(old, new, {})  # (the memo's shared patches not changed)
    assert old.whole() == held == kept  # (the old view is as it was)
    got = apply(held, json.loads(json.dumps(made)))  # as it goes over the wire
    assert json.dumps(got, sort_keys=True) == json.dumps(new.whole(), sort_keys=True)  # (True is not 1 here)


def test_a_patch_of_the_parts_holds_what_changed_only() -> None:
    """Kept parts are not in the patch; the log's new lines are appended; the common parts are patched once for
    every viewer, and the seat's hand goes with the patch of the observation they share."""
    log, observed = ["a", "b"], {"phase": "bidding", "to_act": 1}
    common = Common({"step": "1:4", "title": "Khrap"}, observed, log, [], {"moves": None})
    old = Parts(common, OwnParts(1, ["7H"], None, None, None, []), {"clock": None}, 3)
    log.append("c")
    now = Common({"step": "1:5", "title": "Khrap"}, {"phase": "bidding", "to_act": 2}, log, [], common.rest)
    new = Parts(now, OwnParts(1, ["7H"], None, None, None, [{"text": "pass"}]), {"clock": None}, 4)
    memo: dict = {}
    assert patch(old, new, memo) == {"s": {"legal": [{"text": "pass"}], "n": 4},
                                     "p": {"table": {"s": {"step": "1:5"}}, "obs": {"s": {"to_act": 2}}},
                                     "a": {"log": ["c"]}}
    other = Parts(now, OwnParts(1, ["7H", "8H"], None, None, None, []), {"clock": None}, 5)
    assert patch(old, other, memo)["p"]["obs"] == {"s": {"to_act": 2, "seat": 1, "hand": ["7H", "8H"]}}
    assert memo[(id(observed), id(now.observed))] == {"s": {"to_act": 2}}  # (the shared patch, not changed)
    assert patch(new, new, {}) == {}


def test_a_patch_holds_what_changed_only() -> None:
    old = {"table": {"step": "1:4", "title": "Khrap", "seats": [1, 2]}, "log": ["a", "b"], "me": 0, "gone": 1}
    new = {"table": {"step": "1:5", "title": "Khrap", "seats": [1, 2]}, "log": ["a", "b", "c"], "me": 0,
           "legal": True}
    assert diff(old, new) == {"s": {"legal": True}, "p": {"table": {"s": {"step": "1:5"}}}, "a": {"log": ["c"]},
                              "x": ["gone"]}
    assert diff({"on": 1}, {"on": True}) == {"s": {"on": True}}  # equal in Python, not on the page
    assert diff({"log": ["a", "b"]}, {"log": ["b", "c"]}) == {"s": {"log": ["b", "c"]}}  # not grown: replaced
    assert diff(new, new) == {}


def test_parts_two_views_share_are_patched_once() -> None:
    """Seats' views of one change share their table part: with a memo, its patch is made once and is the
    same patch each seat gets; a part a seat holds alone is patched for it alone."""
    table_then, table_now = {"step": "1:4", "seats": [1, 2]}, {"step": "1:5", "seats": [1, 2]}
    olds = [{"table": table_then, "obs": {"hand": [seat, 9]}} for seat in range(2)]
    news = [{"table": table_now, "obs": {"hand": [seat]}} for seat in range(2)]
    memo: dict = {}
    patches = [diff(old, new, memo) for old, new in zip(olds, news, strict=True)]
    assert patches == [diff(old, new) for old, new in zip(olds, news, strict=True)]
    assert patches[0]["p"]["table"] == {"s": {"step": "1:5"}}
    assert patches[0]["p"]["table"] is patches[1]["p"]["table"]  # made once
    assert patches[0]["p"]["obs"] == {"s": {"hand": [0]}} and patches[1]["p"]["obs"] == {"s": {"hand": [1]}}


class Conn:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, message: dict) -> None:
        self.sent.append(message)

    def close(self, reason: str) -> None:
        pass


def test_a_connection_gets_its_view_then_patches_and_the_view_again_when_it_asks() -> None:
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=Clock())
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=100, base_stake=1, bots={},
                         deals=1, seed_source=fixed_seeds("delta"))
    host.add(table)
    conns = [Conn() for _ in range(4)]
    clients = []
    for seat, conn in enumerate(conns):
        clients.append(host.connect(conn))
        host.receive(clients[-1], json.dumps({"type": "hello", "token": table.seats[seat].token, "deltas": seat > 0}))
    for client in clients:
        host.receive(client, json.dumps({"type": "next"}))
    assert table.in_deal
    held = conns[1].sent[0]
    assert held["type"] == "state"  # the first update of a connection is its whole view
    for message in conns[1].sent[1:]:
        assert message["type"] == "delta" and message["base"] == held["n"]
        held = apply(held, message["d"])
    assert held == host.sent[table.id][clients[1].key][1].whole()
    assert {m["type"] for m in conns[0].sent} == {"state"}  # one that did not ask gets whole views only
    seat = table.session.to_act
    conns[seat].sent.clear()
    host.receive(clients[seat], json.dumps({"type": "act", "action": held["legal"][0]["text"] if seat == 1 else
                                            table.bot_action(seat, "rule"), "step": table.step}))
    patch = conns[1].sent[-1]
    assert patch["type"] == "delta" and len(json.dumps(patch)) < len(json.dumps(held)) / 4  # (a few lines, not KB)
    host.receive(clients[1], json.dumps({"type": "full"}))
    whole = conns[1].sent[-1]
    assert whole["type"] == "state" and whole["table"]["step"] == table.step
    host.receive(clients[2], json.dumps({"type": "name", "name": "Ann"}))
    assert conns[1].sent[-1]["type"] == "delta" and conns[1].sent[-1]["base"] == whole["n"]


def test_a_seat_ready_for_the_next_deal_is_told_to_the_seats_ready_only() -> None:
    """Only a ready seat's page names the seats still to press "next deal": a press is sent to the ready seats'
    connections; the others (a seat not ready, a spectator) keep their view as the base of their next patch."""
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=Clock())
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=3, stacks=100, base_stake=1, bots={},
                         deals=1, seed_source=fixed_seeds("ready"))
    host.add(table)
    conns = [Conn() for _ in range(4)]
    clients = [host.connect(conn) for conn in conns]
    for client, token in zip(clients, [*(seat.token for seat in table.seats), table.spectator_token], strict=True):
        host.receive(client, json.dumps({"type": "hello", "token": token, "deltas": True}))
    held = []
    for conn in conns:  # each one's whole view, then the patches of the hellos after it
        view = conn.sent[0]
        for message in conn.sent[1:]:
            view = apply(view, message["d"])
        held.append(view)
        conn.sent.clear()
    host.receive(clients[0], json.dumps({"type": "next"}))
    assert [len(conn.sent) for conn in conns] == [1, 0, 0, 0]
    host.receive(clients[1], json.dumps({"type": "next"}))
    assert [len(conn.sent) for conn in conns] == [2, 1, 0, 0]
    seen = apply(apply(held[0], conns[0].sent[0]["d"]), conns[0].sent[1]["d"])
    assert [st["ready"] for st in seen["table"]["seats"]] == [True, True, False]
    host.receive(clients[2], json.dumps({"type": "next"}))  # the deal begins: every connection is told
    assert table.in_deal and [len(conn.sent) for conn in conns] == [3, 2, 1, 1]
    for conn, client, view in zip(conns, clients, held, strict=True):
        for message in conn.sent:
            assert message["type"] == "delta" and message["base"] == view["n"]
            view = apply(view, message["d"])
        assert view == host.view(table, *client.key) | {"n": view["n"]}


class Sink:
    """A connection as the server's sockets take a broadcast: its encoded bytes (``send_json``), kept as sent."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def send(self, message: dict) -> None:
        self.sent.append(json.dumps(message).encode())

    def send_json(self, data: bytes) -> None:
        self.sent.append(data)

    def close(self, reason: str) -> None:
        pass


def test_viewers_that_see_a_change_alike_share_its_patch_and_each_holds_its_own_view() -> None:
    """At a played card, the seat that played (its hand) and the one to play next (its legal actions) get patches
    of their own; the two other seats and both spectators, of which nothing of their own changed, get one and the
    same bytes (one patch, encoded once); and every connection's patches make exactly its own view."""
    host = Host(Store(":memory:"), takeover_seconds=1e12, clock=Clock())
    table = Table.create(builtin("khrap"), name="khrap", source=None, players=4, stacks=100, base_stake=1, bots={},
                         deals=3, seed_source=fixed_seeds("alike"))
    host.add(table)
    conns = [Sink() for _ in range(6)]
    clients = [host.connect(conn) for conn in conns]
    tokens = [*(seat.token for seat in table.seats), table.spectator_token, table.spectator_token]
    for client, token in zip(clients, tokens, strict=True):
        host.receive(client, json.dumps({"type": "hello", "token": token, "deltas": True}))
    views: list[dict] = [{} for _ in conns]

    def take() -> None:  # each connection applies what it was sent, as the page does, and holds its own view
        for k, (conn, client) in enumerate(zip(conns, clients, strict=True)):
            for data in conn.sent:
                message = json.loads(data)
                if message["type"] == "state":
                    views[k] = message
                elif message["type"] == "delta":
                    assert message["base"] == views[k]["n"]
                    views[k] = apply(views[k], message["d"])
            conn.sent.clear()
            assert views[k] == host.view(table, *client.key) | {"n": views[k]["n"]}

    def play() -> bool:  # one action; True if it was a card the viewers alike were checked at
        seat = table.session.to_act
        text = table.bot_action(seat, "rule")
        host.receive(clients[seat], json.dumps({"type": "act", "action": text, "step": table.step}))
        now = [conn.sent[-1] for conn in conns]
        checked = text.startswith("play") and table.in_deal and table.session.to_act != seat
        if checked:
            others = [now[i] for i in range(4) if i not in (seat, table.session.to_act)] + now[4:]
            assert all(data is others[0] for data in others)  # the same bytes object: encoded once
            assert now[seat] is not others[0] and now[table.session.to_act] is not others[0]
        take()
        return checked

    for client in clients[:4]:
        host.receive(client, json.dumps({"type": "next"}))
    take()
    played = 0
    gc.collect()
    gc.disable()  # (as at ``khrap serve``: what a broadcast would leave in a cycle is never freed)
    try:
        while table.in_deal:
            played += play()
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0  # nothing of the deal's broadcasts is left in a cycle
    assert played >= 8  # (most of the deal's 16 cards: not one led after the trick its player took, nor the last)
