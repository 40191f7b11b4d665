"""`xrbench genxr`: the GenXR-Bench task suite (thin layer over `xrbench.genxr`)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from xrbench.cli.common import (
    App,
    BaseUrlOpt,
    ModelOpt,
    ProviderOpt,
    ReplayOpt,
    console,
    err_console,
    progress_bars,
)
from xrbench.errors import Problem, UserError, ValidationError
from xrbench.genxr.task import DEFAULT_TASKS_DIR, SCHEMA_FILE, Task, find_task, load_tasks, task_json_schema
from xrbench.procs import owned_temporary_directory

app = App(help="GenXR-Bench: XR development tasks for coding agents (check, stats, verify, validate, run).")

TasksOpt = Annotated[
    Path, typer.Option("--tasks", help="Tasks directory (<id>/task.toml)", file_okay=False, show_default=False)
]
PytestArgsOpt = Annotated[
    str | None,
    typer.Option(
        "--pytest-args",
        help="The verifier's pytest arguments (shell syntax; {workspace} and {scenes} are substituted). They "
        "replace the default, so keep it when adding to it: '-p xrbench.xrtest.pytest_plugin --xr-app "
        "{workspace} --xr-scenes {scenes}' (when the harness is installed, else none).",
    ),
]

# Exit statuses of `verify` (2 stays reserved for user errors, as everywhere in the CLI).
EXIT_PASSED, EXIT_FAILED, EXIT_INFRA = 0, 1, 3


@app.callback()
def _group() -> None:
    """GenXR-Bench: XR development tasks for coding agents."""


def _pytest_args(value: str | None) -> list[str] | None:
    return None if value is None else shlex.split(value)


def _summary_table(tasks: list[Task]) -> Table:
    table = Table(title=f"{len(tasks)} task{'s' if len(tasks) != 1 else ''}", title_justify="left")
    table.add_column("task", no_wrap=True)  # ids are never truncated: they are what the user types
    for col in ("type", "difficulty", "capabilities", "scenes", "tags", "tests", "reqs"):
        table.add_column(col, overflow="fold")
    table.add_column("solutions\n(valid/adv./mut.)", overflow="fold")
    for t in tasks:
        s = t.spec
        name = t.id + (" [dim](example)[/dim]" if s.example else "")
        kinds = ""
        if t.type.is_sdk:
            f2p = sum(d.kind is not None and d.kind.value == "fail_to_pass" for d in t.tests)
            kinds = f" ({f2p} F2P, {len(t.tests) - f2p} P2P)"
        table.add_row(
            name,
            s.type.value,
            s.difficulty.value,
            ", ".join(c.value for c in s.capabilities),
            ", ".join(sc.value for sc in s.scenes),
            str(len(s.tags)),
            f"{len(t.tests)}{kinds}",
            str(len(s.requirements)) if s.requirements else "[yellow]-[/yellow]",
            f"{len(t.valid_solutions)}/{len(t.adversarial_solutions)}/{len(t.mutants)}",
        )
    return table


@app.command()
def check(
    tasks: TasksOpt = DEFAULT_TASKS_DIR,
    solutions: Annotated[
        bool,
        typer.Option(
            "--solutions",
            help="Also run the tests: valid solutions must pass; adversarial ones and the starting workspace must not",
        ),
    ] = False,
    build: Annotated[
        bool,
        typer.Option(
            "--build", help="SDK tasks: prepare and build the starting SDK; it must keep the published exports"
        ),
    ] = False,
    pytest_args: PytestArgsOpt = None,
) -> None:
    """Validate every task of a suite (exit 2 with one line per problem)."""
    # Strict: the authoring rules (symlinks in tests/ and solutions/) are checked here, not on a run.
    loaded = load_tasks(tasks, strict=True)
    console.print(_summary_table(loaded))
    _check_patches(loaded)
    if build:
        _check_builds(loaded)
    if solutions:
        _check_solutions(loaded, _pytest_args(pytest_args))
    console.print(f"[green]ok[/green]: {len(loaded)} task(s) in {tasks} are valid")
    pending = [t.id for t in loaded if not t.spec.requirements and not t.spec.example]
    if pending:
        # The suite is being converted to requirements and mutants (task.py): say which are left.
        console.print(f"[yellow]{len(pending)} task(s) declare no requirements yet[/yellow]: {', '.join(pending)}")


def _check_patches(tasks: list[Task]) -> None:
    """Every patch solution applies (a mutant onto the valid solution it names): else one line each."""
    from xrbench.genxr.workspace import unappliable_patches

    # Each reason starts with the file it is about (unappliable_patches names the task when
    # preparing it failed).
    whys = [why.split(": ", 1) for t in tasks for why in unappliable_patches(t)]
    if whys:
        raise ValidationError(Problem(where, "", "", what) for where, what in whys)


def _check_builds(tasks: list[Task]) -> None:
    from xrbench.genxr.sdk import SdkError, build_sdk, published_exports
    from xrbench.genxr.workspace import prepare_workspace

    sdk_tasks = [t for t in tasks if t.type.is_sdk]
    if not sdk_tasks:
        return
    published = set(published_exports())
    problems: list[Problem] = []
    for task in sdk_tasks:
        with owned_temporary_directory("genxr-build-") as tmp:
            try:
                prepare_workspace(task, Path(tmp) / "ws")
                b = build_sdk(Path(tmp) / "ws")
            except SdkError as e:
                problems.append(Problem(str(task.dir / "task.toml"), "", "sdk", str(e)))
                continue
        # Feature tasks remove an implementation, repair tasks reproduce a bug: neither may change
        # the public interface, or the task would tell the agent what to build.
        missing = sorted(published - set(b.exports))
        if missing:
            msg = f"the starting SDK no longer exports {', '.join(missing)} (keep the public interface)"
            problems.append(Problem(str(task.dir / "task.toml"), "", "sdk", msg))
        else:
            console.print(f"{task.id}: starting SDK builds in {b.seconds:.2f} s and keeps its {len(b.exports)} exports")
    if problems:
        raise ValidationError(problems)


def _check_solutions(tasks: list[Task], pytest_args: list[str] | None) -> None:
    from xrbench.genxr.grading import default_pytest_args, unrecorded, verify
    from xrbench.genxr.validate import candidates, materialize

    args = unrecorded(default_pytest_args() if pytest_args is None else pytest_args)  # nobody keeps them

    table = Table(title="Reference solutions", title_justify="left")
    table.add_column("task", no_wrap=True)
    table.add_column("candidate", no_wrap=True)
    for col in ("expected", "got", "reason"):
        table.add_column(col, overflow="fold")
    problems: list[Problem] = []
    for task in tasks:
        for cand in candidates(task):
            solution, should_pass = cand.solution, cand.should_pass
            label = "starting workspace" if solution is None else cand.label
            with owned_temporary_directory("genxr-check-") as tmp:
                ws = materialize(cand, Path(tmp) / "workspace")
                verdict = verify(task, ws, Path(tmp) / "out", pytest_args=args)
            failing = [t for t in verdict.tests if not t.ok]
            reason = verdict.infra_error or (
                f"{len(failing)} of {len(verdict.tests)} test(s) not passed" if failing else "all tests passed"
            )
            # An infrastructure error proves nothing either way, so it fails the gate for every candidate.
            ok = verdict.infra_error is None and verdict.passed == should_pass
            if solution is None and task.type.is_sdk and verdict.infra_error is None:
                # SWE-bench's validation: on the starting SDK, every F2P test fails and every P2P test passes.
                wrong = [
                    t.id
                    for t in verdict.tests
                    if (t.kind is not None and t.kind.value == "fail_to_pass") == (t.outcome.value == "passed")
                ]
                if wrong:
                    ok = False
                    reason = f"on the starting SDK, F2P must fail and P2P must pass: {', '.join(wrong)}"
            where = str(task.dir if solution is None else solution.path)
            if not ok:
                problems.append(
                    Problem(where, "", "", f"expected {'pass' if should_pass else 'not passed'}, got: {reason}")
                )
            table.add_row(
                task.id,
                label,
                "pass" if should_pass else "fail",
                "[green]pass[/green]" if verdict.passed else "[red]fail[/red]",
                reason if ok else f"[bold red]{reason}[/bold red]",
            )
    console.print(table)
    if problems:
        raise ValidationError(problems)


@app.command()
def stats(
    tasks: TasksOpt = DEFAULT_TASKS_DIR,
    out: Annotated[Path | None, typer.Option("--out", help="Save the composition chart here (PNG)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the counts as JSON instead of tables")] = False,
) -> None:
    """The suite's composition by type, difficulty and capability (tables and an optional chart)."""
    from xrbench.genxr.stats import PROOF_KEYS, TYPE_LABELS, save_chart, scale_targets, suite_stats
    from xrbench.genxr.task import Difficulty, TaskType

    loaded = load_tasks(tasks)
    s = suite_stats(loaded)
    targets = scale_targets(loaded)
    if as_json:
        console.print_json(json.dumps({**s.to_json(), "targets": [t.to_json() for t in targets]}))
    else:
        note = f", {s.examples} format example(s)" if s.examples else ""
        by_type = Table(title=f"Task types ({s.total} tasks{note})", title_justify="left")
        by_type.add_column("type")
        for d in Difficulty:
            by_type.add_column(d.value, justify="right")
        by_type.add_column("total", justify="right")
        for t in TaskType:
            row = s.by_type_difficulty[t]
            by_type.add_row(TYPE_LABELS[t], *[str(row[d]) for d in Difficulty], str(s.by_type[t]))
        totals = [sum(s.by_type_difficulty[t][d] for t in TaskType) for d in Difficulty]
        by_type.add_row("[bold]all[/bold]", *[f"[bold]{n}[/bold]" for n in totals], f"[bold]{s.total}[/bold]")
        console.print(by_type)

        caps = Table(title="Capability coverage (a task may have several)", title_justify="left")
        caps.add_column("capability")
        for t in TaskType:
            caps.add_column(TYPE_LABELS[t], justify="right")
        caps.add_column("tasks", justify="right")
        caps.add_column("share", justify="right")
        for c, row in sorted(s.by_capability.items(), key=lambda kv: -sum(kv[1].values())):
            n = sum(row.values())
            share = f"{100 * n / s.total:.0f}%" if s.total else "-"
            caps.add_row(c.value, *[str(row[t]) for t in TaskType], str(n), share)
        console.print(caps)
        totals = s.proof_totals()
        proof = Table(
            title=f"Proof of the tests ({totals['tasks_with_requirements']} of {s.total} tasks declare requirements)",
            title_justify="left",
        )
        for col in ("task", "requirements", "mutants", "valid solutions", "blind"):
            proof.add_column(col, justify="left" if col == "task" else "right", no_wrap=col == "task")
        for task_id, row in s.proof.items():
            proof.add_row(task_id, *(str(row[k]) for k in PROOF_KEYS))
        proof.add_row("[bold]all[/bold]", *(f"[bold]{totals[k]}[/bold]" for k in PROOF_KEYS))
        console.print(proof)
        met = sum(t.met for t in targets)
        scale = Table(title=f"The seed's scale ({met} of {len(targets)} targets met)", title_justify="left")
        for col in ("target", "now", "goal", "met"):
            scale.add_column(col, justify="left" if col in ("target", "goal") else "right")
        for t in targets:
            scale.add_row(t.name, t.value, t.goal, "[green]yes[/green]" if t.met else "[red]no[/red]")
        console.print(scale)
    if out is not None:
        save_chart(s, out)
        err_console.print(f"wrote {out}")


