"""Untrusted work off the event loop, bounded: a job in the worker process is stopped after its time and
at its memory limit with a sentence, the server's loop keeps running meanwhile, results are cached by
content, and one client address may POST only so fast and create only so many tables."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("httpx", reason="Starlette's test client needs httpx (the test extra)")

from khrap.web.app import create_app  # noqa: E402
from khrap.web.work import Worker, WorkFailed, check_text  # noqa: E402
from tests.web.test_hostile import Client  # noqa: E402


def spin(seconds: float) -> int:
    """Python code that keeps the processor busy for ``seconds`` (run in the worker by reference)."""
    count, until = 0, time.process_time() + seconds
    while time.process_time() < until:
        count += 1
    return count


def test_a_job_past_its_time_or_memory_is_stopped_and_the_loop_runs_on() -> None:
    async def scenario() -> None:
        worker = Worker(seconds=1.0)
        try:
            assert await worker.run("sum", sum, [1, 2, 3]) == 6  # the worker is up (spawned once)
            lags: list[float] = []

            async def ticker() -> None:
                while True:
                    before = time.perf_counter()
                    await asyncio.sleep(0.01)
                    lags.append(time.perf_counter() - before)

            tick = asyncio.create_task(ticker())
            started = time.perf_counter()
            with pytest.raises(WorkFailed, match="more than 1 s of processor time"):
                await worker.run("spin", spin, 60)
            assert time.perf_counter() - started < 50  # stopped at 1 s of CPU (not 60 s)
            tick.cancel()
            assert len(lags) > 10  # the loop turned all along (a job on the loop would have stopped it)
            with pytest.raises(WorkFailed, match="MiB"):
                await worker.run("memory", bytearray, 4 * 2**30)  # past the worker's address-space limit
            assert await worker.run("sum", sum, [4]) == 4  # and the worker serves the next job
        finally:
            worker.close()

    asyncio.run(scenario())


def test_results_are_cached_by_content() -> None:
    async def scenario() -> None:
        worker = Worker()
        try:
            text = "extends: khrap\nbase_stake: 3\n"
            first = await worker.run("check", check_text, text)
            assert first["ok"] and first["base_stake"] == 3

            async def never(*args):
                raise AssertionError("the worker was asked again")

            worker._job = never  # the same text again: from the cache
            assert await worker.run("check", check_text, "extends: khrap\nbase_stake: 3\n") == first
            with pytest.raises(AssertionError):
                await worker.run("check", check_text, text + "# another file\n")
        finally:
            worker.close()

    asyncio.run(scenario())


def test_post_routes_are_rate_limited_per_client(tmp_path) -> None:
    app = create_app(tmp_path / "t.sqlite", bot_delay=0.0, post_rate=(0.01, 5), creates=(1.0, 3))
    with Client(app, base_url="http://127.0.0.1:8000") as client:
        client.opened = []
        created = [client.post("/api/tables", json={"variant": "khrap", "players": 2}) for _ in range(4)]
        assert [r.status_code for r in created] == [200, 200, 200, 429]  # three tables at once, then wait
        assert "too many tables" in created[-1].json()["errors"][0]["message"]
        checks = [client.post("/api/validate", json={"text": "extends: khrap\n"}) for _ in range(3)]
        assert checks[-1].status_code == 429  # 5 requests at once (4 creations and a check), then wait
        assert "too many requests" in checks[-1].json()["errors"][0]["message"]


def test_a_table_is_made_off_the_event_loop(tmp_path, monkeypatch) -> None:
    """Validating a pasted house rule, compiling it and dealing the first deal run in a thread: the loop's
    thread never makes a table (mutation: call ``_new_table`` directly in ``create`` and this fails)."""
    import threading

    from khrap.web import app as app_module

    made_on: list[str] = []
    real = app_module.Table.create

    def spy(*args, **kwargs):
        made_on.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(app_module.Table, "create", spy)
    app = create_app(tmp_path / "t.sqlite", bot_delay=0.0)
    with Client(app, base_url="http://127.0.0.1:8000") as client:
        client.opened = []
        loop_thread = client.portal.call(lambda: threading.current_thread().name)
        house = client.post("/api/tables", json={"text": "extends: khrap\nbase_stake: 2\n", "players": 3})
        built_in = client.post("/api/tables", json={"variant": "frap", "players": 3, "base_stake": 3})
    assert house.status_code == built_in.status_code == 200, (house.json(), built_in.json())
    assert len(made_on) == 2 and loop_thread not in made_on


def test_the_variants_listing_is_made_once_off_the_event_loop(tmp_path, monkeypatch) -> None:
    """``GET /api/variants`` (issue 32: up to 0.67 s on the loop at every request) is made in a thread once,
    then served as made (mutation: call ``_listing`` directly in the route, or at every request, and this
    fails)."""
    import threading

    from khrap.web import app as app_module

    made_on: list[str] = []
    real = app_module._listing

    def spy() -> bytes:
        made_on.append(threading.current_thread().name)
        return real()

    monkeypatch.setattr(app_module, "_listing", spy)
    app = create_app(tmp_path / "t.sqlite", bot_delay=0.0)
    with Client(app, base_url="http://127.0.0.1:8000") as client:
        client.opened = []
        loop_thread = client.portal.call(lambda: threading.current_thread().name)
        answers = [client.get("/api/variants") for _ in range(3)]
    assert [a.status_code for a in answers] == [200] * 3
    assert answers[0].content == answers[2].content and "khrap" in [v["name"] for v in answers[0].json()["variants"]]
    assert len(made_on) == 1 and loop_thread not in made_on


def test_a_check_and_a_sheet_are_made_in_the_worker(tmp_path, monkeypatch) -> None:
    """``POST /api/validate``, a created table's pasted rules and ``GET /sheet`` hand their work to the worker
    process, with its time and memory limits (issue 32: a 210 KiB validate stalled every table for 3 s, a sheet
    of a large ``terms:`` rule 1.5-1.9 s).  Mutation: call ``check_text`` or ``render_sheet`` directly in the
    route (on the loop, unbounded) and this fails; every other test here still passes."""
    from khrap.web import app as app_module

    jobs: list[str] = []

    class Spy(Worker):
        async def run(self, kind, function, *args):
            jobs.append(kind)
            return await super().run(kind, function, *args)

    monkeypatch.setattr(app_module, "Worker", Spy)
    app = create_app(tmp_path / "t.sqlite", bot_delay=0.0)
    with Client(app, base_url="http://127.0.0.1:8000") as client:
        client.opened = []
        text = "extends: khrap\nbase_stake: 2\n"
        assert client.post("/api/validate", json={"text": text}).json()["ok"]
        assert jobs == ["check"]
        table = client.post("/api/tables", json={"text": text + "# mine\n", "players": 4}).json()["table"]
        assert jobs == ["check", "check"]
        assert client.get(f"/sheet/{table}?lang=ru").status_code == 200
    assert jobs == ["check", "check", "sheet"]
