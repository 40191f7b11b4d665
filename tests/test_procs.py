"""An interrupted run ends the process groups it started (they live in sessions of their own), and
the temporary folders a killed run left are removed by the next one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from xrbench import procs

CHILD = textwrap.dedent(
    """
    import sys, threading, time
    from xrbench import procs

    procs.install_signal_handlers()
    pid_file = sys.argv[1]

    def worker():
        # A worker thread blocked on a child in its own session, as validate's and a job's are.
        with procs.popen_group(["sleep", "600"]) as proc:
            open(pid_file, "w").write(str(proc.pid))
            proc.wait()

    t = threading.Thread(target=worker, daemon=True)
    t.start()
    try:
        while True:
            time.sleep(0.05)
    except KeyboardInterrupt:
        print("interrupted", procs.interrupted(), flush=True)
        sys.exit(130)
    """
)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is not running; it only waits to be reaped by its (already gone) parent.
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(") ", 1)[1][0] != "Z"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_kills_every_registered_group(tmp_path, signum):
    pid_file = tmp_path / "pid"
    parent = subprocess.Popen([sys.executable, "-c", CHILD, str(pid_file)], stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not (pid_file.is_file() and pid_file.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    child = int(pid_file.read_text())
    assert _alive(child)
    parent.send_signal(signum)
    out, _ = parent.communicate(timeout=30)
    assert parent.returncode == 130 and "interrupted True" in out
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child), "the child's process group outlived the interrupted run"


def test_leaving_the_block_by_an_exception_kills_the_group():
    with pytest.raises(RuntimeError), procs.popen_group(["sleep", "600"]) as proc:
        raise RuntimeError("boom")
    assert proc.poll() is not None
    assert not procs._live


# --- temporary folders that name their owner: removed once the owner is gone, never before ---


def test_a_dead_owners_folder_is_removed_and_a_live_ones_kept(tmp_path):
    mine = procs.owned_tempdir("xrbench-test-", dir=tmp_path)
    # A child process makes an owned folder and exits: its folder is stale.
    code = f"from xrbench.procs import owned_tempdir; print(owned_tempdir('xrbench-test-', dir={str(tmp_path)!r}))"
    dead = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    unowned = tmp_path / "xrbench-test-plain"  # no owner in its name: never touched
    unowned.mkdir()
    removed = procs.remove_stale_tempdirs(tmp_path)
    assert [str(p) for p in removed] == [dead]
    assert mine.is_dir() and unowned.is_dir()


def test_a_reused_pid_does_not_keep_a_folder(tmp_path):
    # Same pid as a live process but another start time: the owner is gone.
    pid = procs.os.getpid()
    stale = tmp_path / f"xrbench-test-xrb{pid}.1-abc"
    stale.mkdir()
    assert procs.remove_stale_tempdirs(tmp_path) == [stale]


def test_only_owned_prefixes(tmp_path):
    with pytest.raises(ValueError, match="start with one of"):
        procs.owned_tempdir("other-", dir=tmp_path)