@app.command()
def verify(
    task: Annotated[str, typer.Option("--task", help="Task id (under --tasks) or task directory")],
    workspace: Annotated[
        Path, typer.Option("--workspace", help="The candidate workspace", exists=True, file_okay=False)
    ],
    out: Annotated[Path, typer.Option("--out", help="Verdict JSON; reward.json and details.json go beside it")],
    tasks: TasksOpt = DEFAULT_TASKS_DIR,
    pytest_args: PytestArgsOpt = None,
    timeout: Annotated[
        float | None, typer.Option("--timeout", min=1, help="Seconds for the test run (default: the task's)")
    ] = None,
    keep: Annotated[bool, typer.Option("--keep", help="Keep the verification directory (for debugging)")] = False,
) -> None:
    """Run a task's tests on a candidate workspace and grade it (exit 0 passed, 1 failed, 3 infra error)."""
    from xrbench.genxr.grading import verify as run_verify
    from xrbench.genxr.grading import write_verdict

    if out.name in ("reward.json", "details.json"):
        raise UserError(f"--out {out}: that name is taken by the file written beside it; choose another")
    t = find_task(task, tasks)
    verdict = run_verify(
        t, workspace, out.parent, pytest_args=_pytest_args(pytest_args), timeout_sec=timeout, keep_workdir=keep
    )
    write_verdict(verdict, out)

    table = Table(title=f"{t.id}: {workspace}", title_justify="left")
    for col in ("test", "kind", "outcome", "message"):
        table.add_column(col, overflow="fold")
    colors = {"passed": "green", "skipped": "yellow", "xfailed": "yellow"}
    for v in verdict.tests:
        first = v.message.strip().splitlines()[0] if v.message.strip() else ""
        color = colors.get(v.outcome.value, "red")
        table.add_row(v.id, v.kind.value if v.kind else "", f"[{color}]{v.outcome.value}[/{color}]", first[:120])
    console.print(table)
    rerun = verdict.run.extra.get("recording_rerun") or {}
    if rerun.get("flaky"):
        # The verdict stands (it is the first run's); a deterministic harness should never see this.
        flaky = ", ".join(rerun["flaky"])
        err_console.print(f"flaky: passed when rerun to record them: {flaky}", markup=False, highlight=False)
    if verdict.infra_error:
        # An error, so on stderr, and one line whatever its length (paths are not wrapped).
        err_console.print(f"infra error: {verdict.infra_error}", markup=False, highlight=False, soft_wrap=True)
        status = EXIT_INFRA
    elif verdict.passed:
        console.print("[bold green]passed[/bold green]")
        status = EXIT_PASSED
    else:
        console.print("[bold red]not passed[/bold red]")
        status = EXIT_FAILED
    wrote = f"wrote {out}, {out.parent / 'reward.json'}, {out.parent / 'details.json'}"
    err_console.print(wrote, markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(status)


@app.command()
def validate(
    out: Annotated[Path, typer.Option("--out", help="Report JSON (rewritten after every run; kept runs are reused)")],
    tasks: TasksOpt = DEFAULT_TASKS_DIR,
    only: Annotated[list[str] | None, typer.Option("--only", help="Validate only this task id (repeatable)")] = None,
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="Runs per candidate")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Candidates verified at once")] = 1,
    executor: Annotated[str, typer.Option("--executor", help="local | ray")] = "local",
    address: Annotated[str | None, typer.Option("--address", help="Ray cluster address (default: local Ray)")] = None,
    all_tests: Annotated[
        bool, typer.Option("--all-tests", help="Run every test of a failing candidate (default: stop at the first)")
    ] = False,
    rerun_other_harness: Annotated[
        bool,
        typer.Option("--rerun-other-harness", help="Also rerun the kept runs that another harness version made"),
    ] = False,
    pytest_args: PytestArgsOpt = None,
) -> None:
    """Run every candidate of every task N times (plus the starting workspace) and score the verifier.

    Exit 0 when accuracy is 1.0 with no flaky candidate, else 1.
    """
    from xrbench.genxr.validate import validate as run_validate

    # With --only, other tasks are not even loaded: one being written must not stop the run.
    loaded = [find_task(i, tasks) for i in dict.fromkeys(only)] if only else load_tasks(tasks)
    if not only:
        loaded = [t for t in loaded if not t.spec.example]
    failures: list[str] = []

    with progress_bars() as start:
        advance: list = []

        def on_plan(n: int) -> None:
            advance.append(start(f"validate {len(loaded)} task(s) x {repeats}", n))

        def on_run(task_id: str, label: str, repeat: int, record: dict) -> None:
            expected_pass = label.startswith("valid/")
            if record["outcome"] != ("pass" if expected_pass else "fail"):
                reason = record["infra_error"] or record["outcome"]
                want = "pass" if expected_pass else "fail"
                failures.append(f"{task_id} {label} (repeat {repeat + 1}): expected {want}, got {reason}")
            advance[0](1)

        report = run_validate(
            loaded,
            out,
            repeats=repeats,
            pytest_args=_pytest_args(pytest_args),
            fail_fast=not all_tests,
            jobs=jobs,
            executor=executor,
            address=address,
            rerun_other_harness=rerun_other_harness,
            on_plan=on_plan,
            on_run=on_run,
        )
    s = report["summary"]
    table = Table(title="Verifier accuracy", title_justify="left")
    for col in ("expected", "pass", "fail", "infra_error"):
        table.add_column(col)
    for kind, row in s["confusion"].items():
        table.add_row(kind, *(str(row[o]) for o in ("pass", "fail", "infra_error")))
    console.print(table)
    for line in failures:
        console.print(f"[red]wrong[/red]: {line}")
    flaky = s["flaky_candidates"]
    console.print(
        f"{s['tasks']} task(s), {s['candidates']} candidate(s), {s['runs']} run(s): accuracy "
        f"{s['accuracy']}, flaky candidates {len(flaky)}" + (f" ({', '.join(flaky)})" if flaky else "")
    )
    err_console.print(f"wrote {out}")
    raise typer.Exit(0 if s["accuracy"] == 1.0 and not flaky else 1)


