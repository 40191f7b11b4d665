"""`xrbench report PATH`: the static HTML report of a GenXR job folder or of an `xrbench run` directory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from xrbench.cli.common import console
from xrbench.errors import UserError


def report(
    path: Annotated[Path, typer.Argument(help="A GenXR job folder, or an `xrbench run` directory", show_default=False)],
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Report folder for a job (default <job>/report; a run's is <run>/report)"),
    ] = None,
    screenshot: Annotated[
        Path | None, typer.Option("--screenshot", help="Also save a PNG of the overview page (headless Chromium)")
    ] = None,
) -> None:
    """Write the static HTML report (open index.html from disk) and a Markdown summary."""
    from xrbench.report.genxr_job import is_job_dir, render_genxr_job
    from xrbench.report.site import is_run_dir, render_site

    if not path.is_dir():
        raise UserError(f"{path}: no such directory")
    if is_run_dir(path):
        if out is not None:
            raise UserError("--out applies to a job folder; a run's report is always <run>/report")
        index = render_site(path)
    elif is_job_dir(path):
        index = render_genxr_job(path, out)
    else:
        raise UserError(
            f"{path}: neither a GenXR job folder (config.json with an agent, trial folders) nor an `xrbench run` "
            'directory (context/, genxr/, or config.json with kind "run")'
        )
    console.print(f"report: {index}", markup=False, highlight=False)
    console.print(f"summary: {index.parent / 'summary.md'}", markup=False, highlight=False)
    console.print(f"open: {index.resolve().as_uri()}", markup=False, highlight=False)
    if screenshot is not None:
        from xrbench.report.check import screenshot as take_screenshot

        console.print(f"screenshot: {take_screenshot(index, screenshot)}", markup=False, highlight=False)
