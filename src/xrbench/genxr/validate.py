"""Suite validation: run every reference candidate of every task N times and score the verifier.

For each task the candidates are its valid solutions (must pass), its adversarial solutions and
mutants (must not) and the untouched starting workspace (`empty`, must not). Each runs `repeats` times through
the same `verify()` a real candidate goes through. The report (FIXED keys, see the issue):

    {"summary": {"tasks", "candidates", "accuracy", "flaky_candidates", "tasks_by_type",
                 "difficulty", "capabilities", "confusion", "mutants", "mutation_score", ...},
     "tasks": {task_id: {..., "mutation_score", "candidates": {label: {"expected", "runs": [...], ...}}}}}

The mutation score is the share of mutants (a valid solution with one requirement broken, see
`xrbench.genxr.task`) that failed in every run; it must be 1.0.

Accuracy is over runs: a valid candidate's run is correct when it passes, an adversarial or
empty one's when it fails; an infrastructure error is never correct (it proves nothing). A flaky
candidate is one whose outcome (pass, fail or infra error) differs between its repeats.

The report is rewritten atomically after every run; a rerun with the same `--out` keeps the
finished runs of unchanged tasks (a task's fingerprint is the hash of its files) and runs the rest.
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xrbench.exec import make_executor
from xrbench.genxr.grading import default_pytest_args, unrecorded, verify
from xrbench.genxr.task import Solution, Task
from xrbench.genxr.workspace import IGNORED_NAMES, materialize_solution, prepare_workspace
from xrbench.procs import owned_temporary_directory
from xrbench.store.atomic import atomic_write_json
from xrbench.store.provenance import tree_sha256
from xrbench.store.read import read_json

EMPTY = "empty"
PASS, FAIL, INFRA = "pass", "fail", "infra_error"
# How often Ray runs a candidate again when the worker running it died (never on a verdict).
RAY_RETRIES = 3


@dataclass(frozen=True)
class Candidate:
    """One reference candidate of a task: a solution, or the starting workspace (`solution` None)."""

    task: Task
    solution: Solution | None

    @property
    def label(self) -> str:
        return EMPTY if self.solution is None else f"{self.solution.kind}/{self.solution.name}"

    @property
    def kind(self) -> str:
        """'valid', 'adversarial' or 'empty'."""
        return EMPTY if self.solution is None else self.solution.kind

    @property
    def should_pass(self) -> bool:
        return self.kind == "valid"


def candidates(task: Task) -> list[Candidate]:
    """The task's valid and adversarial solutions, then its starting workspace."""
    return [*(Candidate(task, s) for s in task.solutions), Candidate(task, None)]


def task_fingerprint(task: Task) -> str:
    """sha256 over the task's files (paths and contents): a changed task is validated again."""
    return tree_sha256(task.dir, IGNORED_NAMES)


def candidate_fingerprint(cand: Candidate) -> str:
    """sha256 over what decides one candidate's verdict: the task's files outside `solutions/`, and
    the candidate's own solution (a mutant's: its patch and the valid solution it edits).

    Adding a blind solution or a mutant to a task keeps the runs of its other candidates.
    """
    task = cand.task
    h = hashlib.sha256()
    # The same stream as tree_sha256 without solutions/ (the fingerprints in committed reports
    # depend on it), continued by the candidate's own solution.
    for path in sorted(p for p in task.dir.rglob("*") if p.is_file()):
        rel = path.relative_to(task.dir)
        if rel.parts[0] == "solutions" or set(IGNORED_NAMES).intersection(rel.parts):
            continue
        h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    own = [cand.solution] if cand.solution else []
    if cand.solution and cand.solution.base:
        own += [s for s in task.solutions if s.kind == "valid" and s.name == cand.solution.base]
    for sol in own:
        h.update(sol.path.relative_to(task.dir).as_posix().encode() + b"\0")
        body = sol.path.read_bytes() if sol.path.is_file() else tree_sha256(sol.path, IGNORED_NAMES).encode()
        h.update(body + b"\0")
    return h.hexdigest()


def materialize(cand: Candidate, dest: Path) -> Path:
    """The candidate's workspace at `dest`: the starting workspace, with its solution applied if any."""
    if cand.solution is None:
        prepare_workspace(cand.task, dest)
    else:
        materialize_solution(cand.task, cand.solution, dest)
    return dest


@functools.cache
def harness_fingerprint() -> str:
    """sha256 (12 hex digits) of the xrtest harness (its Python and JavaScript): which harness made a run.

    A report resumed across checkouts keeps runs of unchanged tasks; this says which harness they
    ran on (`summary.harness_versions`).
    """
    import xrbench.xrtest

    return tree_sha256(Path(xrbench.xrtest.__file__).parent, ("__pycache__",))[:12]


