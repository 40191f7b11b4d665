"""Summaries and charts from hand-written result cells: gaps, denominators, baseline identities."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from xrbench.errors import UserError
from xrbench.guidance.plots import plot_all
from xrbench.guidance.results import finite, load_results, paired_scores
from xrbench.guidance.summarize import pairwise, summarize


def cell(task: str, composite, **extra) -> dict:
    return {"task": task, "skill": "xb-build-app", "composite": composite, "api_match": composite, **extra}


def write(results: Path, model: str, mode: str, task: str, data) -> None:
    p = results / model / mode / f"{task}.json"
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(data if isinstance(data, str) else json.dumps(data))


def baseline_run(digest: str, protocol: str = "published-main-js-v1") -> dict:
    return {"run": {"baseline": {"protocol": protocol, "original_sha256": digest, "source_url": "https://x/p.txt"}}}


@pytest.fixture
def results(tmp_path: Path) -> Path:
    r = tmp_path / "results"
    # m1: a, b in both arms; c only with skill; d without skill is NaN (not finite); e's cell is unreadable.
    write(r, "m1", "with-skill", "a", cell("a", 1.0))
    write(r, "m1", "without-skill", "a", cell("a", 0.5))
    write(r, "m1", "with-skill", "b", cell("b", 0.75))
    write(r, "m1", "without-skill", "b", cell("b", 0.75))
    write(r, "m1", "with-skill", "c", cell("c", 1.0))
    write(r, "m1", "with-skill", "canvas-d", cell("canvas-d", 0.9))
    write(r, "m1", "without-skill", "canvas-d", '{"task": "canvas-d", "composite": NaN}')
    write(r, "m1", "without-skill", "e", "{not json")
    # Historic cell without `run` and a bool composite: read, but never a finite score.
    write(r, "m1", "without-skill", "f", {"task": "f", "composite": True})
    # m2: baselines of two different identities -> suppressed.
    write(r, "m2", "with-skill", "a", cell("a", 1.0))
    write(r, "m2", "with-baseline", "a", {**cell("a", 0.8), **baseline_run("1" * 64)})
    write(r, "m2", "with-baseline", "b", {**cell("b", 0.6), **baseline_run("2" * 64)})
    write(r, "m2", "with-skill", "b", cell("b", 0.9))
    (r / "ablations" / "m1").mkdir(parents=True)  # not a model directory
    return r


def test_finite():
    assert finite(1) == 1.0 and finite(0.5) == 0.5
    assert finite(True) is None and finite(float("nan")) is None and finite(math.inf) is None and finite("1") is None


def test_loading_skips_unreadable_cells(results: Path):
    with pytest.warns(UserWarning, match="unreadable"):
        models = load_results(results)
    assert [m.name for m in models] == ["m1", "m2"]
    m1 = models[0]
    assert "e" not in m1.modes["without-skill"] and m1.style("canvas-d") == "casual"
    assert paired_scores(m1.modes["with-skill"], m1.modes["without-skill"]) == [("a", 1.0, 0.5), ("b", 0.75, 0.75)]


def test_pairwise_uses_finite_pairs_and_shows_denominators(results: Path):
    with pytest.warns(UserWarning):
        m1 = load_results(results)[0]
    (row,) = pairwise(m1)
    assert (row["n"], row["of"]) == (2, 5)  # a, b paired; of a, b, c, canvas-d, f
    assert row["left_mean"] == pytest.approx(0.875) and row["right_mean"] == pytest.approx(0.625)
    assert (row["wins"], row["ties"], row["losses"]) == (1, 1, 0)


def test_summary_gaps_and_suppressed_baselines(results: Path):
    with pytest.warns(UserWarning):
        text, path = summarize(results)
    assert path == results / "_summary.md" and path.read_text().startswith("# Guidance evaluation summary")
    m1 = text.split("## m2")[0]
    assert "| c | engineer | xb-build-app | 1.00 | – | – |" in m1  # a gap, not 0
    assert "| canvas-d | casual | xb-build-app | 0.90 | – | – |" in m1
    assert "| with skill vs without skill | 2 | 5 | 0.88 | 0.62 | +0.25 | 1 | 1 | 0 |" in m1
    m2 = text.split("## m2")[1]
    assert "original_sha256=" + "1" * 64 in m2 and "original_sha256=" + "2" * 64 in m2
    assert "incompatible baseline identities" in m2
    assert (
        "| with skill vs output-adapted baseline (suppressed: incompatible baseline identities) | 2 | 2 | – | – | – |"
        in m2
    )


def test_compatible_baselines_are_pooled(tmp_path: Path):
    r = tmp_path / "results"
    for t, (w, b) in {"a": (1.0, 0.5), "b": (0.5, 0.5)}.items():
        write(r, "m", "with-skill", t, cell(t, w))
        write(r, "m", "with-baseline", t, {**cell(t, b), **baseline_run("3" * 64)})
    text, _ = summarize(r)
    assert "| with skill vs output-adapted baseline | 2 | 2 | 0.75 | 0.50 | +0.25 | 1 | 1 | 0 |" in text
    assert "Output-adapted baseline (n=2): protocol=published-main-js-v1" in text


def test_no_results_is_a_user_error(tmp_path: Path):
    with pytest.raises(UserError, match="no result cells"):
        summarize(tmp_path)
    with pytest.raises(UserError, match="no result cells"):
        plot_all(tmp_path, tmp_path / "charts")


def test_charts_from_partial_results(results: Path, tmp_path: Path):
    with pytest.warns(UserWarning):
        files = plot_all(results, tmp_path / "charts")
    names = sorted(f.name for f in files)
    assert names == [
        "api_match_breakdown.png",
        "composite_per_task.png",
        "metrics_grid_m1.png",
        "metrics_grid_m2.png",
        "prompt_style_breakdown.png",
    ]  # no judge cells: no judge chart
    assert all(f.stat().st_size > 1000 for f in files)


def test_the_style_chart_draws_the_summarys_style_table(results: Path, tmp_path: Path, monkeypatch):
    import xrbench.guidance.plots as plots

    drawn: dict[str, object] = {}
    save = plots._save

    def keep(fig, path, footer):
        drawn[path.name] = (fig, footer)
        return save(fig, path, footer)

    monkeypatch.setattr(plots, "_save", keep)
    with pytest.warns(UserWarning):
        plot_all(results, tmp_path / "charts")
        text, _ = summarize(results)
    fig, footer = drawn["prompt_style_breakdown.png"]
    m1_ax, m2_ax = fig.axes
    heights = sorted(round(b.get_height(), 3) for b in m1_ax.patches)
    # The summary's m1 style rows: engineer 0.88 vs 0.62 (a, b), casual: no pair.
    assert "| engineer | with skill vs without skill | 2 | 0.88 | 0.62 | +0.25 |" in text
    assert heights == [0.625, 0.875]
    # m2's baselines are incompatible: suppressed in the summary, not drawn in the chart.
    assert not m2_ax.patches and any(t.get_text() == "suppressed" for t in m2_ax.texts)
    assert f"results: {results}" in footer and "m2: with skill, output-adapted baseline, 4 cells" in footer
