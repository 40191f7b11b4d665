"""Hostile agents against the agent sandbox (`xrbench.genxr.sandbox`).

Each agent here runs through the real sandbox, most of them as a `command` agent of a real job,
and tries to get what it must not: the host's environment (API keys) through `/proc/1/environ`,
other copies of the tasks (tests and solutions), the bundled tasks, an earlier job folder, the
repository, `/root`, a server on the host's loopback. Every attempt must fail, while the agent
can still do its job: write its workspace (as an unprivileged user), which the verifier then
grades, and run the toolkit (`xrbench`, the venv's python) even from a checkout under /tmp.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from genxr.builders import make_app_task

from xrbench.genxr.job import JobConfig, run_job
from xrbench.genxr.sandbox import Sandbox
from xrbench.genxr.task import DEFAULT_TASKS_DIR

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")

REPO = Path(__file__).resolve().parents[2]
MARKER = "redteam_marker"

# The hostile agent: probes everything it was told about, writes what it got to leaks.json, and
# then does the task (so the verifier proves the workspace is still the agent's to write).
HOSTILE = r"""
import json, os, socket, subprocess, sys, urllib.request

cfg = json.loads(sys.argv[1])
found = {"uid": os.getuid(), "env": [], "readable": [], "walk": [], "net": [], "wrote": []}
try:
    found["home"] = os.listdir(cfg["home"])
except OSError:
    found["home"] = []
secret = (cfg["secret_name"] + "=").encode()  # the agent knows the name, not the value
if cfg["secret_name"] in os.environ:
    found["env"].append("os.environ")
pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
found["pids"] = pids
for pid in pids:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            if secret in f.read():
                found["env"].append(f"/proc/{pid}/environ")
    except OSError:
        pass
for path in cfg["paths"]:
    try:
        if os.path.isdir(path):
            entries = os.listdir(path)
            if entries:
                found["readable"].append(f"{path}: {sorted(entries)[:5]}")
        else:
            with open(path, "rb") as f:
                f.read(1)
            found["readable"].append(path)
    except OSError:
        pass
# Anything on the visible file system that looks like a task's held-out parts.
for root, dirs, files in os.walk("/"):
    if root in ("/proc", "/sys", "/dev", "/usr"):
        dirs[:] = []
        continue
    for name in dirs + files:
        p = os.path.join(root, name)
        if cfg["marker"] in name or p.endswith(("/solutions/valid", "/solutions/adversarial")):
            found["walk"].append(p)
url = cfg["url"]
try:
    urllib.request.urlopen(url + "/python", timeout=3).read()
    found["net"].append("python urllib")
except Exception:
    pass
try:
    socket.create_connection(("127.0.0.1", cfg["port"]), timeout=3).close()
    found["net"].append("python socket")
except OSError:
    pass
for tool in ("/usr/bin/curl", "/usr/bin/wget"):
    if os.path.exists(tool):
        if "curl" in tool:
            args = [tool, "-s", "-m", "3", url + "/curl"]
        else:
            args = [tool, "-q", "-T", "3", "-O-", url + "/wget"]
        if subprocess.run(args, capture_output=True).returncode == 0:
            found["net"].append(tool)
for path in cfg["write"]:
    try:
        with open(path, "w") as f:
            f.write("pwned")
        found["wrote"].append(path)
    except OSError:
        pass
with open("leaks.json", "w") as f:
    json.dump(found, f, indent=1)
with open("main.js", "a") as f:
    f.write("\n// red-button 0xff0000\n")
"""


@contextmanager
def loopback_server() -> Iterator[tuple[ThreadingHTTPServer, list[str]]]:
    """An HTTP server on the host's 127.0.0.1; `hits` lists every path requested."""
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server, hits
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def outside_tmp() -> Iterator[Path]:
    """A scratch folder outside /tmp (which the sandbox replaces anyway), like another checkout."""
    base = Path("/var/tmp") if os.access("/var/tmp", os.W_OK) else REPO.parent
    d = Path(tempfile.mkdtemp(prefix=f"xrbench-{MARKER}-", dir=base))
    d.chmod(0o755)
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


@contextmanager
def root_secret() -> Iterator[Path | None]:
    """An owner-only file in the home folder (/root when root), removed afterwards."""
    home = Path.home()
    path = home / f".xrbench-{MARKER}-{secrets.token_hex(4)}"
    try:
        path.write_text("root only")
        path.chmod(0o600)
    except OSError:
        yield None
        return
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)


