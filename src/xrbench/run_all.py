"""`xrbench run`: every benchmark on bundled data, offline, into one run folder and one report.

    runs/run/<YYYYmmdd-HHMMSS>/
      config.json     the resolved options (kind "run")
      lock.json       toolkit, python and web-dependency versions; checksums of the bundled data
      context/        ContextXR experiments (`xrbench context run`), every method without a provider
      genxr/          jobs/ (an oracle job with recorded videos, a nop job) and validate.json
                      (reference candidates through the verifier; the jobs' trials count as
                      the runs of the oracle's solution and of the untouched workspace)
      guidance/       check.json (tasks resolve; untouched templates scored and smoke-tested)
      skipped.json    the parts that did not run, each with its reason
      report/         the static HTML report (index.html)

What GenXR covers: by default the representative subset (`validate.representative_tasks`: every
task type and capability label, a fixed handful of tasks whatever the suite's size) with one mutant per
requirement, so the run stays within 15 minutes on two cores; `full` takes every task and mutant,
and `executor="ray"` runs the candidates and trials on a Ray cluster. `quick` is smaller still.

Parts that need a model provider (ContextXR's LLM methods, the design score, the guidance judge)
run when one is configured and are otherwise listed in skipped.json with the reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xrbench.exec.local import default_workers
from xrbench.store.atomic import atomic_write_json
from xrbench.store.provenance import environment_info, tree_sha256
from xrbench.store.read import read_json

QUICK_TASK_TYPES = ("app", "sdk-repair")  # --quick validates one task of each of these types
# The bundled suite's quick tasks (also `make test`'s validation subset), fixed so that new tasks
# do not change its time; a suite without one of them takes its task of that type with the fewest tests.
PINNED_QUICK = {"app": "app-depth-occlusion", "sdk-repair": "sdk-repair-ray-drag-mirrored"}
# Candidates and trials verified at once. A run spends part of its time starting processes and
# waiting on them, so two at a time beat one even on two cores (15 candidates: 78.6 s vs 90.3 s,
# alternating runs on the 2-core machine; README).
PARALLEL_RUNS = max(2, default_workers())


@dataclass
class RunOptions:
    """What `xrbench run` was asked for."""

    out: Path
    quick: bool = False
    full: bool = False  # every task and every mutant (default: the representative subset)
    executor: str = "local"  # where GenXR candidates and trials run: local | ray
    address: str | None = None  # Ray cluster address (None: a local Ray)
    provider: dict[str, Any] = field(default_factory=dict)  # provider, model, base_url, replay


@dataclass
class PartResult:
    """One benchmark's part of the run: its headline numbers, or why it was skipped or failed."""

    name: str
    status: str  # "ok", "skipped" or "failed"
    headline: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    seconds: float = 0.0
    key: str = ""  # how skipped.json and the report name it: "context", "genxr.design_score", ...

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def lock_info() -> dict[str, Any]:
    """Versions and bundled-data checksums, so two runs can be compared (`xrbench compare`)."""
    data = Path(__file__).resolve().parent / "data"
    bundled = {name: tree_sha256(data / name) for name in ("context", "genxr", "guidance") if (data / name).is_dir()}
    return {**environment_info(), "bundled_data_sha256": bundled}


def _context(opts: RunOptions) -> PartResult:
    from xrbench.cli.context_cmd import run_context

    result = run_context(opts.out / "context", folds=3 if opts.quick else 5, **opts.provider)
    aggregates = read_json(opts.out / "context" / "summary.json").get("aggregates", {})
    headline: dict[str, Any] = {}
    for task in ("initial", "next"):
        best = aggregates.get(task, {}).get("relational")
        if best:
            headline[f"{task}: relational cost reduction %"] = round(-best["reduction_pct"], 1)
    reasons = sorted(set(result.skipped.values()))
    note = f"skipped {len(result.skipped)} LLM method(s): {reasons[0]}" if result.skipped else ""
    return PartResult("ContextXR", "ok", headline, note, key="context")


def _quick_tasks(tasks: list[Any]) -> list[Any]:
    chosen = []
    for kind in QUICK_TASK_TYPES:
        of_kind = [t for t in tasks if t.type.value == kind]
        if of_kind:
            chosen.append(min(of_kind, key=lambda t: (t.id != PINNED_QUICK.get(kind), len(t.tests), t.id)))
    return chosen


