"""The trust boundary: a file names other files only as a built-in or a path in its own folder (or
below), unless the command line says --allow-outside; only regular files are read, never blocking;
a refused file is never opened, so nothing of it is shown; the upload mode extends only built-ins."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from khrap.session import RecordError, Session, load_record
from khrap.variant.catalog import load_variant
from khrap.variant.loader import ANYWHERE, UPLOAD, VariantError, trusting
from tests.hardening.common import ROOT, assert_clean, assert_refused, invoke

SECRET = "root:x:0:0"  # the first line of /etc/passwd: never shown


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside the folder of the hostile files, whose first line must never be shown."""
    outside = tmp_path / "private"
    outside.mkdir()
    path = outside / "secret.yaml"
    path.write_text(f"{SECRET}:/root:/bin/bash\n")
    return path


def outside_refs(tmp_path: Path, secret: Path) -> list[str]:
    """Ways to name a file outside the folder: absolute, parent, nested parents, a link that leads out."""
    folder = tmp_path / "shared"
    (folder / "sub").mkdir(parents=True)
    (folder / "link.yaml").symlink_to(secret)
    (folder / "linkdir").symlink_to(secret.parent, target_is_directory=True)
    return ["/etc/passwd", str(secret), "../private/secret.yaml", "sub/../../private/secret.yaml",
            "link.yaml", "linkdir/secret.yaml", "./../private/secret.yaml", "/etc/shadow", "/proc/self/environ",
            "/dev/zero.yaml", "..//private/secret.yaml"]


def test_extends_outside_is_refused_unread(tmp_path: Path, secret: Path) -> None:
    refs = outside_refs(tmp_path, secret)
    for i, ref in enumerate(refs):
        path = tmp_path / "shared" / f"h{i}.yaml"
        path.write_text(f"extends: {json.dumps(ref)}\n")
        for command in (["validate"], ["show"], ["rules", "--format", "txt"], ["simulate", "--deals", "1"]):
            message = assert_refused(invoke([command[0], path, *command[1:]], "trust"), f"{path}:1:10")
            assert SECRET not in message and "outside the folder" in message, message


def test_scenario_and_record_variant_outside_are_refused(tmp_path: Path, secret: Path) -> None:
    for i, ref in enumerate(outside_refs(tmp_path, secret)):
        scenario = tmp_path / "shared" / f"s{i}.yaml"
        scenario.write_text(f"variant: {json.dumps(ref)}\nactions: |\n  1 pass\n")
        message = assert_refused(invoke(["run", scenario], "trust"), f"{scenario}:1:10")
        assert SECRET not in message and "outside the folder" in message
        record = tmp_path / "shared" / f"r{i}.json"
        record.write_text(json.dumps({"format": "khrap-record", "variant": ref, "actions": []}))
        for args in (["replay", record], ["play", "--resume", record, "--deals", "1"]):
            message = assert_refused(invoke(args, "trust"), record)
            assert SECRET not in message and "outside the folder" in message


