"""Child process groups the toolkit starts, so that an interrupted run leaves none behind.

Test runs and agents start in a session of their own, so that a time limit can kill the whole
group (pytest, its browser, servers, an agent's tools). That also keeps a terminal's Ctrl-C
from reaching them, and a worker thread blocked in `wait()` never sees the KeyboardInterrupt.
So every such child is started through `popen_group` and registered while it runs; the CLI's
signal handler (`install_signal_handlers`) marks the run interrupted, kills every registered
group and raises KeyboardInterrupt in the main thread. Code that records a finished item checks
`interrupted()` first, so a child killed by the interrupt is never recorded as a result.

A run killed outright (`kill -9`, the OOM killer) runs no handler, so every child started by
`popen_group` also asks the kernel to kill it when its parent dies (`PR_SET_PDEATHSIG` =
SIGKILL, set in the child before it runs the command). The signal fires when the *thread* that
started the child ends, so a child must be started and waited for by the same thread (as
`wait_group` and every caller do). The child's own children are bound the same way where the
toolkit starts them (bubblewrap's `--die-with-parent`), or end when their parent's pipes close
(Playwright's driver, and with it the browser, when pytest dies).

Temporary folders of a killed run would stay behind too, so those the toolkit makes while a run
lasts come from `owned_tempdir`: the name carries the owner's pid and start time, and the next
call of `remove_stale_tempdirs` (at every CLI start, and before a process makes its first owned
folder) removes every such folder whose owner is gone.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

_lock = threading.Lock()
_live: set[subprocess.Popen] = set()
_interrupted = threading.Event()


def interrupted() -> bool:
    """Whether this process received SIGINT or SIGTERM (through the installed handler)."""
    return _interrupted.is_set()


def kill_group(proc: subprocess.Popen, timeout_s: float = 10) -> None:
    """SIGKILL `proc`'s process group (it leads its own session) and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()


def kill_all() -> None:
    """Kill every registered process group (safe to call from a signal handler)."""
    with _lock:
        live = list(_live)
    for proc in live:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)


PR_SET_PDEATHSIG = 1


def _load_prctl() -> Callable[..., int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        return libc.prctl
    except (OSError, AttributeError):  # not Linux
        return None


_prctl = _load_prctl()


def die_with_parent_hook() -> Callable[[], None]:
    """A `preexec_fn` that makes the child get SIGKILL when the calling thread's process ends.

    Runs in the forked child before exec, so it only calls prctl and getppid: when the parent
    died before the signal was armed, the child kills itself at once.
    """
    parent = os.getpid()
    prctl = _prctl

    def hook() -> None:
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)

    return hook


@contextlib.contextmanager
def popen_group(cmd: Any, **kwargs: Any) -> Iterator[subprocess.Popen]:
    """`subprocess.Popen(cmd, start_new_session=True, **kwargs)`, registered while the block runs.

    The child dies with this process (see the module docstring). Leaving the block by an
    exception (a timeout handled inside excepted) kills the group.
    """
    kwargs.setdefault("preexec_fn", die_with_parent_hook())
    proc = subprocess.Popen(cmd, start_new_session=True, **kwargs)
    with _lock:
        _live.add(proc)
    try:
        yield proc
    except BaseException:
        kill_group(proc)
        raise
    finally:
        with _lock:
            _live.discard(proc)


def wait_group(cmd: Any, *, timeout_s: float, **kwargs: Any) -> int | None:
    """Run `cmd` in a registered group of its own (see `popen_group`) and wait at most `timeout_s`.

    Returns its exit status, or None when it was killed at the limit. Raises OSError when it
    cannot start, and KeyboardInterrupt when the run was interrupted meanwhile (the child's
    status then says nothing about the child).
    """
    with popen_group(cmd, **kwargs) as proc:
        try:
            code: int | None = proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            code = None
    if interrupted():
        raise KeyboardInterrupt
    return code


def install_signal_handlers() -> None:
    """On SIGINT or SIGTERM: mark interrupted, kill registered groups, raise KeyboardInterrupt."""
    if threading.current_thread() is not threading.main_thread():
        return

    def handle(signum: int, frame: object) -> None:
        _interrupted.set()
        kill_all()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handle)
    signal.signal(signal.SIGTERM, handle)


# --- temporary folders that name their owner --------------------------------------------------------

# Only folders with these prefixes are ever removed, and only when their name carries an owner.
OWNED_PREFIXES = ("genxr-", "xrbench-", "xrtest-", "guidance-")
_OWNER = re.compile(r"-xrb(?P<pid>\d+)\.(?P<start>\d+)-[A-Za-z0-9_]+$")
_swept = threading.Event()


def _start_time(pid: int) -> int | None:
    """The process's start time (clock ticks since boot, from /proc), 0 without /proc, None if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except FileNotFoundError:
        return None
    except OSError:
        return 0
    # Field 22; the command name (field 2) may hold spaces and parentheses, so split after its end.
    fields = stat.rsplit(b")", 1)[-1].split()
    return int(fields[19]) if len(fields) > 19 else 0


def _alive(pid: int, start: int) -> bool:
    if not Path("/proc/self/stat").exists():  # no /proc: the pid alone has to do
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    got = _start_time(pid)
    return got is not None and got in (0, start)


def owned_tempdir(prefix: str, *, dir: str | Path | None = None) -> Path:
    """`tempfile.mkdtemp` whose name says which process owns it (removed as stale once it is gone).

    `prefix` must start with one of `OWNED_PREFIXES`. The first call in a process first removes
    the stale folders other runs left (see `remove_stale_tempdirs`).
    """
    if not prefix.startswith(OWNED_PREFIXES):
        raise ValueError(f"owned temporary folders start with one of {OWNED_PREFIXES}, not {prefix!r}")
    if not _swept.is_set():
        _swept.set()
        remove_stale_tempdirs(dir)
    pid = os.getpid()
    start = _start_time(pid) or 0
    return Path(tempfile.mkdtemp(prefix=f"{prefix.rstrip('-')}-xrb{pid}.{start}-", dir=dir))


@contextlib.contextmanager
def owned_temporary_directory(prefix: str, *, dir: str | Path | None = None) -> Iterator[Path]:
    """`owned_tempdir` as a context manager (like `tempfile.TemporaryDirectory`); removed on exit."""
    path = owned_tempdir(prefix, dir=dir)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def remove_stale_tempdirs(dir: str | Path | None = None) -> list[Path]:
    """Remove owned temporary folders (see `owned_tempdir`) whose owner process is gone; returns them.

    Only folders of this user are considered; a folder whose owner still runs is kept.
    """
    root = Path(dir or tempfile.gettempdir())
    removed: list[Path] = []
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    try:
        entries = list(os.scandir(root))
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(OWNED_PREFIXES):
            continue
        m = _OWNER.search(entry.name)
        if m is None:
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not entry.is_dir(follow_symlinks=False) or (uid is not None and st.st_uid != uid):
            continue
        if _alive(int(m["pid"]), int(m["start"])):
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(Path(entry.path))
    return removed
