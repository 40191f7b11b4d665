"""Confine the browser that runs untrusted candidate apps.

Candidate apps are untrusted code. Chromium confines its renderers with its own sandbox, but that
sandbox refuses to start when Chromium runs as root (as in containers and CI), where the only
option Chromium offers is `--no-sandbox`. So, as root, the whole browser runs inside bubblewrap
(`bwrap`, Debian package `bubblewrap`) instead:

- as the unprivileged user `nobody` (65534), with no capabilities and `no_new_privs`, in fresh
  user, PID, IPC, UTS and cgroup namespaces, so it cannot see or signal other processes;
- in a mount namespace where only what Chromium needs exists: `/usr` (and the `/lib*`, `/bin`
  links) read-only, a few files of `/etc` (fonts, the dynamic loader cache, Chromium's launcher
  settings), a synthetic `/etc/passwd`, a fresh `/proc`, a minimal `/dev`, a private `/dev/shm`
  and `/tmp`, and the one profile directory Playwright created for this browser. The repository,
  home directories, workspaces and the rest of the host file system do not exist in there; the
  app is served over HTTP by the harness, so Chromium needs none of its files;
- with a cleared environment (no API keys or tokens of the test process reach the browser);
- in a network namespace of its own, whose only interface is its own loopback: nothing the
  page, a Worker, WebRTC or the browser itself opens can reach the host's loopback services or
  any other machine. The app is served through Playwright's request routing (`server.py`), which
  goes over the same pipe as the rest of the automation, so the browser needs no network;
- with Chromium's own sandbox still on inside (it works there: Chromium sees an ordinary user
  that may create user namespaces), so a renderer is confined twice.

Playwright talks to Chromium over a pipe (`--remote-debugging-pipe`, file descriptors 3 and 4),
which bubblewrap passes through untouched, so Playwright drives the wrapped browser as usual: the
wrapper is a small shell script passed as Playwright's `executable_path`.

When not root, bubblewrap runs as the calling user (it needs no privilege for this), for the
network namespace above. `$XRBENCH_XR_SANDBOX` chooses: `auto` (the default: bubblewrap, as
`nobody` when root), `bwrap` (always bubblewrap; an error when it cannot work) or `off` (no outer
sandbox; as root that means `--no-sandbox`, with a warning). Under `auto`, when bubblewrap is
missing or cannot create its namespaces (e.g. a container whose seccomp profile forbids user
namespaces), the browser starts without it and a loud `SandboxWarning` says why: as root with
`--no-sandbox`, otherwise with Chromium's own sandbox but on the host's network, where request
routing (which sees Workers' requests too) and the host-resolver rules are all that keep an app
in.
"""

from __future__ import annotations

import atexit
import functools
import os
import shlex
import shutil
import subprocess
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

from xrbench import sandbox_common
from xrbench.procs import owned_tempdir
from xrbench.xrtest.errors import BrowserLaunchError

ENV_VAR = "XRBENCH_XR_SANDBOX"
MODES = ("auto", "bwrap", "off")
# The uid/gid the browser runs as when the harness is root: `nobody` owns nothing on the host.
SANDBOX_UID = 65534
SANDBOX_GID = 65534

# Placeholder replaced by the shell variable that holds Playwright's --user-data-dir.
_PROFILE = "\0profile\0"


class SandboxWarning(UserWarning):
    """The browser runs without the outer sandbox it should have had (see `SandboxPlan.reason`)."""


@dataclass(frozen=True)
class SandboxPlan:
    """How one Chromium executable is confined.

    `kind`: "bwrap" (bubblewrap around the browser), "chromium" (Chromium's own sandbox only) or
    "none". `executable` is what Playwright launches (the wrapper script for bwrap);
    `chromium_sandbox` whether Chromium's own sandbox stays on; `reason` says why, in words.
    """

    kind: str
    executable: Path
    chromium: Path
    chromium_sandbox: bool
    reason: str

    def describe(self) -> str:
        """One line for logs and the pytest header."""
        inner = "on" if self.chromium_sandbox else "off"
        return f"{self.kind} (Chromium sandbox {inner}): {self.reason}"


