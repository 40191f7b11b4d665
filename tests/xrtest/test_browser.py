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


def test_dropped_features_are_those_the_last_list_lacks():
    argv = ["chromium", "--disable-features=A,B", "--x", "--disable-features=B,C"]
    assert browser_mod.dropped_features(argv) == ["A"]
    assert browser_mod.dropped_features(["chromium", "--disable-features=A"]) == []
    assert browser_mod.dropped_features(["chromium", "--disable-features=A", "--disable-features=A,B"]) == []


def test_the_browser_keeps_playwrights_features_and_builds_no_browser_ui(monkeypatch):
    # Our list without one of Playwright's: the launch must notice and relaunch with it.
    monkeypatch.setattr(browser_mod, "PLAYWRIGHT_DISABLED_FEATURES", browser_mod.PLAYWRIGHT_DISABLED_FEATURES[1:])
    monkeypatch.setattr(browser_mod, "_learned_features", [])
    handle = launch_browser()
    try:
        assert browser_mod.PLAYWRIGHT_DISABLED_FEATURES[0] != "AvoidUnnecessaryBeforeUnloadCheckSync"
        assert browser_mod._learned_features == ["AvoidUnnecessaryBeforeUnloadCheckSync"]
        lines = browser_mod.browser_command_lines()
        assert lines and all(browser_mod.dropped_features(argv) == [] for argv in lines)
        context = handle.browser.new_context()
        context.new_page().goto("about:blank")
        context.new_page()
        targets = handle.browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
        # Each page is a window; Chromium would build its omnibox popup as a WebUI page per window.
        assert [t["url"] for t in targets if t["type"] != "page"] == []
        context.close()
    finally:
        handle.close()
