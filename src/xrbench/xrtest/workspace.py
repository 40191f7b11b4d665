"""A session's workspace: the app's entry page, its import map pointed at the pinned node_modules.

Apps are written for the web: their `index.html` has an import map whose entries point at a CDN
(jsDelivr, unpkg, esm.sh) or at a relative SDK build. The harness writes a rewritten copy of the
entry page into a small temporary folder of the session's own, where every package the harness
knows resolves to `/node_modules/...` served locally. Entries the harness does not know are kept
unchanged, so app-specific modules still resolve; if they point at a CDN the request is aborted
and recorded. The rest of the app is served from its own folder, read in place and never written
(see `server.py`): copying it for every session cost an SDK task, whose workspace holds the SDK's
sources and build (over a thousand files), about 0.7 s per session.

The workspace also receives the harness's page module (`/__xrtest__/harness.js`, with the
session's token and the pinned three.js and XR Blocks URLs written in), which is inserted right
after the import map, before the app's own module scripts.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser
from pathlib import Path

from xrbench.procs import owned_tempdir
from xrbench.xrtest.errors import XRTestError
from xrbench.xrtest.webdeps import WebDeps

HARNESS_DIR = "__xrtest__"
HARNESS_MODULE = f"/{HARNESS_DIR}/harness.js"
JS_DIR = Path(__file__).resolve().parent / "js"

# Bare specifier (or prefix ending in "/") -> file or folder inside node_modules. Entries whose
# target is not installed are left out of the map.
LOCAL_IMPORTS: dict[str, str] = {
    "three": "three/build/three.module.js",
    "three/addons/": "three/examples/jsm/",
    "three/examples/jsm/": "three/examples/jsm/",
    "three/": "three/",
    "xrblocks": "xrblocks/build/xrblocks.js",
    "xrblocks/addons/": "xrblocks/build/addons/",
    "lit": "lit/index.js",
    "lit/": "lit/",
    "lit-html": "lit-html/lit-html.js",
    "lit-html/": "lit-html/",
    "lit-element": "lit-element/index.js",
    "lit-element/": "lit-element/",
    "@lit/reactive-element": "@lit/reactive-element/reactive-element.js",
    "@lit/reactive-element/": "@lit/reactive-element/",
    "@pmndrs/uikit": "@pmndrs/uikit/dist/index.js",
    "@pmndrs/uikit-pub-sub": "@pmndrs/uikit-pub-sub/dist/index.js",
    "@pmndrs/msdfonts": "@pmndrs/msdfonts/dist/index.js",
    "@pmndrs/msdfonts/inter": "@pmndrs/msdfonts/dist/inter.js",
    "@preact/signals-core": "@preact/signals-core/dist/signals-core.mjs",
    "yoga-layout": "yoga-layout/dist/src/index.js",
    "yoga-layout/load": "yoga-layout/dist/src/load.js",
    "zod": "zod/index.js",
    "zod/mini": "zod/mini/index.js",
    "zod/v4/core": "zod/v4/core/index.js",
    "@zappar/msdf-generator": "@zappar/msdf-generator/dist/index.js",
    "comlink": "comlink/dist/esm/comlink.mjs",
    "iwer": "iwer/build/iwer.module.js",
    "@iwer/sem": "@iwer/sem/build/es/index.js",
}

# URL prefixes an app may import directly; mapping them too keeps a single module instance
# (one three.js) when an app mixes bare specifiers and full CDN URLs.
LOCAL_URL_PREFIXES: dict[str, str] = {
    "https://cdn.jsdelivr.net/npm/three@0.184.0/": "three/",
    "https://unpkg.com/three@0.184.0/": "three/",
    "https://cdn.jsdelivr.net/npm/xrblocks@0.21.1/build/": "xrblocks/build/",
    "https://cdn.jsdelivr.net/gh/google/xrblocks@build/": "xrblocks/build/",
}


# An app that ships its own SDK build (SDK feature/repair tasks) uses it instead of the npm one.
APP_SDK_ENTRY = "sdk/build/xrblocks.js"


def local_import_map(deps: WebDeps, app_dir: Path | None = None) -> dict[str, str]:
    """The harness's import-map entries for the installed packages (`/node_modules/...` URLs).

    When `app_dir` contains `sdk/build/xrblocks.js`, `xrblocks` and `xrblocks/addons/` (and the
    SDK's CDN URLs) point at `/sdk/build/` instead; everything else still comes from node_modules.
    """
    own_sdk = app_dir is not None and (app_dir / APP_SDK_ENTRY).is_file()
    imports: dict[str, str] = {}
    for table in (LOCAL_IMPORTS, LOCAL_URL_PREFIXES):
        for key, rel in table.items():
            # Checked against the app's own build, not the npm one: the agent sandbox hides the
            # pinned SDK's build from SDK tasks.
            if own_sdk and rel.startswith("xrblocks/build/"):
                imports[key] = "/sdk/build/" + rel.removeprefix("xrblocks/build/")
            elif (deps.node_modules / rel).exists():
                imports[key] = "/node_modules/" + rel
    return imports


class ImportMapError(XRTestError):
    """The app's import map is not valid JSON (the browser would reject it too)."""


@dataclass
class _Script:
    start: int
    end: int  # offset just past "</script>"
    attrs: dict[str, str | None]
    content_start: int = 0
    content_end: int = 0


@dataclass
class _HtmlScan:
    scripts: list[_Script] = field(default_factory=list)
    first_module_use: int | None = None  # first <script> or <link rel=modulepreload>
    head_open_end: int | None = None
    head_close: int | None = None
    html_open_end: int | None = None
    body_open: int | None = None
    has_icon: bool = False


class _Scanner(HTMLParser):
    """Finds script elements and a few anchor points with exact character offsets."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=False)
        self.text = text
        self.line_starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.line_starts.append(i + 1)
        self.scan = _HtmlScan()
        self._open: _Script | None = None

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def _tag_end(self, start: int) -> int:
        text = self.get_starttag_text() or ""
        return start + len(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        amap = {k.lower(): v for k, v in attrs}
        if tag == "script":
            self._open = _Script(start=start, end=-1, attrs=amap, content_start=self._tag_end(start))
            if self.scan.first_module_use is None:
                self.scan.first_module_use = start
        elif tag == "link":
            rel = (amap.get("rel") or "").lower().split()
            if "modulepreload" in rel and self.scan.first_module_use is None:
                self.scan.first_module_use = start
            if "icon" in rel:
                self.scan.has_icon = True
        elif tag == "head" and self.scan.head_open_end is None:
            self.scan.head_open_end = self._tag_end(start)
        elif tag == "html" and self.scan.html_open_end is None:
            self.scan.html_open_end = self._tag_end(start)
        elif tag == "body" and self.scan.body_open is None:
            self.scan.body_open = start

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # "<script ... />" is not self-closing in HTML: the parser still waits for </script>.
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        pos = self._offset()
        if tag == "script" and self._open is not None:
            close = self.text.find(">", pos)
            self._open.content_end = pos
            self._open.end = (close + 1) if close >= 0 else len(self.text)
            self.scan.scripts.append(self._open)
            self._open = None
        elif tag == "head" and self.scan.head_close is None:
            self.scan.head_close = pos


def scan_html(text: str) -> _HtmlScan:
    """Locate scripts, the head and the first module-using element in an HTML document."""
    scanner = _Scanner(text)
    scanner.feed(text)
    scanner.close()
    return scanner.scan


def _is_import_map(script: _Script) -> bool:
    return (script.attrs.get("type") or "").strip().lower() == "importmap"


def merge_import_maps(app_maps: Iterable[dict], local: dict[str, str]) -> dict:
    """Merge the app's import maps and force the harness's entries.

    Known specifiers (and URL prefixes) resolve locally whatever the app said; unknown `imports`
    and every `scopes` entry the harness does not know stay as written; `integrity` is dropped
    because the local files are not byte-identical to CDN builds.
    """
    imports: dict[str, str] = {}
    scopes: dict[str, dict[str, str]] = {}
    for m in app_maps:
        if not isinstance(m, dict):
            raise ImportMapError("import map must be a JSON object")
        for key, value in (m.get("imports") or {}).items():
            imports.setdefault(key, value)  # the first map to define a specifier wins, as in browsers
        for scope, entries in (m.get("scopes") or {}).items():
            merged = scopes.setdefault(scope, {})
            for key, value in (entries or {}).items():
                merged.setdefault(key, local.get(key, value))
    out_imports = {**imports, **local}
    # Keep the app's order for readability, then the harness's additions.
    ordered = {k: out_imports[k] for k in imports} | {k: v for k, v in local.items() if k not in imports}
    result: dict = {"imports": ordered}
    if scopes:
        result["scopes"] = scopes
    return result


def rewrite_html(
    text: str,
    local: dict[str, str],
    *,
    harness_module: str | None = HARNESS_MODULE,
    preload: Sequence[str] = (),
) -> str:
    """Return `text` with one merged import map pointing at local modules, plus the harness module.

    Every existing `<script type="importmap">` is merged and removed; the merged map goes where
    the first one was, or, when there was none, before the first script/modulepreload, else at the
    end of `<head>`, else at the top of the document. `preload` URLs become
    `<link rel="modulepreload">` right after the map.
    """
    scan = scan_html(text)
    maps = [s for s in scan.scripts if _is_import_map(s)]
    parsed = []
    for s in maps:
        body = text[s.content_start : s.content_end].strip()
        if not body:
            continue
        try:
            parsed.append(json.loads(body))
        except json.JSONDecodeError as e:
            raise ImportMapError(f"the app's import map is not valid JSON: {e}") from e
    merged = merge_import_maps(parsed, local)
    snippet = '<script type="importmap">\n' + json.dumps(merged, indent=2) + "\n</script>"
    if harness_module:
        snippet += f'\n<script type="module" src="{escape(harness_module)}"></script>'
    for url in preload:
        snippet += f'\n<link rel="modulepreload" href="{escape(url)}">'
    if not scan.has_icon:
        # Without an icon Chromium asks for /favicon.ico, a 404 in every request log.
        snippet = '<link rel="icon" href="data:,">\n' + snippet

    if maps:
        insert_at = maps[0].start
    elif scan.first_module_use is not None:
        insert_at = scan.first_module_use
    elif scan.head_close is not None:
        insert_at = scan.head_close
    elif scan.head_open_end is not None:
        insert_at = scan.head_open_end
    elif scan.body_open is not None:
        insert_at = scan.body_open
    elif scan.html_open_end is not None:
        insert_at = scan.html_open_end
    else:
        insert_at = 0
    if not maps:
        return text[:insert_at] + snippet + "\n" + text[insert_at:]
    pieces, pos = [], 0
    for i, s in enumerate(maps):
        pieces.append(text[pos : s.start])
        if i == 0:
            pieces.append(snippet)
        pos = s.end
    pieces.append(text[pos:])
    return "".join(pieces)


@dataclass
class Workspace:
    """A session's own files (`path`: the rewritten entry page, `__xrtest__/`) for the app at
    `app_dir`, which is served behind them. `cleanup()` deletes `path`; the app is never touched."""

    path: Path
    app_dir: Path
    entry: str
    import_map: dict

    def cleanup(self) -> None:
        """Delete the workspace directory (idempotent)."""
        shutil.rmtree(self.path, ignore_errors=True)

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()


def create_workspace(
    app_dir: str | Path,
    deps: WebDeps,
    *,
    entry: str = "index.html",
    inject_harness: bool = True,
    extra_files: dict[str, bytes] | None = None,
    parent: str | Path | None = None,
    preload: Sequence[str] = (),
    harness_token: str = "",
    harness_module: str = HARNESS_MODULE,
) -> Workspace:
    """A new temporary workspace for `app_dir`: its entry HTML, rewritten, and the harness files.

    `harness_token`: the session's secret, written into the harness page module (see
    `js/kernel.js`); `harness_module`: that module's URL path (a session picks an unguessable one,
    directly under `/__xrtest__/`).

    `preload`: module URLs to fetch at once instead of one import level at a time (see
    `session.py`: the pinned modules an earlier session of the same app loaded).

    The entry must be a regular file. `extra_files` (path relative to the workspace's
    `__xrtest__/` folder -> bytes) are written there, e.g. per-session data the page fetches.
    """
    app = Path(app_dir).resolve()
    if not (app / entry).is_file():
        raise XRTestError(f"{app / entry} does not exist (the app directory needs an {entry})")
    if (app / "sdk" / "src").is_dir() and not (app / APP_SDK_ENTRY).is_file():
        # Without its build the app would silently run the pinned npm SDK, not the sources beside it.
        raise XRTestError(
            f"{app / 'sdk'} has src/ but no build/xrblocks.js: build it first "
            f"(xrbench genxr build-sdk {app}, or prepare with --build)"
        )
    root = owned_tempdir("xrtest-", dir=parent)
    try:
        if (app / entry).is_symlink():
            raise XRTestError(f"{entry} must be a regular file, not a symlink")
        text = (app / entry).read_text(encoding="utf-8")
        html_file = root / entry
        html_file.parent.mkdir(parents=True, exist_ok=True)
        local = local_import_map(deps, app)
        if inject_harness and "xrblocks" not in local:
            # An SDK workspace not built yet, where the pinned SDK's build is hidden (agent sandbox).
            raise XRTestError(
                f"{app}: no XR Blocks build to load ({APP_SDK_ENTRY} is missing and so is the pinned "
                "package's build); in an SDK workspace run `xrbench genxr build-sdk .` first"
            )
        # A module the app no longer has would be a 404 in every request log.
        preload = [u for u in preload if u.startswith("/node_modules/") or (app / u.lstrip("/")).is_file()]
        new_text = rewrite_html(text, local, harness_module=harness_module if inject_harness else None, preload=preload)
        html_file.write_text(new_text, encoding="utf-8")
        harness_dir = root / HARNESS_DIR
        harness_dir.mkdir()
        for js in JS_DIR.glob("*.js"):
            if js.name != "harness.js":
                shutil.copyfile(js, harness_dir / js.name)
        if inject_harness:
            module = (JS_DIR / "harness.js").read_text(encoding="utf-8")
            for placeholder, value in (
                ("__XRTEST_TOKEN__", harness_token),
                ("__XRTEST_THREE_URL__", local["three"]),
                ("__XRTEST_XRBLOCKS_URL__", local["xrblocks"]),
            ):
                module = module.replace(placeholder, value)
            name = harness_module.removeprefix(f"/{HARNESS_DIR}/")
            if "/" in name or not name.endswith(".js"):
                raise XRTestError(
                    f"harness module {harness_module!r} must be a .js file directly under /{HARNESS_DIR}/"
                )
            (harness_dir / name).write_text(module, encoding="utf-8")
        for rel, data in (extra_files or {}).items():
            target = (harness_dir / rel).resolve()
            if not target.is_relative_to(harness_dir.resolve()):
                raise XRTestError(f"extra file {rel!r} escapes the workspace")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        scan_maps = [json.loads(m) for m in _import_maps_in(new_text)]
        return Workspace(path=root, app_dir=app, entry=entry, import_map=scan_maps[0] if scan_maps else {})
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise


def _import_maps_in(text: str) -> list[str]:
    scan = scan_html(text)
    return [text[s.content_start : s.content_end] for s in scan.scripts if _is_import_map(s)]
