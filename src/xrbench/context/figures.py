"""Figures for the ContextXR experiments (matplotlib, written as PNG)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from xrbench.context.catalog import Catalog

COLORS = {
    "user": "#4C72B0",
    "task": "#DD8452",
    "environment": "#55A868",
    "mixed": "#8172B3",
    "none": "#937860",
}


def lift_figure(lift: dict, catalog: Catalog, path: Path, title_suffix: str = "") -> Path:
    """The paper's Figure 4: dominant-factor distribution plus one example profile per pattern."""
    dist = lift["distribution"]
    factors = lift["factors"]
    patterns = [c for c in dist if c != "none"]
    fig = plt.figure(figsize=(11, 4.2))
    grid = fig.add_gridspec(2, 1 + (len(patterns) + 1) // 2, width_ratios=[2.2] + [1] * ((len(patterns) + 1) // 2))
    ax = fig.add_subplot(grid[:, 0])
    cats = list(dist)
    bars = ax.bar(cats, [dist[c] for c in cats], color=[COLORS.get(c, "#999999") for c in cats])
    ax.bar_label(bars)
    ax.set_ylim(0, max([*dist.values(), 1]) * 1.15)  # room for the labels under the title
    ax.set_ylabel("Facet count")
    ax.set_title("Dominant context factor" + title_suffix)
    ax.tick_params(axis="x", rotation=20)
    for i, pattern in enumerate(patterns):
        sub = fig.add_subplot(grid[i % 2, 1 + i // 2])
        candidates = [p for p in lift["facets"] if p["dominant"] == pattern]
        if not candidates:
            sub.set_axis_off()
            sub.set_title(f"{pattern}: none", fontsize=8)
            continue
        best = max(candidates, key=lambda p: (p["count"], max((v or 0) for v in p["lift"].values())))
        values = [best["lift"][x] or 0.0 for x in factors]
        b = sub.bar([x[:1].upper() for x in factors], values, color=[COLORS.get(x, "#999") for x in factors])
        sub.bar_label(b, fmt="%.2f", fontsize=7)
        sub.set_ylim(0, max([*values, 1.0]) * 1.3)
        sub.axhline(1.0, color="grey", lw=0.8, ls="--")
        label = catalog.label(best["facet_id"]) if best["facet_id"] in catalog.facets else best["facet_id"]
        sub.set_title(f"{pattern}-dominant\n{label}", fontsize=8)
        sub.tick_params(labelsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


EXAMPLE_ROWS = 16  # facets drawn per column; the rest are counted under it


def example_scenario(scenarios, catalog: Catalog):
    """A readable example: 4 to 12 facets if any scenario has that many, spread over the most apps."""

    def apps(s) -> int:
        return len({catalog.app_of[f] for f in s.facets})

    readable = [s for s in scenarios if 4 <= len(s.facets) <= 12] or list(scenarios)
    return max(readable, key=lambda s: (apps(s), -abs(len(s.facets) - 8), s.id))


def example_figure(scenario, catalog: Catalog, suggestions: dict[str, list[str]], path: Path, note: str = "") -> Path:
    """The paper's Figure 5: ground truth vs each method's suggestions for one scenario.

    Each column is a method; each suggested facet is coloured as a hit (in the ground truth),
    same-app (right app, other facet) or miss. Ground-truth facets are listed by app. A column
    shows at most `EXAMPLE_ROWS` facets and counts the rest, so a large scenario stays readable.
    """
    truth = list(scenario.facets)
    truth_apps = {catalog.app_of[f] for f in truth}
    columns = [("Ground truth", truth), *suggestions.items()]
    height = min(max(len(c[1]) for c in columns), EXAMPLE_ROWS + 1)
    fig, ax = plt.subplots(figsize=(2.3 * len(columns), 0.42 * height + 1.6))
    ax.set_xlim(0, len(columns))
    ax.set_ylim(height + 0.5, -0.9)
    ax.set_axis_off()
    for ci, (name, items) in enumerate(columns):
        ax.text(ci + 0.5, -0.5, name, ha="center", va="center", fontsize=8, weight="bold", wrap=True)
        ordered = sorted(items, key=lambda f: (catalog.app_of[f], catalog.nav(f))) if ci == 0 else items
        if len(ordered) > EXAMPLE_ROWS:
            ax.text(ci + 0.5, EXAMPLE_ROWS + 0.5, f"+{len(ordered) - EXAMPLE_ROWS} more", ha="center", fontsize=6.5)
            ordered = ordered[:EXAMPLE_ROWS]
        for ri, f in enumerate(ordered):
            if ci == 0:
                color = "#DDDDDD"
            elif f in truth:
                color = "#8FD19E"
            elif catalog.app_of[f] in truth_apps:
                color = "#FFE08A"
            else:
                color = "#F4A6A6"
            ax.add_patch(plt.Rectangle((ci + 0.04, ri + 0.08), 0.92, 0.84, color=color, lw=0))
            ax.text(ci + 0.5, ri + 0.5, catalog.label(f), ha="center", va="center", fontsize=6.2)
    title = f"({scenario.user}, {scenario.task}, {scenario.environment})  green: hit, yellow: same app, red: miss"
    ax.set_title(title + (f"\n{note}" if note else ""), fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def reduction_figure(rows: list[dict], path: Path, title: str) -> Path:
    """Bar chart of cost reduction vs manual access per method."""
    rows = [r for r in rows if r.get("aggregate") and r["method"] != "manual"]
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(rows) + 1.2))
    names = [r["label"] for r in rows]
    values = [r["aggregate"]["reduction_pct"] for r in rows]
    bars = ax.barh(names, values, color="#4C72B0")
    ax.bar_label(bars, fmt="%.1f%%", fontsize=8, padding=2)
    # Room beyond the longest bar for its label (reductions are negative: bars grow leftwards).
    low, high = min([*values, 0.0]), max([*values, 0.0])
    span = max(high - low, 1.0)
    ax.set_xlim(low - 0.18 * span, high + 0.18 * span)
    ax.invert_yaxis()
    ax.set_xlabel("Navigation & search cost vs manual access (%)")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