def run_candidate(cand: Candidate, pytest_args: Sequence[str] | None = None) -> dict[str, Any]:
    """Materialize the candidate in a temporary workspace, verify it once, return the run record."""
    t0 = time.perf_counter()
    # The recordings would land in a folder deleted below.
    args = unrecorded(default_pytest_args() if pytest_args is None else pytest_args)
    requirement = cand.solution.requirement if cand.solution and cand.kind == "mutant" else None
    for req in cand.task.spec.requirements:
        if req.id == requirement:  # the tests that check what the mutant broke run first
            args += [arg for ref in req.tests for arg in ("--genxr-first", ref)]
    with owned_temporary_directory(f"genxr-validate-{cand.task.id}-") as tmp:
        ws = materialize(cand, Path(tmp) / "workspace")
        verdict = verify(cand.task, ws, Path(tmp) / "out", pytest_args=args)
    outcome = INFRA if verdict.infra_error else PASS if verdict.passed else FAIL
    return {
        "outcome": outcome,
        "passed": verdict.passed,
        "infra_error": verdict.infra_error,
        "seconds": round(time.perf_counter() - t0, 2),
        "harness": harness_fingerprint(),
        "tests": verdict.to_json()["tests"],
    }


def _correct(kind: str, outcome: str) -> bool:
    return outcome == (PASS if kind == "valid" else FAIL)


