"""The `xrbench` command line."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer

from xrbench.cli import context_cmd, genxr_cmd, setup_cmd, xr_cmd
from xrbench.cli.common import App, BaseUrlOpt, ModelOpt, ProviderOpt, ReplayOpt, console

app = App(help="xrbench: benchmarks for XR development and XR interfaces.")
app.add_typer(context_cmd.app, name="context")
app.add_typer(genxr_cmd.app, name="genxr")
app.add_typer(xr_cmd.app, name="xr")
app.command("setup")(setup_cmd.setup)
try:
    from xrbench.cli.llm_cmd import app as llm_app
except ImportError:  # pragma: no cover
    pass
else:
    app.add_typer(llm_app, name="llm", help="Check or try the configured model provider.")


@app.command()
def run(
    out: Annotated[Path | None, typer.Option("--out", help="Run directory (default runs/run/<timestamp>)")] = None,
    quick: Annotated[bool, typer.Option("--quick", help="Smaller, faster run")] = False,
    provider: ProviderOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    replay: ReplayOpt = None,
) -> None:
    """The default end-to-end job on bundled data, offline. Today: the ContextXR experiments."""
    out = out or Path("runs") / "run" / datetime.now().strftime("%Y%m%d-%H%M%S")
    folds = 3 if quick else 5
    result = context_cmd.run_context(
        out / "context", folds=folds, provider=provider, model=model, base_url=base_url, replay=replay
    )
    console.rule("ContextXR (bundled synthetic dataset)")
    context_cmd.print_run(result)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
