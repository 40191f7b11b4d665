"""The agent sandbox: run an agent's processes where they see only what they need.

Every process an agent starts (a `command` agent's whole CLI, each of mini-swe-agent's actions) runs
under bubblewrap (Debian package `bubblewrap`). Guarantees, each proven by a hostile agent in
`tests/redteam/test_agent_sandbox.py`:

- an ALLOWLIST of the host, never `/` (`xrbench.sandbox_common`): `/usr` and the `/bin`,
  `/sbin`, `/lib*` links, a few `/etc` files (loader cache, CA certificates, alternatives,
  fonts, local time; `resolv.conf` and `hosts` only with network), a synthetic `/etc/passwd`
  and `/etc/group`, a fresh `/proc` and `/dev`, a private `/tmp` and `/dev/shm`. Then, read-only,
  the toolkit's own code so that `xrbench xr open .` works inside: the venv (`sys.prefix`), the
  Python it was made from when that lies outside `/usr`, the `xrbench` package folder, the pinned
  `node_modules` (`$XRBLOCKS_DIR`: XR Blocks sources, types, skills) and the example apps
  (`$XRBENCH_EXAMPLES`), wherever the checkout lives (under /tmp too: deeper mounts are made after
  the private /tmp). Last, the trial workspace, read-write. Nothing else exists in there: no
  other checkout or copy of the tasks, no job folder, no home folder, `/root`, `/home` or `/work`;
- the folders an agent must not read replaced by empty ones where a bound folder would show them:
  the bundled tasks root inside the package (always), every tasks root and the job folder the job
  names, the repository's `.git`, and for SDK tasks the pinned SDK's code (`src/`, `build/`: the
  unmodified SDK, from which a repair is a diff away); single files in them can be made readable
  again (`readable`: the instruction file);
- an unprivileged user: as root, bubblewrap runs with only the capabilities to switch user, and
  the agent's command starts as uid `uid` (65534, `nobody`) through `setpriv` (no groups, no
  capabilities, `no_new_privs`) in a user namespace of its own; a trial's workspace
  (`own_workspace=True`, a folder made for it) is handed to that user before each command (files
  it writes stay readable by the verifier, which runs as root); a broad folder (/, /tmp, a home
  folder, the checkout) is never handed over.
  When not root, bubblewrap's own user namespace keeps the caller's uid;
- fresh PID, IPC, UTS, cgroup and network namespaces: no network unless the job allows it
  (`network=True` shares the host's; bubblewrap cannot filter by endpoint, so it is all or
  nothing: without it not even the host's loopback is reachable), no view of other processes;
- an environment of only PATH (the venv's `bin` first), HOME=/tmp/home, LANG, TERM, the
  toolkit's own variables and those the job passes by name: bubblewrap itself is started with
  just that, so `/proc/1/environ` shows nothing more either;
- limits: at most `max_processes` processes and threads (RLIMIT_NPROC, counted in the sandbox's
  own user namespace) and `max_memory_bytes` of data per process (RLIMIT_DATA; an address-space
  limit would stop V8 and Chromium, which reserve far more address space than they use);
- `--die-with-parent` and the toolkit's parent-death signal (`xrbench.procs`): killing xrbench
  kills the sandbox; a wall-clock bound per process kills the whole process group at the limit.

`XRBENCH_AGENT_SANDBOX=off` runs the same commands without bubblewrap (for machines that lack it;
the run's config records it): then none of the above holds but the cleared environment.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xrbench.errors import UserError
from xrbench.genxr.task import DEFAULT_TASKS_DIR
from xrbench.procs import kill_group, owned_tempdir, popen_group
from xrbench.sandbox_common import (
    drop_privileges,
    find_tool,
    layered_mounts,
    running_as_root,
    system_mounts,
    write_etc,
)

ENV_VAR = "XRBENCH_AGENT_SANDBOX"
PACKAGE_DIR = Path(__file__).resolve().parents[1]
REPO_ROOT = PACKAGE_DIR.parents[1]
REPO_GIT = REPO_ROOT / ".git"
OUTPUT_LIMIT = 20_000  # characters of output kept per process (head and tail)
AGENT_UID = AGENT_GID = 65534  # `nobody`: owns nothing on the host
HOME = "/tmp/home"
MAX_PROCESSES = 4096  # processes and threads: Chromium alone runs a few hundred threads
MAX_MEMORY_BYTES = 8 << 30  # data per process


class SandboxError(UserError):
    """The sandbox cannot run (bubblewrap missing or refused)."""


@dataclass(frozen=True)
class ProcessResult:
    """One finished process: exit status (None when killed at its limit), output, duration."""

    returncode: int | None
    output: str
    seconds: float
    timed_out: bool = False


def _clip(text: str, limit: int = OUTPUT_LIMIT) -> str:
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n... [{len(text) - limit} characters elided] ...\n{text[-half:]}"


def _under(path: Path, base: Path) -> bool:
    return path == base or base in path.parents


@functools.cache
def web_dir() -> Path | None:
    """The pinned `node_modules` the harness uses, or None when there is none."""
    try:
        from xrbench.xrtest.webdeps import find_web_deps

        return find_web_deps().node_modules.resolve()
    except Exception:  # no web deps: the verifier will say so as an infra error
        return None


def toolkit_paths() -> list[Path]:
    """The toolkit's own installed code, bound read-only so that `xrbench` runs in the sandbox.

    The venv (`sys.prefix`), the Python it was made from when outside /usr, the `xrbench`
    package folder (its tasks root is hidden), the pinned node_modules and the example apps.
    """
    paths = [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()]
    python = Path(sys.executable).resolve()  # the real interpreter the venv's python links to
    if not any(_under(python, p) for p in paths):
        paths.append(python.parent)
    paths.append(PACKAGE_DIR)
    node_modules = web_dir()
    if node_modules is not None:
        paths.append(node_modules)
    if (REPO_ROOT / "examples").is_dir():
        paths.append(REPO_ROOT / "examples")
    # /usr is there anyway; a folder that would expose a home folder or a whole top-level folder
    # (an interpreter installed right under / or /root) is never bound.
    home = Path.home().resolve()
    return [
        p for p in dict.fromkeys(paths) if not _under(p, Path("/usr")) and len(p.parts) >= 3 and not _under(home, p)
    ]


_etc_dirs: dict[tuple[int, int], Path] = {}


def _etc_dir(uid: int, gid: int) -> Path:
    """The synthetic passwd/group/hosts of this process's sandboxes (removed at exit, or as stale)."""
    if (uid, gid) not in _etc_dirs:
        if not _etc_dirs:
            atexit.register(lambda: [shutil.rmtree(d, ignore_errors=True) for d in _etc_dirs.values()])
        d = owned_tempdir("xrbench-agent-etc-")
        d.chmod(0o755)
        _etc_dirs[(uid, gid)] = write_etc(d, uid, gid)
    return _etc_dirs[(uid, gid)]


