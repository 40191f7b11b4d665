"""Red team: `kill -9` of a running `xrbench genxr run` leaves nothing of the job alive.

Killed outright, xrbench runs no handler. Whatever it started must still die with it: the agent's
sandbox and the processes inside it, the verifier's pytest, the Playwright driver and the whole
Chromium tree (in its own bubblewrap). Every descendant of the killed process, identified by pid
and start time (so a reused pid is not mistaken for a survivor), must be gone within 5 seconds;
the temporary folders it left are removed by the next xrbench command.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from genxr.builders import make_app_task

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")

XRBENCH = str(Path(sys.prefix) / "bin" / "xrbench")

# A verifier test that starts a real (sandboxed) Chromium and then outlives any patience.
BROWSER_TEST = """\
import time

from xrbench.xrtest.browser import launch_browser


def test_hangs_with_a_browser(workspace_dir):
    handle = launch_browser()
    handle.browser.new_context().new_page().goto("about:blank")
    time.sleep(300)
"""


def _stat(pid: int) -> tuple[int, int, str] | None:
    """(parent pid, start time, command name) of a live process, or None."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    name = raw[raw.index(b"(") + 1 : raw.rindex(b")")].decode(errors="replace")
    fields = raw[raw.rindex(b")") + 2 :].split()
    if fields[0] == b"Z":  # a zombie is dead, only not yet reaped
        return None
    return int(fields[1]), int(fields[19]), name


def descendants(root: int) -> dict[tuple[int, int], str]:
    """Every live descendant of `root`: (pid, start time) -> command name."""
    info = {int(p): s for p in os.listdir("/proc") if p.isdigit() and (s := _stat(int(p))) is not None}
    found: dict[tuple[int, int], str] = {}
    frontier = [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, start, name) in info.items():
            if ppid == parent and (pid, start) not in found:
                found[(pid, start)] = name
                frontier.append(pid)
    return found


def alive(procs: dict[tuple[int, int], str]) -> dict[tuple[int, int], str]:
    out = {}
    for (pid, start), name in procs.items():
        s = _stat(pid)
        if s is not None and s[1] == start:
            out[(pid, start)] = name
    return out


def wait_for(proc: subprocess.Popen, want: str, timeout_s: float = 90) -> dict[tuple[int, int], str]:
    """Poll until a descendant named `want` runs; all descendants then."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out = proc.stdout.read() if proc.stdout else ""
            pytest.fail(f"xrbench ended (exit {proc.returncode}) before {want} started:\n{out[-2000:]}")
        found = descendants(proc.pid)
        if any(want in name for name in found.values()):
            return found
        time.sleep(0.2)
    proc.kill()
    pytest.fail(f"no {want} process within {timeout_s} s")


def kill_and_check(proc: subprocess.Popen, procs: dict[tuple[int, int], str]) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    deadline = time.monotonic() + 5
    while alive(procs) and time.monotonic() < deadline:
        time.sleep(0.1)
    survivors = alive(procs)
    for pid, _ in survivors:  # do not leave them to the next test
        os.kill(pid, signal.SIGKILL)
    assert survivors == {}, f"still alive 5 s after kill -9: {sorted(survivors.values())}"


def start_job(tasks: Path, out: Path, *agent: str) -> subprocess.Popen:
    return subprocess.Popen(
        [XRBENCH, "genxr", "run", *agent, "--tasks", str(tasks), "--out", str(out), "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "COLUMNS": "120"},
    )


def test_kill_9_during_the_agent_leaves_no_sandboxed_process(tmp_path):
    suite = tmp_path / "suite"
    make_app_task(suite, "red-button")
    proc = start_job(suite, tmp_path / "runs", "--agent", "command", "--agent-arg", "template=sleep 300 & sleep 301")
    procs = wait_for(proc, "sleep")
    assert any(name == "bwrap" for name in procs.values()), procs
    kill_and_check(proc, procs)


def test_kill_9_during_the_verifier_leaves_no_pytest_or_browser_and_no_temp_folder(tmp_path):
    suite = tmp_path / "suite"
    make_app_task(suite, "hang", tests={"test_app.py": BROWSER_TEST})
    before = set(Path(tempfile.gettempdir()).glob("genxr-verify-hang-*"))
    proc = start_job(suite, tmp_path / "runs", "--agent", "oracle")
    wait_for(proc, "chrom")
    time.sleep(1)  # let the browser start its renderer and GPU processes too
    procs = descendants(proc.pid)
    assert any("pytest" in n or "python" in n for n in procs.values()), procs
    kill_and_check(proc, procs)
    left = set(Path(tempfile.gettempdir()).glob("genxr-verify-hang-*")) - before
    assert left, "expected the killed verifier's folder to be left for the next run to remove"
    # The next xrbench command removes what the killed run left (its owner is gone).
    subprocess.run([XRBENCH, "genxr", "stats", "--tasks", str(suite)], capture_output=True, timeout=120, check=False)
    assert not any(p.exists() for p in left)