def hostile_template(cfg: dict) -> str:
    """A `command` agent template that runs HOSTILE with `cfg` (no braces: str.format-safe)."""
    script = base64.b64encode(HOSTILE.encode()).decode()
    arg = base64.b64encode(json.dumps(cfg).encode()).decode()
    py = sys.executable  # the toolkit's own python: inside the sandbox as read-only toolkit code
    return f'echo {script} | base64 -d > /tmp/hostile.py && {py} /tmp/hostile.py "$(echo {arg} | base64 -d)"'


def fake_task_copy(root: Path) -> Path:
    """Another checkout's copy of a task, with tests and solutions, outside every hidden folder."""
    task = make_app_task(root, "red-button")
    (task / "tests" / f"test_{MARKER}.py").write_text("SECRET TESTS\n")
    (task / "solutions" / "valid" / "ok" / f"{MARKER}.js").write_text("SECRET SOLUTION\n")
    return task


def test_hostile_command_agent_gets_nothing_and_still_works(tmp_path, monkeypatch):
    secret = f"sk-{MARKER}-{secrets.token_hex(8)}"
    monkeypatch.setenv("XRBENCH_TEST_SECRET", secret)
    suite = tmp_path / "suite"
    make_app_task(suite, "red-button")
    other = fake_task_copy(tmp_path / "elsewhere" / "checkout")
    # An earlier job, whose trials hold workspaces, verifier output and the agent's logs.
    earlier, _ = run_job(JobConfig(agent="oracle", tasks_dir=str(suite), workers=1), tmp_path / "runs")
    earlier_trial = earlier / "red-button__oracle__1"
    assert (earlier_trial / "verifier" / "reward.json").is_file()

    with loopback_server() as (server, hits), root_secret() as home_secret, outside_tmp() as scratch:
        port = server.server_address[1]
        far = fake_task_copy(scratch / "checkout")
        paths = [
            str(far / "tests" / f"test_{MARKER}.py"),
            str(far / "solutions" / "valid" / "ok" / "main.js"),
            str(far),
            str(scratch),
            str(other / "tests" / f"test_{MARKER}.py"),
            str(other / "solutions" / "valid" / "ok" / "main.js"),
            str(other),
            str(suite / "red-button" / "tests" / "test_app.py"),
            str(suite / "red-button" / "solutions"),
            str(DEFAULT_TASKS_DIR),
            str(DEFAULT_TASKS_DIR / "app-orb-color-cycle" / "tests"),
            str(earlier / "config.json"),
            str(earlier_trial / "verifier" / "reward.json"),
            str(earlier_trial / "workspace" / "main.js"),
            str(earlier_trial),
            str(REPO / "README.md"),
            str(REPO / "pyproject.toml"),
            str(REPO / ".git"),
            str(REPO / "tests"),
            str(REPO / "src" / "xrbench" / "data" / "genxr" / "tasks"),
            str(Path(__file__)),
            "/home",
            "/etc/shadow",
            "/etc/hostname",
        ]
        if home_secret is not None:
            paths.append(str(home_secret))
        write = [str(Path(sys.prefix) / f"{MARKER}.txt"), str(REPO / f"{MARKER}.txt")]
        cfg = {
            "secret_name": "XRBENCH_TEST_SECRET",
            "paths": paths,
            "marker": MARKER,
            "url": f"http://127.0.0.1:{port}",
            "port": port,
            "write": write,
            "home": str(Path.home()),
        }
        config = JobConfig(
            agent="command",
            agent_args={"template": hostile_template(cfg)},
            tasks_dir=str(suite),
            workers=1,
        )
        job, summary = run_job(config, tmp_path / "runs")
        trial = job / "red-button__command__1"
        output = (trial / "agent" / "agent-output.txt").read_text()
        leaks_file = trial / "workspace" / "leaks.json"
        assert leaks_file.is_file(), output
        leaks = json.loads(leaks_file.read_text())
        assert hits == [], "the agent reached a server on the host's loopback"

    assert leaks["env"] == [], "the host's environment reached the agent"
    assert leaks["readable"] == [], "the agent read what it must not"
    assert leaks["walk"] == [], "held-out task files are visible in the sandbox"
    assert leaks["net"] == [], "the agent reached the host's loopback"
    assert leaks["wrote"] == [] and not any(Path(p).exists() for p in write)
    if os.geteuid() == 0:
        assert leaks["uid"] != 0, "the agent runs as root inside the sandbox"
    # Its own PID namespace: a handful of processes, none of the host's.
    assert len(leaks["pids"]) < 20, leaks["pids"]
    # The home folder shows at most the way to the toolkit (its python, e.g. /root/.pyenv, or a
    # checkout under it), nothing else.
    home = Path.home()
    allowed = {
        p.relative_to(home).parts[0]
        for p in Sandbox(tmp_path, enabled=True).toolkit_paths()
        if p.is_relative_to(home) and p != home
    }
    assert set(leaks["home"]) <= allowed, leaks["home"]
    # ... and the agent still did its job, graded by the verifier (which runs as the caller).
    assert summary["pass_at_1"] == 1.0 and summary["infra_errors"] == 0, output


