"""Charts of guidance results (matplotlib, Agg backend, PNG).

- `composite_per_task.png`: composite per task, one bar per arm, one panel per model;
- `judge_per_task.png`: the judge's accomplishes / idiomatic ratings per task and arm (when judged);
- `metrics_grid_<model>.png`: import / api / forbidden / parse per task and arm, 2 x 2;
- `prompt_style_breakdown.png`: for engineer and casual prompts, each comparison of the summary's
  style table (`summarize.style_comparisons`): both arms' mean composite on the tasks finite in
  both (n under the pair); a comparison the summary suppresses (incompatible baselines) is
  marked, not drawn;
- `api_match_breakdown.png`: api_match per task and arm as a heat map with `hits/total` in each cell.

A missing or non-finite cell is drawn as a gap marked `–`, never as a zero bar; a real zero is
labelled `0`. Every chart has a provenance footer: the results folder and, per model, its arms,
cells and baseline identities.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from xrbench.guidance.arms import MODE_LABELS, MODES
from xrbench.guidance.results import ModelResults, baseline_identities, finite, finite_score, load_results
from xrbench.guidance.summarize import style_comparisons

COLORS = {"with-skill": "#1e88e5", "without-skill": "#9e9e9e", "with-baseline": "#fb8c00"}
SHORT_MODE = {"with-skill": "w/", "without-skill": "w/o", "with-baseline": "base"}
METRICS = ("import_match", "api_match", "forbidden_clean", "parse_ok")


def _arms(model: ModelResults) -> list[str]:
    return [m for m in MODES if m in model.modes]


def _bars(ax, tasks: list[str], series: dict[str, list[float | None]], ylim: tuple[float, float]) -> None:
    """Grouped bars; a None value leaves a gap with a `–` mark at the bottom."""
    n = max(len(series), 1)
    width = 0.8 / n
    x = np.arange(len(tasks))
    for i, (mode, values) in enumerate(series.items()):
        xs = x - 0.4 + width * (i + 0.5)
        heights = [v if v is not None else 0.0 for v in values]
        bars = ax.bar(xs, heights, width, color=COLORS[mode], label=MODE_LABELS[mode])
        for bar, v, xi in zip(bars, values, xs, strict=True):
            if v is None:  # a gap: no bar, a dash
                bar.set_visible(False)
                ax.text(xi, ylim[0], "–", ha="center", va="bottom", fontsize=8, color="#555555")
            elif v == 0:  # a real zero: labelled, so it is not mistaken for a gap
                ax.text(xi, ylim[0], "0", ha="center", va="bottom", fontsize=7, color=COLORS[mode])
    ax.set_xticks(x)
    ax.set_xticklabels(tasks, rotation=60, ha="right", fontsize=7)
    ax.set_ylim(*ylim)
    ax.grid(axis="y", alpha=0.3)


def provenance(results: Path, models: list[ModelResults]) -> str:
    """The footer every chart carries: where its numbers come from."""
    parts = []
    for model in models:
        cells = sum(len(c) for c in model.modes.values())
        idents = [f"{i[0]}:{i[1][:12]}" for i in baseline_identities(model) if i is not None]
        base = f"; baseline {', '.join(idents)}" if idents else ""
        parts.append(f"{model.name}: {', '.join(MODE_LABELS[m] for m in _arms(model))}, {cells} cells{base}")
    return f"results: {results} | " + " | ".join(parts)


def _save(fig, path: Path, footer: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.text(0.005, 0.005, footer, fontsize=5, color="#555555", ha="left", va="bottom", wrap=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def composite_per_task(models: list[ModelResults], out: Path, footer: str = "") -> Path:
    fig, axes = plt.subplots(
        len(models), 1, figsize=(max(8, 0.55 * max(len(m.tasks) for m in models) + 3), 3.6 * len(models)), squeeze=False
    )
    for ax, model in zip(axes[:, 0], models, strict=True):
        tasks = model.tasks
        series = {m: [finite_score(model.modes[m].get(t)) for t in tasks] for m in _arms(model)}
        _bars(ax, tasks, series, (0, 1.05))
        ax.set_ylabel("composite")
        ax.set_title(f"{model.name}: composite per task")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _save(fig, out / "composite_per_task.png", footer)


def judge_per_task(models: list[ModelResults], out: Path, footer: str = "") -> Path | None:
    judged = [m for m in models if any(m.judges.values())]
    if not judged:
        return None
    fig, axes = plt.subplots(len(judged), 2, figsize=(16, 3.8 * len(judged)), squeeze=False)
    for row, model in zip(axes, judged, strict=True):
        tasks = model.tasks
        for ax, key, title in (
            (row[0], "accomplishes_task", "accomplishes task"),
            (row[1], "idiomatic_xrblocks", "idiomatic XR Blocks"),
        ):
            series = {
                m: [finite((model.judges.get(m, {}).get(t) or {}).get(key)) for t in tasks]
                for m in _arms(model)
                if m in model.judges
            }
            _bars(ax, tasks, series, (0, 5.2))
            ax.set_title(f"{model.name}: judge, {title} (1-5)")
            ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _save(fig, out / "judge_per_task.png", footer)


def metrics_grid(model: ModelResults, out: Path, footer: str = "") -> Path:
    tasks = model.tasks
    fig, axes = plt.subplots(2, 2, figsize=(max(10, 0.5 * len(tasks) * 2 + 4), 8), squeeze=False)
    for ax, metric in zip(axes.flat, METRICS, strict=True):
        series = {m: [finite_score(model.modes[m].get(t), metric) for t in tasks] for m in _arms(model)}
        _bars(ax, tasks, series, (0, 1.05))
        ax.set_title(metric)
    axes[0, 1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle(f"{model.name}: score dimensions per task")
    return _save(fig, out / f"metrics_grid_{model.name}.png", footer)


def style_breakdown(models: list[ModelResults], out: Path, footer: str = "") -> Path:
    fig, axes = plt.subplots(1, len(models), figsize=(6 * len(models), 4.2), squeeze=False)
    for ax, model in zip(axes[0], models, strict=True):
        rows = style_comparisons(model)
        ticks, labels, seen = [], [], set()
        for x, (style, c) in enumerate(rows):
            ticks.append(x)
            labels.append(f"{style}\n{SHORT_MODE[c['left']]} vs {SHORT_MODE[c['right']]}\nn={c['n']}")
            if c["suppressed"] or c["left_mean"] is None:
                ax.text(x, 0.02, "suppressed" if c["suppressed"] else "–", ha="center", va="bottom", fontsize=7)
                continue
            for side, dx in (("left", -0.2), ("right", 0.2)):
                mode, mean = c[side], c[f"{side}_mean"]
                ax.bar(x + dx, mean, 0.4, color=COLORS[mode], label=None if mode in seen else MODE_LABELS[mode])
                seen.add(mode)
                ax.text(x + dx, mean, f"{mean:.2f}", ha="center", va="bottom", fontsize=6)
        ax.set_xticks(ticks)
        ax.set_xticklabels(labels, fontsize=6)
        ax.set_ylim(0, 1.1)
        ax.set_ylabel("mean composite (tasks finite in both arms)")
        ax.set_title(f"{model.name}: engineer vs casual prompts")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _save(fig, out / "prompt_style_breakdown.png", footer)


def api_match_breakdown(models: list[ModelResults], out: Path, footer: str = "") -> Path:
    cols = [(model, m) for model in models for m in _arms(model)]
    tasks = sorted({t for model in models for t in model.tasks})
    data = np.full((len(tasks), len(cols)), np.nan)
    labels = [["–"] * len(cols) for _ in tasks]
    for j, (model, mode) in enumerate(cols):
        for i, t in enumerate(tasks):
            cell = model.modes[mode].get(t)
            v = finite_score(cell, "api_match")
            if v is not None:
                data[i, j] = v
                hits, total = finite_score(cell, "api_hits"), finite_score(cell, "api_total")
                labels[i][j] = f"{hits:g}/{total:g}" if hits is not None and total is not None else f"{v:.2f}"
    fig, ax = plt.subplots(figsize=(2 + 1.6 * len(cols), 1 + 0.35 * len(tasks)))
    cmap = plt.get_cmap("viridis").with_extremes(bad="#dddddd")
    ax.imshow(np.ma.masked_invalid(data), cmap=cmap, vmin=0, vmax=1, aspect="auto")
    for i in range(len(tasks)):
        for j in range(len(cols)):
            v = data[i, j]
            color = "white" if not math.isnan(v) and v < 0.6 else "black"
            ax.text(j, i, labels[i][j], ha="center", va="center", fontsize=7, color=color)
    ax.set_yticks(range(len(tasks)))
    ax.set_yticklabels(tasks, fontsize=7)
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels([f"{model.name}\n{MODE_LABELS[m]}" for model, m in cols], fontsize=7)
    ax.set_title("api_match per task\n(expected API names found / expected)", fontsize=9)
    return _save(fig, out / "api_match_breakdown.png", footer)


def plot_all(results: Path, out: Path) -> list[Path]:
    """Write every chart for the results under `results` into `out`; returns the files written."""
    from xrbench.errors import UserError

    models = load_results(results)
    if not models:
        raise UserError(f"{results}: no result cells found (expected <model>/<mode>/<task>.json)")
    footer = provenance(results, models)
    files = [composite_per_task(models, out, footer)]
    judge = judge_per_task(models, out, footer)
    if judge:
        files.append(judge)
    files += [metrics_grid(m, out, footer) for m in models]
    files.append(style_breakdown(models, out, footer))
    files.append(api_match_breakdown(models, out, footer))
    return files
