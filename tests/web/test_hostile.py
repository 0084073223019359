"""Hostile clients: each attack is refused with a reason and the table is unharmed (the people at it
play on from exactly where they were).  In-process through Starlette's test client, except the
WebSocket frame limit, which is uvicorn's and is tried on a live server."""

from __future__ import annotations

import contextlib
import json
import secrets
import warnings

import pytest

pytest.importorskip("httpx", reason="Starlette's test client needs httpx (the test extra)")
with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx does the same here
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from khrap.web.app import create_app  # noqa: E402
from khrap.web.host import FLOOD_LIMIT, MAX_MESSAGE  # noqa: E402
from tests.web.conftest import fixed_seeds  # noqa: E402


class Client(TestClient):
    """The test client, closing every WebSocket it opened when the test ends (so none hangs)."""

    def open(self, **headers):
        ws = self.websocket_connect("/ws", headers=headers)
        self.opened.append(ws)
        return ws.__enter__()

    def close_all(self) -> None:
        for ws in reversed(self.opened):
            with contextlib.suppress(Exception):
                ws.__exit__(None, None, None)


@pytest.fixture
def client(tmp_path):
    app = create_app(tmp_path / "t.sqlite", bot_delay=0.0, takeover_seconds=600, seed_source=fixed_seeds("hostile"),
                     session_seed=lambda: 3)
    with Client(app, base_url="http://127.0.0.1:8000") as c:
        c.opened = []
        try:
            yield c
        finally:
            c.close_all()


def new_table(client, **extra) -> dict:
    body = {"variant": "khrap", "players": 4, "bots": {"2": "rule", "3": "rule"}, "deals": 2, **extra}
    answer = client.post("/api/tables", json=body).json()
    assert answer["ok"], answer
    return answer


def token(link: str) -> str:
    return link.split("#", 1)[1]


def recv_state(ws) -> dict:
    while True:
        message = ws.receive_json()
        if message["type"] == "state":
            return message


def started(client, answer):
    """Two seats connected, the first deal begun; returns (ws0, ws1, latest view of each)."""
    ws = [client.open() for _ in range(2)]
    for seat, w in enumerate(ws):
        w.send_json({"type": "hello", "token": token(answer["seats"][seat]["link"])})
        recv_state(w)
    for w in ws:
        w.send_json({"type": "next"})
    while True:  # the bots act on the server's clock: wait until a person is to act
        view = recv_state(ws[0])
        if view["table"]["in_deal"] and view["obs"]["to_act"] in (0, 1):
            return ws


def latest(ws, host, table_id: str, seat: int) -> dict:
    """The seat's view of the table as it is now (read from the host: a test client has no 'recv until idle')."""
    table = host.tables[table_id]
    return host.view(table, seat, "en")


def refused(ws) -> str:
    while True:
        message = ws.receive_json()
        if message["type"] in ("refused", "error"):
            return message["reason"]


def test_wrong_seat_out_of_turn_and_spectator_actions_are_refused(client) -> None:
    answer = new_table(client)
    host = client.app.state.host
    table = host.tables[answer["table"]]
    ws = started(client, answer)
    to_act = table.session.to_act
    assert to_act in (0, 1), "the deal waits for a person"
    other = 1 - to_act
    before = (list(table.actions), latest(ws, host, table.id, to_act))
    legal = before[1]["legal"][0]["text"]
    ws[other].send_json({"type": "act", "action": legal, "step": table.step})  # the other's action, out of turn
    assert f"not seat {other}'s turn" in refused(ws[other])
    ws[to_act].send_json({"type": "act", "action": "play 2S", "step": table.step})  # a card nobody holds
    assert refused(ws[to_act])
    spectator = client.open()
    spectator.send_json({"type": "hello", "token": token(answer["spectator"])})
    recv_state(spectator)
    spectator.send_json({"type": "act", "action": legal, "step": table.step})
    assert "spectator" in refused(spectator)
    assert (list(table.actions), latest(ws, host, table.id, to_act)) == before  # unharmed
    ws[to_act].send_json({"type": "act", "action": legal, "step": table.step})  # and the player plays on
    recv_state(ws[to_act])
    assert len(table.actions) > len(before[0])


