"""Locate and verify the pinned web dependencies (`node_modules`) that apps are served from.

The harness never fetches JavaScript from a CDN: every module an app imports is served from the
`node_modules` that `npm ci` installed from the committed package.json/package-lock.json. This
module finds that directory and checks that the versions the harness was written against are the
ones installed, so that a stale or partial install fails loudly instead of producing odd results.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from xrbench.xrtest.errors import WebDepsError

ENV_VAR = "XRBENCH_WEB_DIR"
# The committed package.json / package-lock.json (the repository root links to them), shipped as
# package data so that `xrbench setup` can install the same tree for a pip-installed toolkit.
PACKAGED = Path(__file__).resolve().parent.parent / "data" / "web"

# Exact versions the harness depends on: import-map targets and simulator behaviour differ between
# releases, so "some xrblocks" is not good enough.
REQUIRED_VERSIONS: dict[str, str] = {"xrblocks": "0.21.1", "three": "0.184.0"}

# Installed alongside; reported when present, mapped in import maps only when present.
OPTIONAL_PACKAGES: tuple[str, ...] = (
    "lit",
    "lit-html",
    "lit-element",
    "@lit/reactive-element",
    "@pmndrs/uikit",
    "@pmndrs/uikit-pub-sub",
    "@pmndrs/msdfonts",
    "@preact/signals-core",
    "yoga-layout",
    "zod",
    "@webxr-input-profiles/assets",
    "iwer",
    "@iwer/sem",
)

_FIX = (
    "run `make web` (npm ci) in the repository root or `xrbench setup`, "
    "or point XRBENCH_WEB_DIR at a directory with node_modules"
)


@dataclass(frozen=True)
class WebDeps:
    """A verified `node_modules` directory and the versions found in it."""

    root: Path
    node_modules: Path
    versions: dict[str, str] = field(default_factory=dict)

    def path(self, package: str, *parts: str) -> Path:
        """Path of a file inside an installed package, e.g. `path("three", "build", "three.module.js")`."""
        return self.node_modules.joinpath(package, *parts)

    def has(self, package: str) -> bool:
        """Whether `package` is installed."""
        return (self.node_modules / package / "package.json").is_file()


def _package_version(node_modules: Path, package: str) -> str | None:
    manifest = node_modules / package / "package.json"
    try:
        return str(json.loads(manifest.read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        return None


def _candidate_roots() -> list[Path]:
    """Directories that may hold package.json + node_modules, most specific first."""
    env = os.environ.get(ENV_VAR)
    if env:
        p = Path(env).expanduser().resolve()
        return [p.parent if p.name == "node_modules" else p]
    seen: list[Path] = []
    for start in (Path(__file__).resolve().parent, Path.cwd().resolve()):
        for d in (start, *start.parents):
            if d not in seen:
                seen.append(d)
    seen.append(default_install_dir())  # where `xrbench setup` installs
    return [d for d in seen if (d / "package.json").is_file() and (d / "node_modules").is_dir()]


def default_install_dir() -> Path:
    """Where `xrbench setup` puts the pinned web dependencies (`$XRBENCH_CACHE_DIR/web`)."""
    root = os.environ.get("XRBENCH_CACHE_DIR") or Path.home() / ".cache" / "xrbench"
    return Path(root).expanduser() / "web"


def install_web_deps(dest: Path | None = None) -> WebDeps:
    """Install the pinned web dependencies with `npm ci` from the packaged lock file, then verify them.

    Used by `xrbench setup` for a pip-installed toolkit; a source checkout uses `make web` instead.
    Raises `WebDepsError` when npm is missing or fails.
    """
    import shutil
    import subprocess

    dest = (dest or default_install_dir()).expanduser().resolve()
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(PACKAGED / name, dest / name)
    npm = shutil.which("npm")
    if npm is None:
        raise WebDepsError("npm is not installed: install Node.js 20 or newer (it brings npm), then rerun")
    proc = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=dest, capture_output=True, text=True
    )
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        raise WebDepsError(f"npm ci failed in {dest}:\n" + "\n".join(tail))
    return verify_web_deps(dest)


def find_web_deps(required: dict[str, str] | None = None) -> WebDeps:
    """Find the pinned `node_modules` and verify the required versions.

    Looks at `$XRBENCH_WEB_DIR` (a directory containing node_modules, or node_modules itself) when
    set, else the nearest directory above this package or the working directory that has both
    package.json and node_modules. Raises `WebDepsError` naming what is missing or mismatched.
    """
    required = REQUIRED_VERSIONS if required is None else required
    roots = _candidate_roots()
    if not roots:
        where = f"${ENV_VAR}={os.environ[ENV_VAR]}" if os.environ.get(ENV_VAR) else "the repository"
        raise WebDepsError(f"no node_modules found for {where}; {_FIX}")
    return verify_web_deps(roots[0], required)


def verify_web_deps(root: Path, required: dict[str, str] | None = None) -> WebDeps:
    """Check the required package versions in `root/node_modules`; raises `WebDepsError` otherwise."""
    required = REQUIRED_VERSIONS if required is None else required
    node_modules = root / "node_modules"
    if not node_modules.is_dir():
        raise WebDepsError(f"{node_modules} does not exist; {_FIX}")
    versions: dict[str, str] = {}
    problems: list[str] = []
    for package, want in required.items():
        got = _package_version(node_modules, package)
        if got is None:
            problems.append(f"{package} is not installed in {node_modules} (need {want})")
        elif got != want:
            problems.append(f"{package} {got} is installed in {node_modules}, but {want} is required")
        else:
            versions[package] = got
    if problems:
        raise WebDepsError("\n".join([*problems, _FIX]))
    for package in OPTIONAL_PACKAGES:
        got = _package_version(node_modules, package)
        if got is not None:
            versions[package] = got
    return WebDeps(root=root, node_modules=node_modules, versions=versions)
