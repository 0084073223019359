"""Saves and outputs: temporary files never follow a planted link, only regular files are replaced,
one session per save, leftovers of a killed process cleaned, failures leave the old file whole."""

from __future__ import annotations

import errno
import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from khrap import safe_io
from khrap.safe_io import OutputError, SaveLock, temp_names, write_output
from khrap.session import Session, load_record, save_record
from tests.hardening.common import assert_refused, invoke


def record() -> dict:
    session = Session("khrap", 4, seed=1)
    session.start_deal()
    session.apply("pass")
    return session.to_record()


def outside_files(tmp_path: Path, count: int) -> list[Path]:
    outside = tmp_path / "outside"
    outside.mkdir()
    files = [outside / f"victim{i}.txt" for i in range(count)]
    for f in files:
        f.write_text("precious\n")
    return files


@pytest.mark.parametrize("planted", [1, 3, safe_io.TEMP_TRIES - 1, safe_io.TEMP_TRIES])
def test_symlinks_at_every_temp_name_change_no_outside_file(tmp_path: Path, planted: int) -> None:
    """Links at the first PLANTED temporary names a save could use: none is followed. With every name
    taken the save is refused in one message; otherwise it uses a free name. No outside file changes."""
    folder = tmp_path / "saves"
    folder.mkdir()
    target = folder / "s.json"
    victims = outside_files(tmp_path, planted)
    names = temp_names(target)
    assert len(names) == safe_io.TEMP_TRIES and len(set(names)) == len(names)
    for name, victim in zip(names[:planted], victims, strict=True):
        (folder / name).symlink_to(victim)
    if planted == safe_io.TEMP_TRIES:
        with pytest.raises(OutputError, match="cannot make a temporary file"):
            save_record(record(), target)
        assert not target.exists()
    else:
        save_record(record(), target)
        assert load_record(target)["format"] == "khrap-record"
    for victim in victims:
        assert victim.read_text() == "precious\n"
    for name in names[:planted]:
        assert (folder / name).is_symlink()  # left alone: never opened, never replaced
    regular = sorted(p.name for p in folder.iterdir() if not p.is_symlink())
    assert regular == (["s.json"] if planted < len(names) else [])


def test_symlinks_at_every_temp_name_of_an_output(tmp_path: Path) -> None:
    target = tmp_path / "sheet.txt"
    victims = outside_files(tmp_path, safe_io.TEMP_TRIES)
    for name, victim in zip(temp_names(target), victims, strict=True):
        (tmp_path / name).symlink_to(victim)
    result = invoke(["rules", "khrap", "--format", "txt", "-o", target], "saves")
    assert_refused(result, target, contains="temporary file")
    assert all(v.read_text() == "precious\n" for v in victims) and not target.exists()


def test_a_save_onto_a_character_device_is_refused(tmp_path: Path) -> None:
    """A character device made by the test (the null device's numbers) is never replaced by a save."""
    device = tmp_path / "dev-null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs root")
    with pytest.raises(OutputError, match="character device"):
        save_record(record(), device)
    assert stat.S_ISCHR(device.lstat().st_mode)
    result = invoke(["play", "khrap", "--watch", "--deals", "1", "--seed", "1", "--save", device], "saves")
    assert_refused(result, device, contains="character device")
    assert stat.S_ISCHR(device.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dev-null"]  # no lock or temp file left beside it


def special_files(tmp_path: Path) -> dict[str, Path]:
    """A FIFO, a directory, a socket, a symlink to a file and a dangling symlink."""
    import socket

    made = {}
    made["fifo"] = tmp_path / "fifo"
    os.mkfifo(made["fifo"])
    made["directory"] = tmp_path / "dir"
    made["directory"].mkdir()
    made["socket"] = tmp_path / "sock"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(made["socket"]))
    sock.close()
    (tmp_path / "real.json").write_text("{}")
    made["symlink"] = tmp_path / "link.json"
    made["symlink"].symlink_to(tmp_path / "real.json")
    made["dangling"] = tmp_path / "dangling.json"
    made["dangling"].symlink_to(tmp_path / "nowhere" / "x.json")
    return made