@app.command()
def prepare(
    task: Annotated[str, typer.Option("--task", help="Task id (under --tasks) or task directory")],
    dest: Annotated[Path, typer.Option("--dest", help="New (or empty) directory for the starting workspace")],
    tasks: TasksOpt = DEFAULT_TASKS_DIR,
    solution: Annotated[
        str | None,
        typer.Option("--solution", help="Apply this reference solution (valid/NAME, adversarial/NAME or mutant/NAME)"),
    ] = None,
    build: Annotated[bool, typer.Option("--build", help="SDK tasks: also build sdk/build/xrblocks.js")] = False,
) -> None:
    """Create a task's starting workspace (SDK tasks: the transformed pinned sources in sdk/src)."""
    from xrbench.genxr.sdk import build_sdk
    from xrbench.genxr.workspace import materialize_solution, prepare_workspace

    # The starting workspace is what an agent gets: prepare it without reading the solutions.
    t = find_task(task, tasks, solutions=solution is not None)
    if solution is None:
        prepare_workspace(t, dest)
    else:
        match = [s for s in t.solutions if f"{s.kind}/{s.name}" == solution]
        if not match:
            known = ", ".join(f"{s.kind}/{s.name}" for s in t.solutions)
            raise UserError(f"--solution {solution}: no such solution (known: {known})")
        materialize_solution(t, match[0], dest)  # a mutant goes onto the valid solution it edits
    console.print(f"wrote the starting workspace of {t.id} to {dest}")
    if build and t.type.is_sdk:
        b = build_sdk(dest)
        console.print(f"built {b.entry} ({b.outputs} files, {b.addons} addons) in {b.seconds:.2f} s")


