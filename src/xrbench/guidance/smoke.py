"""Smoke test: does the generated workspace start in the browser without errors? (`smoke_ok`)

The workspace runs in the xrtest harness (`XRSession`): headless Chromium, offline, the import map
pointed at the pinned `node_modules`, known CDN files served locally and every other request
aborted and recorded, time stepped virtually. After `frames` frames (default 120, two virtual
seconds) the session's uncaught page errors, console errors, failed requests and the exceptions
XR Blocks caught in script hooks (it logs them and carries on) are collected; `smoke_ok` is 1.0
when none remains after dropping the benign patterns below, else 0.0.

The page gets no global the app did not import: the harness imports XR Blocks itself and loads
the page with `?debug=1`, where XR Blocks would put `window.xb` on it, so the smoke session takes
those debug globals off (`XRSession(debug_globals=False)`): an app that uses `xb` without importing
it fails here as it would in a user's browser.

Unlike upstream's `smoke.py` (which rewrote the import map to the mutable `@build` CDN branch and
waited 5 s of wall time), nothing here needs the network, and a hallucinated import URL shows up as
an aborted request. An app that never initialises (a module that does not load, `init()` throwing,
no `xb.init`) is `smoke_ok` 0.0 with `init_error`. A harness failure (no browser, missing web
dependencies) is not the candidate's: `smoke_ok` is None with `smoke_error`.

Benign patterns (case-insensitive regexes on each message), upstream's list:

- `WebXR.*not supported`, `immersive-ar.*not supported`, `navigator\\.xr.*null`: headless Chromium
  has no WebXR device; XR Blocks falls back to its simulator;
- `AudioContext.*user gesture`: browsers start audio only after a gesture, and nobody clicks here;
- `WebGL.*deprecated`: driver notices of the software renderer;
- `\\bfavicon\\b`, `main\\.css`, `samples/main\\.css`: cosmetic files a template may reference;

plus ours:

- `xrblocks\\.github\\.io/css/xr\\.css`: the stylesheet the published prompt's templates link;
- `^Failed to load resource:`: Chromium's console echo of a failed request, without its URL; the
  request itself is judged (with its URL) under `failed_requests`, so it is not counted twice;
- `@google/genai`, `Failed to initialize gemini`, `/keys\\.json\\b`: there is no AI provider
  offline. XR Blocks loads its provider package `@google/genai` lazily when AI is enabled (the
  harness cannot serve it, so the request is aborted and the SDK logs that it could not load it)
  and looks for an optional `keys.json`; an app is expected to handle `xb.ai.isAvailable()` being
  false. An app that imports the package itself still fails: its module never loads, so the app
  never initialises (`init_error`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

BENIGN_PATTERNS: tuple[str, ...] = (
    r"WebXR.*not supported",
    r"immersive-ar.*not supported",
    r"navigator\.xr.*null",
    r"AudioContext.*user gesture",
    r"WebGL.*deprecated",
    r"\bfavicon\b",
    r"main\.css",
    r"samples/main\.css",
    r"xrblocks\.github\.io/css/xr\.css",
    r"^Failed to load resource:",
    r"@google/genai",
    r"Failed to initialize gemini",
    r"/keys\.json\b",
)
_BENIGN = [re.compile(p, re.IGNORECASE) for p in BENIGN_PATTERNS]
DEFAULT_FRAMES = 120
KINDS = ("page_errors", "console_errors", "failed_requests", "script_errors")


def _first_line(e: BaseException) -> str:
    lines = str(e).strip().splitlines()
    return lines[0] if lines else ""


def is_benign(message: str) -> bool:
    """Whether a message matches one of `BENIGN_PATTERNS`."""
    return any(p.search(message) for p in _BENIGN)


def classify(errors: dict[str, list[str]]) -> dict[str, Any]:
    """Split collected messages into real ones (per kind) and benign ones; `smoke_ok` from the rest."""
    out: dict[str, Any] = {}
    benign: list[str] = []
    for kind in KINDS:
        kept = []
        for msg in errors.get(kind, []):
            (benign if is_benign(msg) else kept).append(msg)
        out[kind] = kept
    out["smoke_ok"] = 0.0 if any(out[k] for k in KINDS) else 1.0
    out["benign_ignored"] = benign
    return out


def smoke_test(workspace: str | Path, *, frames: int = DEFAULT_FRAMES, init_timeout_s: float = 30.0) -> dict[str, Any]:
    """Run `workspace/index.html` in the harness and report `smoke_ok` and what went wrong."""
    from xrbench.errors import UserError
    from xrbench.xrtest import AppInitError, BrowserLaunchError, XRSession

    workspace = Path(workspace)
    if not (workspace / "index.html").is_file():
        return {"smoke_ok": 0.0, "init_error": f"{workspace} has no index.html", **{k: [] for k in KINDS}}
    try:
        with XRSession(workspace, init_timeout_s=init_timeout_s, debug_globals=False) as session:
            session.step(frames)
            errors = session.errors()
    except AppInitError as e:
        details = e.details or {}
        result = classify(
            {
                "page_errors": list(details.get("page_errors", [])),
                "console_errors": list(details.get("console_errors", [])),
                "failed_requests": list(details.get("failed_requests", [])),
            }
        )
        result["smoke_ok"] = 0.0
        result["init_error"] = str(e).splitlines()[0]
        return result
    except (BrowserLaunchError, UserError, OSError) as e:
        # The browser or the web dependencies (WebDepsError is a UserError) failed: infrastructure.
        return {"smoke_ok": None, "smoke_error": f"{type(e).__name__}: {_first_line(e)}"}
    except Exception as e:  # stepping failed: the page crashed or hung under the app
        return {"smoke_ok": 0.0, "init_error": f"{type(e).__name__}: {_first_line(e)}", **{k: [] for k in KINDS}}
    result = classify(errors)
    result["frames"] = frames
    return result
