"""The report of one `xrbench run` directory: an overview and a page per benchmark.

    <run>/config.json, lock.json, skipped.json ([{part, reason}])
    <run>/context/                  `xrbench context run` output
    <run>/genxr/validate.json       `xrbench genxr validate` report
    <run>/genxr/jobs/<job>/         GenXR job folders
    <run>/guidance/check.json       the guidance harness's check

becomes

    <run>/report/index.html         one card per benchmark: headline numbers, links, skipped parts
    <run>/report/context.html       Tables 1 and 2, figures, lift, skipped methods
    <run>/report/genxr.html         validation (accuracy, confusion, flaky, per-candidate outcomes), jobs
    <run>/report/genxr/<job>/       each job's own report (`render_genxr_job`)
    <run>/report/guidance.html      the guidance check
    <run>/report/summary.md, style.css

Any part may be missing: its card says "not run", or "skipped: <reason>" when skipped.json names it.
Skipped parts are matched to a benchmark by their first word (`genxr.design_score` -> GenXR).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from xrbench.errors import UserError
from xrbench.report.markdown import site_markdown
from xrbench.report.render import install_css, read_json, write_page
from xrbench.report.site_context import context_facts, load_context
from xrbench.report.site_genxr import genxr_facts, load_jobs, load_validation
from xrbench.report.site_guidance import guidance_facts, load_guidance
from xrbench.store.atomic import atomic_write_text

BENCHMARKS = {  # key -> (title, page, what it is)
    "context": ("ContextXR", "context.html", "Context-aware functionality suggestion on the bundled dataset."),
    "genxr": ("GenXR-Bench", "genxr.html", "Coding agents on XR Blocks tasks, verified by runtime interaction tests."),
    "guidance": (
        "Guidance evaluation",
        "guidance.html",
        "Whether a skill or system prompt helps a model write XR Blocks apps.",
    ),
}
_PART = re.compile(r"^\s*(contextxr|context|genxr(?:-bench)?|guidance)\b", re.IGNORECASE)


def is_run_dir(path: Path) -> bool:
    """An `xrbench run` directory: has context/ or genxr/, or a config.json with kind "run"."""
    config, _ = read_json(path / "config.json")
    kind = config.get("kind") if isinstance(config, dict) else None
    return kind == "run" or (path / "context").is_dir() or (path / "genxr").is_dir()


def benchmark_of(part: str) -> str | None:
    """The benchmark a skipped part belongs to ('genxr.design_score' -> 'genxr'), or None."""
    m = _PART.match(part)
    if not m:
        return None
    word = m.group(1).lower()
    return "context" if word.startswith("context") else "genxr" if word.startswith("genxr") else "guidance"


def load_skipped(run_dir: Path, notes: list[str]) -> list[dict[str, str]]:
    """skipped.json as [{part, reason}] (a {part: reason} dict is accepted too)."""
    data, why = read_json(run_dir / "skipped.json")
    if data is None:
        if (run_dir / "skipped.json").exists():
            notes.append(f"skipped.json: {why}")
        return []
    items = (
        data.items()
        if isinstance(data, dict)
        else ((d.get("part"), d.get("reason")) for d in data if isinstance(d, dict))
    )
    return [{"part": str(p), "reason": str(r or "no reason given")} for p, r in items if p]


def _card(
    key: str, view: Any, facts: tuple[str | None, list[tuple[str, str]]], skipped: list[dict[str, str]]
) -> dict[str, Any]:
    title, page, about = BENCHMARKS[key]
    mine = [s for s in skipped if benchmark_of(s["part"]) == key]
    # "genxr" skips the whole benchmark; "genxr.design_score" only a part of it.
    whole = [s for s in mine if _PART.sub("", s["part"]).strip(" ./:-_") == ""]
    if view is not None:
        status = ""
    elif whole:
        status = f"skipped: {whole[0]['reason']}"
    else:
        status = "not run"
    headline, items = facts if view is not None else (None, [])
    return {
        "key": key,
        "title": title,
        "about": about,
        "href": page if view is not None else None,
        "headline": headline,
        "facts": items,
        "status": status,
        "skipped": [s for s in mine if s not in whole],
    }


def load_site(run_dir: Path, report_dir: Path) -> dict[str, Any]:
    """Every page's data; renders the GenXR job reports on the way (they are pages of their own)."""
    notes: list[str] = []
    index = report_dir / "index.html"
    skipped = load_skipped(run_dir, notes)
    config, _ = read_json(run_dir / "config.json")
    lock, _ = read_json(run_dir / "lock.json")
    context = load_context(run_dir, report_dir)
    validation = load_validation(run_dir / "genxr" / "validate.json", report_dir)
    jobs = load_jobs(run_dir / "genxr" / "jobs", report_dir, index, notes)
    genxr = {"validation": validation, "jobs": jobs} if validation is not None or jobs else None
    guidance = load_guidance(run_dir / "guidance" / "check.json", report_dir)
    cards = [
        _card("context", context, context_facts(context) if context else (None, []), skipped),
        _card("genxr", genxr, genxr_facts(validation, jobs) if genxr else (None, []), skipped),
        _card("guidance", guidance, guidance_facts(guidance) if guidance else (None, []), skipped),
    ]
    return {
        "name": run_dir.name,
        "run_dir": str(run_dir),
        "config": config if isinstance(config, dict) else {},
        "lock": lock if isinstance(lock, dict) else {},
        "skipped": skipped,
        "cards": cards,
        "context": context,
        "genxr": genxr,
        "jobs": jobs,
        "guidance": guidance,
        "notes": notes,
    }


def render_site(run_dir: str | Path) -> Path:
    """Write `<run>/report/` (see the module docstring); returns the path of its index.html."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise UserError(f"{run_dir}: no such run directory")
    report_dir = run_dir / "report"
    css = install_css(report_dir)
    site = load_site(run_dir, report_dir)
    home = [{"label": f"run {site['name']}", "href": "index.html"}]
    index = write_page(report_dir / "index.html", "site_index.html", css=css, site=site, crumbs=[])
    pages = {"context": "site_context.html", "genxr": "site_genxr.html", "guidance": "site_guidance.html"}
    for key, template in pages.items():
        page = report_dir / BENCHMARKS[key][1]
        if site[key] is None:
            page.unlink(missing_ok=True)  # a page left by an earlier render would describe another run
        else:
            write_page(page, template, css=css, site=site, view=site[key], crumbs=home, title=BENCHMARKS[key][0])
    atomic_write_text(report_dir / "summary.md", site_markdown(site))
    return index


__all__ = ["benchmark_of", "is_run_dir", "load_site", "render_site"]
