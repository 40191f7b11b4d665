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


@app.command("test")
def test_app(
    app_dir: Annotated[Path, typer.Argument(help="App folder with an index.html", exists=True, file_okay=False)],
    tests: Annotated[list[Path], typer.Argument(help="pytest files or folders using the `xr` fixture", exists=True)],
    junit: Annotated[Path | None, typer.Option("--junit", help="Write the JUnit XML report here")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the JSON result here")] = None,
    record: Annotated[
        bool, typer.Option("--record", help="Keep video and key frames of every test (default: failed tests)")
    ] = False,
    trace: Annotated[bool, typer.Option("--trace", help="Record a Playwright trace per test")] = False,
    artifacts: Annotated[
        Path | None, typer.Option("--artifacts", help="Recordings folder (default .xrtest-artifacts)")
    ] = None,
    scenes: Annotated[
        str | None, typer.Option("--scenes", help="Comma-separated scenes for tests without an xr_scenes marker")
    ] = None,
    timeout: Annotated[float, typer.Option("--timeout", min=1, help="Wall-clock bound of the whole run (s)")] = 900.0,
    test_timeout: Annotated[
        float | None, typer.Option("--test-timeout", min=0, help="Default bound of one test's call (s)")
    ] = None,
    backend: Annotated[
        str | None, typer.Option("--backend", help="xrblocks (the SDK's simulator, default) or iwer (WebXR emulator)")
    ] = None,
) -> None:
    """Run XR tests against an app (pytest with the xrtest plugin, in a subprocess).

    Exits 0 when every test passed, 1 when some failed, 3 on an infrastructure error (the browser
    did not start, the app did not initialise, no XR test ran, the run timed out).
    """
    from rich.markup import escape

    from xrbench.store.atomic import atomic_write_json
    from xrbench.xrtest.runner import run_xr_tests

    result = run_xr_tests(
        app_dir,
        tests,
        junit=junit,
        record=record,
        trace=trace,
        artifacts=artifacts,
        scenes=[s.strip() for s in scenes.split(",") if s.strip()] if scenes else (),
        timeout_s=timeout,
        test_timeout_s=test_timeout,
        backend=backend,
    )
    styles = {"passed": "green", "failed": "red", "error": "red", "xpassed": "yellow"}
    for t in result.tests:
        style = styles.get(t.outcome, "yellow")
        line = f"[{style}]{t.outcome:8}[/] {escape(t.id)}"
        if t.duration is not None:
            line += f"  ({t.duration:.1f} s)"
        console.print(line, highlight=False)
        if t.outcome not in ("passed", "xfailed") and t.message:
            console.print(f"         {t.message.strip().splitlines()[0]}", markup=False, highlight=False)
        if t.artifacts:
            console.print(f"         recording: {t.artifacts}", markup=False, highlight=False)
    s = result.summary()
    console.print(
        f"{s['passed']} passed, {s['failed']} failed, {s['error']} errors, {s['skipped']} skipped "
        f"({s['xr_tests_ran']} XR test runs) in {s['duration']:.1f} s",
        highlight=False,
    )
    if json_out is not None:
        atomic_write_json(json_out, result.to_json())
    if result.infra_error:
        err_console.print(f"[bold red]infrastructure error[/]: {result.infra_error}", highlight=False, soft_wrap=True)
        if not result.tests and result.output_tail:
            err_console.print(result.output_tail, markup=False, highlight=False)
        raise typer.Exit(3)
    if not result.passed:
        raise typer.Exit(1)
    console.print("[bold green]passed[/]")
