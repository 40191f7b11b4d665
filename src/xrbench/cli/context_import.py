"""CLI commands that import external data as a ContextXR dataset directory.

`register(app)` adds `import-minexr` (the MineXR release plus a facet-annotation CSV) and
`import-csv` (any context-usage CSV) to a Typer app. Each writes `catalog.json`, `events.csv` and
`meta.json` into `--out` and prints a one-line summary; input problems are printed one per line on
stderr with exit status 2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from xrbench.context.dataset import Dataset
from xrbench.context.importers import import_csv, import_minexr
from xrbench.errors import UserError

_OUT = typer.Option("--out", help="Dataset directory to write (catalog.json, events.csv, meta.json).")


def _save(dataset: Dataset, out: Path) -> None:
    try:
        dataset.save(out)
    except OSError as e:
        raise UserError(f"{out}: cannot write dataset: {e.strerror or e}") from None


def import_minexr_command(
    widgets: Annotated[Path, typer.Option("--widgets", help="MineXR widgets.csv.")],
    layouts: Annotated[Path, typer.Option("--layouts", help="MineXR layouts.json.")],
    history: Annotated[Path, typer.Option("--history", help="MineXR interaction_history.csv.")],
    annotations: Annotated[Path, typer.Option("--annotations", help="CSV with header anchorId,facet_ids.")],
    catalog: Annotated[Path, typer.Option("--catalog", help="catalog.json the annotations refer to.")],
    out: Annotated[Path, _OUT],
    name: Annotated[str, typer.Option("--name", help="Dataset name recorded in meta.json.")] = "minexr",
) -> None:
    """Import the MineXR release and its facet annotations as a ContextXR dataset."""
    dataset = import_minexr(widgets, layouts, history, annotations, catalog, name=name)
    _save(dataset, out)
    info = dataset.meta["import"]
    typer.echo(
        f"{out}: {len(dataset.scenarios)} scenarios, {dataset.n_events} events, "
        f"{info['skipped_widgets']} widgets skipped (no facet annotation), "
        f"{len(info['dropped_empty_layouts'])} layouts dropped (no annotated widget)"
    )


def import_csv_command(
    file: Annotated[Path, typer.Argument(help="Context-usage CSV, one row per item use.")],
    user_col: Annotated[str, typer.Option("--user-col", help="Column with the user id.")],
    task_col: Annotated[str, typer.Option("--task-col", help="Column with the task.")],
    env_col: Annotated[str, typer.Option("--env-col", help="Column with the environment.")],
    item_col: Annotated[str, typer.Option("--item-col", help="Column with the item (facet id).")],
    out: Annotated[Path, _OUT],
    time_col: Annotated[
        str | None, typer.Option("--time-col", help="Column with the time (number or ISO-8601); default: file order.")
    ] = None,
    scenario_col: Annotated[
        str | None, typer.Option("--scenario-col", help="Column with a scenario/session id.")
    ] = None,
    extra_col: Annotated[
        list[str] | None, typer.Option("--extra-col", help="Extra context column (repeatable).")
    ] = None,
    catalog: Annotated[
        Path | None, typer.Option("--catalog", help="catalog.json whose facet ids the items are.")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Dataset name (default: file stem).")] = None,
    delimiter: Annotated[
        str | None, typer.Option("--delimiter", help="Field delimiter (default: sniffed from the header).")
    ] = None,
    encoding: Annotated[str, typer.Option("--encoding", help="The file's text encoding.")] = "utf-8",
) -> None:
    """Import a context-usage CSV as a ContextXR dataset (flat catalog unless --catalog)."""
    dataset = import_csv(
        file,
        user_col=user_col,
        task_col=task_col,
        env_col=env_col,
        item_col=item_col,
        time_col=time_col,
        scenario_col=scenario_col,
        extra_cols=extra_col or (),
        catalog=catalog,
        name=name,
        delimiter=None if delimiter is None else delimiter.replace("\\t", "\t"),
        encoding=encoding,
    )
    _save(dataset, out)
    info = dataset.meta["import"]
    for warning in info["warnings"]:
        typer.echo(f"warning: {warning}", err=True)
    typer.echo(
        f"{out}: {len(dataset.scenarios)} scenarios, {dataset.n_events} events, "
        f"{info['repeated_items']} rows skipped (item repeated in its scenario), {info['catalog']} catalog"
    )


def register(app: typer.Typer) -> None:
    """Add the `import-minexr` and `import-csv` commands to a Typer app.

    Give it an `xrbench.cli.common.App`, whose commands print `UserError`s as one-line errors.
    """
    app.command("import-minexr")(import_minexr_command)
    app.command("import-csv")(import_csv_command)
