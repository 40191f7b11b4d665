"""`xrbench setup`: install what the XR harness needs for a pip-installed toolkit, and check it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from xrbench.cli.common import console


def setup(
    web_dir: Annotated[
        Path | None, typer.Option("--web-dir", help="Where to install the pinned web dependencies")
    ] = None,
    check_only: Annotated[bool, typer.Option("--check", help="Only check what is installed")] = False,
) -> None:
    """Install the pinned web dependencies (npm ci) and check that a Chromium is available."""
    from xrbench.errors import UserError
    from xrbench.xrtest.browser import find_chromium
    from xrbench.xrtest.errors import XRTestError
    from xrbench.xrtest.webdeps import find_web_deps, install_web_deps

    try:
        deps = find_web_deps() if check_only else install_web_deps(web_dir)
        console.print(
            f"web dependencies: {deps.node_modules} ({', '.join(f'{k} {v}' for k, v in deps.versions.items())})"
        )
        console.print(f"browser: {find_chromium()}")
    except XRTestError as e:
        raise UserError(str(e)) from None
