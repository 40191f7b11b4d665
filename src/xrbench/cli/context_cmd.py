"""`xrbench context`: the ContextXR benchmark (thin layer over `xrbench.context`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

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

app = App(help="ContextXR: which app functionality (facets) to surface for a user's context.")

BUNDLED = Path(__file__).resolve().parent.parent / "data" / "context"
DataOpt = Annotated[Path, typer.Option("--data", help="Dataset directory (catalog.json + events.csv)")]


def _load(data: Path):
    from xrbench.context.dataset import Dataset

    return Dataset.load(data)


def _cost_model(dataset, cost_config: Path | None):
    from xrbench.context.cost import MenuCostModel, load_cost_params, menu_order_by_use

    order = menu_order_by_use(dataset.scenarios, dataset.catalog)
    return MenuCostModel(dataset.catalog, load_cost_params(cost_config), menu_order=order)


@app.command()
def simulate(
    out: Annotated[Path, typer.Option("--out", help="Output dataset directory")],
    users: Annotated[int, typer.Option("--users")] = 31,
    scenarios: Annotated[int, typer.Option("--scenarios")] = 109,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    w_user: Annotated[float, typer.Option("--w-user", help="Weight of personal favourites")] = 0.45,
    w_task: Annotated[float, typer.Option("--w-task", help="Weight of the task's typical facets")] = 0.35,
    w_env: Annotated[float, typer.Option("--w-env", help="Weight of the environment's typical facets")] = 0.20,
    mean_facets: Annotated[float, typer.Option("--mean-facets")] = 6.2,
    catalog: Annotated[Path | None, typer.Option("--catalog", help="Facet catalog (default: bundled)")] = None,
    profiles: Annotated[
        Path | None, typer.Option("--profiles", help="Task/environment profiles (default: bundled)")
    ] = None,
) -> None:
    """Generate a MineXR-shaped synthetic dataset."""
    from xrbench.context.catalog import Catalog
    from xrbench.context.simulate import DATA_DIR, SimConfig, load_profiles, simulate

    cat = Catalog.load(catalog or DATA_DIR / "catalog.json")
    prof = load_profiles(profiles, cat)
    config = SimConfig(
        users=users,
        scenarios=scenarios,
        seed=seed,
        w_user=w_user,
        w_task=w_task,
        w_env=w_env,
        mean_facets=mean_facets,
    )
    dataset = simulate(config, cat, prof)
    dataset.save(out)
    envs = len({s.environment for s in dataset.scenarios})
    tasks = len({s.task for s in dataset.scenarios})
    console.print(
        f"wrote {out}: {len({s.user for s in dataset.scenarios})} users, {len(dataset.scenarios)} scenarios, "
        f"{dataset.n_events} placements, {tasks} tasks, {envs} environments (synthetic)"
    )


@app.command()
def validate(data: DataOpt = BUNDLED) -> None:
    """Validate a dataset and print its size."""
    ds = _load(data)
    cat = ds.catalog
    console.print(
        f"{data}: ok: {len(cat.apps)} apps, {len(cat.facets)} facets, {cat.n_capabilities} capabilities; "
        f"{len({s.user for s in ds.scenarios})} users, {len(ds.scenarios)} scenarios, {ds.n_events} placements"
        + (" (synthetic)" if ds.synthetic else "")
    )


@app.command()
def lift(
    out: Annotated[Path, typer.Option("--out", help="Output JSON file")],
    data: DataOpt = BUNDLED,
) -> None:
    """Task 1: context factor analysis (lift per facet and the dominant-factor distribution)."""
    from xrbench.context.dataset import FACTORS
    from xrbench.context.lift import lift_analysis
    from xrbench.store.atomic import atomic_write_json

    ds = _load(data)
    result = lift_analysis(ds.scenarios, (*FACTORS, *ds.extra_columns))
    atomic_write_json(out, result)
    dist = ", ".join(f"{k} {v}" for k, v in result["distribution"].items())
    plain = ", ".join(f"{k} {v}" for k, v in result["distribution_plain"].items())
    console.print(f"wrote {out}: {len(result['facets'])} facets; dominant factor: {dist} (plain ratio: {plain})")


@app.command()
def evaluate(
    method: Annotated[str, typer.Option("--method", help="Registry name or module:Class")],
    out: Annotated[Path, typer.Option("--out", help="Output JSON file")],
    data: DataOpt = BUNDLED,
    task: Annotated[str, typer.Option("--task", help="initial | next")] = "initial",
    k: Annotated[int, typer.Option("--k", min=1)] = 10,
    folds: Annotated[int, typer.Option("--folds", min=2)] = 5,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    cost_config: Annotated[Path | None, typer.Option("--cost-config", help="TOML/YAML cost parameters")] = None,
    next_target: Annotated[
        str,
        typer.Option("--next-target", help="all (the paper's) | remaining | next: what a next-facet record targets"),
    ] = "all",
    provider: ProviderOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    replay: ReplayOpt = None,
) -> None:
    """Tasks 2 and 3: evaluate one suggestion method."""
    from xrbench.context.evaluate import EvalConfig
    from xrbench.context.evaluate import evaluate as run_eval
    from xrbench.context.methods.registry import create_method
    from xrbench.store.atomic import atomic_write_json

    if task not in ("initial", "next"):
        raise UserError(f"--task: expected 'initial' or 'next', got {task!r}")
    if next_target not in ("all", "remaining", "next"):
        raise UserError(f"--next-target: expected 'all', 'remaining' or 'next', got {next_target!r}")
    ds = _load(data)
    cost = _cost_model(ds, cost_config)
    m = create_method(method)
    if getattr(m, "needs_provider", False):
        llm, reason = resolve_provider(provider, model, base_url, replay)
        if llm is None:
            atomic_write_json(
                out,
                {"task": task, "method": method, "k": k, "skipped": reason, "aggregate": None, "records": []},
            )
            console.print(f"skipped: {reason}")
            return
        m.llm = llm
    config = EvalConfig(task, k, folds, seed, next_target)  # type: ignore[arg-type]
    total = sum(max(len(s.facets) - 1, 0) if task == "next" else 1 for s in ds.scenarios)
    with progress_bars() as start:
        result = run_eval(ds, m, method, cost, config, on_progress=start(f"{task} {method}", total))
    atomic_write_json(out, result)
    a = result["aggregate"]
    console.print(
        f"wrote {out}: {a['records']} records over {a['scenarios']} scenarios; cost {a['cost']:.2f} vs manual "
        f"{a['manual_cost']:.2f} ({a['reduction_pct']:+.1f}%), recall {a['recall']:.3f}, F1 {a['f1']:.3f}, "
        f"hit {a['hit']:.3f}, NDCG {a['ndcg']:.3f}" + (f"; {a['failed']} failed records" if a["failed"] else "")
    )


def run_context(
    out: Path,
    data: Path = BUNDLED,
    methods: list[str] | None = None,
    k: int = 10,
    folds: int = 5,
    seed: int = 0,
    cost_config: Path | None = None,
    example: str | None = None,
    provider: str | None = None,
    model: str | None = None,
    base_url: str | None = None,
    replay: str | None = None,
):
    """Library entry for `context run` (also used by the top-level `xrbench run`)."""
    from xrbench.context.evaluate import EvalConfig
    from xrbench.context.experiments import run_experiments
    from xrbench.context.methods.registry import DEFAULT_METHODS, LLM_METHODS

    ds = _load(data)
    cost = _cost_model(ds, cost_config)
    llm, reason = resolve_provider(provider, model, base_url, replay)
    chosen = methods or [*DEFAULT_METHODS, *LLM_METHODS]
    if example is not None and example not in ds.by_id():
        raise UserError(f"--example: no scenario {example!r} in {data}")
    with progress_bars() as start:
        return run_experiments(
            ds,
            chosen,
            out,
            cost,
            EvalConfig("initial", k, folds, seed),
            llm=llm,
            skip_reason=reason,
            progress=start,
            example=example,
        )


def print_run(result) -> None:
    from rich.markdown import Markdown

    for task in ("initial", "next"):
        console.print(Markdown(result.tables[task]))
    by_reason: dict[str, list[str]] = {}
    for name, reason in result.skipped.items():
        by_reason.setdefault(reason, []).append(name)
    for reason, names in by_reason.items():
        console.print(f"[yellow]skipped[/yellow] {', '.join(names)}: {reason}", highlight=False)
    console.print(f"tables and figures in [bold]{result.out}[/bold]:")
    for f in result.files:
        console.print(f"  {f}")


@app.command()
def run(
    out: Annotated[Path, typer.Option("--out", help="Output directory")],
    data: DataOpt = BUNDLED,
    methods: Annotated[list[str] | None, typer.Option("--methods", help="Methods (repeat or comma-separate)")] = None,
    k: Annotated[int, typer.Option("--k", min=1)] = 10,
    folds: Annotated[int, typer.Option("--folds", min=2)] = 5,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    cost_config: Annotated[Path | None, typer.Option("--cost-config")] = None,
    example: Annotated[str | None, typer.Option("--example", help="Scenario id for the example figure")] = None,
    provider: ProviderOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    replay: ReplayOpt = None,
) -> None:
    """Run all three experiments; write paper-shaped tables (Markdown, CSV) and figures (PNG)."""
    result = run_context(
        out,
        data,
        split_list(methods),
        k,
        folds,
        seed,
        cost_config,
        example,
        provider,
        model,
        base_url,
        replay,
    )
    print_run(result)


try:
    from xrbench.cli.context_import import register as _register_importers
except ImportError:  # pragma: no cover - importers are optional during development
    pass
else:
    _register_importers(app)