def summarize(tasks: Sequence[Task], per_task: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The FIXED summary block from the per-task records."""
    runs = correct = 0
    flaky: list[str] = []
    confusion: dict[str, Counter[str]] = {k: Counter() for k in ("valid", "adversarial", "mutant", EMPTY)}
    n_candidates = 0
    seconds = 0.0
    harness: Counter[str] = Counter()
    for task in tasks:
        for label, rec in per_task.get(task.id, {}).get("candidates", {}).items():
            n_candidates += 1
            outcomes = [r["outcome"] for r in rec["runs"]]
            for o in outcomes:
                confusion[rec["kind"]][o] += 1
                runs += 1
                correct += _correct(rec["kind"], o)
            seconds += sum(r.get("seconds", 0.0) for r in rec["runs"])
            harness.update(r.get("harness", "unknown") for r in rec["runs"])
            if len(set(outcomes)) > 1:
                flaky.append(f"{task.id}/{label}")
    caps: Counter[str] = Counter(c.value for t in tasks for c in t.spec.capabilities)
    return {
        "tasks": len(tasks),
        "candidates": n_candidates,
        "runs": runs,
        "accuracy": round(correct / runs, 6) if runs else None,
        "flaky_candidates": flaky,
        "tasks_by_type": dict(sorted(Counter(t.type.value for t in tasks).items())),
        "difficulty": dict(sorted(Counter(t.spec.difficulty.value for t in tasks).items())),
        "capabilities": dict(sorted(caps.items())),
        # expected kind -> observed outcome -> runs
        "confusion": {k: {o: c.get(o, 0) for o in (PASS, FAIL, INFRA)} for k, c in confusion.items()},
        "candidate_seconds": round(seconds, 1),
        # harness fingerprint -> runs made with it (more than one key: a report resumed across versions)
        "harness_versions": dict(sorted(harness.items())),
        # Mutants failed in every run / mutants run: 1.0 when the tests catch every broken requirement.
        "mutants": sum(len(t.mutants) for t in tasks),
        "mutation_score": mutation_score(
            rec for t in tasks for rec in per_task.get(t.id, {}).get("candidates", {}).values()
        ),
    }


def mutation_score(records: Iterable[dict[str, Any]]) -> float | None:
    """Of the mutant candidates with runs, the share that failed in every run (None: no mutant ran)."""
    runs = [[r["outcome"] for r in rec["runs"]] for rec in records if rec["kind"] == "mutant" and rec["runs"]]
    if not runs:
        return None
    return round(sum(all(o == FAIL for o in outcomes) for outcomes in runs) / len(runs), 6)


def _load_previous(out: Path) -> dict[str, Any]:
    if not out.is_file():
        return {}
    try:
        data = read_json(out)
    except Exception:  # an unreadable old report is simply redone
        return {}
    return data.get("tasks", {}) if isinstance(data, dict) else {}


def _run(item: tuple[Candidate, int, tuple[str, ...]]) -> dict[str, Any]:
    """One run of one candidate (module level, so that Ray can ship it to a worker)."""
    cand, i, args = item
    try:
        record = run_candidate(cand, args)
    except Exception as e:  # a candidate that cannot even be set up is an infra error, not a crash
        record = {"outcome": INFRA, "passed": False, "infra_error": f"setup_failed: {e}", "tests": []}
    return {"repeat": i, **record}


# The bundled suite's representative subset, fixed so that the main job's time does not move as
# tasks are added or converted: five tasks that together cover every type and capability label,
# the cheapest such cover by the candidate times of the whole-suite validation (docs/validation/
# suite.json.gz: two valid runs, the adversarial and untouched ones and three mutants per task; no
# cover has four tasks). The README gives its make run time (13 min 45 s on a fresh clone, 2026-12-04).
PINNED_REPRESENTATIVE = (
    "app-touch-piano",
    "app-wall-outlines",
    "sdk-feature-direct-touch",
    "sdk-repair-depth-flipped-rows",
    "sdk-repair-followhead-parent",
)


def representative_tasks(tasks: Sequence[Task], pinned: Sequence[str] = PINNED_REPRESENTATIVE) -> list[Task]:
    """A small subset with every task type and capability label of `tasks` (the main job's subset).

    The `pinned` tasks that are in `tasks` come first (the bundled suite's fixed subset); labels
    they leave uncovered are added by a greedy set cover, deterministic: each step takes the task
    that adds the most labels not yet covered, preferring tasks that declare requirements (proven
    by mutants), then fewer tests, then the id. The same suite always gives the same subset.
    """

    def labels(t: Task) -> set[str]:
        return {f"type:{t.type.value}"} | {f"capability:{c.value}" for c in t.spec.capabilities}

    left = {label for t in tasks for label in labels(t)}
    pool = sorted(tasks, key=lambda t: (not t.spec.requirements, len(t.tests), t.id))
    chosen = [t for t in pool if t.id in pinned]
    for t in chosen:
        left -= labels(t)
        pool.remove(t)
    while left:
        best = max(pool, key=lambda t: len(labels(t) & left))  # max keeps the first of equals
        chosen.append(best)
        left -= labels(best)
        pool.remove(best)
    return sorted(chosen, key=lambda t: t.id)


def known_runs(
    job_dir: str | Path, tasks: Sequence[Task], label: Callable[[Task], str | None]
) -> dict[tuple[str, str], dict[str, Any]]:
    """Run records for `validate(known=...)` from a finished job's trials (first attempts).

    `label(task)` names the candidate a trial of that task verified (e.g. the oracle's first valid
    solution, `valid/<name>`; the nop agent's untouched workspace, `empty`), or None to skip it.
    """
    by_id = {t.id: t for t in tasks}
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for result_file in sorted(Path(job_dir).glob("*/result.json")):
        result = read_json(result_file)
        verdict_file = result_file.parent / "verifier" / "verdict.json"
        if result.get("attempt") != 0 or not verdict_file.is_file():
            continue
        task = by_id.get(result["task"])
        name = label(task) if task is not None else None
        if name is None:
            continue
        verdict = read_json(verdict_file)
        outcome = INFRA if result.get("infra_error") else PASS if result.get("passed") else FAIL
        out[(result["task"], name)] = {
            "outcome": outcome,
            "passed": bool(result.get("passed")),
            "infra_error": result.get("infra_error"),
            "seconds": (result.get("timings") or {}).get("verifier_s", 0.0),
            "tests": verdict.get("tests", []),
            "trial": str(result_file.parent),
        }
    return out


REPRESENTATIVE_MUTANTS = 3  # per task: keeps the main job's time flat as tasks gain requirements


def representative_candidates(task: Task, mutants: int = REPRESENTATIVE_MUTANTS) -> list[Candidate]:
    """What a quick validation runs of a task: its first valid solution and its blind ones (the
    check that the tests do not over-fit), every adversarial solution, the untouched workspace and
    `mutants` mutants of different requirements (the first mutant of each by name; the requirements
    in an order fixed by a hash of task id and requirement, so the sample is the same on every run
    and moves across requirements from task to task)."""
    valid = [s for s in task.solutions if s.kind == "valid"]
    keep = {id(s) for s in valid[:1]} | {id(s) for s in valid if s.blind}
    first: dict[str, Solution] = {}
    for m in sorted(task.mutants, key=lambda s: s.name):
        first.setdefault(m.requirement or m.name, m)
    order = sorted(first, key=lambda req: hashlib.sha256(f"{task.id}:{req}".encode()).hexdigest())
    keep |= {id(first[req]) for req in order[:mutants]}
    return [c for c in candidates(task) if c.kind in ("adversarial", EMPTY) or id(c.solution) in keep]


def validate(
    tasks: Sequence[Task],
    out: str | Path,
    *,
    repeats: int = 1,
    pytest_args: Sequence[str] | None = None,
    fail_fast: bool = True,
    jobs: int = 1,
    executor: str = "local",
    address: str | None = None,
    subset: str = "all",
    known: Mapping[tuple[str, str], dict[str, Any]] | None = None,
    rerun_other_harness: bool = False,
    on_plan: Callable[[int], None] | None = None,
    on_run: Callable[[str, str, int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Validate `tasks`, writing the report to `out` after every run; returns the report.

    `fail_fast` stops a candidate's test run at its first failure (`-x`): the verdict is the same,
    only faster for the candidates that must fail. `jobs` runs that many candidates at once on
    this machine; `executor="ray"` runs them on a Ray cluster at `address` instead (each candidate
    asks for one CPU, so a worker runs as many at once as it has cores; a candidate whose worker
    died is run again, never lost or counted twice). `subset="representative"` runs only the
    `representative_candidates` of each task. `known` maps (task id, candidate label) to a run
    record already made by the same verifier (e.g. a job's trial of that candidate): it counts as
    the candidate's first run instead of verifying it again. `rerun_other_harness` also runs again
    what an earlier harness ran (`harness_fingerprint`), so that a report moves to a changed harness
    task by task (`--only`) and says in `summary.harness_versions` how far it has got.
    `on_plan(n)` learns how many runs are left to do (after reusing finished ones) and
    `on_run(task_id, label, repeat, record)` is called after each (progress display).
    """
    if repeats < 1:
        raise ValueError("repeats must be >= 1")
    if subset not in ("all", "representative"):
        raise ValueError("subset must be 'all' or 'representative'")
    out = Path(out)
    args = list(default_pytest_args() if pytest_args is None else pytest_args)
    if fail_fast and "-x" not in args and "--exitfirst" not in args:
        args.append("-x")
    known = dict(known or {})
    previous = _load_previous(out)
    per_task: dict[str, dict[str, Any]] = {}
    todo: list[tuple[Candidate, int, tuple[str, ...]]] = []
    for task in tasks:
        fp = task_fingerprint(task)
        old = previous.get(task.id, {})
        reuse = old.get("fingerprint") == fp
        entry = per_task[task.id] = {
            "type": task.type.value,
            "difficulty": task.spec.difficulty.value,
            "capabilities": [c.value for c in task.spec.capabilities],
            "fingerprint": fp,
            "candidates": {},
        }
        cands = candidates(task) if subset == "all" else representative_candidates(task)
        for cand in cands:
            cfp = candidate_fingerprint(cand)
            prev = old.get("candidates", {}).get(cand.label, {})
            # Reports written before candidates carried fingerprints fall back to the task's.
            same = prev.get("fingerprint") == cfp if "fingerprint" in prev else reuse
            done = prev.get("runs", []) if same else []
            done = [r for r in done if isinstance(r, dict) and r.get("repeat", 0) < repeats][:repeats]
            seeded = known.get((task.id, cand.label))
            if seeded is not None and not any(r.get("repeat") == 0 for r in done):
                done = [{"repeat": 0, **seeded}, *done]
            entry["candidates"][cand.label] = {
                "kind": cand.kind,
                "fingerprint": cfp,
                **({"requirement": cand.solution.requirement} if cand.kind == "mutant" else {}),
                "expected": PASS if cand.should_pass else FAIL,
                "note": cand.solution.note if cand.solution else "the untouched starting workspace",
                "runs": done,
            }
            # A run of another harness stays in the report until its rerun replaces it, so an
            # interrupted move to a new harness loses nothing.
            current = [r for r in done if r.get("harness") == harness_fingerprint()]
            have = {r["repeat"] for r in (current if rerun_other_harness else done)}
            todo.extend((cand, i, tuple(args)) for i in range(repeats) if i not in have)

    def write() -> dict[str, Any]:
        for entry in per_task.values():
            for rec in entry["candidates"].values():
                rec["runs"].sort(key=lambda r: r["repeat"])
                outcomes = [r["outcome"] for r in rec["runs"]]
                rec["flaky"] = len(set(outcomes)) > 1
                rec["correct"] = bool(outcomes) and all(_correct(rec["kind"], o) for o in outcomes)
            entry["mutation_score"] = mutation_score(entry["candidates"].values())
        report = {"summary": summarize(tasks, per_task), "repeats": repeats, "tasks": per_task}
        # One line per candidate (report > tasks > task > candidates > candidate): its runs and
        # per-test records are most of the file, and a rerun rewrites only the candidates it ran.
        atomic_write_json(out, report, one_line_from=4)
        return report

    # Repeats of one candidate run apart in time (repeat-major order), so that a flake that depends
    # on machine load has a chance to show.
    todo.sort(key=lambda item: item[1])
    if on_plan:
        on_plan(len(todo))
    if executor == "ray":
        pool = make_executor("ray", address=address, num_cpus=1, max_retries=RAY_RETRIES)
    else:
        pool = make_executor(executor, workers=jobs)
    write()
    for (cand, i, _), record in pool.map(_run, todo):
        runs = per_task[cand.task.id]["candidates"][cand.label]["runs"]
        runs[:] = [r for r in runs if r.get("repeat") != i]
        runs.append(record)
        write()
        if on_run:
            on_run(cand.task.id, cand.label, i, record)
    return write()
