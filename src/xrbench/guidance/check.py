"""`xrbench guidance check`: validate a task suite offline, without any model.

For every task: the spec and prompt load, the skill, every reference and the template resolve, the
forbidden patterns compile. Then the *no-op baseline*: the untouched template is scored as if it
were the answer (its composite must stay below 1.0, or the task would reward doing nothing), and
each distinct template is smoke-tested in the browser (it must start cleanly, except a template
with a `BROKEN.md`, the deliberately broken start of a repair task, which must fail). A task that
ships a known-good `reference/<edit_file>` must score composite 1.0 with it (and, on request,
pass smoke and its runtime tests).

`check_tasks` returns a plain dict (`ok`, `problems`, per-task and per-template details) for
callers such as `make run`; the CLI prints it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from xrbench.guidance.score import ModuleParser, score_source
from xrbench.guidance.task import TASKS_DIR, Task, default_xrblocks_root, discover, load_task, resolve
from xrbench.procs import owned_temporary_directory

BROKEN_MARKER = "BROKEN.md"


def _compact(prefix: str, score: dict[str, Any]) -> dict[str, Any]:
    """The few score fields a check row shows (flat, so any table renders them)."""
    return {
        f"{prefix}_composite": score["composite"],
        f"{prefix}_api": f"{score['api_hits']}/{score['api_total']}",
        f"{prefix}_forbidden": score["forbidden_violations"],
        f"{prefix}_parse_ok": score["parse_ok"],
    }


def _score_file(task: Task, path: Path, parser: ModuleParser) -> dict[str, Any]:
    raw = path.read_bytes()
    return score_source(task.id, task.spec, raw, parser.check(raw.decode("utf-8", "replace"), task.spec.edit_file))


def check_tasks(
    root: Path = TASKS_DIR,
    *,
    xrblocks_root: Path | None = None,
    smoke: bool = True,
    smoke_references: bool = False,
    runtime_references: bool = False,
) -> dict[str, Any]:
    """Validate every task under `root`; see the module docstring. Never raises for task problems."""
    problems: list[str] = []
    xrblocks_root = xrblocks_root or default_xrblocks_root()
    version = json.loads((xrblocks_root / "package.json").read_text(encoding="utf-8")).get("version")
    tasks: list[Task] = []
    for task_dir in discover(root):
        task, load_problems = load_task(task_dir)
        problems += [str(p) for p in load_problems]
        if task is None:
            continue
        task, resolve_problems = resolve(task, xrblocks_root)
        problems += [str(p) for p in resolve_problems]
        if not resolve_problems:
            tasks.append(task)
    if not discover(root):
        problems.append(f"{root}: no tasks found (no */spec.json)")

    rows: list[dict[str, Any]] = []
    with ModuleParser() as parser:
        for task in tasks:
            assert task.template_dir is not None
            row: dict[str, Any] = {
                "id": task.id,
                "style": task.style,
                "skill": task.spec.skill,
                "template": task.template_dir.name,
                "references": len(task.reference_paths),
                "runtime_tests": task.runtime_tests is not None,
            }
            noop_file = task.template_dir / task.spec.edit_file
            if noop_file.is_file():
                noop = _score_file(task, noop_file, parser)
                row.update(_compact("noop", noop))
                if noop["composite"] >= 1.0:
                    problems.append(
                        f"{task.id}: the untouched template already scores composite 1.0 "
                        "(the task rewards doing nothing)"
                    )
            else:
                problems.append(f"{task.id}: template {task.template_dir} has no {task.spec.edit_file}")
            ref = task.reference_solution
            if ref is not None:
                r = _score_file(task, ref, parser)
                row.update(_compact("reference", r))
                if r["composite"] < 1.0:
                    problems.append(
                        f"{task.id}: reference/{task.spec.edit_file} scores {r['composite']} (api {r['api_hits']}/"
                        f"{r['api_total']}, forbidden {r['forbidden_violations']}, parse {r['parse_errors']})"
                    )
            rows.append(row)

    templates: dict[str, dict[str, Any]] = {}
    smoke_note = "skipped (--no-smoke)"
    if smoke and tasks:
        from xrbench.guidance.smoke import smoke_test
        from xrbench.xrtest import close_shared_browser

        try:
            for tdir in sorted({t.template_dir for t in tasks if t.template_dir is not None}):
                expected_broken = (tdir / BROKEN_MARKER).is_file()
                res = smoke_test(tdir)
                templates[tdir.name] = {"path": str(tdir), "expected_broken": expected_broken, **res}
                ok = res.get("smoke_ok")
                if ok is None:
                    problems.append(f"template {tdir.name}: smoke test could not run: {res.get('smoke_error')}")
                elif expected_broken and ok == 1.0:
                    problems.append(f"template {tdir.name}: has {BROKEN_MARKER} but starts cleanly")
                elif not expected_broken and ok != 1.0:
                    problems.append(f"template {tdir.name}: smoke test failed: {_smoke_reason(res)}")
            if smoke_references or runtime_references:
                _check_references(tasks, rows, problems, smoke_references, runtime_references)
        finally:
            close_shared_browser()
        smoke_note = "ran"
    styles = [r["style"] for r in rows]
    return {
        "ok": not problems,
        "tasks_root": str(root),
        "xrblocks": {"root": str(xrblocks_root), "version": version},
        "counts": {
            "tasks": len(rows),
            "engineer": styles.count("engineer"),
            "casual": styles.count("casual"),
            "templates": len({r["template"] for r in rows}),
            "with_reference": sum(1 for r in rows if "reference_composite" in r),
            "with_runtime_tests": sum(1 for r in rows if r["runtime_tests"]),
        },
        "tasks": rows,
        "templates": templates,
        "smoke": smoke_note,
        "problems": problems,
    }


def _smoke_reason(res: dict[str, Any]) -> str:
    for key in ("init_error", "page_errors", "console_errors", "failed_requests", "script_errors"):
        v = res.get(key)
        if v:
            return f"{key}: {v if isinstance(v, str) else v[0]}"
    return "unknown"


def _check_references(
    tasks: list[Task], rows: list[dict[str, Any]], problems: list[str], smoke: bool, runtime: bool
) -> None:
    """Smoke- and runtime-test each reference answer inside a copy of its template."""
    import shutil

    from xrbench.guidance.runtime import run_runtime_tests
    from xrbench.guidance.smoke import smoke_test

    by_id = {r["id"]: r for r in rows}
    for task in tasks:
        ref = task.reference_solution
        if ref is None or task.template_dir is None:
            continue
        with owned_temporary_directory(f"guidance-ref-{task.id}-") as tmp:
            ws = Path(tmp) / "workspace"
            shutil.copytree(task.template_dir, ws, ignore=shutil.ignore_patterns(BROKEN_MARKER))
            shutil.copyfile(ref, ws / task.spec.edit_file)
            if smoke:
                res = smoke_test(ws)
                by_id[task.id]["reference_smoke_ok"] = res.get("smoke_ok")
                if res.get("smoke_ok") != 1.0:
                    problems.append(f"{task.id}: reference answer fails the smoke test: {_smoke_reason(res)}")
            tests = task.runtime_tests
            if runtime and tests is not None:
                res = run_runtime_tests(tests, ws)
                by_id[task.id]["reference_runtime_pass"] = res.get("runtime_pass")
                if res.get("runtime_pass") != 1.0:
                    problems.append(
                        f"{task.id}: reference answer fails its runtime tests: "
                        f"{res.get('runtime_error') or res.get('tests')}"
                    )
