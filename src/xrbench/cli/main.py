"""The `xrbench` command line."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from xrbench.cli import context_cmd, genxr_cmd, guidance_cmd, report_cmd, setup_cmd, xr_cmd
from xrbench.cli.common import App, BaseUrlOpt, ModelOpt, ProviderOpt, ReplayOpt, console
from xrbench.errors import UserError
from xrbench.procs import install_signal_handlers, remove_stale_tempdirs

app = App(help="xrbench: benchmarks for XR development and XR interfaces.")
app.add_typer(context_cmd.app, name="context")
app.add_typer(genxr_cmd.app, name="genxr")
app.add_typer(guidance_cmd.app, name="guidance")
app.add_typer(xr_cmd.app, name="xr")
app.command("setup")(setup_cmd.setup)
app.command("report")(report_cmd.report)
try:
    from xrbench.cli.llm_cmd import app as llm_app
except ImportError:  # pragma: no cover
    pass
else:
    app.add_typer(llm_app, name="llm", help="Check or try the configured model provider.")


@app.command()
def run(
    out: Annotated[Path | None, typer.Option("--out", help="Run directory (default runs/run/<timestamp>)")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="A smaller run (under five minutes on 2 cores)")] = False,
    full: Annotated[
        bool, typer.Option("--full", help="Every GenXR task and mutant (default: a representative subset)")
    ] = False,
    executor: Annotated[str, typer.Option("--executor", help="Where GenXR candidates run: local | ray")] = "local",
    address: Annotated[str | None, typer.Option("--address", help="Ray cluster address (default: local Ray)")] = None,
    provider: ProviderOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    replay: ReplayOpt = None,
) -> None:
    """Every benchmark on bundled data, offline, into one run folder and an HTML report."""
    from rich.table import Table

    from xrbench.cli.common import progress_bars
    from xrbench.run_all import RunOptions, run_all

    out = out or Path("runs") / "run" / datetime.now().strftime("%Y%m%d-%H%M%S")
    if quick and full:
        raise UserError("--quick and --full contradict each other; choose one")
    provider_opts = {"provider": provider, "model": model, "base_url": base_url, "replay": replay}
    opts = RunOptions(out, quick, full, executor, address, provider_opts)
    with progress_bars() as start:
        parts = run_all(opts, start, on_part=lambda p: console.print(f"[bold]{p.name}[/bold]: {p.status}"))
    index = _render_report(out)
    kind = "quick" if quick else "full" if full else "representative"
    table = Table(title=f"xrbench run ({kind}): {out}", title_justify="left")
    for col in ("part", "status", "headline", "note", "seconds"):
        table.add_column(col, overflow="fold")
    for p in parts:
        color = {"ok": "green", "skipped": "yellow"}.get(p.status, "red")
        headline = "; ".join(f"{k} {v}" for k, v in p.headline.items())
        table.add_row(p.name, f"[{color}]{p.status}[/{color}]", headline, p.reason[:160], f"{p.seconds:.0f}")
    console.print(table)
    console.print(f"report: {index}")
    if any(p.status == "failed" for p in parts):
        raise typer.Exit(1)


def _render_report(run_dir: Path) -> Path:
    from xrbench.report import render_site

    return render_site(run_dir)


@app.command()
def compare(
    run_a: Annotated[Path, typer.Argument(help="A run folder (from xrbench run)")],
    run_b: Annotated[Path, typer.Argument(help="Another run folder")],
) -> None:
    """What changed between two runs: configuration, versions, data checksums, results."""
    from xrbench.compare import compare_runs

    diff = compare_runs(run_a, run_b)
    if diff.same:
        console.print("no differences")
        return
    for key, (a, b) in diff.changed.items():
        console.print(f"[yellow]changed[/yellow] {key}: {a!r} -> {b!r}", highlight=False)
    for key, v in diff.only_a.items():
        console.print(f"[red]only in {run_a}[/red] {key}: {v!r}", highlight=False)
    for key, v in diff.only_b.items():
        console.print(f"[green]only in {run_b}[/green] {key}: {v!r}", highlight=False)
    raise typer.Exit(1)


def main() -> None:
    # Ctrl-C or SIGTERM also ends the test runs and agents started in sessions of their own.
    install_signal_handlers()
    # Folders a killed run left behind (see procs.owned_tempdir) go before this run makes its own.
    remove_stale_tempdirs()
    app()


if __name__ == "__main__":
    main()