@dataclass
class Sandbox:
    """Runs commands for one trial (see the module docstring)."""

    workspace: Path
    hidden: Sequence[Path] = ()
    readable: Sequence[Path] = ()  # read-only inside even when under a hidden folder
    network: bool = False
    env_pass: Sequence[str] = ()
    extra_env: Mapping[str, str] = field(default_factory=dict)
    enabled: bool | None = None  # None: from $XRBENCH_AGENT_SANDBOX (default on)
    toolkit: Sequence[Path] = ()  # more read-only toolkit folders, besides `toolkit_paths()`
    uid: int = AGENT_UID  # who the agent runs as when xrbench runs as root
    gid: int = AGENT_GID
    max_processes: int | None = MAX_PROCESSES
    max_memory_bytes: int | None = MAX_MEMORY_BYTES
    # The workspace is a folder made for this trial: as root, hand it to `uid` before each
    # command (recursively!). Off by default; refused for broad folders even when on.
    own_workspace: bool = False

    def __post_init__(self) -> None:
        self.workspace = Path(self.workspace).resolve()
        if self.enabled is None:
            self.enabled = os.environ.get(ENV_VAR, "on").lower() not in ("off", "0", "false", "no")
        self._bwrap = find_tool("bwrap") if self.enabled else None
        if self.enabled and self._bwrap is None:
            raise SandboxError(
                "bubblewrap (bwrap) is not installed: `make chromium` or `apt-get install bubblewrap`, "
                f"or set {ENV_VAR}=off to run agents unconfined"
            )
        self._root = bool(self._bwrap) and running_as_root()
        tools = {"setpriv": self._root, "unshare": self._root, "prlimit": self._limited}
        self._tools: dict[str, str] = {}
        for name, needed in tools.items():
            found = find_tool(name) if needed else None
            if needed and found is None:
                raise SandboxError(f"the agent sandbox needs `{name}` (Debian: util-linux), or set {ENV_VAR}=off")
            if found:
                self._tools[name] = found

    @property
    def _limited(self) -> bool:
        return bool(self._bwrap) and (self.max_processes is not None or self.max_memory_bytes is not None)

    def describe(self) -> dict[str, object]:
        """What the sandbox does, for the run's config."""
        return {
            "bubblewrap": bool(self._bwrap),
            "network": self.network,
            "hidden": [str(p) for p in self.hidden_paths()],
            "env_pass": list(self.env_pass),
            "user": (self.uid if self._root else os.getuid()) if self._bwrap else None,
            "toolkit": [str(p) for p in self.toolkit_paths()] if self._bwrap else [],
            "max_processes": self.max_processes if self._bwrap else None,
            "max_memory_bytes": self.max_memory_bytes if self._bwrap else None,
        }

    def hidden_paths(self) -> list[Path]:
        paths = [Path(p).resolve() for p in self.hidden]
        paths += [DEFAULT_TASKS_DIR.resolve(), REPO_GIT]
        # Only existing folders can be covered; the workspace itself never is.
        return sorted({p for p in paths if p.is_dir() and p != self.workspace})

    def toolkit_paths(self) -> list[Path]:
        return list(dict.fromkeys([*toolkit_paths(), *(Path(p).resolve() for p in self.toolkit)]))

    def environment(self) -> dict[str, str]:
        path = os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin")
        venv_bin = str(Path(sys.prefix) / "bin")
        if venv_bin not in path.split(os.pathsep):
            path = f"{venv_bin}{os.pathsep}{path}"  # `xrbench` itself
        env = {"PATH": path, "HOME": HOME, "LANG": os.environ.get("LANG", "C.UTF-8"), "TERM": "dumb"}
        node_modules = web_dir()
        if node_modules is not None:
            env["XRBENCH_WEB_DIR"] = str(node_modules)  # the harness's web deps, found without package.json
        for name in self.env_pass:
            if name in os.environ:
                env[name] = os.environ[name]
        env.update(self.extra_env)
        return env

    def _inner(self) -> list[str]:
        """What runs inside before the command: the switch to the agent user, then the limits."""
        cmd: list[str] = []
        if self._root:
            cmd += drop_privileges(self.uid, self.gid, self._tools["setpriv"])
            # A user namespace of its own: the process limit then counts only this sandbox's
            # processes, not every process of `nobody` on the host (the browsers of verifiers).
            cmd += [self._tools["unshare"], "--user", f"--map-user={self.uid}", f"--map-group={self.gid}", "--"]
        if self._limited:
            cmd.append(self._tools["prlimit"])
            if self.max_processes is not None:
                cmd.append(f"--nproc={self.max_processes}")
            if self.max_memory_bytes is not None:
                cmd.append(f"--data={self.max_memory_bytes}")
            cmd.append("--")
        return cmd

    def wrap(self, argv: Sequence[str]) -> list[str]:
        """The full command line that runs `argv` in the sandbox (in the workspace)."""
        if not self._bwrap:
            return list(argv)
        cmd = [self._bwrap]
        if self._root:
            # No user namespace for bubblewrap itself: it mounts as root (it can reach folders
            # only root may cross, e.g. a Python under /root) and keeps only the capabilities
            # `setpriv` needs to switch to the agent user.
            cmd += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
            cmd += [] if self.network else ["--unshare-net"]
            cmd += ["--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
            cmd += ["--cap-add", "CAP_SETPCAP"]
        else:
            cmd += ["--unshare-all"] + (["--share-net"] if self.network else [])
            cmd += ["--cap-drop", "ALL"]
        cmd += ["--die-with-parent", "--new-session", "--hostname", "xrbench-agent"]
        uid, gid = (self.uid, self.gid) if self._root else (os.getuid(), os.getgid())
        cmd += system_mounts(network=self.network, etc_dir=_etc_dir(uid, gid))
        cmd += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--tmpfs", "/dev/shm"]
        cmd += ["--perms", "1777", "--tmpfs", "/tmp", "--perms", "0777", "--dir", HOME]
        binds = [(p, False) for p in self.toolkit_paths() if p.exists()]
        binds += [(Path(p).resolve(), False) for p in self.readable if Path(p).exists()]
        binds.append((self.workspace, True))
        cmd += layered_mounts(binds, self.hidden_paths(), existing=[Path("/tmp"), Path(HOME)])
        cmd += ["--clearenv"]
        for key, value in self.environment().items():
            cmd += ["--setenv", key, value]
        cmd += ["--chdir", str(self.workspace), "--", *self._inner(), *argv]
        return cmd

    def _check_own_workspace(self) -> None:
        """Refuse to hand over a folder that is not plainly a workspace of its own.

        Handing over changes the owner of every file below the workspace, so a broad folder
        (/, /tmp, a home folder, the checkout, anything holding the toolkit) is never accepted.
        """
        ws = self.workspace
        broad = {Path("/"), Path("/tmp"), Path("/var/tmp"), Path(tempfile.gettempdir()).resolve()}
        broad.add(Path.home().resolve())
        protected = [*broad, REPO_ROOT, *toolkit_paths()]
        if len(ws.parts) < 3 or ws in broad or any(_under(p, ws) for p in protected):
            raise SandboxError(f"{ws}: too broad to hand to the sandbox user; give each trial a folder of its own")

    def _hand_over_workspace(self) -> None:
        """As root: give the workspace to the agent user (links themselves, never their targets).

        Only with `own_workspace` (a folder made for this trial), never below another file system.
        """
        self._check_own_workspace()
        uid, gid = self.uid, self.gid
        device = self.workspace.stat().st_dev
        os.chown(self.workspace, uid, gid)
        for root, dirs, files in os.walk(self.workspace):
            for name in list(dirs):
                if os.lstat(os.path.join(root, name)).st_dev != device:
                    dirs.remove(name)  # a mount inside: not ours to hand over
            for name in dirs + files:
                os.chown(os.path.join(root, name), uid, gid, follow_symlinks=False)

    def run(self, argv: Sequence[str] | str, *, timeout_s: float, stdin: str | None = None) -> ProcessResult:
        """Run `argv` (a string runs through `bash -c`) and wait at most `timeout_s` seconds."""
        args = ["bash", "-c", argv] if isinstance(argv, str) else list(argv)
        if self._root and self.own_workspace:
            self._hand_over_workspace()
        # bubblewrap itself gets only the sandbox's environment: its own process is visible inside.
        env = self.environment() if self._bwrap else {**self.environment(), "HOME": str(self.workspace)}
        t0 = time.perf_counter()
        timed_out = False
        with popen_group(
            self.wrap(args),
            cwd=self.workspace,
            env=env,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        ) as proc:
            try:
                out, _ = proc.communicate(stdin.encode() if stdin is not None else None, timeout=timeout_s)
            except subprocess.TimeoutExpired:
                timed_out = True
                kill_group(proc)
                out, _ = proc.communicate()
        text = _clip(out.decode("utf-8", errors="replace"))
        return ProcessResult(None if timed_out else proc.returncode, text, time.perf_counter() - t0, timed_out)