def test_inside_the_folder_is_allowed_and_allow_outside_is_explicit(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text("extends: khrap\nplayers: {min: 3}\n")
    (tmp_path / "sub").mkdir()
    below = tmp_path / "sub" / "below.yaml"
    below.write_text("extends: khrap\nplayers: {min: 3}\n")
    beside = tmp_path / "house.yaml"
    beside.write_text("extends: sub/below.yaml\n")
    assert invoke(["validate", beside]).exit_code == 0
    up = tmp_path / "sub" / "up.yaml"
    up.write_text("extends: ../base.yaml\n")
    assert_refused(invoke(["validate", up], "trust"), up, contains="--allow-outside")
    result = invoke(["validate", "--allow-outside", up], "trust")
    assert result.exit_code == 0, result.output
    assert_refused(invoke(["validate", up], "trust"), up)  # the flag held for that command only
    scenario = tmp_path / "sub" / "scn.yaml"
    scenario.write_text("variant: ../base.yaml\nactions: |\n  1 pass\n")
    assert_refused(invoke(["run", scenario], "trust"), scenario)
    assert invoke(["run", "--allow-outside", scenario]).exit_code == 0


def test_the_upload_mode_extends_only_builtins(tmp_path: Path) -> None:
    """What a server uses for a stranger's file: one argument, trust=UPLOAD."""
    (tmp_path / "mine.yaml").write_text("extends: khrap\n")
    for ref in ("mine.yaml", "./mine.yaml", "/etc/passwd", "../x.yaml", "sub/x.yml"):
        with pytest.raises(VariantError, match="only a built-in") as info:
            load_variant("upload.yaml", text=f"extends: {ref}\nplayers: {{min: 3}}\n", trust=UPLOAD)
        assert str(info.value).startswith("upload.yaml:1:10: ")
    variant = load_variant("upload.yaml", text="extends: frap\nplayers: {min: 3}\n", trust=UPLOAD)
    assert variant.players.min == 3
    with pytest.raises(VariantError, match="too large"):
        load_variant("upload.yaml", text="extends: khrap\n" + "#" * 300_000 + "\n", trust=UPLOAD)
    with pytest.raises(VariantError, match="unknown built-in"):
        load_variant("upload.yaml", text="extends: nothing\n", trust=UPLOAD)


def test_trust_can_be_given_per_call(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("extends: khrap\nplayers: {min: 3}\n")
    (tmp_path / "sub").mkdir()
    up = tmp_path / "sub" / "up.yaml"
    up.write_text("extends: ../base.yaml\n")
    with pytest.raises(VariantError):
        load_variant(up)
    assert load_variant(up, trust=ANYWHERE).players.min == 3
    with trusting(ANYWHERE):
        assert load_variant(up).players.min == 3
    with pytest.raises(VariantError):
        load_variant(up)


def special_paths(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    return {"fifo": fifo, "folder": folder, "zero": Path("/dev/zero"), "null": Path("/dev/null"),
            "tty": Path("/dev/tty"), "proc": Path("/proc/self/status")}


def run_with_deadline(fn, seconds: float = 30.0):
    """Run ``fn`` in a thread: a blocked open (a FIFO without a writer) fails the test, not hangs it."""
    box: dict = {}
    thread = threading.Thread(target=lambda: box.setdefault("result", fn()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "blocked"
    return box["result"]


def test_special_files_are_refused_without_blocking(tmp_path: Path) -> None:
    """A FIFO given as a top-level file, a device, a folder: refused at once (never read)."""
    for kind, path in special_paths(tmp_path).items():
        scenario = tmp_path / f"scn-{kind}.yaml"
        scenario.write_text(f"variant: {json.dumps(str(path))}\n")
        record = tmp_path / f"rec-{kind}.json"
        record.write_text(json.dumps({"format": "khrap-record", "variant": str(path)}))
        for args in (["validate", path], ["show", path], ["diff", "khrap", path], ["run", path],
                     ["replay", path], ["rules", path], ["play", "--resume", path]):
            result = run_with_deadline(lambda args=args: invoke(args, "special"))
            assert_refused(result, path)
        for args in (["run", "--allow-outside", scenario], ["replay", "--allow-outside", record]):
            result = run_with_deadline(lambda args=args: invoke(args, "special"))
            assert_refused(result)


def test_a_fifo_in_a_subprocess_does_not_hang(tmp_path: Path) -> None:
    """The real command, as a user runs it: exits 2 at once (a hang would hit the timeout)."""
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    for command in (["validate", fifo], ["replay", fifo]):
        done = subprocess.run([sys.executable, "-m", "khrap.cli", *map(str, command)], capture_output=True,
                              text=True, timeout=120, cwd=ROOT, check=False)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert done.stderr.strip().startswith(str(fifo)) and "FIFO" in done.stderr


def test_records_are_read_with_a_size_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(64 * 1024 * 1024)  # sparse: 64 MiB of zeros on no disk
    assert_refused(invoke(["replay", big], "special"), big, contains="too large")
    with pytest.raises(RecordError, match="too large"):
        load_record(big)
    with pytest.raises(RecordError, match="character device"):
        Session.load("/dev/zero")


def test_nul_and_long_names_inside_files(tmp_path: Path) -> None:
    for ref in ("a\\0b.yaml", "x" * 5000 + ".yaml", ("d" * 250 + "/") * 20 + "x.yaml"):
        path = tmp_path / "h.yaml"
        path.write_text(f'extends: "{ref}"\n')
        assert_refused(invoke(["validate", path], "trust"), f"{path}:1:10")
    for ref in ("x" * 5000 + ".yaml", ("d" * 250 + "/") * 20 + "x.yaml"):
        assert_refused(invoke(["validate", ref], "trust"))
        assert_clean(invoke(["validate", ref], "trust"))
