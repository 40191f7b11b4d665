"""The pinned XR Blocks SDK sources: copy, transform (SDK tasks) and rebuild with esbuild.

Path contract of a workspace (all paths relative to the workspace root, which is also the app root
the harness serves at `/`):

    sdk/src/                 TypeScript sources (pinned xrblocks 0.21.1, transformed by the task);
                             the only part of an SDK-task candidate that verification uses
    sdk/skills/, sdk/README.md, sdk/LICENSE
                             the package's documentation, for the agent
    sdk/build/xrblocks.js    the rebuilt SDK entry (ES module, chunks in sdk/build/internal/)
    sdk/build/addons/<name>/<File>.js
                             the rebuilt addons, same layout as the npm package's build/addons/

When `sdk/build/xrblocks.js` exists in an app, the xrtest harness maps the import-map entries
`xrblocks` -> `/sdk/build/xrblocks.js` and `xrblocks/addons/` -> `/sdk/build/addons/` instead of the
npm package's build. Addons import `xrblocks` as a bare specifier, so they share the one SDK
instance the import map resolves. Every other bare import (three, lit, @pmndrs/uikit, ...) stays
external, as in the published build, and is served from the pinned node_modules.

Verification never trusts a candidate's `sdk/build/`: it rebuilds from `sdk/src/`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xrbench.errors import UserError
from xrbench.procs import owned_temporary_directory

SDK_PACKAGE = "xrblocks"
SDK_DIR = "sdk"
SDK_SRC = f"{SDK_DIR}/src"
SDK_BUILD = f"{SDK_DIR}/build"
SDK_ENTRY = f"{SDK_BUILD}/xrblocks.js"
SDK_ADDONS = f"{SDK_BUILD}/addons"
# What of the npm package goes into a workspace besides src/ (documentation for the agent).
SDK_DOCS = ("skills", "README.md", "LICENSE")

# esbuild settings that reproduce a working bundle from the shipped sources: Lit's decorators need
# TypeScript's legacy decorators and [[Set]] class fields, or the simulator panels throw.
TSCONFIG_RAW = '{"compilerOptions":{"experimentalDecorators":true,"useDefineForClassFields":false}}'
BUILD_TIMEOUT_SEC = 180.0
SETUP_TIMEOUT_SEC = 120.0


class SdkError(UserError):
    """A problem preparing or building the SDK (printed as one line per problem by the CLI)."""


class SdkToolError(SdkError):
    """The pinned sources or the build tool (node/esbuild) are not available: an infrastructure problem."""


class SdkBuildError(SdkError):
    """esbuild rejected the sources (the candidate's or the task's SDK does not compile)."""

    def __init__(self, message: str, log: str = ""):
        self.log = log
        super().__init__(message)


@dataclass(frozen=True)
class SdkBuild:
    """A finished SDK build."""

    workspace: Path
    entry: Path  # sdk/build/xrblocks.js
    seconds: float  # wall-clock time of the esbuild run
    outputs: int  # number of .js files written
    addons: int  # number of addon entry points
    exports: tuple[str, ...] = ()  # names exported by the entry
    warnings: str = ""
    command: list[str] = field(default_factory=list)


def find_node_modules(node_modules: str | Path | None = None) -> Path:
    """The pinned node_modules (explicit, else the one `xrbench.xrtest` uses; $XRBENCH_WEB_DIR overrides)."""
    if node_modules is not None:
        p = Path(node_modules)
        if not p.is_dir():
            raise SdkToolError(f"{p} does not exist (expected a node_modules directory)")
        return p
    # Imported lazily: the harness package pulls in Playwright, which SDK preparation never needs.
    from xrbench.xrtest.webdeps import find_web_deps

    return find_web_deps().node_modules


def pinned_sdk_dir(node_modules: str | Path | None = None, version: str = "0.21.1") -> Path:
    """`node_modules/xrblocks`, checked to be `version` and to ship its TypeScript sources."""
    pkg = find_node_modules(node_modules) / SDK_PACKAGE
    try:
        got = json.loads((pkg / "package.json").read_text(encoding="utf-8"))["version"]
    except (OSError, ValueError, KeyError):
        raise SdkToolError(f"{pkg} is not an installed npm package; run `make web`") from None
    if got != version:
        raise SdkToolError(f"{pkg} is xrblocks {got}, but the tasks need {version}; run `make web`")
    if not (pkg / "src" / "entry.ts").is_file():
        raise SdkToolError(f"{pkg}/src/entry.ts is missing: the package must ship its sources")
    return pkg


def pinned_sdk_code(node_modules: str | Path | None = None) -> list[Path]:
    """The pinned package's code (`src/`, `build/`), or [] when there is no pinned SDK.

    It is the unmodified SDK: an SDK task's agent that could read it would find a repair by
    diffing, or a removed feature by copying, so the agent sandbox hides it from SDK tasks.
    """
    try:
        pkg = find_node_modules(node_modules) / SDK_PACKAGE
    except UserError:  # no web deps at all: nothing to hide (the verifier reports it)
        return []
    return [pkg / "src", pkg / "build"]


def copy_pinned_sdk(dest_sdk: Path, node_modules: str | Path | None = None) -> Path:
    """Copy the pinned sources (and docs) to `dest_sdk` (= <workspace>/sdk); returns `dest_sdk/src`."""
    pkg = pinned_sdk_dir(node_modules)
    dest_sdk.mkdir(parents=True, exist_ok=True)
    shutil.copytree(pkg / "src", dest_sdk / "src", ignore=shutil.ignore_patterns("node_modules"))
    for name in SDK_DOCS:
        src = pkg / name
        if src.is_dir():
            shutil.copytree(src, dest_sdk / name)
        elif src.is_file():
            shutil.copyfile(src, dest_sdk / name)
    return dest_sdk / "src"


def _inside(base: Path, rel: str) -> Path:
    target = (base / rel).resolve()
    if not target.is_relative_to(base.resolve()):
        raise SdkError(f"{rel!r} escapes {base}")
    return target


def apply_edits(sdk_src: Path, edits: Sequence, task_dir: Path, *, label: str = "sdk.edits") -> None:
    """Apply `[[sdk.edits]]` (see `xrbench.genxr.task.SdkEdit`) to `sdk_src`, checking each `count`.

    A `find` that no longer matches exactly `count` times is an error naming the edit: the pinned
    sources are fixed, so a mismatch means the task was written against something else.
    """
    for i, edit in enumerate(edits):
        where = f"{label}[{i}] ({edit.file})"
        target = _inside(sdk_src, edit.file)
        if edit.delete:
            if not target.is_file():
                raise SdkError(f"{where}: cannot delete, the file does not exist")
            target.unlink()
            continue
        replacement = edit.replace
        if edit.replace_file is not None:
            replacement = _inside(task_dir, edit.replace_file).read_text(encoding="utf-8")
        if edit.find is None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(replacement or "", encoding="utf-8")
            continue
        if not target.is_file():
            raise SdkError(f"{where}: the file does not exist in the pinned sources")
        text = target.read_text(encoding="utf-8")
        found = text.count(edit.find)
        if found != edit.count:
            raise SdkError(f"{where}: `find` occurs {found} time(s), expected {edit.count}")
        target.write_text(text.replace(edit.find, replacement or ""), encoding="utf-8")


def run_setup_script(
    script: Path, workspace: Path, task_dir: Path, *, timeout_sec: float = SETUP_TIMEOUT_SEC
) -> subprocess.CompletedProcess[str]:
    """Run an SDK task's `setup.py` as `python setup.py <workspace>/sdk/src` with cwd = workspace."""
    # Absolute paths: relative ones would be read against the script's cwd, the workspace.
    script, workspace, task_dir = script.resolve(), workspace.resolve(), task_dir.resolve()
    sdk_src = workspace / SDK_SRC
    env = {
        **os.environ,
        "GENXR_SDK_SRC": str(sdk_src),
        "GENXR_WORKSPACE": str(workspace),
        "GENXR_TASK_DIR": str(task_dir),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    try:
        proc = subprocess.run(
            [sys.executable, str(script), str(sdk_src)],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout_sec,
        )
    except subprocess.TimeoutExpired:
        raise SdkError(f"{script}: did not finish within {timeout_sec:g} s") from None
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        raise SdkError(f"{script}: exited with status {proc.returncode}: " + " | ".join(tail))
    return proc


def find_esbuild(node_modules: str | Path | None = None) -> Path:
    """The pinned esbuild executable (npm `esbuild` installs a native binary behind .bin/esbuild)."""
    nm = find_node_modules(node_modules)
    for candidate in (nm / ".bin" / "esbuild", nm / "esbuild" / "bin" / "esbuild"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise SdkToolError(f"esbuild is not installed in {nm}; run `make web`")


def addon_entry_points(sdk_src: Path) -> list[str]:
    """Addon modules to build, relative to sdk/src, without extension ("addons/testing/TestRunner").

    The same selection as the published build/addons/: every .ts module under src/addons except
    tests, type declarations, samples and the Node-side servers/CLIs (mcp, */server, */cli).
    """
    base = sdk_src / "addons"
    if not base.is_dir():
        return []
    entries = []
    for p in sorted(base.rglob("*")):
        if not p.is_file() or p.suffix not in (".ts", ".js"):
            continue
        rel = p.relative_to(sdk_src)
        parts = set(rel.parts[1:-1])
        if p.name.endswith((".test.ts", ".test.js", ".d.ts")) or parts & {"samples", "server", "cli"}:
            continue
        if rel.parts[1] == "mcp":
            continue
        entries.append(rel.with_suffix("").as_posix())
    return entries


def build_sdk(
    workspace: str | Path,
    *,
    node_modules: str | Path | None = None,
    sourcemap: bool = True,
    timeout_sec: float = BUILD_TIMEOUT_SEC,
) -> SdkBuild:
    """Rebuild `workspace/sdk/src` into `workspace/sdk/build/` (entry `xrblocks.js` plus addons).

    One esbuild run bundles the SDK entry and every addon entry point as ES modules with code
    splitting (shared code in `build/internal/`), all bare imports external. The old build folder is
    removed first so that no stale chunk survives. Raises `SdkBuildError` (with esbuild's log) when
    the sources do not compile, `SdkToolError` when esbuild or the sources are missing.
    """
    ws = Path(workspace).resolve()
    sdk = ws / SDK_DIR
    src = sdk / "src"
    if not (src / "entry.ts").is_file():
        raise SdkToolError(f"{src}/entry.ts not found: not an SDK workspace (prepare it first)")
    esbuild = find_esbuild(node_modules)
    out = sdk / "build"
    shutil.rmtree(out, ignore_errors=True)
    addons = addon_entry_points(src)
    with owned_temporary_directory("genxr-esbuild-") as tmp:
        meta = Path(tmp) / "meta.json"
        cmd = [
            str(esbuild),
            "xrblocks=src/entry.ts",
            *[f"{a}=src/{a}.ts" if (src / f"{a}.ts").is_file() else f"{a}=src/{a}.js" for a in addons],
            "--bundle",
            "--format=esm",
            "--splitting",
            "--platform=browser",
            "--target=es2022",
            "--packages=external",
            "--outdir=build",
            "--chunk-names=internal/[name]-[hash]",
            f"--tsconfig-raw={TSCONFIG_RAW}",
            f"--metafile={meta}",
            "--log-level=warning",
            "--log-limit=30",
            "--color=false",
        ]
        if sourcemap:
            cmd.append("--sourcemap")
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, cwd=sdk, capture_output=True, text=True, timeout=timeout_sec)
        except subprocess.TimeoutExpired:
            raise SdkBuildError(f"esbuild did not finish within {timeout_sec:g} s") from None
        except OSError as e:
            raise SdkToolError(f"could not run {esbuild}: {e}") from None
        seconds = time.perf_counter() - t0
        log = (proc.stderr or "") + (proc.stdout or "")
        if proc.returncode != 0:
            first = next((ln.strip() for ln in log.splitlines() if "ERROR" in ln), "esbuild failed")
            raise SdkBuildError(f"the SDK does not build: {first}", log=log)
        try:
            metadata = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            metadata = {}
    outputs = metadata.get("outputs", {})
    entry_meta = outputs.get("build/xrblocks.js", {})
    return SdkBuild(
        workspace=ws,
        entry=out / "xrblocks.js",
        seconds=seconds,
        outputs=sum(1 for k in outputs if k.endswith(".js")),
        addons=len(addons),
        exports=tuple(sorted(entry_meta.get("exports", []))),
        warnings=log.strip(),
        command=cmd,
    )


def published_exports(node_modules: str | Path | None = None) -> tuple[str, ...]:
    """Names exported by the published `xrblocks.js` of the pinned package (the public interface).

    Compared with `SdkBuild.exports`, this tells whether a transformed SDK kept its interface.
    """
    pkg = pinned_sdk_dir(node_modules)
    esbuild = find_esbuild(node_modules)
    with owned_temporary_directory("genxr-exports-") as tmp:
        meta = Path(tmp) / "meta.json"
        proc = subprocess.run(
            [
                str(esbuild),
                "xrblocks.js",
                "--bundle",
                "--format=esm",
                "--splitting",
                "--packages=external",
                f"--outdir={tmp}/out",
                f"--metafile={meta}",
                "--log-level=error",
            ],
            cwd=pkg / "build",
            capture_output=True,
            text=True,
            timeout=BUILD_TIMEOUT_SEC,
        )
        if proc.returncode != 0:
            raise SdkToolError(f"could not read the published exports: {proc.stderr.strip()[:300]}")
        outputs = json.loads(meta.read_text(encoding="utf-8"))["outputs"]
    entry = next(v for k, v in outputs.items() if k.endswith("/out/xrblocks.js"))
    return tuple(sorted(entry.get("exports", [])))
