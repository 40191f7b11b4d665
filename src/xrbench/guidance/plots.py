"""Charts of guidance results (matplotlib, Agg backend, PNG).

- `composite_per_task.png`: composite per task, one bar per arm, one panel per model;
- `judge_per_task.png`: the judge's accomplishes / idiomatic ratings per task and arm (when judged);
- `metrics_grid_<model>.png`: import / api / forbidden / parse per task and arm, 2 x 2;
- `prompt_style_breakdown.png`: mean composite per arm for engineer vs casual prompts, each mean over
  the tasks of that style with a finite composite in every arm shown (n on the bar);
- `api_match_breakdown.png`: api_match per task and arm as a heat map with `hits/total` in each cell.

A missing or non-finite cell is drawn as a gap marked `–`, never as a zero bar; a real zero is
labelled `0`.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from xrbench.guidance.arms import MODE_LABELS, MODES
from xrbench.guidance.results import ModelResults, finite, finite_score, load_results

COLORS = {"with-skill": "#1e88e5", "without-skill": "#9e9e9e", "with-baseline": "#fb8c00"}
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


def _save(fig, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def composite_per_task(models: list[ModelResults], out: Path) -> Path:
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
    return _save(fig, out / "composite_per_task.png")


def judge_per_task(models: list[ModelResults], out: Path) -> Path | None:
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
    return _save(fig, out / "judge_per_task.png")


def metrics_grid(model: ModelResults, out: Path) -> Path:
    tasks = model.tasks
    fig, axes = plt.subplots(2, 2, figsize=(max(10, 0.5 * len(tasks) * 2 + 4), 8), squeeze=False)
    for ax, metric in zip(axes.flat, METRICS, strict=True):
        series = {m: [finite_score(model.modes[m].get(t), metric) for t in tasks] for m in _arms(model)}
        _bars(ax, tasks, series, (0, 1.05))
        ax.set_title(metric)
    axes[0, 1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle(f"{model.name}: score dimensions per task")
    return _save(fig, out / f"metrics_grid_{model.name}.png")


def style_breakdown(models: list[ModelResults], out: Path) -> Path:
    fig, axes = plt.subplots(1, len(models), figsize=(5 * len(models), 4), squeeze=False)
    for ax, model in zip(axes[0], models, strict=True):
        arms = _arms(model)
        styles = ("engineer", "casual")
        width = 0.8 / max(len(arms), 1)
        for si, style in enumerate(styles):
            tasks = [t for t in model.tasks if model.style(t) == style]
            paired = [t for t in tasks if all(finite_score(model.modes[m].get(t)) is not None for m in arms)]
            for ai, mode in enumerate(arms):
                x = si - 0.4 + width * (ai + 0.5)
                if not paired:
                    ax.text(x, 0, "–", ha="center", va="bottom")
                    continue
                mean = sum(finite_score(model.modes[mode][t]) or 0.0 for t in paired) / len(paired)
                ax.bar(x, mean, width, color=COLORS[mode], label=MODE_LABELS[mode] if si == 0 else None)
                ax.text(x, mean, f"n={len(paired)}", ha="center", va="bottom", fontsize=7)
        ax.set_xticks(range(len(styles)))
        ax.set_xticklabels(styles)
        ax.set_ylim(0, 1.1)
        ax.set_ylabel("mean composite (tasks finite in every arm)")
        ax.set_title(f"{model.name}: engineer vs casual prompts")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _save(fig, out / "prompt_style_breakdown.png")


def api_match_breakdown(models: list[ModelResults], out: Path) -> Path:
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
    return _save(fig, out / "api_match_breakdown.png")


def plot_all(results: Path, out: Path) -> list[Path]:
    """Write every chart for the results under `results` into `out`; returns the files written."""
    from xrbench.errors import UserError

    models = load_results(results)
    if not models:
        raise UserError(f"{results}: no result cells found (expected <model>/<mode>/<task>.json)")
    files = [composite_per_task(models, out)]
    judge = judge_per_task(models, out)
    if judge:
        files.append(judge)
    files += [metrics_grid(m, out) for m in models]
    files.append(style_breakdown(models, out))
    files.append(api_match_breakdown(models, out))
    return files