def test_saves_replace_only_regular_files(tmp_path: Path) -> None:
    for kind, path in special_files(tmp_path).items():
        before = path.lstat()
        with pytest.raises(OutputError) as info:
            save_record(record(), path)
        assert str(info.value).startswith(str(path)), kind
        after = path.lstat()
        assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino), kind
    assert (tmp_path / "real.json").read_text() == "{}"


@pytest.mark.parametrize("flag", ["-o", "--csv", "--save"])
def test_write_errors_are_one_message(tmp_path: Path, flag: str) -> None:
    """A directory, a missing folder, a folder one cannot write, a full disk, a name too long.
    (A NUL cannot come through a command line; it is tried through the API below.)"""
    (tmp_path / "adir").mkdir()
    targets = [tmp_path / "adir", tmp_path / "missing" / "out.txt", Path("/proc/khrap-out.txt"),
               Path("/dev/full"), tmp_path / ("n" * 300), tmp_path / "adir" / ("n" * 300) / "x"]
    for target in targets:
        if flag == "-o":
            args = ["rules", "khrap", "--format", "txt", "-o", target]
        elif flag == "--csv":
            args = ["simulate", "khrap", "--deals", "2", "--workers", "1", "--csv", target]
        else:
            args = ["play", "khrap", "--watch", "--deals", "1", "--save", target]
        result = invoke(args, "outputs")
        if target == Path("/dev/full") and flag != "--save":
            assert_refused(result, target, contains="no space left")
        else:
            assert_refused(result)


def test_nul_in_a_path_is_one_error(tmp_path: Path) -> None:
    for call in (lambda p: save_record(record(), p), lambda p: write_output(p, "x"), lambda p: SaveLock(p).acquire()):
        with pytest.raises(OutputError, match="NUL"):
            call(f"{tmp_path}/a\0b")


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "sheet.txt"
    target.write_text("the old sheet\n")
    real_write = os.write
    calls = {"n": 0}

    def full_disk(fd: int, data) -> int:
        calls["n"] += 1
        if calls["n"] > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, bytes(data[:10]))

    monkeypatch.setattr(safe_io.os, "write", full_disk)
    result = invoke(["rules", "khrap", "--format", "txt", "-o", target], "outputs")
    assert_refused(result, target, contains="no space left")
    assert target.read_text() == "the old sheet\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.txt"]


def test_a_failed_rules_command_does_not_touch_the_output(tmp_path: Path) -> None:
    target = tmp_path / "sheet.txt"
    target.write_text("the old sheet\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: khrap\nhand_size: 99\n")
    assert_refused(invoke(["rules", bad, "-o", target], "outputs"), bad)
    assert target.read_text() == "the old sheet\n"


def test_two_sessions_cannot_write_one_save(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    with SaveLock(target):
        with pytest.raises(OutputError, match="another khrap session"):
            SaveLock(target).acquire()
        save_record(record(), target)  # the holder itself saves
        result = invoke(["play", "khrap", "--watch", "--deals", "1", "--save", target], "saves")
        assert_refused(result, target, contains="another khrap session")
    with SaveLock(target):  # released: free again, and its lock file removed on release
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]


