"""Reading and writing files named by a user, safely (a leaf module: no khrap imports).

Reading (:func:`read_limited`): only a regular file is opened (a FIFO, a device
or a directory is refused before a byte is read, and a FIFO never blocks), and
never more than a limit is read.

Writing (:func:`write_output` for ``-o``/``--csv``, :func:`write_save` for saves):
the new content goes to a temporary file made with ``O_EXCL|O_NOFOLLOW`` in the
target's own folder, is flushed to disk, and only then renamed over the target;
a planted symlink at a temporary name is never followed (the next name is
tried), only a regular file is ever replaced, a failure leaves the old file as
it was, and temporary files left by a killed process are removed by the next
write.  A save is also locked (:class:`SaveLock`), so two sessions cannot
write one save.  Every problem is one :class:`OutputError` naming the file.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

__all__ = [
    "TEMP_TRIES",
    "InputRefused",
    "OutputError",
    "SaveLock",
    "check_output",
    "held_save",
    "read_limited",
    "temp_names",
    "write_output",
    "write_save",
]

TEMP_TRIES = 8
"""How many temporary names a write tries (``.NAME.PID.0.tmp`` ... ``.NAME.PID.7.tmp``) before it gives up."""


class InputRefused(Exception):
    """A file that is not read: the reason, without the path (the caller locates it)."""


class OutputError(Exception):
    """A file that could not be written, as one line: ``PATH: reason``."""


def _shown(path: str | os.PathLike[str]) -> str:
    text = os.fspath(path)
    text = text if isinstance(text, str) else os.fsdecode(text)
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"
                   for c in text)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return name
    return "not a regular file"


def _reason(err: OSError) -> str:
    if err.errno == errno.ENAMETOOLONG:
        return "the file name is too long"
    if err.errno == errno.ENOSPC:
        return "no space left on the device"
    return (err.strerror or str(err)).lower() if err.strerror else str(err)


# ------------------------------------------------------------------ reading
def read_limited(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; InputRefused (a reason) otherwise."""
    try:
        before = os.stat(path)
        if not stat.S_ISREG(before.st_mode):
            if stat.S_ISDIR(before.st_mode):
                raise InputRefused("is a directory, not a file")
            raise InputRefused(f"is {_kind(before.st_mode)}, not a regular file")
        if before.st_size > limit:
            raise InputRefused(_too_large(limit))
        # O_NONBLOCK: had the path been swapped for a FIFO since the stat, the open does not wait for a writer
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise InputRefused("no such file") from None
    except ValueError:
        raise InputRefused("not a valid path (it holds a NUL character)") from None
    except OSError as err:
        raise InputRefused(f"cannot read file: {_reason(err)}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputRefused("is not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as err:
        raise InputRefused(f"cannot read file: {_reason(err)}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise InputRefused(_too_large(limit))
    return b"".join(chunks)


def _too_large(limit: int) -> str:
    mib = 1024 * 1024
    kib = f"{limit // 1024} KiB" if limit % 1024 == 0 else f"{limit} bytes"
    size = f"{limit // mib} MiB" if limit % mib == 0 else kib
    return f"file is too large (the limit is {size})"


# ------------------------------------------------------------------ writing
def temp_names(path: str | os.PathLike[str], pid: int | None = None) -> list[str]:
    """Every temporary name (in the target's folder) a write of ``path`` by process ``pid`` may use."""
    name = Path(path).name
    pid = os.getpid() if pid is None else pid
    return [f".{name}.{pid}.{i}.tmp" for i in range(TEMP_TRIES)]


def _leftover(name: str) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(name)}\.(\d+)(?:\.\d+)?\.tmp")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process (or a name that only looks like ours)
    return True


_cleaned: set[tuple[int, int, str]] = set()


def _clean_leftovers(dir_fd: int, name: str) -> None:
    """Remove temporary files of ``name`` left by processes that are gone (once per folder and name)."""
    folder = os.fstat(dir_fd)
    key = (folder.st_dev, folder.st_ino, name)
    if key in _cleaned:
        return
    _cleaned.add(key)
    pattern = _leftover(name)
    with contextlib.suppress(OSError):
        for entry in os.listdir(dir_fd):
            match = pattern.fullmatch(entry)
            if match and int(match.group(1)) != os.getpid() and not _alive(int(match.group(1))):
                with contextlib.suppress(OSError):
                    os.unlink(entry, dir_fd=dir_fd)  # unlink removes a symlink itself, never its target


def _split(path: str | os.PathLike[str]) -> tuple[str, str]:
    if "\0" in os.fsdecode(os.fspath(path)):
        raise OutputError(f"{_shown(path)}: not a valid path (it holds a NUL character)")
    path = Path(path)
    if not path.name or path.name in (".", ".."):
        raise OutputError(f"{_shown(path)}: name a file, not a folder")
    return str(path.parent), path.name


@contextlib.contextmanager
def _folder(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """(a descriptor of the target's folder, the target's name there); OutputError if there is no such folder."""
    folder, name = _split(path)
    try:
        dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except ValueError:
        raise OutputError(f"{_shown(path)}: not a valid path (it holds a NUL character)") from None
    except FileNotFoundError:
        raise OutputError(f"{_shown(path)}: the folder {_shown(folder)} does not exist") from None
    except NotADirectoryError:
        raise OutputError(f"{_shown(path)}: {_shown(folder)} is not a folder") from None
    except OSError as err:
        raise OutputError(f"{_shown(path)}: cannot open its folder: {_reason(err)}") from None
    try:
        yield dir_fd, name
    finally:
        os.close(dir_fd)


def _target_mode(dir_fd: int, name: str) -> int | None:
    try:
        return os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return None


def _refuse(path: str | os.PathLike[str], mode: int) -> OutputError:
    if stat.S_ISDIR(mode):
        return OutputError(f"{_shown(path)}: is a directory; name a file to write")
    if stat.S_ISLNK(mode):
        return OutputError(f"{_shown(path)}: is a symbolic link; name the file it points to")
    return OutputError(f"{_shown(path)}: is {_kind(mode)}; only a regular file is replaced")


def check_output(path: str | os.PathLike[str], devices: bool = True) -> None:
    """Refuse early (before long work) a target that cannot be written: OutputError."""
    with _folder(path) as (dir_fd, name):
        try:
            mode = _target_mode(dir_fd, name)
        except OSError as err:
            raise OutputError(f"{_shown(path)}: {_reason(err)}") from None
        if mode is not None and not stat.S_ISREG(mode) and not (devices and stat.S_ISCHR(mode)):
            raise _refuse(path, mode)
        if not os.access(str(Path(path).parent), os.W_OK | os.X_OK):
            raise OutputError(f"{_shown(path)}: the folder is not writable")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _replace(path: str | os.PathLike[str], data: bytes, devices: bool) -> None:
    with _folder(path) as (dir_fd, name):
        try:
            mode = _target_mode(dir_fd, name)
            if mode is not None and stat.S_ISCHR(mode) and devices:  # -o /dev/stdout: written in place
                fd = os.open(name, os.O_WRONLY | os.O_NOFOLLOW | os.O_NOCTTY | os.O_CLOEXEC, dir_fd=dir_fd)
                try:
                    _write_all(fd, data)
                finally:
                    os.close(fd)
                return
            if mode is not None and not stat.S_ISREG(mode):
                raise _refuse(path, mode)
            _clean_leftovers(dir_fd, name)
            tmp, fd = _make_temp(path, dir_fd)
            try:
                _write_all(fd, data)
                os.fchmod(fd, 0o644 if mode is None else stat.S_IMODE(mode))
                os.fsync(fd)
                os.close(fd)
                fd = -1
                now = _target_mode(dir_fd, name)  # changed while we wrote? still never replace a non-file
                if now is not None and not stat.S_ISREG(now):
                    raise _refuse(path, now)
                os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
            except BaseException:
                if fd >= 0:
                    os.close(fd)
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=dir_fd)
                raise
            with contextlib.suppress(OSError):
                os.fsync(dir_fd)
        except OSError as err:
            raise OutputError(f"{_shown(path)}: cannot write: {_reason(err)}") from None


def _make_temp(path: str | os.PathLike[str], dir_fd: int) -> tuple[str, int]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for tmp in temp_names(path):
        try:
            return tmp, os.open(tmp, flags, 0o600, dir_fd=dir_fd)
        except FileExistsError:
            continue  # a leftover of ours, or something planted: never opened, never followed
    raise OutputError(f"{_shown(path)}: cannot make a temporary file beside it: "
                      f"{temp_names(path)[0]} to {temp_names(path)[-1]} all exist")


def write_output(path: str | os.PathLike[str], text: str | bytes) -> None:
    """Write an output the user named (``-o``, ``--csv``): replaced only once complete; OutputError."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape")
    _replace(path, data, devices=True)


# ------------------------------------------------------------------ saves
_held: dict[str, SaveLock] = {}


def _key(path: str | os.PathLike[str]) -> str:
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):  # a NUL, a loop of links: _folder refuses it with a message
        return os.fspath(path) if isinstance(os.fspath(path), str) else repr(path)


class SaveLock:
    """An exclusive lock on a save (``.NAME.lock`` beside it, ``flock``ed): one session per save.

    The lock file holds the owner's process id; it is removed on release, and a
    lock left by a killed process is free again (the kernel drops the flock).
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.lock_name = f".{self.path.name}.lock"
        self._fd = -1
        self._dir_fd = -1

    def acquire(self) -> SaveLock:
        with _folder(self.path) as (dir_fd, _):
            self._dir_fd = os.dup(dir_fd)
        for _ in range(3):
            try:
                fd = os.open(self.lock_name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644,
                             dir_fd=self._dir_fd)
            except OSError as err:
                self._close_dir()
                raise OutputError(f"{_shown(self.path)}: cannot lock it: {_reason(err)}") from None
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                self._close_dir()
                raise OutputError(f"{_shown(self.path)}: its lock {self.lock_name} is not a regular file")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                owner = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                os.close(fd)
                self._close_dir()
                who = f" (process {owner})" if owner.isdigit() else ""
                raise OutputError(f"{_shown(self.path)}: another khrap session{who} is using this save; "
                                  "finish it first or save to another file") from None
            try:  # the file we locked may have been removed by its last owner meanwhile: then lock the new one
                same = os.stat(self.lock_name, dir_fd=self._dir_fd, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
                self._fd = fd
                _held[_key(self.path)] = self
                return self
            os.close(fd)
        self._close_dir()
        raise OutputError(f"{_shown(self.path)}: cannot lock it (its lock file keeps changing)")

    def _close_dir(self) -> None:
        if self._dir_fd >= 0:
            os.close(self._dir_fd)
            self._dir_fd = -1

    def release(self) -> None:
        if self._fd < 0:
            return
        _held.pop(_key(self.path), None)
        with contextlib.suppress(OSError):
            os.unlink(self.lock_name, dir_fd=self._dir_fd)  # while still locked: nobody else holds this file
        os.close(self._fd)
        self._fd = -1
        self._close_dir()

    def __enter__(self) -> SaveLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


@contextlib.contextmanager
def held_save(path: str | os.PathLike[str] | None) -> Iterator[None]:
    """Hold the lock of save ``path`` (if any) for the duration; OutputError if another session has it."""
    if path is None:
        yield
        return
    check_output(path, devices=False)  # a device or a folder is refused before any lock file is made
    with SaveLock(path):
        yield


def write_save(path: str | os.PathLike[str], text: str) -> None:
    """Write a save: only ever replacing a regular file (never a device, FIFO or link), under its lock."""
    if _key(path) in _held:
        _replace(path, text.encode("utf-8"), devices=False)
        return
    check_output(path, devices=False)
    with SaveLock(path):
        _replace(path, text.encode("utf-8"), devices=False)
