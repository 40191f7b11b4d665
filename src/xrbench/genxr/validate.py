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

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xrbench.exec.local import LocalExecutor
from xrbench.genxr.grading import default_pytest_args, verify
from xrbench.genxr.task import Solution, Task
from xrbench.genxr.workspace import IGNORED_NAMES, materialize_solution, prepare_workspace
from xrbench.procs import owned_temporary_directory
from xrbench.store.atomic import atomic_write_json
from xrbench.store.provenance import tree_sha256
from xrbench.store.read import read_json

EMPTY = "empty"
PASS, FAIL, INFRA = "pass", "fail", "infra_error"


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


def materialize(cand: Candidate, dest: Path) -> Path:
    """The candidate's workspace at `dest`: the starting workspace, with its solution applied if any."""
    if cand.solution is None:
        prepare_workspace(cand.task, dest)
    else:
        materialize_solution(cand.task, cand.solution, dest)
    return dest


def run_candidate(cand: Candidate, pytest_args: Sequence[str] | None = None) -> dict[str, Any]:
    """Materialize the candidate in a temporary workspace, verify it once, return the run record."""
    t0 = time.perf_counter()
    args = list(default_pytest_args() if pytest_args is None else pytest_args)
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
    for task in tasks:
        for label, rec in per_task.get(task.id, {}).get("candidates", {}).items():
            n_candidates += 1
            outcomes = [r["outcome"] for r in rec["runs"]]
            for o in outcomes:
                confusion[rec["kind"]][o] += 1
                runs += 1
                correct += _correct(rec["kind"], o)
            seconds += sum(r.get("seconds", 0.0) for r in rec["runs"])
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


def validate(
    tasks: Sequence[Task],
    out: str | Path,
    *,
    repeats: int = 1,
    pytest_args: Sequence[str] | None = None,
    fail_fast: bool = True,
    jobs: int = 1,
    on_plan: Callable[[int], None] | None = None,
    on_run: Callable[[str, str, int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Validate `tasks`, writing the report to `out` after every run; returns the report.

    `fail_fast` stops a candidate's test run at its first failure (`-x`): the verdict is the same,
    only faster for the candidates that must fail. `jobs` runs that many candidates at once.
    `on_plan(n)` learns how many runs are left to do (after reusing finished ones) and
    `on_run(task_id, label, repeat, record)` is called after each (progress display).
    """
    if repeats < 1:
        raise ValueError("repeats must be >= 1")
    out = Path(out)
    args = list(default_pytest_args() if pytest_args is None else pytest_args)
    if fail_fast and "-x" not in args and "--exitfirst" not in args:
        args.append("-x")
    previous = _load_previous(out)
    per_task: dict[str, dict[str, Any]] = {}
    todo: list[tuple[Candidate, int]] = []
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
        for cand in candidates(task):
            done = old.get("candidates", {}).get(cand.label, {}).get("runs", []) if reuse else []
            done = [r for r in done if isinstance(r, dict) and r.get("repeat", 0) < repeats][:repeats]
            entry["candidates"][cand.label] = {
                "kind": cand.kind,
                **({"requirement": cand.solution.requirement} if cand.kind == "mutant" else {}),
                "expected": PASS if cand.should_pass else FAIL,
                "note": cand.solution.note if cand.solution else "the untouched starting workspace",
                "runs": done,
            }
            have = {r["repeat"] for r in done}
            todo.extend((cand, i) for i in range(repeats) if i not in have)

    lock = threading.Lock()

    def write() -> dict[str, Any]:
        for entry in per_task.values():
            for rec in entry["candidates"].values():
                rec["runs"].sort(key=lambda r: r["repeat"])
                outcomes = [r["outcome"] for r in rec["runs"]]
                rec["flaky"] = len(set(outcomes)) > 1
                rec["correct"] = bool(outcomes) and all(_correct(rec["kind"], o) for o in outcomes)
            entry["mutation_score"] = mutation_score(entry["candidates"].values())
        report = {"summary": summarize(tasks, per_task), "repeats": repeats, "tasks": per_task}
        atomic_write_json(out, report)
        return report

    def work(item: tuple[Candidate, int]) -> None:
        cand, i = item
        try:
            record = run_candidate(cand, args)
        except Exception as e:  # a candidate that cannot even be set up is an infra error, not a crash
            record = {"outcome": INFRA, "passed": False, "infra_error": f"setup_failed: {e}", "tests": []}
        record = {"repeat": i, **record}
        with lock:
            per_task[cand.task.id]["candidates"][cand.label]["runs"].append(record)
            write()
            if on_run:
                on_run(cand.task.id, cand.label, i, record)

    # Repeats of one candidate run apart in time (repeat-major order), so that a flake that depends
    # on machine load has a chance to show.
    todo.sort(key=lambda item: item[1])
    if on_plan:
        on_plan(len(todo))
    for _ in LocalExecutor(jobs).map(work, todo):
        pass
    return write()
