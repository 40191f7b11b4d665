"""The report of an `xrbench run` directory: overview cards, a page per benchmark, job reports,
skipped parts; every part may be missing."""

from __future__ import annotations

import json

import pytest
from job_fakes import write_json

from xrbench.errors import UserError
from xrbench.report import render_site
from xrbench.report.check import broken_links, external_references, pages
from xrbench.report.site import benchmark_of, is_run_dir

from .conftest import NO_PROVIDER


def test_full_run_report(run_dir):
    index = render_site(run_dir)
    out = run_dir / "report"
    assert index == out / "index.html"
    rel = {p.relative_to(out).as_posix() for p in pages(out)}
    assert {"index.html", "context.html", "genxr.html", "guidance.html"} <= rel
    assert "genxr/20260101-120100-mini/index.html" in rel and "genxr/20260101-120200-oracle/index.html" in rel
    assert "genxr/20260101-120100-mini/trials/app-counter__mini__1.html" in rel
    assert broken_links(out) == [] and external_references(out) == []

    html = index.read_text()
    for page in ("context.html", "genxr.html", "guidance.html"):
        assert f'href="{page}"' in html
    assert "verifier accuracy 0.750" in html and "not run" not in html
    assert 'href="genxr/20260101-120100-mini/index.html"' in html  # the agents' Table 3, linked
    # Skipped parts: under their benchmark's card, and all of them in the list.
    assert "genxr.design_score: " + NO_PROVIDER in html and "xrtest.vlm" in html
    summary_md = (out / "summary.md").read_text()
    assert "## ContextXR" in summary_md and "- genxr.design_score: no provider configured" in summary_md


def test_context_page_shows_the_paper_tables_and_figures(run_dir):
    render_site(run_dir)
    html = (run_dir / "report" / "context.html").read_text()
    assert "Table 1: Initial facet suggestion" in html and "Table 2: Next facet suggestion" in html
    assert "Global Popularity" in html and "Manual Access" in html and "Recall@10" in html
    assert "Data: synthetic" in html  # the note of the paper-shaped tables
    summary = json.loads((run_dir / "context" / "summary.json").read_text())
    pop = summary["aggregates"]["initial"]["popularity"]
    assert f"{pop['cost']:.2f} ({pop['reduction_pct']:+.1f}%)" in html and f"{pop['recall']:.3f}" in html
    for fig in ("lift_distribution", "reduction_initial", "reduction_next"):
        assert f"../context/figures/{fig}.png" in html
    assert "zeroshot-llm" in html and "skipped: no provider configured" in html
    assert "../context/initial/popularity.json" in html


def test_genxr_page_shows_validation_and_jobs(run_dir):
    render_site(run_dir)
    html = (run_dir / "report" / "genxr.html").read_text()
    assert "0.750" in html and "expected \\ observed" in html
    assert "app-counter/adversarial/counts-twice" in html  # flaky
    assert "Counts each press twice." in html and "test_counter[left-empty]" in html  # caught by
    assert "browser_launch_failed: x" in html
    assert 'href="genxr/20260101-120200-oracle/index.html"' in html
    # A job report inside the run links back to the run's overview.
    job_page = (
        run_dir / "report" / "genxr" / "20260101-120100-mini" / "trials" / "app-counter__mini__1.html"
    ).read_text()
    assert 'href="../../../index.html">run</a>' in job_page
    # The oracle job has no summary.json: its scores are computed from its trial.
    oracle = (run_dir / "report" / "genxr" / "20260101-120200-oracle" / "index.html").read_text()
    assert "scores computed from the 1 finished trial(s)" in oracle


def test_guidance_page_renders_the_check_generically(run_dir):
    render_site(run_dir)
    html = (run_dir / "report" / "guidance.html").read_text()
    assert "<th>noop.composite</th>" in html and "<th>reference.composite</th>" in html
    assert "ui-button" in html and "hands-pinch" in html and "smoke_ok" in html
    assert "reference/main.js scores 0.9 &lt;check&gt;" in html and "1 problem(s)" in html
    write_json(run_dir / "guidance" / "check.json", {"ok": True, "note": "no task list here"})
    render_site(run_dir)
    html = (run_dir / "report" / "guidance.html").read_text()
    assert "&#34;note&#34;: &#34;no task list here&#34;" in html


def test_missing_parts_are_not_run_or_skipped_with_the_reason(tmp_path):
    run = tmp_path / "run"
    write_json(run / "config.json", {"kind": "run"})
    write_json(run / "skipped.json", [{"part": "guidance", "reason": "guidance harness not installed"}])
    assert is_run_dir(run)
    render_site(run)
    out = run / "report"
    assert {p.name for p in pages(out)} == {"index.html"}
    html = (out / "index.html").read_text()
    assert html.count(">not run</span>") == 2 and ">skipped</span> guidance harness not installed" in html
    assert broken_links(out) == []
    # A corrupt validation report is shown as such; an earlier page that no longer applies is removed.
    (run / "genxr").mkdir()
    (run / "genxr" / "validate.json").write_text("{")
    (out / "context.html").write_text("stale")
    render_site(run)
    assert "validate.json unreadable" in (out / "genxr.html").read_text()
    assert not (out / "context.html").exists()


def test_benchmark_of_skipped_parts():
    assert benchmark_of("genxr.design_score") == "genxr" and benchmark_of("GenXR") == "genxr"
    assert benchmark_of("context") == benchmark_of("contextxr: llm methods") == "context"
    assert benchmark_of("guidance/judge") == "guidance" and benchmark_of("xrtest.vlm") is None


def test_not_a_run_dir(tmp_path):
    assert not is_run_dir(tmp_path)
    with pytest.raises(UserError):
        render_site(tmp_path / "missing")