def running_as_root() -> bool:
    """Whether this process has uid 0 (Chromium's own sandbox cannot run then)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def sandbox_mode() -> str:
    """`$XRBENCH_XR_SANDBOX`, checked (default `auto`)."""
    mode = os.environ.get(ENV_VAR, "auto").strip().lower() or "auto"
    if mode not in MODES:
        raise BrowserLaunchError(f"${ENV_VAR}={mode!r} is not one of {', '.join(MODES)}")
    return mode


def find_bwrap() -> Path | None:
    """The bubblewrap executable, or None."""
    found = shutil.which("bwrap")
    return Path(found) if found else None


def bwrap_command(target: Path, *, bwrap: Path, drop_privileges: bool, passwd_dir: Path) -> list[str]:
    """The command line that runs `target` confined; `_PROFILE` stands for the profile folder.

    `drop_privileges` (when root): switch to `nobody` with `setpriv` first, so that bubblewrap
    creates an unprivileged user namespace and the browser holds no host privileges at all.
    """
    setpriv = shutil.which("setpriv") or "/usr/bin/setpriv"
    cmd = sandbox_common.drop_privileges(SANDBOX_UID, SANDBOX_GID, setpriv) if drop_privileges else []
    cmd += [
        str(bwrap),
        # Every namespace, the network's included: the browser gets a loopback of its own and no
        # other interface, and the harness serves the app through request routing.
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "xrtest-sandbox",
        *sandbox_common.system_mounts(network=False, etc_dir=passwd_dir),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/dev/shm",
        "--tmpfs",
        "/tmp",
    ]
    real = target.resolve()
    if not str(real).startswith("/usr/"):
        # A browser outside /usr (e.g. one Playwright installed): its own folder, read-only.
        cmd += ["--ro-bind", str(real.parent), str(real.parent)]
    cmd += ["--bind", _PROFILE, _PROFILE, "--chdir", "/tmp", "--clearenv"]
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8"}
    if os.environ.get("TZ"):
        env["TZ"] = os.environ["TZ"]
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    return [*cmd, "--", str(target)]


def _render_script(cmd: list[str], *, chown_profile: bool) -> str:
    """A POSIX shell wrapper: find Playwright's --user-data-dir, expose just that, exec `cmd`."""
    quoted = " ".join('"$profile"' if part == _PROFILE else shlex.quote(part) for part in cmd)
    chown = f'chown {SANDBOX_UID}:{SANDBOX_GID} "$profile" || exit 97\n' if chown_profile else ""
    return (
        "#!/bin/sh\n"
        "# Generated by xrbench.xrtest.sandbox: runs Chromium inside bubblewrap (see that module).\n"
        "profile=\n"
        'for arg in "$@"; do\n'
        '  case "$arg" in --user-data-dir=*) profile=${arg#--user-data-dir=} ;; esac\n'
        "done\n"
        'if [ -z "$profile" ] || [ ! -d "$profile" ]; then\n'
        '  echo "xrbench sandbox: no --user-data-dir folder among the arguments" >&2\n'
        "  exit 97\n"
        "fi\n"
        # The profile is the only host folder the browser may write to, so it must own it.
        f"{chown}"
        f'exec {quoted} "$@"\n'
    )


_wrapper_dirs: list[Path] = []


def _cleanup_wrappers() -> None:
    for d in _wrapper_dirs:
        shutil.rmtree(d, ignore_errors=True)


def _private_dir() -> Path:
    # World-readable (bubblewrap, running as nobody, must read the passwd files), writable by us only.
    d = owned_tempdir("xrbench-sandbox-")
    d.chmod(0o755)
    if not _wrapper_dirs:
        atexit.register(_cleanup_wrappers)
    _wrapper_dirs.append(d)
    sandbox_common.write_etc(d, SANDBOX_UID, SANDBOX_GID)
    return d


def write_wrapper(chromium: Path, *, bwrap: Path, drop_privileges: bool) -> Path:
    """Write the wrapper script for `chromium` (in a fresh temp folder removed at exit); its path."""
    d = _private_dir()
    cmd = bwrap_command(chromium, bwrap=bwrap, drop_privileges=drop_privileges, passwd_dir=d)
    script = d / "chromium-bwrap"
    script.write_text(_render_script(cmd, chown_profile=drop_privileges), encoding="utf-8")
    script.chmod(0o755)
    return script


