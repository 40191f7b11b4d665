"""Confining the browser: planning, the bubblewrap wrapper, and hostile pages in the real browser."""

from __future__ import annotations

import os
import subprocess
import tempfile
import warnings
from pathlib import Path

import pytest

from xrbench.xrtest import sandbox
from xrbench.xrtest.browser import find_chromium, running_as_root
from xrbench.xrtest.errors import BrowserLaunchError
from xrbench.xrtest.sandbox import SandboxWarning, plan_sandbox

from .conftest import REPO

CHROMIUM = Path("/usr/bin/chromium")
HOST_PASSWD = Path("/etc/passwd").read_text()


def _bwrap_works() -> bool:
    return running_as_root() and sandbox.probe_bwrap(True) is None


needs_bwrap = pytest.mark.skipif(not _bwrap_works(), reason="needs root and a working bubblewrap")


# --- planning ------------------------------------------------------------------------------------


def test_not_root_uses_bubblewrap_as_the_user_or_warns_of_the_shared_network(monkeypatch):
    monkeypatch.setattr(sandbox, "_warned", set())
    monkeypatch.setattr(sandbox, "probe_bwrap", lambda drop_privileges: None)
    plan = plan_sandbox(CHROMIUM, mode="auto", root=False)
    assert (plan.kind, plan.chromium_sandbox) == ("bwrap", True)
    script = plan.executable.read_text()
    assert "--unshare-all" in script and "--share-net" not in script and "setpriv" not in script
    monkeypatch.setattr(sandbox, "probe_bwrap", lambda drop_privileges: "no user namespaces")
    with pytest.warns(SandboxWarning, match="host's network"):
        plan = plan_sandbox(CHROMIUM, mode="auto", root=False)
    assert (plan.kind, plan.executable, plan.chromium_sandbox) == ("chromium", CHROMIUM, True)


def test_off_as_root_is_loud(monkeypatch):
    monkeypatch.setattr(sandbox, "_warned", set())
    monkeypatch.setenv("XRBENCH_XR_SANDBOX", "off")
    with pytest.warns(SandboxWarning, match="UNSANDBOXED BROWSER"):
        plan = plan_sandbox(CHROMIUM, root=True)
    assert (plan.kind, plan.chromium_sandbox) == ("none", False)


def test_off_asked_for_by_the_caller_for_trusted_pages_is_quiet(monkeypatch, recwarn, capsys):
    monkeypatch.setattr(sandbox, "_warned", set())
    plan = plan_sandbox(CHROMIUM, mode="off", root=True)  # e.g. the report check opening file:// pages
    assert (plan.kind, plan.chromium_sandbox) == ("none", False)
    assert not [w for w in recwarn if issubclass(w.category, SandboxWarning)]
    assert "UNSANDBOXED" not in capsys.readouterr().err


def test_missing_bwrap_falls_back_loudly_or_fails_when_required(monkeypatch, capsys):
    monkeypatch.setattr(sandbox, "_warned", set())
    monkeypatch.setattr(sandbox, "find_bwrap", lambda: None)
    sandbox.probe_bwrap.cache_clear()
    try:
        with pytest.warns(SandboxWarning, match="bubblewrap is not installed"):
            plan = plan_sandbox(CHROMIUM, mode="auto", root=True)
        assert plan.kind == "none" and not plan.chromium_sandbox
        assert "UNSANDBOXED BROWSER" in capsys.readouterr().err
        with pytest.raises(BrowserLaunchError, match="XRBENCH_XR_SANDBOX=bwrap but bubblewrap is not installed"):
            plan_sandbox(CHROMIUM, mode="bwrap", root=True)
    finally:
        sandbox.probe_bwrap.cache_clear()


def test_unknown_mode_is_an_error(monkeypatch):
    monkeypatch.setenv("XRBENCH_XR_SANDBOX", "maybe")
    with pytest.raises(BrowserLaunchError, match="not one of auto, bwrap, off"):
        plan_sandbox(CHROMIUM)


# --- the wrapper, without a browser ----------------------------------------------------------------


