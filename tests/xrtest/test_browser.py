"""Finding and launching Chromium (no page is loaded here)."""

from __future__ import annotations

import pytest

from xrbench.xrtest import browser as browser_mod
from xrbench.xrtest.browser import GL_ARGS, find_chromium, launch_args, launch_browser
from xrbench.xrtest.errors import BrowserLaunchError


def test_flags_are_network_quiet_and_software_gl():
    args = launch_args(sandbox=True)
    for flag in ("--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"):
        assert flag in args
    assert set(GL_ARGS) <= set(args)
    assert "--use-angle=swiftshader" in args
    assert "--no-sandbox" not in args
    assert "--no-sandbox" in launch_args(sandbox=False)


def test_sandbox_is_dropped_only_for_root(monkeypatch):
    monkeypatch.setattr(browser_mod, "running_as_root", lambda: False)
    assert "--no-sandbox" not in launch_args()
    monkeypatch.setattr(browser_mod, "running_as_root", lambda: True)
    assert "--no-sandbox" in launch_args()


def test_env_var_must_be_an_executable(tmp_path, monkeypatch):
    monkeypatch.setenv("XRBENCH_CHROMIUM", str(tmp_path / "missing-chromium"))
    with pytest.raises(BrowserLaunchError, match="not an executable"):
        find_chromium()


def test_system_chromium_is_found(monkeypatch):
    monkeypatch.delenv("XRBENCH_CHROMIUM", raising=False)
    assert find_chromium().name.startswith("chromium")


def test_a_browser_that_does_not_start_is_a_typed_error(tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\necho 'no display, no luck' >&2\nexit 3\n")
    fake.chmod(0o755)
    with pytest.raises(BrowserLaunchError, match="failed to launch"):
        launch_browser(executable=fake)