def test_a_lock_held_by_another_process(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    code = ("import sys, time; from khrap.safe_io import SaveLock; lock = SaveLock(sys.argv[1]).acquire(); "
            "print('held', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(target)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(OutputError, match=f"process {holder.pid}"):
            save_record(record(), target)
        holder.send_signal(signal.SIGKILL)  # killed: the kernel drops its lock
        holder.wait(timeout=30)
        save_record(record(), target)
        assert load_record(target)["format"] == "khrap-record"
    finally:
        holder.kill()
        holder.wait(timeout=30)


def test_leftovers_of_a_killed_process_are_cleaned(tmp_path: Path) -> None:
    """A save killed between writing and renaming leaves a temp file; the next save removes it
    (and removes, without following, a link left at such a name)."""
    target = tmp_path / "s.json"
    code = ("import os, sys; from khrap.safe_io import temp_names; "
            "open(os.path.join(os.path.dirname(sys.argv[1]), temp_names(sys.argv[1])[0]), 'w').write('{'); "
            "os.kill(os.getpid(), 9)")
    dead = subprocess.run([sys.executable, "-c", code, str(target)], check=False, timeout=60)
    assert dead.returncode == -signal.SIGKILL
    leftover = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(leftover) == 1
    victim = outside_files(tmp_path, 1)[0]
    (tmp_path / ".s.json.999999999.0.tmp").symlink_to(victim)  # a pid that cannot be alive
    old_style = tmp_path / ".s.json.999999998.tmp"  # the former name of a temp file
    old_style.write_text("{")
    alive = tmp_path / f".s.json.{os.getppid()}.0.tmp"  # a live process's temp file is not touched
    alive.write_text("{")
    safe_io._cleaned.clear()
    save_record(record(), target)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(["s.json", alive.name, "outside"])
    assert victim.read_text() == "precious\n"


def test_outputs_may_go_to_a_terminal_device(tmp_path: Path) -> None:
    """`-o /dev/stdout` style: an existing character device is written in place, never replaced."""
    write_output("/dev/null", "text\n")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_replay_scenario_never_overwrites_a_file_it_was_not_named(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: khrap\nname: {en: House}\n")
    save = tmp_path / "s.json"
    assert invoke(["play", house, "--watch", "--deals", "1", "--seed", "2", "--save", save]).exit_code == 0
    saved = json.loads(save.read_text())
    saved["variant"] = "gone.yaml"  # neither a built-in nor a file: the variant must be written beside -o
    save.write_text(json.dumps(saved))
    out = tmp_path / "t.yaml"
    beside = tmp_path / "t.variant.yaml"
    beside.write_text("mine, not a variant\n")
    assert_refused(invoke(["replay", save, "--scenario", "-o", out], "outputs"), beside, contains="exists")
    assert beside.read_text() == "mine, not a variant\n" and not out.exists()
    beside.unlink()
    result = invoke(["replay", save, "--scenario", "-o", out], "outputs")
    assert result.exit_code == 0, result.output
    assert f"wrote {beside}" in result.stdout and f"wrote {out}" in result.stdout  # it says what it writes
    again = invoke(["replay", save, "--scenario", "-o", out], "outputs")  # the same text again: fine
    assert again.exit_code == 0, again.output


def test_permission_errors_are_one_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unreadable file or folder and an unwritable folder: one line each (simulated for root, who may
    read anything; a real chmod when the tests run as another user)."""
    variant = tmp_path / "locked" / "h.yaml"
    variant.parent.mkdir()
    variant.write_text("extends: khrap\n")
    out = tmp_path / "locked" / "sheet.txt"
    if os.geteuid() != 0:
        variant.parent.chmod(0)
        try:
            assert_refused(invoke(["validate", variant], "outputs"), variant, contains="permission denied")
            assert_refused(invoke(["rules", "khrap", "-o", out], "outputs"), out)
        finally:
            variant.parent.chmod(0o755)
    real_open = os.open

    def denied(path, flags, *args, **kw):
        if "locked" in os.fsdecode(path) or kw.get("dir_fd") is not None:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_open(path, flags, *args, **kw)

    monkeypatch.setattr(safe_io.os, "open", denied)
    assert_refused(invoke(["validate", variant], "outputs"), variant, contains="permission denied")
    assert_refused(invoke(["rules", "khrap", "-o", out], "outputs"), out, contains="permission denied")
