"""`xrbench xr`: look at XR Blocks apps through the XR runtime harness (xrbench.xrtest)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from xrbench.cli.common import App, console, err_console

app = App(help="Run XR Blocks apps headless in Chromium, offline (the xrtest harness).")


@app.callback()
def _group() -> None:
    """Run XR Blocks apps headless in Chromium, offline (the xrtest harness)."""


def _parse_viewport(value: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in value.lower().split("x", 1))
    except ValueError:
        raise typer.BadParameter("expected WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096):
        raise typer.BadParameter("width and height must be between 64 and 4096")
    return w, h


@app.command("open")
def open_app(
    app_dir: Annotated[Path, typer.Argument(help="App folder with an index.html", exists=True, file_okay=False)],
    scene: Annotated[
        str | None, typer.Option("--scene", help="Simulator room: empty, living_room, kitchen, office")
    ] = None,
    screenshot: Annotated[Path | None, typer.Option("--screenshot", help="Save a PNG of the page here")] = None,
    frames: Annotated[int, typer.Option("--frames", min=0, help="Frames to run before the screenshot")] = 30,
    viewport: Annotated[str, typer.Option("--viewport", help="Page size WIDTHxHEIGHT")] = "1280x720",
    ui: Annotated[bool, typer.Option("--ui", help="Show the simulator's panels (no automation preset)")] = False,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds to wait for xb.init")] = 45.0,
) -> None:
    """Load an app as a person would see it; print init status, requests and errors, save a screenshot.

    Exits 1 when the app does not initialise.
    """
    from xrbench.xrtest import AppInitError, BrowserLaunchError, XRSession, close_shared_browser

    size = _parse_viewport(viewport)
    session = XRSession(
        app_dir,
        scene=scene,
        viewport=size,
        init_timeout_s=timeout,
        fast_render=False,
        automation=not ui,
    )
    try:
        try:
            session.open()
        except (AppInitError, BrowserLaunchError) as e:
            err_console.print(f"[bold red]init failed[/]: {e}", highlight=False, soft_wrap=True)
            raise typer.Exit(1) from None
        if frames:
            session.step(frames)
        status = session.status()
        webgl = session.webgl_info()
        console.print(
            f"[bold green]ready[/] {app_dir}  lifecycle={status['lifecycle']} "
            f"simulator={'on' if status['simulatorRunning'] else 'off'} "
            f"environment={status['environment']!r} frames={status['frames']}",
            highlight=False,
        )
        console.print(f"WebGL: {webgl.get('version')} on {webgl.get('renderer')}", highlight=False)
        tagged = [n for n in session.snapshot(include_private=True) if n.tag]
        if tagged:
            console.print(f"tagged objects ({len(tagged)}):")
            for n in tagged:
                pos = ", ".join(f"{c:.3f}" for c in n.position)
                console.print(f"  {n.tag}: ({pos}) visible={n.visible} state={n.state}", highlight=False)
        served = [r for r in session.remote_requests if r.action == "fulfilled"]
        if served:
            console.print(f"remote URLs served locally ({len(served)}):")
            for r in served:
                console.print(f"  {r.url}", highlight=False)
        sections = (
            ("failed requests", [str(f) for f in session.failed_requests]),
            ("page errors", session.page_errors),
            ("console errors", session.console_errors),
            ("script errors", [f"{e['script']} [{e['context']}]: {e['message']}" for e in status["scriptErrors"]]),
        )
        for title, items in sections:
            if items:
                console.print(f"[yellow]{title} ({len(items)})[/]:")
                for item in items:
                    console.print(f"  {item.strip().splitlines()[0] if item.strip() else item}", highlight=False)
            else:
                console.print(f"{title}: none")
        if screenshot:
            screenshot.parent.mkdir(parents=True, exist_ok=True)
            session.screenshot(screenshot)
            console.print(f"screenshot: {screenshot}", highlight=False)
    finally:
        session.close()
        close_shared_browser()