@pytest.mark.parametrize("raw", [
    "not json", "[1, 2]", '{"no": "type"}', '{"type": 7}', '{"type": "dance"}', '{"type": "act", "action": 5}',
    '{"type": "act", "action": ""}', json.dumps({"type": "act", "action": "x" * 201}),
    json.dumps({"type": "act", "action": "play \u0661S"}), json.dumps({"type": "act", "action": "x" * MAX_MESSAGE}),
    '{"type": "hello", "token": "again"}', '{"type": "next"}',
])
def test_malformed_and_oversized_messages_are_refused(client, raw: str) -> None:
    answer = new_table(client)
    host = client.app.state.host
    table = host.tables[answer["table"]]
    ws = started(client, answer)
    to_act = table.session.to_act
    before = (list(table.actions), latest(ws, host, table.id, to_act))
    ws[to_act].send_text(raw)
    assert refused(ws[to_act])
    assert (list(table.actions), latest(ws, host, table.id, to_act)) == before


def test_a_forged_token_gets_nothing(client) -> None:
    new_table(client)
    ws = client.open()
    ws.send_json({"type": "act", "action": "pass"})
    assert "hello" in refused(ws)
    ws.send_json({"type": "hello", "token": secrets.token_urlsafe(24)})
    message = ws.receive_json()
    assert message["type"] == "error" and "state" not in message
    with pytest.raises(WebSocketDisconnect):
        ws.receive_json()
    assert client.get(f"/record/{secrets.token_urlsafe(24)}").status_code == 404


def test_a_flood_is_cut_off_and_the_table_plays_on(client) -> None:
    answer = new_table(client)
    host = client.app.state.host
    table = host.tables[answer["table"]]
    ws = started(client, answer)
    to_act = table.session.to_act
    flooder = ws[1 - to_act]
    before = list(table.actions)
    for _ in range(FLOOD_LIMIT + 60):
        flooder.send_json({"type": "lang", "lang": "en"})
    reasons = []
    with pytest.raises(WebSocketDisconnect):
        while True:
            message = flooder.receive_json()
            if message["type"] == "refused":
                reasons.append(message["reason"])
    assert reasons and all("too many" in r for r in reasons)
    assert table.actions == before
    legal = latest(ws, host, table.id, to_act)["legal"][0]["text"]
    ws[to_act].send_json({"type": "act", "action": legal, "step": table.step})
    recv_state(ws[to_act])
    assert len(table.actions) > len(before)


@pytest.mark.parametrize("text", [
    "extends: ../../etc/passwd\n", "extends: /etc/passwd\n", "extends: house.yaml\n",
    "extends: khrap\nbase_stake: 0\n", "extends: khrap\n" + "# x\n" * 70_000,
])
def test_a_house_rule_that_names_a_path_or_breaks_a_limit_is_refused(client, text: str) -> None:
    for url in ("/api/validate", "/api/tables"):
        reply = client.post(url, json={"text": text, "players": 4})
        answer = reply.json()
        assert not answer["ok"] and answer["errors"], answer
        assert reply.status_code in (200, 413)
    assert client.app.state.host.tables == {}
    located = client.post("/api/validate", json={"text": "extends: ../x.yaml\n"}).json()["errors"][0]
    assert located["line"] == 1 and located["col"] and "built-in" in located["message"]


def test_a_bad_origin_and_a_path_in_the_url_are_refused(client) -> None:
    with pytest.raises(WebSocketDisconnect):  # the handshake itself is refused
        client.open(origin="https://evil.example")
    ok = client.open(origin="http://testserver")  # the page's own origin
    ok.send_json({"type": "next"})
    assert "hello" in refused(ok)
    for path in ("/static/..%2Fapp.py", "/static/%2e%2e%2fapp.py", "/static/app.py", "/static/.%2e",
                 "/static/style.css%00.py"):
        assert client.get(path).status_code == 404, path
    assert client.get("/static/style.css").status_code == 200
    big = {"text": "x" * (400 * 1024)}
    assert client.post("/api/tables", json=big).status_code == 413
    assert client.post("/api/tables", content=b"\xff\xfe", headers={"content-type": "application/json"}).status_code \
        == 400


