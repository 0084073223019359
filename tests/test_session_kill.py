"""A saving `khrap play` killed by a real SIGKILL mid-deal resumes to the same state and goes on exactly
as a session that was never interrupted (the same shuffles, the same bot choices)."""

import signal
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from khrap.play import Table, run  # noqa: E402
from khrap.session import RecordError, Session, load_record  # noqa: E402


def spawn(*args: str, cwd: Path) -> "pexpect.spawn":
    return pexpect.spawn(sys.executable, ["-m", "khrap.cli", *args], cwd=str(cwd), encoding="utf-8",
                         timeout=60, dimensions=(60, 200))


def reference(seed: int, answers: list[str], table: Table) -> Session:
    """The same session played in this process, never interrupted: ``answers`` typed, then end of input."""
    session = Session("khrap", 4, seed=seed)
    feed = iter(answers)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    run(session, table, read=read, write=lambda text: None)
    return session


def same(a: Session, b: Session) -> None:
    ra, rb = a.to_record(), b.to_record()
    for key in ("actions", "dealt", "result", "deals_started"):
        assert ra[key] == rb[key], key


def last_screen(text: str) -> str:
    text = text.replace("\r\n", "\n")
    return text[text.rindex("── khrap · deal") :]


def kill(child: "pexpect.spawn") -> None:
    child.kill(signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    assert child.signalstatus == signal.SIGKILL


def test_killed_at_a_prompt_mid_deal_resumes_to_the_same_state(tmp_path: Path) -> None:
    save = tmp_path / "session.json"
    child = spawn("play", "khrap", "--seed", "11", "--save", str(save), cwd=tmp_path)
    first = ["1", "1"]
    for answer in first:
        child.expect_exact("seat 0> ")
        child.sendline(answer)
    child.expect_exact("seat 0> ")
    screen = last_screen(child.before)
    kill(child)

    record = load_record(save)
    restored = Session.from_record(record)  # replays and checks against the saved result
    assert not restored.deal_over and restored.to_act == 0  # killed mid-deal, at seat 0's prompt
    same(restored, reference(11, first, Table(humans=[0])))

    child = spawn("play", "--resume", str(save), cwd=tmp_path)
    child.expect_exact("seat 0> ")
    assert last_screen(child.before) == screen  # the same table, hand and choices as before the kill
    more = ["1"] * 6
    for answer in more:
        child.sendline(answer)
        child.expect_exact("seat 0> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    same(Session.load(save), reference(11, first + more, Table(humans=[0])))


def test_killed_watch_session_replays_and_finishes_exactly(tmp_path: Path) -> None:
    save = tmp_path / "watch.json"
    deals = 8
    child = spawn("play", "khrap", "--watch", "--seed", "5", "--deals", str(deals), "--save", str(save), cwd=tmp_path)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # let it play a while, then kill it wherever it is (likely mid-write)
        try:
            if len(load_record(save)["actions"]) > 60:
                break
        except RecordError:
            pass
        time.sleep(0.02)
    kill(child)

    restored = Session.load(save)  # the file is whole (atomic writes) and replays to its result
    assert len(restored.actions) > 0 and restored.deals_completed < deals

    child = spawn("play", "--resume", str(save), cwd=tmp_path)  # watch mode and the deal limit were saved
    child.expect_exact(f"The session is over after {deals} deals")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    same(Session.load(save), reference(5, [], Table(humans=[], deals=deals)))
