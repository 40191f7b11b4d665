"""`xrbench guidance`: does guidance (app contract + skill + references) make a model write better
XR Blocks apps? A thin layer over `xrbench.guidance`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from xrbench.cli.common import (
    App,
    BaseUrlOpt,
    ModelOpt,
    ProviderOpt,
    ReplayOpt,
    console,
    progress_bars,
    resolve_provider,
    split_list,
)
from xrbench.errors import UserError

app = App(help="Guidance evaluation: with-skill / without-skill / with-baseline arms, scores, judge, reports.")

DEFAULT_OUT = Path("runs") / "guidance"
OutOpt = Annotated[Path, typer.Option("--out", help="Run directory (results/, workspaces/, charts/)")]
TasksRootOpt = Annotated[Path | None, typer.Option("--tasks-root", help="Tasks root (default: the bundled tasks)")]
XrblocksOpt = Annotated[
    Path | None,
    typer.Option("--xrblocks", help="xrblocks package to read skills and references from (default: node_modules)"),
]


def _tasks_root(root: Path | None) -> Path:
    from xrbench.guidance.task import TASKS_DIR

    return root or TASKS_DIR


def _judge_llm(provider, base_url, replay, judge_model: str | None, generator, self_judge: bool):
    from xrbench.guidance.judge import choose_judge_model
    from xrbench.llm import NotConfigured, resolve_llm

    name = choose_judge_model(
        judge_model, generator=generator.model, provider=generator.provider.name, self_judge=self_judge
    )
    try:
        return resolve_llm(provider=provider, model=name, base_url=base_url, replay=replay)
    except NotConfigured as e:
        raise UserError(f"--judge: {e.reason}") from None


@app.command()
def run(
    modes: Annotated[
        str | None, typer.Option("--modes", help="Comma-separated arms: with-skill,without-skill,with-baseline")
    ] = None,
    tasks: Annotated[list[str] | None, typer.Option("--tasks", help="Task ids (repeat or comma-separate)")] = None,
    judge: Annotated[bool, typer.Option("--judge", help="Also ask a judge model to rate every candidate")] = False,
    judge_model: Annotated[
        str | None,
        typer.Option(
            "--judge-model", help="Judge model (default: XRBENCH_JUDGE_MODEL, else gemini-2.5-pro on the Gemini API)"
        ),
    ] = None,
    self_judge: Annotated[
        bool, typer.Option("--self-judge", help="Allow the generating model to judge its own candidates")
    ] = False,
    repeats: Annotated[int, typer.Option("--repeats", min=1, help="Generations per cell; cells hold medians")] = 1,
    baseline_file: Annotated[
        Path | None, typer.Option("--baseline-file", help="Local copy of the pinned published prompt (with-baseline)")
    ] = None,
    smoke: Annotated[bool, typer.Option("--smoke", help="Smoke-test every workspace in the browser")] = False,
    runtime: Annotated[bool, typer.Option("--runtime", help="Run the XR tests of tasks that carry them")] = False,
    temperature: Annotated[float, typer.Option("--temperature", min=0.0)] = 0.2,
    workers: Annotated[int, typer.Option("--workers", min=1, help="Concurrent model calls")] = 1,
    out: OutOpt = DEFAULT_OUT,
    tasks_root: TasksRootOpt = None,
    xrblocks: XrblocksOpt = None,
    provider: ProviderOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    replay: ReplayOpt = None,
) -> None:
    """Generate, score (and judge) every selected task x arm; writes results/<model>/<mode>/<task>.json."""
    from xrbench.guidance.arms import check_baseline_selection, parse_modes
    from xrbench.guidance.runner import SweepConfig, model_slug, prepare_baseline, run_sweep
    from xrbench.guidance.task import default_xrblocks_root, resolve_tasks

    # Every selection is validated before anything is generated.
    chosen = parse_modes(modes)
    check_baseline_selection(chosen, baseline_file)
    xrblocks_root = xrblocks or default_xrblocks_root()
    task_list = resolve_tasks(_tasks_root(tasks_root), split_list(tasks) or None, xrblocks_root=xrblocks_root)
    baseline = prepare_baseline(chosen, baseline_file, task_list)
    llm, reason = resolve_provider(provider, model, base_url, replay)
    if llm is None:
        console.print(f"skipped: {reason}", highlight=False)
        return
    model_slug(llm.model)
    judge_llm = _judge_llm(provider, base_url, replay, judge_model, llm, self_judge) if judge else None
    config = SweepConfig(
        tasks=task_list,
        modes=chosen,
        out=out,
        xrblocks_root=xrblocks_root,
        repeats=repeats,
        temperature=temperature,
        judge=judge,
        smoke=smoke,
        runtime=runtime,
        workers=workers,
        baseline=baseline,
        baseline_file=baseline_file,
    )
    with progress_bars() as start:
        advance = start(f"guidance {llm.model}", len(task_list) * len(chosen))
        result = run_sweep(config, llm, judge_llm, on_done=lambda _o: advance(1))
    _print_sweep(result, config)
    if result.errors:
        raise typer.Exit(1)


def _print_sweep(result: Any, config: Any) -> None:
    from rich.table import Table

    from xrbench.guidance.runner import Layout

    table = Table(title=f"guidance sweep: {result.model}")
    for col in ("task", "mode", "composite", "api", "parse", "forbidden", "judge", "smoke", "runtime"):
        table.add_column(col, overflow="fold")
    for o in result.outcomes:
        if o.error:
            table.add_row(o.task, o.mode, "[red]error[/red]", "", "", "", "", "", "")
            continue
        c = o.cell or {}
        j = o.judge or {}
        judge = (
            "–"
            if not j
            else (
                "unparseable"
                if "error" in j and "accomplishes_task" not in j
                else f"{j.get('accomplishes_task')}/{j.get('idiomatic_xrblocks')}/{j.get('hallucination_severity')}"
            )
        )
        table.add_row(
            o.task,
            o.mode,
            f"{c.get('composite')}",
            f"{c.get('api_hits')}/{c.get('api_total')}" if "repeats" not in c else f"{c.get('api_match')}",
            f"{c.get('parse_ok')}",
            f"{c.get('forbidden_clean')}",
            judge,
            "–" if "smoke_ok" not in c else f"{c.get('smoke_ok')}",
            "–" if "runtime_pass" not in c else f"{c.get('runtime_pass')}",
        )
    console.print(table)
    for o in result.errors:
        console.print(f"[red]error[/red] {o.task} {o.mode}: {o.error}", highlight=False)
    layout = Layout(config.out)
    console.print(f"cells in [bold]{layout.results}[/bold]; workspaces in {layout.workspaces}", highlight=False)
    console.print(f"next: xrbench guidance summarize --out {config.out}; xrbench guidance plot --out {config.out}")


@app.command()
def score(
    task_dir: Annotated[Path, typer.Argument(help="Task directory (spec.json)")],
    workspaces: Annotated[list[Path], typer.Argument(help="Workspace(s) holding the edit file")],
) -> None:
    """Print the FIXED static score as JSON (for several workspaces an array, each score with its
    `workspace`, parsed in one Node process)."""
    from xrbench.guidance.score import load_task_spec, score_many, score_workspace

    spec = load_task_spec(task_dir)
    for w in workspaces:
        if not w.is_dir():
            raise UserError(f"{w}: workspace is not a directory")
    if len(workspaces) == 1:
        typer.echo(json.dumps(score_workspace(task_dir, workspaces[0], spec=spec), indent=2))
    else:
        scores = score_many([(task_dir, w) for w in workspaces], specs={str(task_dir): spec})
        named = [{"workspace": str(w), **s} for w, s in zip(workspaces, scores, strict=True)]
        typer.echo(json.dumps(named, indent=2))


@app.command()
def smoke(workspace: Annotated[Path, typer.Argument(help="Workspace with index.html")]) -> None:
    """Smoke-test one workspace in the browser (offline) and print JSON with smoke_ok."""
    from xrbench.guidance.smoke import smoke_test
    from xrbench.xrtest import close_shared_browser

    if not (workspace / "index.html").is_file():
        raise UserError(f"{workspace}: no index.html")
    try:
        typer.echo(json.dumps(smoke_test(workspace), indent=2))
    finally:
        close_shared_browser()


@app.command()
def summarize(
    out: OutOpt = DEFAULT_OUT,
    results: Annotated[Path | None, typer.Option("--results", help="Results directory (default OUT/results)")] = None,
    output: Annotated[Path | None, typer.Option("--output", help="Markdown file (default RESULTS/_summary.md)")] = None,
) -> None:
    """Write Markdown side-by-side tables per model and print them."""
    from xrbench.guidance.summarize import summarize as write_summary

    text, path = write_summary(results or out / "results", output)
    typer.echo(text)
    console.print(f"wrote {path}", highlight=False)


@app.command()
def plot(
    out: OutOpt = DEFAULT_OUT,
    results: Annotated[Path | None, typer.Option("--results", help="Results directory (default OUT/results)")] = None,
    charts: Annotated[Path | None, typer.Option("--charts", help="Chart directory (default OUT/charts)")] = None,
) -> None:
    """Write the charts (composite, judge, metrics grid, prompt style, api-match) as PNG."""
    from xrbench.guidance.plots import plot_all

    files = plot_all(results or out / "results", charts or out / "charts")
    for f in files:
        console.print(f"wrote {f}", highlight=False)


@app.command()
def ablate(
    task: Annotated[str, typer.Argument(help="Task id")],
    repeats: Annotated[int, typer.Option("--repeats", min=1)] = 1,
    temperature: Annotated[float, typer.Option("--temperature", min=0.0)] = 0.2,
    out: OutOpt = DEFAULT_OUT,
    tasks_root: TasksRootOpt = None,
    xrblocks: XrblocksOpt = None,
    provider: ProviderOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    replay: ReplayOpt = None,
) -> None:
    """Drop one `## ` section of the task's skill at a time and score each variant."""
    from xrbench.guidance.ablate import ablate_task, ablation_markdown, variants
    from xrbench.guidance.runner import model_slug
    from xrbench.guidance.task import resolve_tasks, validate_task_id

    validate_task_id(task)
    (resolved,) = resolve_tasks(_tasks_root(tasks_root), [task], xrblocks_root=xrblocks)
    llm, reason = resolve_provider(provider, model, base_url, replay)
    if llm is None:
        console.print(f"skipped: {reason}", highlight=False)
        return
    model_slug(llm.model)
    n = len(variants(resolved.skill_text()))
    with progress_bars() as start:
        advance = start(f"ablate {task}", n)
        report = ablate_task(
            llm, resolved, out, repeats=repeats, temperature=temperature, on_variant=lambda _v: advance(1)
        )
    typer.echo(ablation_markdown(report))
    console.print(f"wrote {report['path']}", highlight=False)