def test_the_record_is_only_for_a_finished_session(client) -> None:
    answer = new_table(client)
    assert client.get(f"/record/{token(answer['spectator'])}").status_code == 409


def test_a_frame_over_the_servers_limit_closes_only_that_connection(live_server) -> None:
    ws_client = pytest.importorskip("websockets.sync.client")
    server = live_server(bot_delay=0.0)
    url = server.url.replace("http", "ws") + "/ws"
    with ws_client.connect(url) as ws:
        ws.send("x" * (64 * MAX_MESSAGE))  # over uvicorn's ws_max_size: the server closes the socket
        with pytest.raises(Exception, match="1009|too big|closed"):
            ws.recv(timeout=5)
    with ws_client.connect(url) as ws:  # and the server serves the next one
        ws.send(json.dumps({"type": "next"}))
        assert json.loads(ws.recv(timeout=5))["type"] == "refused"


def test_a_refusal_is_said_in_the_readers_language_from_its_code(client) -> None:
    """The kernel's typed refusal (engine/refusal.py) goes out in English (``reason``, CONTRACT.md's words) and in
    the reader's language (``said``, from its code's game-log message)."""
    answer = new_table(client)
    table = client.app.state.host.tables[answer["table"]]
    ws = started(client, answer)
    to_act = table.session.to_act
    other = 1 - to_act
    ws[other].send_json({"type": "lang", "lang": "ru"})
    recv_state(ws[other])
    ws[other].send_json({"type": "act", "action": "pass", "step": table.step})  # out of turn
    while (message := ws[other].receive_json())["type"] != "refused":
        pass
    assert message["reason"] == f"not seat {other}'s turn; seat {to_act} is to act"
    assert message["said"] == f"сейчас не очередь места {other}; ходит место {to_act}"


def test_a_house_rules_mistakes_come_back_in_the_pages_language(client) -> None:
    # The create page sends its language: the mistakes are worded in it, located the same way; an unknown
    # language (or none) gets English.
    text = "extends: khrap\nbase_stak: 2\n"
    for url in ("/api/validate", "/api/tables"):
        ru = client.post(url, json={"text": text, "players": 4, "lang": "ru"}).json()["errors"]
        assert [(e["line"], e["col"], e["message"]) for e in ru] == [
            (2, 1, "неизвестный ключ 'base_stak'; вы имели в виду 'base_stake'?")]
        assert ru[0]["text"] == "upload.yaml:2:1: неизвестный ключ 'base_stak'; вы имели в виду 'base_stake'?"
        for lang in ("xx", None, 7):
            en = client.post(url, json={"text": text, "players": 4, "lang": lang}).json()["errors"]
            assert en[0]["message"] == "unknown key 'base_stak'; did you mean 'base_stake'?"
    assert client.app.state.host.tables == {}


def test_a_house_rule_with_a_bidi_override_is_refused_located_in_the_pages_language(client) -> None:
    # `name: {en: "` is 12 characters and Пятница 7: the override is the 20th character of line 2
    text = 'extends: khrap\nname: {en: "Пятница\u202eEVIL_TABLE"}\n'
    for url in ("/api/validate", "/api/tables"):
        en = client.post(url, json={"text": text, "players": 4}).json()
        assert not en["ok"]
        assert [(e["line"], e["col"], e["message"]) for e in en["errors"]] == [(2, 20, (
            "a bidirectional control character U+202E (RIGHT-TO-LEFT OVERRIDE) in a name or text: it would reorder "
            "the text around it wherever it is shown; remove it"))]
        ru = client.post(url, json={"text": text, "players": 4, "lang": "ru"}).json()["errors"]
        assert [(e["line"], e["col"], e["message"]) for e in ru] == [(2, 20, (
            "управляющий символ направления текста U+202E (RIGHT-TO-LEFT OVERRIDE) в имени или тексте: он переставит "
            "текст вокруг себя везде, где его покажут; удалите его"))]
    assert client.app.state.host.tables == {}
