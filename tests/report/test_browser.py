"""The rendered reports in a real browser: every page loads from file:// with no console error, no
failed request, no request leaving file://, every image decoded and every video loaded."""

from __future__ import annotations

import pytest

from xrbench.genxr import design_score as ds
from xrbench.report import render_genxr_job, render_site
from xrbench.report.check import broken_links, browser_problems, pages

from .test_job_report import StubVLM

pytestmark = pytest.mark.xr


def test_job_report_in_chromium(job, report_browser):
    ds.score_job(job, StubVLM(), frames=2)
    render_genxr_job(job)
    out = job / "report"
    assert broken_links(out) == []
    assert browser_problems(report_browser, pages(out)) == []


def test_run_report_in_chromium(run_dir, report_browser):
    render_site(run_dir)
    out = run_dir / "report"
    found = pages(out)
    assert len(found) >= 4 + 2 + 5  # overview, 3 benchmark pages, 2 job overviews, their trials
    assert broken_links(out) == []
    assert browser_problems(report_browser, found) == []


def test_the_check_catches_what_it_should(tmp_path, report_browser):
    page = tmp_path / "bad.html"
    page.write_text(
        '<!doctype html><html><head><meta charset="utf-8"></head><body>'
        '<img src="missing.png"><video src="nothing.webm"></video>'
        '<img src="https://example.invalid/x.png"><script>console.error("boom")</script></body></html>'
    )
    problems = "\n".join(browser_problems(report_browser, [page]))
    assert "console error: boom" in problems
    assert "left file://: https://example.invalid/x.png" in problems
    assert "missing.png" in problems and "nothing.webm" in problems
    assert any("missing.png" in p for p in broken_links([page]))


def test_report_cli_saves_a_screenshot_of_the_overview(run_dir, tmp_path):
    import struct

    from typer.testing import CliRunner

    from xrbench.cli.main import app

    png = tmp_path / "overview.png"
    r = CliRunner().invoke(app, ["report", str(run_dir), "--screenshot", str(png)])
    assert r.exit_code == 0, r.output
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1200, 900)
