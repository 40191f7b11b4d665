"""Workspaces: the app is served in place, its import map points at local modules, unknown entries survive."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from xrbench.xrtest.errors import XRTestError
from xrbench.xrtest.server import AppServer
from xrbench.xrtest.webdeps import WebDeps, find_web_deps
from xrbench.xrtest.workspace import (
    HARNESS_MODULE,
    ImportMapError,
    create_workspace,
    local_import_map,
    rewrite_html,
    scan_html,
)

REQUIRED_LOCAL = {
    "three": "/node_modules/three/build/three.module.js",
    "three/addons/": "/node_modules/three/examples/jsm/",
    "three/": "/node_modules/three/",
    "xrblocks": "/node_modules/xrblocks/build/xrblocks.js",
    "xrblocks/addons/": "/node_modules/xrblocks/build/addons/",
    "lit": "/node_modules/lit/index.js",
    "lit/": "/node_modules/lit/",
    "lit-html": "/node_modules/lit-html/lit-html.js",
    "lit-element/": "/node_modules/lit-element/",
    "@lit/reactive-element": "/node_modules/@lit/reactive-element/reactive-element.js",
    "@pmndrs/uikit": "/node_modules/@pmndrs/uikit/dist/index.js",
    "@pmndrs/uikit-pub-sub": "/node_modules/@pmndrs/uikit-pub-sub/dist/index.js",
    "@pmndrs/msdfonts/inter": "/node_modules/@pmndrs/msdfonts/dist/inter.js",
    "@preact/signals-core": "/node_modules/@preact/signals-core/dist/signals-core.mjs",
    "yoga-layout/load": "/node_modules/yoga-layout/dist/src/load.js",
    "zod": "/node_modules/zod/index.js",
}

# The import map of XR Blocks' own UI template (templates/01_spatial_ui), CDN URLs and all.
TEMPLATE_HTML = """<!doctype html>
<html lang="en">
  <head>
    <title>Spatial UI | XR Blocks Template</title>
    <meta charset="utf-8" />
    <script>
      window.litDisableBundleWarning = true;
    </script>
    <script type="importmap">
      {
        "imports": {
          "three": "https://cdn.jsdelivr.net/npm/three@0.184.0/build/three.module.js",
          "three/": "https://cdn.jsdelivr.net/npm/three@0.184.0/",
          "three/addons/": "https://cdn.jsdelivr.net/npm/three@0.184.0/examples/jsm/",
          "troika-three-text": "https://cdn.jsdelivr.net/gh/protectwise/troika@028b81c/packages/troika-three-text/src/index.js",
          "@pmndrs/uikit": "https://cdn.jsdelivr.net/npm/@pmndrs/uikit@1.0.64/dist/index.min.js",
          "@pmndrs/uikit-pub-sub": "https://cdn.jsdelivr.net/npm/@pmndrs/uikit-pub-sub@1.0.64/dist/index.min.js",
          "@pmndrs/msdfonts": "https://cdn.jsdelivr.net/npm/@pmndrs/msdfonts@1.0.64/dist/index.min.js",
          "@preact/signals-core": "https://cdn.jsdelivr.net/npm/@preact/signals-core@1.14.0/dist/signals-core.mjs",
          "yoga-layout/load": "https://cdn.jsdelivr.net/npm/yoga-layout@3.2.1/dist/src/load.js",
          "lit": "https://esm.sh/lit@3.3.1",
          "lit/": "https://esm.sh/lit@3.3.1/",
          "xrblocks": "../../build/xrblocks.js",
          "my-lib": "./lib/my-lib.js"
        }
      }
    </script>
  </head>
  <body>
    <script type="module" src="main.js"></script>
  </body>