@app.command("build-sdk")
def build_sdk_cmd(
    workspace: Annotated[Path, typer.Argument(help="Workspace holding sdk/src", exists=True, file_okay=False)],
) -> None:
    """Rebuild workspace/sdk/src into workspace/sdk/build/ with esbuild (entry xrblocks.js plus addons)."""
    from xrbench.genxr.sdk import build_sdk

    b = build_sdk(workspace)
    console.print(
        f"built {b.entry} ({b.outputs} files, {b.addons} addons, {len(b.exports)} exports) in {b.seconds:.2f} s"
    )


@app.command()
def schema(
    out: Annotated[Path | None, typer.Option("--out", help="Write here instead of printing")] = None,
) -> None:
    """The JSON Schema of task.toml (the committed copy is data/genxr/task.schema.json)."""
    from xrbench.store.atomic import atomic_write_json

    doc = task_json_schema()
    if out is None:
        console.print_json(json.dumps(doc))
    else:
        atomic_write_json(out, doc)
        err_console.print(f"wrote {out} (committed copy: {SCHEMA_FILE})")


if __name__ == "__main__":  # `python -m xrbench.cli.genxr_cmd ...` until the group is mounted
    app()


def _agent_args(values: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in values or []:
        key, sep, value = v.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--agent-arg {v!r}: expected KEY=VALUE")
        out[key.strip()] = value
    return out


def _print_summary(job_dir: Path, summary: dict) -> None:
    table = Table(title=f"{summary['agent']} on {summary['tasks']} task(s)", title_justify="left")
    for col in ("", "trials", "Pass@1", "95% CI"):
        table.add_column(col)
    ci = summary.get("pass_at_1_ci95")
    table.add_row(
        "all", str(summary["trials"]), f"{summary['pass_at_1']:.3f}", f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "-"
    )
    for name, s in {**summary["by_type"], **summary["by_difficulty"]}.items():
        table.add_row(name, str(s["trials"]), f"{s['pass_at_1']:.3f}", "")
    console.print(table)
    if summary.get("infra_errors"):
        console.print(f"[yellow]infrastructure errors[/yellow]: {', '.join(summary['infra_error_trials'])}")
    err_console.print(f"job folder: {job_dir} (summary.json, summary.md)")


@app.command()
def run(
    agent: Annotated[
        str | None, typer.Option("--agent", help="oracle | nop | command | mini-swe-agent | module:Class")
    ] = None,
    agent_arg: Annotated[
        list[str] | None, typer.Option("--agent-arg", help="KEY=VALUE for the agent (repeatable), e.g. template=...")
    ] = None,
    provider: ProviderOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    replay: ReplayOpt = None,
    tasks: TasksOpt = DEFAULT_TASKS_DIR,
    only: Annotated[list[str] | None, typer.Option("--only", help="Run only this task (repeatable)")] = None,
    attempts: Annotated[int, typer.Option("--attempts", min=1, help="Attempts per task (pass@k up to this)")] = 1,
    workers: Annotated[int | None, typer.Option("--workers", min=1, help="Trials at once (default: CPUs / 2)")] = None,
    executor: Annotated[str, typer.Option("--executor", help="local | ray")] = "local",
    address: Annotated[str | None, typer.Option("--address", help="Ray cluster address (default: local Ray)")] = None,
    out: Annotated[Path, typer.Option("--out", help="Folder for job folders")] = Path("runs/genxr"),
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Finish this interrupted job folder", file_okay=False)
    ] = None,
    max_steps: Annotated[int | None, typer.Option("--max-steps", min=1, help="Agent step limit")] = None,
    wall_time: Annotated[float | None, typer.Option("--wall-time", min=1, help="Agent wall-clock limit (s)")] = None,
    cost_limit: Annotated[float | None, typer.Option("--cost-limit", help="Agent cost limit (USD)")] = None,
    allow_network: Annotated[bool, typer.Option("--allow-network", help="Give the agent's sandbox network")] = False,
    pass_env: Annotated[
        list[str] | None, typer.Option("--pass-env", help="Environment variable the agent may see (repeatable)")
    ] = None,
    record: Annotated[bool, typer.Option("--record", help="Keep the verifier's video of every XR test")] = False,
    fail_fast: Annotated[
        bool,
        typer.Option("--fail-fast", help="Stop each verification at its first failing test (same reward, faster)"),
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Base seed (attempt i uses seed + i)")] = 0,
) -> None:
    """Evaluate an agent on the suite: one trial per task x attempt, verified, summarized."""
    from xrbench.genxr.agents import make_agent
    from xrbench.genxr.job import JobConfig, limits_from, load_config, resume_job, run_job

    # Everything is checked before the first trial: a bad name or a missing provider fails now.
    if resume is not None:
        if agent is not None:
            raise UserError("--resume takes the job's own configuration; do not pass --agent")
        config = load_config(resume)
    else:
        if agent is None:
            raise UserError("--agent is required (oracle, nop, command, mini-swe-agent or module:Class)")
        config = JobConfig(
            agent=agent,
            agent_args=_agent_args(agent_arg),
            provider={"provider": provider, "model": model, "base_url": base_url, "replay": replay},
            tasks_dir=str(tasks),
            only=list(only or []),
            attempts=attempts,
            workers=workers,
            executor=executor,
            address=address,
            limits=limits_from(steps=max_steps, wall_time_s=wall_time, cost_usd=cost_limit),
            network=allow_network,
            env_pass=list(pass_env or []),
            record=record,
            fail_fast=fail_fast,
            seed=seed,
        )
    make_agent(config.agent, config.agent_args, config.provider)

    with progress_bars() as start:
        advance: list = []

        def on_plan(total: int, todo: int) -> None:
            advance.append(start(f"trials ({total - todo} of {total} already done)", todo))

        def on_trial(result: dict) -> None:
            advance[0](1)

        if resume is not None:
            summary = resume_job(resume, on_plan=on_plan, on_trial=on_trial, executor=executor, workers=workers)
            job_dir = resume
        else:
            job_dir, summary = run_job(config, out, on_plan=on_plan, on_trial=on_trial)
    _print_summary(job_dir, summary)


@app.command()
def regrade(
    job: Annotated[Path, typer.Argument(help="A job folder", exists=True, file_okay=False)],
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="Verifier runs per trial")] = 1,
) -> None:
    """Re-run only the verifier on a job's recorded workspaces (verifier flakiness)."""
    from xrbench.genxr.job import regrade_job

    report = regrade_job(job, repeats=repeats)
    n = len(report["trials"])
    bad = report["disagreeing_trials"]
    console.print(f"{n} trial(s) regraded {repeats}x: {len(bad)} disagree with their recorded reward")
    for t in bad:
        console.print(f"[red]disagrees[/red]: {t}")
    err_console.print(f"wrote {job / 'regrade.json'}")
    raise typer.Exit(1 if bad else 0)


export_app = App(help="Export the suite in other harnesses' task formats.")
app.add_typer(export_app, name="export")


@export_app.command("harbor")
def export_harbor_cmd(
    out: Annotated[Path, typer.Argument(help="Folder for the Harbor tasks (one sub-folder per task)")],
    tasks: TasksOpt = DEFAULT_TASKS_DIR,
    only: Annotated[list[str] | None, typer.Option("--only", help="Export only this task id (repeatable)")] = None,
) -> None:
    """Write each task in Harbor's task format (task.toml, instruction.md, environment/, tests/, solution/)."""
    from xrbench.genxr.harbor import export_harbor

    loaded = [find_task(i, tasks) for i in dict.fromkeys(only)] if only else load_tasks(tasks)
    if not only:
        loaded = [t for t in loaded if not t.spec.example]
    with progress_bars() as start:
        advance = start(f"export {len(loaded)} task(s) to Harbor", len(loaded))
        folders = export_harbor(loaded, out, on_task=lambda _folder: advance(1))
    console.print(
        f"wrote {len(folders)} Harbor task(s) to {out} (run one: harbor run -p {out}/<task> -a AGENT -m MODEL)"
    )