@functools.cache
def probe_bwrap(drop_privileges: bool) -> str | None:
    """Run a trivial command in the same sandbox; None when it works, else why not (cached)."""
    bwrap = find_bwrap()
    if bwrap is None:
        return "bubblewrap is not installed (Debian: apt-get install bubblewrap)"
    if drop_privileges and not shutil.which("setpriv"):
        return "setpriv (util-linux) is not installed"
    d = _private_dir()
    profile = d / "profile"
    profile.mkdir()
    if drop_privileges:
        os.chown(profile, SANDBOX_UID, SANDBOX_GID)
    cmd = bwrap_command(Path("/bin/sh"), bwrap=bwrap, drop_privileges=drop_privileges, passwd_dir=d)
    cmd = [str(profile) if part == _PROFILE else part for part in cmd]
    # The probe also checks that the profile folder is writable from inside, as Chromium needs.
    try:
        proc = subprocess.run(
            [*cmd, "-c", f"touch {shlex.quote(str(profile / 'ok'))}"], capture_output=True, text=True, timeout=20
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"bubblewrap did not run: {e}"
    if proc.returncode != 0:
        why = (proc.stderr or proc.stdout).strip().splitlines()
        return f"bubblewrap failed (exit {proc.returncode}): {why[-1] if why else 'no message'}"
    return None


def plan_sandbox(chromium: Path, *, mode: str | None = None, root: bool | None = None) -> SandboxPlan:
    """Decide how to confine `chromium` (see the module docstring); may write the wrapper script.

    Raises `BrowserLaunchError` when mode `bwrap` is asked for and bubblewrap cannot work.
    Warns (`SandboxWarning`, also printed to stderr) when `auto` must fall back to no sandbox, or
    when `$XRBENCH_XR_SANDBOX=off` turns it off as root; a caller's own `mode="off"` (for pages it
    trusts) does not warn.
    """
    from_caller = mode is not None
    mode = mode or sandbox_mode()
    root = running_as_root() if root is None else root
    if mode == "off":
        if root:
            if from_caller:  # the caller opens its own trusted pages (a report), not an app
                return SandboxPlan("none", chromium, chromium, False, "off for trusted pages; --no-sandbox as root")
            reason = f"disabled by ${ENV_VAR}=off; running as root, so Chromium runs with --no-sandbox"
            _warn(reason)
            return SandboxPlan("none", chromium, chromium, False, reason)
        return SandboxPlan("chromium", chromium, chromium, True, f"${ENV_VAR}=off; not root")
    problem = probe_bwrap(root)
    if problem is None:
        bwrap = find_bwrap()
        assert bwrap is not None  # the probe found it
        wrapper = write_wrapper(chromium, bwrap=bwrap, drop_privileges=root)
        who = f"uid {SANDBOX_UID}" if root else f"uid {os.getuid()}"
        return SandboxPlan("bwrap", wrapper, chromium, True, f"bubblewrap as {who}, host files and network hidden")
    if mode == "bwrap":
        raise BrowserLaunchError(f"${ENV_VAR}=bwrap but {problem}")
    if not root:
        reason = f"without bubblewrap: {problem}; Chromium's own sandbox, on the host's network"
        _warn(reason, "Untrusted apps then share this machine's network, loopback services included.")
        return SandboxPlan("chromium", chromium, chromium, True, reason)
    reason = f"running as root without bubblewrap: {problem}; Chromium runs with --no-sandbox"
    _warn(reason)
    return SandboxPlan("none", chromium, chromium, False, reason)


_warned: set[str] = set()


def _warn(reason: str, consequence: str = "Untrusted apps can then read this machine's files.") -> None:
    """A loud warning, once per reason: untrusted apps then run in a browser confined less."""
    if reason in _warned:
        return
    _warned.add(reason)
    text = f"xrtest: UNSANDBOXED BROWSER: {reason}. {consequence}"
    print(f"WARNING: {text}", file=sys.stderr, flush=True)
    warnings.warn(text, SandboxWarning, stacklevel=3)
