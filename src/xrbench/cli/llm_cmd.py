"""`xrbench llm`: inspect the configured model provider and send one-off prompts."""

from __future__ import annotations

import json
import mimetypes
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from xrbench.llm import (
    GenerationSettings,
    Image,
    Message,
    NotConfigured,
    ProviderError,
    resolve_llm,
)

app = typer.Typer(help="Model provider: show the configuration, ask one question.", no_args_is_help=True)

ProviderOpt = Annotated[
    str | None,
    typer.Option("--provider", help="gemini | openai | replay (default: XRBENCH_PROVIDER or inferred)"),
]
ModelOpt = Annotated[str | None, typer.Option("--model", help="Model name (default: XRBENCH_MODEL)")]
BaseUrlOpt = Annotated[
    str | None,
    typer.Option("--base-url", help="OpenAI-compatible / Gemini endpoint (default: XRBENCH_BASE_URL)"),
]
ReplayOpt = Annotated[
    Path | None, typer.Option("--replay", help="Recordings file to answer from (default: XRBENCH_REPLAY)")
]


@app.command()
def info(
    provider: ProviderOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    replay: ReplayOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON")] = False,
) -> None:
    """Print the resolved provider and model, or why none is configured (exit status 0 either way)."""
    try:
        llm = resolve_llm(provider=provider, model=model, base_url=base_url, replay=replay)
    except NotConfigured as exc:
        if as_json:
            typer.echo(json.dumps({"configured": False, "reason": exc.reason}))
        else:
            typer.echo(f"skipped: {exc.reason}")
        return
    desc = llm.describe()
    if as_json:
        typer.echo(json.dumps({"configured": True, **desc}))
        return
    for key, value in desc.items():
        typer.echo(f"{key}: {value}")


@app.command()
def ask(
    prompt: Annotated[str, typer.Argument(help="The user message")],
    provider: ProviderOpt = None,
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    replay: ReplayOpt = None,
    system: Annotated[str | None, typer.Option("--system", help="System instruction")] = None,
    image: Annotated[list[Path] | None, typer.Option("--image", help="Attach an image (PNG/JPEG); repeatable")] = None,
    temperature: Annotated[float, typer.Option("--temperature")] = GenerationSettings.temperature,
    max_output_tokens: Annotated[int | None, typer.Option("--max-output-tokens")] = None,
    reasoning: Annotated[
        str | None, typer.Option("--reasoning", help="Reasoning effort (low/medium/high) or a token budget")
    ] = None,
    json_output: Annotated[bool, typer.Option("--json-output", help="Ask for a JSON answer")] = False,
    seed: Annotated[int | None, typer.Option("--seed")] = None,
) -> None:
    """Send one prompt and print the answer and its token usage."""
    err = Console(stderr=True)
    try:
        llm = resolve_llm(provider=provider, model=model, base_url=base_url, replay=replay)
    except NotConfigured as exc:
        err.print(f"[red]error:[/red] {escape(exc.reason)}", highlight=False)
        raise typer.Exit(2) from exc

    images: list[Image] = []
    for path in image or []:
        try:
            data = path.read_bytes()
        except OSError as exc:
            msg = f"cannot read image {path}: {exc.strerror}"
            err.print(f"[red]error:[/red] {escape(msg)}", highlight=False)
            raise typer.Exit(2) from exc
        mime = mimetypes.guess_type(path.name)[0] or "image/png"
        images.append(Image(data=data, mime_type=mime))

    messages: list[Message] = []
    if system:
        messages.append(Message("system", system))
    messages.append(Message("user", prompt, tuple(images)))
    budget: str | int | None = int(reasoning) if reasoning and reasoning.lstrip("-").isdigit() else reasoning
    settings = GenerationSettings(
        temperature=temperature,
        max_output_tokens=max_output_tokens,
        reasoning=budget,
        json_output=json_output,
        seed=seed,
    )
    try:
        out = llm.complete(messages, settings)
    except ProviderError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        raise typer.Exit(1) from exc

    typer.echo(out.text)
    u = out.usage
    note = " (cached)" if out.cached else ""
    err.print(
        f"[dim]{escape(out.provider)}/{escape(out.model)}: {u.input_tokens} in, {u.output_tokens} out, "
        f"{u.reasoning_tokens} reasoning, {u.total_tokens} total tokens; "
        f"{out.latency_s:.2f}s; finish={out.finish_reason}{note}[/dim]",
        highlight=False,
    )