</html>
"""


@pytest.fixture(scope="module")
def local() -> dict[str, str]:
    return local_import_map(find_web_deps())


def import_maps(html: str) -> list[dict]:
    scan = scan_html(html)
    return [
        json.loads(html[s.content_start : s.content_end])
        for s in scan.scripts
        if (s.attrs.get("type") or "").lower() == "importmap"
    ]


def test_local_map_covers_the_sdk_and_its_peers(local):
    for key, value in REQUIRED_LOCAL.items():
        assert local[key] == value
    nm = find_web_deps().node_modules
    for value in local.values():
        assert (nm / value.removeprefix("/node_modules/")).exists(), value


def test_cdn_template_map_is_rewritten_and_unknown_entries_kept(local):
    out = rewrite_html(TEMPLATE_HTML, local)
    (m,) = import_maps(out)
    imports = m["imports"]
    for key, value in REQUIRED_LOCAL.items():
        assert imports[key] == value
    assert imports["@pmndrs/msdfonts"] == "/node_modules/@pmndrs/msdfonts/dist/index.js"
    assert imports["my-lib"] == "./lib/my-lib.js"
    assert imports["troika-three-text"].startswith("https://cdn.jsdelivr.net/gh/protectwise/")
    # The classic script before the map and the app's module after it are untouched, and the
    # harness module sits between the map and the app.
    assert "window.litDisableBundleWarning = true;" in out
    assert out.index('type="importmap"') < out.index(HARNESS_MODULE) < out.index('src="main.js"')


def test_missing_import_map_is_inserted_before_the_first_script(local):
    html = (
        "<!doctype html><html><head><title>x</title></head>"
        "<body><script type=module>import 'three';</script></body></html>"
    )
    out = rewrite_html(html, local)
    (m,) = import_maps(out)
    assert m["imports"]["three"] == REQUIRED_LOCAL["three"]
    assert out.index("importmap") < out.index("<script type=module>")


def test_no_head_no_scripts(local):
    out = rewrite_html("<p>just text</p>", local)
    assert len(import_maps(out)) == 1 and out.endswith("<p>just text</p>")


def test_several_maps_are_merged_first_definition_wins(local):
    html = (
        '<script type="importmap">{"imports": {"a": "/a1.js", "three": "https://x/three.js"}}</script>'
        '<script type="importmap">{"imports": {"a": "/a2.js", "b": "/b.js"},'
        ' "scopes": {"/s/": {"three": "/t.js", "c": "/c.js"}}}</script>'
        '<script type="module" src="main.js"></script>'
    )
    (m,) = import_maps(rewrite_html(html, local))
    assert m["imports"]["a"] == "/a1.js" and m["imports"]["b"] == "/b.js"
    assert m["imports"]["three"] == REQUIRED_LOCAL["three"]
    assert m["scopes"]["/s/"] == {"three": REQUIRED_LOCAL["three"], "c": "/c.js"}


def test_cdn_url_imports_map_to_the_same_modules(local):
    (m,) = import_maps(rewrite_html("<script type='module'></script>", local))
    assert m["imports"]["https://cdn.jsdelivr.net/npm/three@0.184.0/"] == "/node_modules/three/"


def test_script_text_that_looks_like_tags_is_not_parsed(local):
    html = (
        '<script>const s = "<script type=\\"importmap\\">{}</" + "script>";</script>'
        '<!-- <script type="importmap">{"imports": {"x": "/commented.js"}}</script> -->'
        '<script type="importmap">{"imports": {"real": "/real.js"}}</script>'
    )
    out = rewrite_html(html, local)
    maps = import_maps(out)
    assert len(maps) == 1 and maps[0]["imports"]["real"] == "/real.js"
    assert "/commented.js" in out  # the comment is kept verbatim


def test_invalid_import_map_is_an_error(local):
    with pytest.raises(ImportMapError, match="not valid JSON"):
        rewrite_html('<script type="importmap">{"imports": </script>', local)


def test_create_workspace_serves_the_app_in_place_without_touching_it(tmp_path, local):
    app = tmp_path / "app"
    (app / "assets").mkdir(parents=True)
    (app / "index.html").write_text(TEMPLATE_HTML)
    (app / "main.js").write_text("import 'three';")
    (app / "assets" / "a.txt").write_text("a")
    (app / "node_modules" / "junk").mkdir(parents=True)
    (app / "node_modules" / "junk" / "x.js").write_text("x")
    outside = tmp_path / "secret.txt"
    outside.write_text("secret")
    os.symlink(outside, app / "link.txt")
    before = sorted((p.relative_to(app), p.read_bytes() if p.is_file() else b"") for p in app.rglob("*"))

    ws = create_workspace(app, find_web_deps())
    try:
        assert ws.path != app and ws.path.is_dir() and ws.app_dir == app.resolve()
        # The session's own folder holds only the rewritten entry page and the harness's files.
        assert sorted(p.name for p in ws.path.iterdir()) == ["__xrtest__", "index.html"]
        assert (ws.path / "__xrtest__" / "harness.js").is_file()
        assert ws.import_map["imports"]["xrblocks"] == REQUIRED_LOCAL["xrblocks"]
        server = AppServer(ws.path, find_web_deps().node_modules, app=ws.app_dir)
        assert server.respond("GET", "/").file == ws.path / "index.html"
        assert server.respond("GET", "/assets/a.txt").file == app / "assets" / "a.txt"
        assert server.respond("GET", "/node_modules/junk/x.js").status == 404  # the pinned folder
        assert server.respond("GET", "/link.txt").status == 403  # a link out of the app, never followed
    finally:
        ws.cleanup()
    assert not ws.path.exists()
    assert sorted((p.relative_to(app), p.read_bytes() if p.is_file() else b"") for p in app.rglob("*")) == before


def test_an_sdk_app_without_its_build_is_refused_not_run_on_the_npm_sdk(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><p>x</p>")
    (tmp_path / "sdk" / "src").mkdir(parents=True)
    with pytest.raises(XRTestError, match=r"has src/ but no build/xrblocks\.js: build it first"):
        create_workspace(tmp_path, find_web_deps())
    (tmp_path / "sdk" / "build").mkdir()
    (tmp_path / "sdk" / "build" / "xrblocks.js").write_text("export {};\n")
    create_workspace(tmp_path, find_web_deps()).cleanup()


def test_create_workspace_requires_index(tmp_path):
    with pytest.raises(XRTestError, match=r"index\.html"):
        create_workspace(tmp_path, find_web_deps())


def test_example_app_has_a_cdn_import_map():
    html = (Path(__file__).resolve().parents[2] / "examples" / "tap_to_light" / "index.html").read_text()
    (m,) = import_maps(html)
    assert all(v.startswith("https://") for v in m["imports"].values())


def test_an_app_with_its_own_sdk_build_uses_it(tmp_path):
    app = tmp_path / "app"
    (app / "sdk" / "build" / "addons").mkdir(parents=True)
    (app / "sdk" / "build" / "xrblocks.js").write_text("export const core = {};")
    (app / "index.html").write_text(TEMPLATE_HTML)
    ws = create_workspace(app, find_web_deps())
    try:
        imports = ws.import_map["imports"]
        assert imports["xrblocks"] == "/sdk/build/xrblocks.js"
        assert imports["xrblocks/addons/"] == "/sdk/build/addons/"
        assert imports["https://cdn.jsdelivr.net/gh/google/xrblocks@build/"] == "/sdk/build/"
        assert imports["three"] == REQUIRED_LOCAL["three"]
    finally:
        ws.cleanup()


def test_an_sdk_workspace_needs_no_pinned_sdk_build(tmp_path):
    """In the agent sandbox an SDK task sees no pinned SDK build: its own build must be enough."""
    real = find_web_deps()
    nm = tmp_path / "node_modules"
    nm.mkdir()
    for name in os.listdir(real.node_modules):
        if name != "xrblocks":
            (nm / name).symlink_to(real.node_modules / name)
    (nm / "xrblocks").mkdir()  # the package with its build hidden
    deps = WebDeps(root=tmp_path, node_modules=nm, versions=real.versions)
    app = tmp_path / "app"
    app.mkdir()
    (app / "index.html").write_text(TEMPLATE_HTML)
    with pytest.raises(XRTestError, match="build-sdk"):
        create_workspace(app, deps)  # not built yet: one clear line, not a KeyError
    (app / "sdk" / "build").mkdir(parents=True)
    (app / "sdk" / "build" / "xrblocks.js").write_text("export const core = {};")
    ws = create_workspace(app, deps)
    try:
        assert ws.import_map["imports"]["xrblocks"] == "/sdk/build/xrblocks.js"
        assert ws.import_map["imports"]["xrblocks/addons/"] == "/sdk/build/addons/"
    finally:
        ws.cleanup()