def check_result(
    tasks_root: Path | None = None,
    *,
    smoke: bool = True,
    references_smoke: bool = False,
    references_runtime: bool = False,
    xrblocks: Path | None = None,
) -> dict[str, Any]:
    """Library entry for `guidance check` (`xrbench.guidance.check.check_tasks` with CLI defaults)."""
    from xrbench.guidance.check import check_tasks

    return check_tasks(
        _tasks_root(tasks_root),
        xrblocks_root=xrblocks,
        smoke=smoke,
        smoke_references=references_smoke,
        runtime_references=references_runtime,
    )


def print_check(result: dict[str, Any]) -> None:
    """Print a check result as a table and its problems."""
    from rich.table import Table

    c = result["counts"]
    console.print(
        f"{result['tasks_root']}: {c['tasks']} tasks ({c['engineer']} engineer, {c['casual']} casual), "
        f"{c['templates']} templates, {c['with_reference']} with a reference answer, "
        f"{c['with_runtime_tests']} with runtime tests; xrblocks {result['xrblocks']['version']}",
        highlight=False,
    )
    table = Table(title="no-op baseline (untouched template) and reference answers")
    for col in ("task", "style", "skill", "template", "no-op composite", "reference composite"):
        table.add_column(col, overflow="fold")
    for row in result["tasks"]:
        noop = row.get("noop_composite", "–")
        ref = row.get("reference_composite", "–")
        table.add_row(row["id"], row["style"], row["skill"], row["template"], f"{noop}", f"{ref}")
    console.print(table)
    if result["templates"]:
        for name, t in result["templates"].items():
            expect = "expected to fail" if t["expected_broken"] else "expected to start"
            console.print(f"template {name}: smoke_ok {t.get('smoke_ok')} ({expect})", highlight=False)
    else:
        console.print(f"template smoke tests: {result['smoke']}", highlight=False)
    for p in result["problems"]:
        console.print(f"[red]problem[/red] {p}", highlight=False)
    console.print("[green]ok[/green]" if result["ok"] else f"[red]{len(result['problems'])} problem(s)[/red]")


@app.command()
def check(
    tasks_root: TasksRootOpt = None,
    no_smoke: Annotated[bool, typer.Option("--no-smoke", help="Skip the browser smoke tests")] = False,
    references_smoke: Annotated[
        bool, typer.Option("--references-smoke", help="Also smoke-test every reference answer")
    ] = False,
    references_runtime: Annotated[
        bool,
        typer.Option("--references-runtime", help="Also run the XR tests of tasks that carry them on their references"),
    ] = False,
    as_json: Annotated[Path | None, typer.Option("--json", help="Also write the result as JSON")] = None,
    xrblocks: XrblocksOpt = None,
) -> None:
    """Validate the tasks offline: files resolve, no-op template scores and smoke tests, reference answers."""
    from xrbench.store.atomic import atomic_write_json

    result = check_result(
        tasks_root,
        smoke=not no_smoke,
        references_smoke=references_smoke,
        references_runtime=references_runtime,
        xrblocks=xrblocks,
    )
    if as_json:
        atomic_write_json(as_json, result)
    print_check(result)
    if not result["ok"]:
        raise typer.Exit(1)