@needs_bwrap
def test_wrapper_hides_the_host_and_drops_privileges(tmp_path):
    """Run the wrapper on a probe script instead of Chromium: what does a process inside see?"""
    with tempfile.TemporaryDirectory() as d:
        # Readable by `nobody` (bubblewrap binds it read-only, as it would a Chromium outside /usr).
        os.chmod(d, 0o755)
        probe = Path(d) / "probe"
        probe.write_text(
            "#!/bin/sh\n"
            'out="${1#--user-data-dir=}/out"\n'
            '{ id -u; ls /; cat /etc/passwd; test -e "$2" && echo REPO-VISIBLE; env | sort;\n'
            '  touch /usr/x 2>/dev/null && echo USR-WRITABLE; grep -o "^ *[a-z0-9]*:" /proc/net/dev | tr -d " ";\n'
            '  ls /proc | grep -c "^[0-9]"; } > "$out" 2>&1\n'
        )
        probe.chmod(0o755)
        wrapper = sandbox.write_wrapper(probe, bwrap=sandbox.find_bwrap(), drop_privileges=True)
        profile = Path(tempfile.mkdtemp(prefix="xrtest-profile-"))
        try:
            env = {**os.environ, "XRBENCH_TEST_SECRET": "s3cret"}
            proc = subprocess.run(
                [str(wrapper), f"--user-data-dir={profile}", str(REPO / "pyproject.toml")],
                env=env,
                capture_output=True,
                text=True,
                timeout=30,
            )
            assert proc.returncode == 0, proc.stderr
            out = (profile / "out").read_text()
        finally:
            subprocess.run(["rm", "-rf", str(profile)], check=False)
    lines = out.splitlines()
    assert lines[0] == "65534"  # nobody, not root
    assert "work" not in lines and "root" not in lines and "home" not in lines
    assert "nobody:x:65534" in out and out.count(":x:") == 2  # the synthetic passwd, not the host's
    assert "REPO-VISIBLE" not in out and "USR-WRITABLE" not in out
    assert "s3cret" not in out and "HOME=/tmp" in out  # a cleared environment
    # A network namespace of its own: its own loopback, no other interface.
    assert [line for line in lines if line.endswith(":") and not line.startswith("/")] == ["lo:"]
    # Its own PID namespace: bubblewrap's init, the probe's shell and pipeline; none of the host's.
    assert int(lines[-1]) <= 6 < sum(p.isdigit() for p in os.listdir("/proc"))


# --- the real browser ----------------------------------------------------------------------------------


@pytest.mark.xr
def test_browser_is_sandboxed_and_sees_no_host_files(xr_browser):
    plan = plan_sandbox(find_chromium(), root=running_as_root())
    if plan.kind == "none":
        pytest.skip(f"no sandbox here: {plan.reason}")
    context = xr_browser.new_context()
    try:
        page = context.new_page()
        page.goto("chrome://sandbox")
        assert "You are adequately sandboxed" in page.inner_text("body")
        if plan.kind != "bwrap":
            return
        # The browser process itself (not just the page) cannot see the host's files.
        page.goto("file:///etc/passwd")
        seen = page.inner_text("body")
        assert "nobody:x:65534" in seen and seen.strip() != HOST_PASSWD.strip()
        for hidden in (REPO / "pyproject.toml", REPO, Path.home()):
            with pytest.raises(Exception, match="ERR_FILE_NOT_FOUND"):
                page.goto(f"file://{hidden}")
    finally:
        context.close()


@pytest.mark.xr
def test_hostile_page_cannot_read_files_or_send_them_away(open_session, test_apps):
    s = open_session(test_apps / "sandbox_probe", scene="empty", url_params={"repo": str(REPO)})
    s.evaluate("() => { window.__attemptsDone.then(() => { window.__settled = true; }); }")
    # The iframe attempt gives up on the page's clock, virtual once the session is paused.
    for _ in range(100):
        if s.evaluate("() => window.__settled === true"):
            break
        s.step(6)
        s.page.wait_for_timeout(50)
    attempts = s.evaluate("() => window.__attempts")
    for name in ("passwd", "repo", "passwdFrame", "exfiltrate"):
        assert attempts[name]["ok"] is False, (name, attempts[name])
    text = repr(attempts)
    assert "root:x:0:0" not in text and "[project]" not in text
    assert any(r.url.startswith("https://example.com/exfil") and r.action == "aborted" for r in s.remote_requests)
    assert any(f.url.startswith("https://example.com/exfil") for f in s.failed_requests)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s.step(1)  # the app still runs normally
