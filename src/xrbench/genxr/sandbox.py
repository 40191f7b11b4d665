"""The agent sandbox: run an agent's processes with only its trial workspace writable.

Every process an agent starts (a `command` agent's whole CLI, each of `mini`'s bash actions) runs
under bubblewrap (Debian package `bubblewrap`):

- the host file system read-only (`--ro-bind / /`), so compilers, node, the project's venv and
  the pinned XR Blocks sources are there to use; the trial workspace is the one writable place
  besides a private `/tmp`;
- the folders an agent must not read replaced by empty ones: every tasks root (tests and
  reference solutions), the job folder (other trials and verifier output) and the repository's
  `.git` (solutions in its history); single files in them can be made readable again (the
  instruction file);
- fresh PID, IPC, UTS, cgroup, user and network namespaces: no network unless the job allows it
  (`network=True` shares the host's; bubblewrap cannot filter by endpoint, so it is all or
  nothing), no view of other processes;
- all capabilities dropped, a cleared environment (only PATH, HOME=/tmp/home, LANG and the
  variables the job passes through by name), `--die-with-parent`, `--new-session`;
- a wall-clock bound per process: at the limit the whole process group is killed.

`XRBENCH_AGENT_SANDBOX=off` runs the same commands without bubblewrap (for machines that lack it;
the run's config records it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xrbench.errors import UserError
from xrbench.procs import kill_group, popen_group

ENV_VAR = "XRBENCH_AGENT_SANDBOX"
REPO_GIT = Path(__file__).resolve().parents[3] / ".git"
OUTPUT_LIMIT = 20_000  # characters of output kept per process (head and tail)


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

    def __post_init__(self) -> None:
        self.workspace = Path(self.workspace).resolve()
        if self.enabled is None:
            self.enabled = os.environ.get(ENV_VAR, "on").lower() not in ("off", "0", "false", "no")
        self._bwrap = shutil.which("bwrap") if self.enabled else None
        if self.enabled and self._bwrap is None:
            raise SandboxError(
                "bubblewrap (bwrap) is not installed: `make chromium` or `apt-get install bubblewrap`, "
                f"or set {ENV_VAR}=off to run agents unconfined"
            )

    def describe(self) -> dict[str, object]:
        """What the sandbox does, for the run's config."""
        return {
            "bubblewrap": bool(self._bwrap),
            "network": self.network,
            "hidden": [str(p) for p in self.hidden_paths()],
            "env_pass": list(self.env_pass),
        }

    def hidden_paths(self) -> list[Path]:
        paths = [Path(p).resolve() for p in self.hidden]
        if REPO_GIT.is_dir():
            paths.append(REPO_GIT)
        # Only existing folders can be covered; the workspace itself never is.
        return sorted({p for p in paths if p.is_dir() and p != self.workspace})

    def environment(self) -> dict[str, str]:
        env = {
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "HOME": "/tmp/home",
            "LANG": os.environ.get("LANG", "C.UTF-8"),
            "TERM": "dumb",
        }
        for name in self.env_pass:
            if name in os.environ:
                env[name] = os.environ[name]
        env.update(self.extra_env)
        return env

    def wrap(self, argv: Sequence[str]) -> list[str]:
        """The full command line that runs `argv` in the sandbox (in the workspace)."""
        if not self._bwrap:
            return list(argv)
        cmd = [self._bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
        for path in self.hidden_paths():
            cmd += ["--tmpfs", str(path)]
        for path in self.readable:
            cmd += ["--ro-bind", str(Path(path).resolve()), str(Path(path).resolve())]
        cmd += ["--bind", str(self.workspace), str(self.workspace)]
        cmd += ["--unshare-all"] + (["--share-net"] if self.network else [])
        cmd += ["--die-with-parent", "--new-session", "--cap-drop", "ALL", "--clearenv"]
        for key, value in self.environment().items():
            cmd += ["--setenv", key, value]
        cmd += ["--chdir", str(self.workspace), "--", *argv]
        return cmd

    def run(self, argv: Sequence[str] | str, *, timeout_s: float, stdin: str | None = None) -> ProcessResult:
        """Run `argv` (a string runs through `bash -c`) and wait at most `timeout_s` seconds."""
        args = ["bash", "-c", argv] if isinstance(argv, str) else list(argv)
        env = None if self._bwrap else {**self.environment(), "HOME": str(self.workspace)}
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
