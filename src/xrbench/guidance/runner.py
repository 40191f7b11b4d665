"""Generate one candidate per task x arm (x repeat), write its workspace and metadata, score it.

For each selected task and arm the runner sends the arm's system prompt (`arms.py`) and the same
user message (`user_message`), extracts the app from the reply (`extract.py`: its largest
JavaScript block; a reply with none is `no_code` and scores 0), copies
the task's template into a fresh workspace and writes the code to the task's `edit_file`. Beside
the workspace a `meta/` folder keeps the exact `system_prompt.md` (empty for `without-skill`),
`user_msg.md`, `raw_response.md`, `usage.json`, `run.json` and, for the baseline arm, the
unchanged `baseline_original.txt`. Layout under the run directory `<out>`:

    results/<model>/<mode>/<task>.json          the result cell: the FIXED score keys + style + run
    results/<model>/judge/<task>-<mode>.json    the judge cell (with --judge)
    workspaces/<model>/<mode>/<task>/r<k>/{workspace,meta}

`<model>` is the model name normalised for paths (`model_slug`). A rerun of the same model, task
and arm deletes that cell's workspaces and replaces its result and judge cells.

Repeats (`--repeats N`): repeat k >= 2 is requested with `seed=k` (repeat 1 without a seed), so
each repeat is a distinct request and a rerun replays all of them from the disk cache. The cell's
numeric fields are the per-field medians over the repeats; `samples` keeps every repeat's score
and run; the list fields (`forbidden_violations`, `parse_errors`) are the union over repeats.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import statistics
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from xrbench.errors import UserError
from xrbench.guidance.arms import WITH_BASELINE, WITH_SKILL, Arm
from xrbench.guidance.baseline import BaselinePrompt, load_baseline
from xrbench.guidance.extract import NONE, extract, upstream_extract
from xrbench.guidance.score import ModuleParser, score_source
from xrbench.guidance.task import TASK_ID_RE, Task
from xrbench.llm import LLM, GenerationSettings, Message, ProviderError
from xrbench.store.atomic import atomic_write_json, atomic_write_text

DEFAULT_TEMPERATURE = 0.2
USER_MESSAGE = (
    "You are helping me build an xrblocks app. Return only the complete contents of `{edit_file}` inside a "
    "single ```javascript fenced block. No prose, no explanation, just the code.\n\nTASK:\n{prompt}"
)
NUMERIC_KEYS = (
    "import_match",
    "api_match",
    "forbidden_clean",
    "parse_ok",
    "composite",
    "import_hits",
    "import_total",
    "api_hits",
    "api_total",
    "src_bytes",
    "smoke_ok",
    "runtime_pass",
)
LIST_KEYS = ("forbidden_violations", "parse_errors")


def model_slug(model: str) -> str:
    """A model name normalised for paths: every character outside `[A-Za-z0-9._-]` becomes `-`.

    `models/gemini-2.5-pro` -> `models-gemini-2.5-pro`, `qwen3:8b` -> `qwen3-8b`.
    """
    slug = re.sub(r"[^A-Za-z0-9._-]", "-", model.strip()).strip("-.")
    if not slug or not TASK_ID_RE.fullmatch(slug):
        raise UserError(f"invalid model name {model!r}: nothing usable for a path")
    return slug


def user_message(task: Task) -> str:
    """The user message every arm sends (upstream's, verbatim for `main.js`)."""
    return USER_MESSAGE.format(edit_file=task.spec.edit_file, prompt=task.prompt)


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(frozen=True)
class Layout:
    """Where a run directory keeps results and workspaces."""

    out: Path

    @property
    def results(self) -> Path:
        return self.out / "results"

    @property
    def workspaces(self) -> Path:
        return self.out / "workspaces"

    def result_path(self, model: str, mode: str, task_id: str) -> Path:
        return self.results / model_slug(model) / mode / f"{task_id}.json"

    def judge_path(self, model: str, task_id: str, mode: str) -> Path:
        return self.results / model_slug(model) / "judge" / f"{task_id}-{mode}.json"

    def cell_dir(self, model: str, mode: str, task_id: str) -> Path:
        return self.workspaces / model_slug(model) / mode / task_id

    def sample_dirs(self, model: str, mode: str, task_id: str, repeat: int) -> tuple[Path, Path]:
        base = self.cell_dir(model, mode, task_id) / f"r{repeat}"
        return base / "workspace", base / "meta"


@dataclass
class SweepConfig:
    """A validated sweep: every input checked before the first model call (see `prepare_sweep`)."""

    tasks: list[Task]
    modes: tuple[str, ...]
    out: Path
    xrblocks_root: Path
    repeats: int = 1
    temperature: float = DEFAULT_TEMPERATURE
    judge: bool = False
    smoke: bool = False
    runtime: bool = False
    workers: int = 1
    baseline: BaselinePrompt | None = None
    baseline_file: Path | None = None

    @property
    def layout(self) -> Layout:
        return Layout(self.out)


def prepare_baseline(
    modes: Sequence[str], baseline_file: str | Path | None, tasks: Sequence[Task]
) -> BaselinePrompt | None:
    """Validate the baseline file and every task's output contract for it (before any call)."""
    if WITH_BASELINE not in modes:
        return None
    assert baseline_file is not None
    wrong = [t.id for t in tasks if t.spec.edit_file != "main.js"]
    if wrong:
        raise UserError(f"with-baseline supports tasks that edit main.js only; not: {', '.join(wrong)}")
    return load_baseline(baseline_file)


def _settings(temperature: float, repeat: int) -> GenerationSettings:
    return GenerationSettings(temperature=temperature, seed=None if repeat == 1 else repeat)


def _input_provenance(task: Task, mode: str) -> dict[str, Any]:
    from xrbench.guidance.task import CONTRACT_FILE

    out: dict[str, Any] = {"task_dir": str(task.dir), "prompt_sha256": sha256_text(task.prompt)}
    out["template"] = str(task.template_dir)
    if mode == WITH_SKILL and task.skill_file is not None:
        out["contract"] = {"path": str(CONTRACT_FILE), "sha256": sha256_file(CONTRACT_FILE)}
        out["skill"] = {"path": str(task.skill_file), "sha256": sha256_file(task.skill_file)}
        out["references"] = [
            {"label": lbl, "path": str(p), "sha256": sha256_file(p)} for lbl, p in task.reference_paths
        ]
    return out


def generate_sample(
    llm: LLM,
    task: Task,
    arm: Arm,
    workspace: Path,
    meta: Path,
    *,
    repeat: int = 1,
    temperature: float = DEFAULT_TEMPERATURE,
    baseline_file: Path | None = None,
) -> dict[str, Any]:
    """One generation: call the model, write workspace and meta folder; returns the `run` record."""
    if arm.mode == WITH_BASELINE:
        # Revalidate the snapshot for every baseline task: the file must not change mid-sweep.
        assert baseline_file is not None and arm.baseline is not None
        again = load_baseline(baseline_file, edit_file=task.spec.edit_file)
        if again.provenance["original_sha256"] != arm.baseline.provenance["original_sha256"]:
            raise UserError(f"baseline file {baseline_file} changed during the sweep")
    system_prompt = arm.system_prompt(task)
    user_msg = user_message(task)
    messages = ([Message("system", system_prompt)] if system_prompt else []) + [Message("user", user_msg)]
    settings = _settings(temperature, repeat)
    started = datetime.now(UTC).isoformat(timespec="seconds")
    completion = llm.complete(messages, settings)
    extraction = extract(completion.text)
    upstream = upstream_extract(completion.text)

    for d in (workspace, meta):
        if d.exists():
            shutil.rmtree(d)
    assert task.template_dir is not None
    shutil.copytree(task.template_dir, workspace, ignore=shutil.ignore_patterns("BROKEN.md"))
    atomic_write_text(workspace / task.spec.edit_file, extraction.code)
    meta.mkdir(parents=True)
    atomic_write_text(meta / "system_prompt.md", system_prompt)
    atomic_write_text(meta / "user_msg.md", user_msg)
    atomic_write_text(meta / "raw_response.md", completion.text)
    if upstream != extraction.code:
        atomic_write_text(meta / f"upstream_{task.spec.edit_file}", upstream)
    usage = {**completion.usage.to_dict(), "cached": completion.cached, "latency_s": completion.latency_s}
    atomic_write_json(meta / "usage.json", usage)
    run: dict[str, Any] = {
        "mode": arm.mode,
        "model": llm.model,
        "provider": completion.provider,
        "temperature": temperature,
        "settings": settings.to_dict(),
        "task": task.id,
        "repeat": repeat,
        "workspace": str(workspace),
        "metadata_dir": str(meta),
        "system_prompt_sha256": sha256_text(system_prompt),
        "system_prompt_chars": len(system_prompt),
        "user_msg_sha256": sha256_text(user_msg),
        "extraction": extraction.how,
        # What upstream's extraction would have scored (meta/upstream_<edit file> when different).
        "upstream_extraction": {"same": upstream == extraction.code, "sha256": sha256_text(upstream)},
        "finish_reason": completion.finish_reason,
        "cached": completion.cached,
        "usage": completion.usage.to_dict(),
        "started_at": started,
        "inputs": _input_provenance(task, arm.mode),
    }
    if arm.mode == WITH_BASELINE and arm.baseline is not None:
        run["baseline"] = arm.baseline.provenance
        (meta / "baseline_original.txt").write_bytes(arm.baseline.original)
    atomic_write_json(meta / "run.json", run)
    return run


def _median(values: list[float]) -> float | None:
    vals = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    return round(float(statistics.median(vals)), 3) if vals else None


def aggregate(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """One cell from one or more scored samples (median per numeric field; see the module docstring)."""
    if len(samples) == 1:
        return dict(samples[0])
    first = samples[0]
    cell: dict[str, Any] = {"task": first["task"], "skill": first["skill"]}
    for key in NUMERIC_KEYS:
        present = [s[key] for s in samples if key in s]
        if present:
            cell[key] = _median(present)
    for key in LIST_KEYS:
        seen: dict[str, None] = {}
        for s in samples:
            for item in s.get(key, []):
                seen[item] = None
        cell[key] = list(seen)
    for key in ("style",):
        if key in first:
            cell[key] = first[key]
    without_code = sum(1 for s in samples if s.get("no_code"))
    if without_code:
        cell["no_code"] = without_code == len(samples)
        cell["no_code_repeats"] = without_code
    cell["run"] = first.get("run")
    cell["repeats"] = len(samples)
    cell["samples"] = samples
    return cell


def aggregate_judges(verdicts: list[dict[str, Any]]) -> dict[str, Any]:
    """One judge cell from one verdict per repeat (medians; severity: the median rank, rounded up)."""
    if len(verdicts) == 1:
        return dict(verdicts[0])
    ok = [v for v in verdicts if "error" not in v]
    cell: dict[str, Any] = {k: verdicts[0][k] for k in ("task", "mode", "judge_model") if k in verdicts[0]}
    cell["repeats"] = len(verdicts)
    cell["unparseable"] = len(verdicts) - len(ok)
    if ok:
        cell["accomplishes_task"] = _median([v["accomplishes_task"] for v in ok])
        cell["idiomatic_xrblocks"] = _median([v["idiomatic_xrblocks"] for v in ok])
        ranks = sorted(("none", "minor", "major").index(v["hallucination_severity"]) for v in ok)
        cell["hallucination_severity"] = ("none", "minor", "major")[statistics.median_high(ranks)]
        cell["rationale"] = ok[0]["rationale"]
    else:
        cell["error"] = "no judge reply was a valid verdict"
    cell["samples"] = verdicts
    return cell


@dataclass
class CellOutcome:
    """What happened to one (task, mode) cell."""

    task: str
    mode: str
    cell: dict[str, Any] | None = None
    judge: dict[str, Any] | None = None
    error: str | None = None
    seconds: float = 0.0


@dataclass
class SweepResult:
    """Everything a sweep produced (cells are also on disk)."""

    model: str
    outcomes: list[CellOutcome] = field(default_factory=list)

    @property
    def errors(self) -> list[CellOutcome]:
        return [o for o in self.outcomes if o.error]


def run_cell(
    llm: LLM,
    judge_llm: LLM | None,
    task: Task,
    arm: Arm,
    config: SweepConfig,
    parser: ModuleParser,
) -> CellOutcome:
    """Generate, score (and judge) every repeat of one cell; write the result and judge cells."""
    from xrbench.guidance.judge import judge_code

    t0 = time.perf_counter()
    layout = config.layout
    result_file = layout.result_path(llm.model, arm.mode, task.id)
    judge_file = layout.judge_path(llm.model, task.id, arm.mode)
    # A rerun replaces the cell: its old workspaces, result and judge cells go first.
    shutil.rmtree(layout.cell_dir(llm.model, arm.mode, task.id), ignore_errors=True)
    result_file.unlink(missing_ok=True)
    judge_file.unlink(missing_ok=True)
    samples: list[dict[str, Any]] = []
    verdicts: list[dict[str, Any]] = []
    try:
        for repeat in range(1, config.repeats + 1):
            workspace, meta = layout.sample_dirs(llm.model, arm.mode, task.id, repeat)
            run = generate_sample(
                llm,
                task,
                arm,
                workspace,
                meta,
                repeat=repeat,
                temperature=config.temperature,
                baseline_file=config.baseline_file,
            )
            raw = (workspace / task.spec.edit_file).read_bytes()
            no_code = run["extraction"] == NONE
            score = score_source(
                task.id,
                task.spec,
                raw,
                parser.check(raw.decode("utf-8", "replace"), task.spec.edit_file),
                no_code=no_code,
            )
            score["style"] = task.style
            score["run"] = run
            samples.append(score)
            if judge_llm is not None and no_code:
                verdict = {"error": "no code in the reply to judge", "task": task.id, "judge_model": judge_llm.model}
                verdict.update(mode=arm.mode, workspace=str(workspace), repeat=repeat)
                verdicts.append(verdict)
            elif judge_llm is not None:
                try:
                    verdict = judge_code(judge_llm, task, raw.decode("utf-8", "replace"), config.xrblocks_root)
                except ProviderError as e:
                    # The candidate stands without a verdict: record the failure, never a rating.
                    verdict = {"error": f"judge call failed: {type(e).__name__}: {e}", "task": task.id}
                    verdict["judge_model"] = judge_llm.model
                verdict.update(mode=arm.mode, workspace=str(workspace), repeat=repeat)
                verdicts.append(verdict)
    except (ProviderError, UserError, OSError) as e:
        return CellOutcome(task.id, arm.mode, error=f"{type(e).__name__}: {e}", seconds=time.perf_counter() - t0)
    cell = aggregate(samples)
    atomic_write_json(result_file, cell)
    judge_cell = None
    if verdicts:
        judge_cell = aggregate_judges(verdicts)
        atomic_write_json(judge_file, judge_cell)
    return CellOutcome(task.id, arm.mode, cell, judge_cell, seconds=time.perf_counter() - t0)


def add_runtime_checks(outcome: CellOutcome, task: Task, config: SweepConfig, result_file: Path) -> None:
    """Smoke-test and runtime-test every repeat of a written cell (main thread: one browser)."""
    from xrbench.guidance.runtime import run_runtime_tests
    from xrbench.guidance.smoke import smoke_test

    if outcome.cell is None:
        return
    samples = outcome.cell.get("samples") or [outcome.cell]
    for sample in samples:
        workspace = Path(sample["run"]["workspace"])
        if config.smoke:
            smoke = smoke_test(workspace)
            sample["smoke_ok"] = smoke.get("smoke_ok")
            sample["smoke"] = smoke
        tests = task.runtime_tests
        if config.runtime and tests is not None:
            runtime = run_runtime_tests(tests, workspace)
            sample["runtime_pass"] = runtime.get("runtime_pass")
            sample["runtime"] = runtime
    if len(samples) > 1:
        for key in ("smoke_ok", "runtime_pass"):
            values = [s.get(key) for s in samples if key in s]
            if values:
                outcome.cell[key] = _median([v for v in values if v is not None])
    atomic_write_json(result_file, outcome.cell)


def run_sweep(
    config: SweepConfig,
    llm: LLM,
    judge_llm: LLM | None = None,
    *,
    on_done: Callable[[CellOutcome], None] | None = None,
) -> SweepResult:
    """Run every selected task x arm; cells are written as they finish.

    Generation, scoring and judging run on `config.workers` threads; smoke and runtime tests
    (`config.smoke`, `config.runtime`) run afterwards on this thread, one browser at a time.
    """
    if config.repeats < 1:
        raise UserError("--repeats must be at least 1")
    arms = {m: Arm(m, config.baseline if m == WITH_BASELINE else None) for m in config.modes}
    result = SweepResult(model=llm.model)
    atomic_write_json(
        config.out / "sweep.json",
        {
            "model": llm.model,
            "llm": llm.describe(),
            "judge": judge_llm.describe() if judge_llm else None,
            "modes": list(config.modes),
            "tasks": [t.id for t in config.tasks],
            "repeats": config.repeats,
            "temperature": config.temperature,
            "smoke": config.smoke,
            "runtime": config.runtime,
            "xrblocks_root": str(config.xrblocks_root),
            "baseline": config.baseline.provenance if config.baseline else None,
            "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        },
    )
    jobs = [(task, arms[mode]) for task in config.tasks for mode in config.modes]
    lock = threading.Lock()
    with ModuleParser() as parser:

        def one(task: Task, arm: Arm) -> CellOutcome:
            outcome = run_cell(llm, judge_llm, task, arm, config, parser)
            with lock:
                result.outcomes.append(outcome)
                if on_done and not (config.smoke or config.runtime):
                    on_done(outcome)
            return outcome

        if config.workers <= 1:
            for task, arm in jobs:
                one(task, arm)
        else:
            with ThreadPoolExecutor(max_workers=config.workers) as pool:
                futures = [pool.submit(one, task, arm) for task, arm in jobs]
                for f in as_completed(futures):
                    f.result()
    if config.smoke or config.runtime:
        by_id = {t.id: t for t in config.tasks}
        for outcome in result.outcomes:
            if outcome.cell is not None:
                add_runtime_checks(
                    outcome,
                    by_id[outcome.task],
                    config,
                    config.layout.result_path(llm.model, outcome.mode, outcome.task),
                )
            if on_done:
                on_done(outcome)
    order = {(t.id, m): i for i, (t, m) in enumerate((t, m) for t in config.tasks for m in config.modes)}
    result.outcomes.sort(key=lambda o: order[(o.task, o.mode)])
    return result