def test_proc_1_environ_holds_no_host_variable(tmp_path, monkeypatch):
    secret = f"sk-{MARKER}-{secrets.token_hex(8)}"
    monkeypatch.setenv("XRBENCH_TEST_SECRET", secret)
    monkeypatch.setenv("PASSED_ON", "visible")
    ws = tmp_path / "ws"
    ws.mkdir()
    box = Sandbox(ws, env_pass=["PASSED_ON"], enabled=True)
    probe = "for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f 2>/dev/null; done | sort -u; echo uid=$(id -u)"
    r = box.run(probe, timeout_s=30)
    assert r.returncode == 0, r.output
    assert secret not in r.output and "XRBENCH_TEST_SECRET" not in r.output
    assert "PASSED_ON=visible" in r.output  # variables passed by name do reach the agent
    if os.geteuid() == 0:
        assert "uid=0" not in r.output


def test_toolkit_folders_under_tmp_are_visible_behind_the_private_tmp(tmp_path):
    """A checkout under /tmp: the toolkit must appear inside although the sandbox's /tmp is private."""
    ws = tmp_path / "ws"
    ws.mkdir()
    toolkit = Path(tempfile.mkdtemp(prefix=f"xrbench-{MARKER}-toolkit-", dir="/tmp"))
    try:
        (toolkit / "redteam_tool.py").write_text("VALUE = 42\n")
        (toolkit / "redteam_tool.py").chmod(0o644)
        toolkit.chmod(0o755)
        box = Sandbox(ws, toolkit=[toolkit], enabled=True)
        argv = box.wrap(["true"])
        private_tmp = next(i for i in range(len(argv) - 1) if argv[i : i + 2] == ["--tmpfs", "/tmp"])
        bound = next(i for i in range(len(argv) - 2) if argv[i : i + 3] == ["--ro-bind", str(toolkit), str(toolkit)])
        assert private_tmp < bound, "a toolkit folder under /tmp must be bound after the private /tmp"
        code = (
            f"import sys; sys.path.insert(0, {str(toolkit)!r}); import redteam_tool, xrbench; print(redteam_tool.VALUE)"
        )
        r = box.run([f"{sys.prefix}/bin/python", "-c", code], timeout_s=60)
        assert r.returncode == 0 and r.output.split() == ["42"], r.output
        # The promised `xrbench` command is on the PATH and runs (its own package, web deps found).
        r = box.run("xrbench xr --help >/dev/null && echo ok", timeout_s=60)
        assert r.returncode == 0 and r.output.split() == ["ok"], r.output
        # A sibling folder under /tmp that was not declared stays invisible.
        sibling = Path(tempfile.mkdtemp(prefix=f"xrbench-{MARKER}-other-", dir="/tmp"))
        try:
            r = box.run(f"ls {sibling}", timeout_s=30)
            assert r.returncode != 0
        finally:
            shutil.rmtree(sibling)
    finally:
        shutil.rmtree(toolkit)


