"""The GenXR job report: overview, a page per trial, chart, summary.md, design score; robust to missing parts."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from job_fakes import make_trial, write_json

from xrbench.errors import UserError
from xrbench.genxr import design_score as ds
from xrbench.llm import Completion
from xrbench.report import render_genxr_job
from xrbench.report.check import broken_links, external_references, pages, references


def test_job_report_pages_links_and_summary(job):
    index = render_genxr_job(job)
    out = job / "report"
    assert index == out / "index.html"
    assert {p.relative_to(out).as_posix() for p in pages(out)} == {
        "index.html",
        "trials/app-counter__mini__1.html",
        "trials/app-orb__mini__1.html",
        "trials/sdk-repair-x__mini__1.html",
        "trials/app-unfinished__mini__1.html",
    }
    assert (out / "pass_by_capability.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert broken_links(out) == [] and external_references(out) == []

    html = index.read_text()
    summary = json.loads((job / "summary.json").read_text())
    assert summary["pass_at_1"] == pytest.approx(1 / 3)
    assert "0.333" in html and "pass_by_capability.png" in html and "Tool usage" in html
    for t in ("app-counter__mini__1", "sdk-repair-x__mini__1", "app-unfinished__mini__1"):
        assert f'href="trials/{t}.html"' in html
    assert "INFRA ERROR" in html and "UNFINISHED" in html and "browser_launch_failed: no chromium" in html

    md = (out / "summary.md").read_text()
    assert "| mini | scripted | 3 | 0.333 |" in md
    assert "| app-orb__mini__1 | FAIL |" in md and "tests/test_app.py::test_counter_counts[left-kitchen]" in md


def test_trial_pages_embed_videos_and_key_frames_of_their_tests(job):
    render_genxr_job(job)
    trials = job / "report" / "trials"
    ok = (trials / "app-counter__mini__1.html").read_text()
    # The recorded test's video and key frames, linked where they lie in the trial folder.
    videos = re.findall(r'<video [^>]*src="([^"]+)"', ok)
    assert videos == ["../../app-counter__mini__1/artifacts/tests-test_app.py--test_button-right-empty/video.webm"]
    refs = references(trials / "app-counter__mini__1.html")
    assert any(r.endswith("/01-after-tap.png") for r in refs) and any(r.endswith("/02-end.png") for r in refs)
    assert "1 console errors" in ok  # from the recording's log.json
    # The mini agent's trajectory: steps and the conversation (escaped).
    assert "printf &#39;x&#39; &gt;&gt; main.js" in ok and "format_error" in ok and "Build it &lt;now&gt;." in ok
    failed = (trials / "app-orb__mini__1.html").read_text()
    assert "AssertionError: expected count 1, observed 2 &lt;b&gt;" in failed  # messages are escaped
    assert failed.count("<video") == 1  # only the failed test was recorded
    infra = (trials / "sdk-repair-x__mini__1.html").read_text()
    assert "INFRA ERROR" in infra and "no test results" in infra and "<video" not in infra
    unfinished = (trials / "app-unfinished__mini__1.html").read_text()
    assert "the trial did not finish" in unfinished


class StubVLM:
    """Answers every design-score request with fixed ratings (the protocol is tested in tests/genxr)."""

    model = "stub-vlm"

    def complete(self, messages, settings):
        ratings = {h.key: {"score": 4, "reason": f"{h.name}: fine"} for h in ds.HEURISTICS}
        ratings["legibility"]["score"] = 2
        text = json.dumps({"ratings": ratings, "summary": "Readable <enough>."})
        return Completion(text=text, provider="stub", model=self.model, settings=settings)


def test_design_scores_show_on_the_trial_page_and_overview(job):
    summary = ds.score_job(job, StubVLM(), frames=2)
    assert summary["design_score"] == 3.8 and summary["trials_scored"] == 2
    render_genxr_job(job)
    out = job / "report"
    page = (out / "trials" / "app-counter__mini__1.html").read_text()
    assert "Design score <strong>3.80</strong>" in page and "Legibility at distance" in page
    assert "Readable &lt;enough&gt;." in page and "frames from video" in page
    assert "design/frames/01.png" in page and "prompt.json" in page and "responses.json" in page
    assert "not computed" in (out / "trials" / "sdk-repair-x__mini__1.html").read_text()
    index = (out / "index.html").read_text()
    assert "Design score <strong>3.80</strong>" in index and "2 of 2 app trial(s)" in index
    assert "| 3.80 |" in (out / "summary.md").read_text()
    assert broken_links(out) == []


def test_skipped_design_score_is_reported_as_not_computed(job):
    ds.score_job(job, None)  # no provider configured in tests
    render_genxr_job(job)
    page = (job / "report" / "trials" / "app-counter__mini__1.html").read_text()
    assert "not computed; status: skipped: no provider configured" in page


def test_a_partial_job_still_renders_and_says_what_is_missing(job, tmp_path):
    (job / "summary.json").unlink()
    (job / "app-orb__mini__1" / "result.json").write_text("{not json")
    shutil.rmtree(job / "app-counter__mini__1" / "verifier")
    (job / "app-counter__mini__1" / "artifacts" / "tests-test_app.py--test_button-right-empty" / "video.webm").unlink()
    out = tmp_path / "elsewhere"
    index = render_genxr_job(job, out)
    assert index == out / "index.html" and broken_links(out) == []
    html = index.read_text()
    assert "summary.json missing; scores computed from the 2 finished trial(s)" in html
    orb = (out / "trials" / "app-orb__mini__1.html").read_text()
    assert "result.json unreadable" in orb
    counter = (out / "trials" / "app-counter__mini__1.html").read_text()
    assert "verifier/verdict.json missing" in counter and "<video" not in counter


def test_not_a_job_folder(tmp_path):
    with pytest.raises(UserError, match="not a GenXR job folder"):
        render_genxr_job(tmp_path)
    write_json(tmp_path / "config.json", {"kind": "run"})
    with pytest.raises(UserError):
        render_genxr_job(tmp_path)
    # Trial folders with results are enough, config.json or not.
    make_trial(tmp_path / "bare", "app-a")
    assert render_genxr_job(tmp_path / "bare").is_file()