def _genxr(opts: RunOptions, progress: Callable[[str, int], Callable[[int], None]]) -> PartResult:
    """Agent jobs first (oracle, nop), then the validation, which counts their trials as the runs
    of the same candidates (the oracle's first valid solution, the untouched workspace) instead
    of verifying those again."""
    from xrbench.genxr.job import JobConfig
    from xrbench.genxr.task import load_tasks
    from xrbench.genxr.validate import EMPTY, known_runs, representative_tasks, validate

    out = opts.out / "genxr"
    tasks = [t for t in load_tasks() if not t.spec.example]
    if opts.quick:
        tasks = _quick_tasks(tasks)
    elif not opts.full:
        tasks = representative_tasks(tasks)
    if not tasks:
        return PartResult("GenXR-Bench", "skipped", reason="no bundled tasks", key="genxr")
    only = [str(t.dir) for t in tasks]
    headline: dict[str, Any] = {"tasks": len(tasks)}
    known: dict[tuple[str, str], dict[str, Any]] = {}
    labels = {
        "oracle": lambda t: f"valid/{t.valid_solutions[0].name}" if t.valid_solutions else None,
        "nop": lambda t: EMPTY,
    }
    for agent in ["oracle"] if opts.quick else ["oracle", "nop"]:
        # The oracle's trials keep every XR test's video: the report shows them, the design score
        # rates them. No verifier retries: each trial is also one validation run, which must see
        # an infrastructure error as it happened.
        cfg = JobConfig(
            agent=agent,
            only=only,
            record=agent == "oracle",
            # The untouched workspace must fail: its first failing test decides that, as in the
            # validation its trials stand in for.
            fail_fast=agent == "nop",
            workers=PARALLEL_RUNS,
            executor=opts.executor,
            address=opts.address,
            verifier_retries=0,
        )
        job_dir, summary = _agent_job(cfg, out / "jobs", progress)
        headline[f"{agent} Pass@1"] = summary["pass_at_1"]
        known.update(known_runs(job_dir, tasks, labels[agent]))
    advance: list[Callable[[int], None]] = []
    report = validate(
        tasks,
        out / "validate.json",
        repeats=1,
        jobs=PARALLEL_RUNS,
        executor=opts.executor,
        address=opts.address,
        subset="all" if opts.full else "representative",
        known=known,
        on_plan=lambda n: advance.append(progress(f"GenXR validate ({len(tasks)} tasks)", n)),
        on_run=lambda *_: advance[-1](1),
    )
    s = report["summary"]
    headline.update(
        {
            "verifier accuracy": s["accuracy"],
            "mutation score": s["mutation_score"],
            "flaky candidates": len(s["flaky_candidates"]),
        }
    )
    return PartResult("GenXR-Bench", "ok", headline, key="genxr")


def _agent_job(
    cfg: Any, out: Path, progress: Callable[[str, int], Callable[[int], None]]
) -> tuple[Path, dict[str, Any]]:
    from xrbench.genxr.job import run_job

    bar: list[Callable[[int], None]] = []
    return run_job(
        cfg,
        out,
        on_plan=lambda total, todo: bar.append(progress(f"GenXR {cfg.agent} agent", todo)),
        on_trial=lambda _r: bar[-1](1),
    )


def _guidance(opts: RunOptions) -> PartResult:
    from xrbench.guidance.check import check_tasks

    result = check_tasks(smoke=True)
    atomic_write_json(opts.out / "guidance" / "check.json", result)
    headline = {"tasks": len(result.get("tasks", [])), "problems": len(result.get("problems", []))}
    status = "ok" if result.get("ok") else "failed"
    return PartResult("Guidance", status, headline, "; ".join(map(str, result.get("problems", [])[:3])), key="guidance")


def _design_score(opts: RunOptions) -> PartResult:
    from xrbench.llm import skip_reason

    reason = skip_reason(**{k: v for k, v in opts.provider.items() if v is not None})
    if reason:
        return PartResult("GenXR design score", "skipped", reason=reason, key="genxr.design_score")
    from xrbench.genxr.design_score import score_job
    from xrbench.llm import resolve_llm

    llm = resolve_llm(**{k: v for k, v in opts.provider.items() if v is not None})
    headline: dict[str, Any] = {}
    for job in sorted((opts.out / "genxr" / "jobs").glob("*-oracle")):
        summary = score_job(job, llm)
        headline["oracle design score"] = summary.get("design_score")
    return PartResult("GenXR design score", "ok", headline, key="genxr.design_score")


def run_all(
    opts: RunOptions,
    progress: Callable[[str, int], Callable[[int], None]],
    on_part: Callable[[PartResult], None] | None = None,
) -> list[PartResult]:
    """Run every part (see the module docstring); a part that fails does not stop the others."""
    opts.out.mkdir(parents=True, exist_ok=True)
    atomic_write_json(
        opts.out / "config.json",
        {
            "kind": "run",
            "quick": opts.quick,
            "full": opts.full,
            "executor": opts.executor,
            "provider": {k: v for k, v in opts.provider.items() if k != "replay"},
        },
    )
    atomic_write_json(opts.out / "lock.json", lock_info())
    parts: list[PartResult] = []
    steps: list[tuple[str, str, Callable[[], PartResult]]] = [
        ("ContextXR", "context", lambda: _context(opts)),
        ("GenXR-Bench", "genxr", lambda: _genxr(opts, progress)),
        ("Guidance", "guidance", lambda: _guidance(opts)),
        ("GenXR design score", "genxr.design_score", lambda: _design_score(opts)),
    ]
    for name, key, step in steps:
        t0 = time.perf_counter()
        try:
            part = step()
        except Exception as e:  # one broken part must not lose the others' results
            part = PartResult(name, "failed", reason=f"{type(e).__name__}: {e}", key=key)
        part.seconds = round(time.perf_counter() - t0, 1)
        parts.append(part)
        if on_part:
            on_part(part)
        skipped = [{"part": p.key, "reason": p.reason} for p in parts if p.status != "ok"]
        # Provider-dependent pieces inside a part that ran (ContextXR's LLM methods).
        skipped += [
            {"part": f"{p.key}.llm_methods", "reason": p.reason} for p in parts if p.status == "ok" and p.reason
        ]
        atomic_write_json(opts.out / "skipped.json", skipped)
        atomic_write_json(opts.out / "parts.json", [p.__dict__ for p in parts])
    return parts
