"""Charts for the report, drawn with matplotlib's Agg backend into PNG files (no display needed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def score_bars(
    labels: Sequence[str],
    values: Sequence[float | None],
    out: Path,
    *,
    title: str,
    xlabel: str = "Pass@1",
    intervals: Sequence[Sequence[float] | None] | None = None,
    counts: Sequence[int] | None = None,
) -> Path:
    """A horizontal bar chart of scores in [0, 1], one bar per label, with optional 95% intervals.

    `counts` (e.g. trials per bar) are printed after each bar so that a 1.0 over one trial is not
    read like a 1.0 over fifty.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    vals = [v if isinstance(v, int | float) else 0.0 for v in values]
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * max(len(labels), 2) + 1.2), dpi=100)
    try:
        ys = list(range(len(labels)))
        xerr = None
        if intervals is not None:
            lo = [max(v - ci[0], 0.0) if ci else 0.0 for v, ci in zip(vals, intervals, strict=True)]
            hi = [max(ci[1] - v, 0.0) if ci else 0.0 for v, ci in zip(vals, intervals, strict=True)]
            xerr = [lo, hi]
        ax.barh(ys, vals, xerr=xerr, color="#3b6ea8", ecolor="#555555", capsize=3, height=0.6)
        ax.set_yticks(ys, labels)
        ax.invert_yaxis()  # first label on top, as in the tables
        ax.set_xlim(0, 1.12)
        ax.set_xlabel(xlabel)
        ax.set_title(title, fontsize=11)
        ax.grid(axis="x", alpha=0.3)
        if counts is not None:
            for y, n in zip(ys, counts, strict=True):
                ax.text(1.02, y, f"n={n}", va="center", fontsize=8, color="#333333")
        fig.tight_layout()
        out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(out)
    finally:
        plt.close(fig)
    return out
