"""Child process groups the toolkit starts, so that an interrupted run leaves none behind.

Test runs and agents start in a session of their own, so that a time limit can kill the whole
group (pytest, its browser, servers, an agent's tools). That also keeps a terminal's Ctrl-C
from reaching them, and a worker thread blocked in `wait()` never sees the KeyboardInterrupt.
So every such child is started through `popen_group` and registered while it runs; the CLI's
signal handler (`install_signal_handlers`) marks the run interrupted, kills every registered
group and raises KeyboardInterrupt in the main thread. Code that records a finished item checks
`interrupted()` first, so a child killed by the interrupt is never recorded as a result.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Iterator
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


@contextlib.contextmanager
def popen_group(cmd: Any, **kwargs: Any) -> Iterator[subprocess.Popen]:
    """`subprocess.Popen(cmd, start_new_session=True, **kwargs)`, registered while the block runs.

    Leaving the block by an exception (a timeout handled inside excepted) kills the group.
    """
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
