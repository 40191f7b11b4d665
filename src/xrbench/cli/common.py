"""Shared CLI plumbing: user errors as one-line messages, progress bars, provider options."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from xrbench.errors import UserError

console = Console(soft_wrap=True)
err_console = Console(stderr=True)


class App(typer.Typer):
    """A Typer app whose commands report `UserError`s and `OSError`s as plain lines (exit 2), never tracebacks."""

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("no_args_is_help", True)
        kwargs.setdefault("pretty_exceptions_enable", False)
        super().__init__(**kwargs)

    def command(self, *args: Any, **kwargs: Any) -> Callable:
        register = super().command(*args, **kwargs)

        def decorate(f: Callable) -> Callable:
            @functools.wraps(f)
            def guarded(*a: Any, **kw: Any) -> Any:
                try:
                    return f(*a, **kw)
                except UserError as e:
                    for line in str(e).splitlines() or [type(e).__name__]:
                        err_console.print(f"error: {line}", markup=False, highlight=False, soft_wrap=True)
                    raise typer.Exit(2) from None
                except OSError as e:  # a file the command cannot read or write: name it, no traceback
                    where = f"{e.filename}: " if e.filename else ""
                    err_console.print(f"error: {where}{e.strerror or e}", markup=False, highlight=False)
                    raise typer.Exit(2) from None

            register(guarded)
            return f

        return decorate


MILESTONE_GAP_S = 10.0


@contextmanager
def progress_bars() -> Iterator[Callable[[str, int], Callable[[int], None]]]:
    """Yields `start(label, total) -> advance(n)`; one rich bar per long loop."""
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err_console,
        transient=False,
    )
    # Off a terminal (a log file, CI) rich draws the bars only once, at the end: a 50-minute loop
    # would be silent. There, a plain line marks each tenth of a slow loop (one that has taken
    # MILESTONE_GAP_S since its last line; fast loops stay quiet and show in the final bars).
    milestones = not err_console.is_terminal
    with progress:

        def start(label: str, total: int) -> Callable[[int], None]:
            task = progress.add_task(label, total=total)
            shown, last = 0, 0.0

            def advance(n: int = 1) -> None:
                nonlocal shown, last
                progress.advance(task, n)
                state = progress.tasks[task]
                done, elapsed = int(state.completed), state.elapsed or 0.0
                step = done * 10 // total if total > 0 else 10
                if milestones and step > shown and elapsed - last >= MILESTONE_GAP_S:
                    shown, last = step, elapsed
                    progress.console.print(
                        f"{label.strip()}: {done}/{total} ({elapsed:.0f} s)", markup=False, highlight=False
                    )

            return advance

        yield start


ProviderOpt = Annotated[str | None, typer.Option("--provider", help="gemini | openai | replay (default: from env)")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model name (default: XRBENCH_MODEL)")]
BaseUrlOpt = Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint (vLLM, Ollama, ...)")]
ReplayOpt = Annotated[str | None, typer.Option("--replay", help="Recorded responses (JSONL) to replay offline")]


def resolve_provider(provider: str | None, model: str | None, base_url: str | None, replay: str | None):
    """(llm, None) when a provider is configured, else (None, reason)."""
    from xrbench.llm import NotConfigured, resolve_llm

    try:
        return resolve_llm(provider=provider, model=model, base_url=base_url, replay=replay), None
    except NotConfigured as e:
        return None, e.reason


def split_list(values: list[str] | None) -> list[str]:
    """Accept both `--x a --x b` and `--x a,b`."""
    return [v.strip() for item in values or [] for v in item.split(",") if v.strip()]