# An SDK task's agent hunting for the unmodified SDK: every visible .ts/.js/.map file is hashed and
# compared with the pinned originals that differ from its workspace (the task's changed sources,
# the whole published build); then it builds its SDK and opens its app, which must still work.
SDK_HUNTER = r"""
import hashlib, json, os, subprocess, sys

cfg = json.loads(sys.argv[1])
forbidden = set(cfg["hashes"])
found = {"matches": [], "listed": [], "xrblocks_dir": os.environ.get("XRBLOCKS_DIR", "")}
for root, dirs, files in os.walk("/"):
    if root in ("/proc", "/sys", "/dev"):
        dirs[:] = []
        continue
    for name in files:
        if not name.endswith((".ts", ".js", ".mjs", ".map")):
            continue
        p = os.path.join(root, name)
        try:
            if os.path.getsize(p) > (16 << 20):
                continue
            with open(p, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
        except OSError:
            continue
        if digest in forbidden:
            found["matches"].append(p)
for path in cfg["paths"]:
    try:
        if os.listdir(path):
            found["listed"].append(path)
    except OSError:
        pass
for key, argv in cfg["run"].items():
    r = subprocess.run(argv, capture_output=True, text=True)
    found[key] = [r.returncode, (r.stdout + r.stderr)[-800:]]
with open("leaks.json", "w") as f:
    json.dump(found, f, indent=1)
"""


def _digests(folder: Path) -> dict[str, str]:
    """sha256 of the SDK's code files; tiny ones (`export {};`) are no evidence and match elsewhere."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in folder.rglob("*")
        if p.is_file() and p.suffix in (".ts", ".js", ".map") and p.stat().st_size >= 256
    }


def test_sdk_task_agent_cannot_read_the_pinned_sdk(tmp_path):
    from xrbench.genxr.sdk import pinned_sdk_dir
    from xrbench.genxr.task import load_task
    from xrbench.genxr.trial import AgentSpec, TrialSpec, trial_sandbox
    from xrbench.genxr.workspace import prepare_workspace

    pinned = pinned_sdk_dir()
    task = load_task(DEFAULT_TASKS_DIR / "sdk-repair-ray-drag-mirrored")
    ws = tmp_path / "trial" / "workspace"
    prepare_workspace(task, ws)
    own = _digests(ws / "sdk" / "src")
    changed = {h for rel, h in _digests(pinned / "src").items() if own.get(rel) != h}
    assert changed, "the task changes no SDK source: nothing for the hunter to find"
    forbidden = (changed | set(_digests(pinned / "build").values())) - set(own.values())
    cfg = {
        "hashes": sorted(forbidden),
        "paths": [str(pinned / "src"), str(pinned / "build")],
        "run": {
            "build": ["xrbench", "genxr", "build-sdk", "."],
            "open": ["xrbench", "xr", "open", ".", "--frames", "2", "--viewport", "320x240"],
        },
    }
    argv = [sys.executable, "-c", SDK_HUNTER, json.dumps(cfg)]
    spec = TrialSpec(task_dir=str(task.dir), agent=AgentSpec("command"), attempt=0, trial_dir=str(tmp_path / "trial"))
    box = trial_sandbox(spec, ws, task)
    r = box.run(argv, timeout_s=600)
    assert r.returncode == 0, r.output
    leaks = json.loads((ws / "leaks.json").read_text())
    assert leaks["matches"] == [], f"the agent found the unmodified SDK: {leaks['matches'][:5]}"
    assert leaks["listed"] == [], "the pinned SDK's code is visible"
    assert leaks["xrblocks_dir"] == str(ws / "sdk")
    # The agent can still do its job: build its SDK and run its app on it.
    assert leaks["build"][0] == 0, leaks["build"]
    assert leaks["open"][0] == 0, leaks["open"]

    # The same hunter in an app task's sandbox finds the pinned SDK (which app tasks may read):
    # the hunt itself works.
    app_task = load_task(DEFAULT_TASKS_DIR / "app-grab-box")
    app_ws = tmp_path / "app-trial" / "workspace"
    prepare_workspace(app_task, app_ws)
    cfg["run"] = {}
    spec = TrialSpec(
        task_dir=str(app_task.dir), agent=AgentSpec("command"), attempt=0, trial_dir=str(tmp_path / "app-trial")
    )
    r = trial_sandbox(spec, app_ws, app_task).run([sys.executable, "-c", SDK_HUNTER, json.dumps(cfg)], timeout_s=600)
    assert r.returncode == 0, r.output
    control = json.loads((app_ws / "leaks.json").read_text())
    assert control["matches"] and control["listed"] == cfg["paths"], control
