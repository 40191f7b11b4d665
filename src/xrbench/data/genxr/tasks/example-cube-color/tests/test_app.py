"""Format-example tests: file-level checks of the candidate's main.js (no browser yet).

Real GenXR tasks drive the running app through the xrtest harness (`xr` fixture); these checks
only show the task layout and the grading contract. `workspace_dir` is the fresh copy of the
candidate workspace (xrbench.genxr.pytest_plugin).
"""

import re
from pathlib import Path

HANDLERS = r"on(?:Object)?Select(?:Start|End|ing)?|onObjectTouchStart"
COLOR_CHANGE = re.compile(r"\.color\.(?:set|setHex|setRGB|setHSL|setStyle|copy|lerp)\s*\(|\.color\s*=(?!=)")


def _main_js(workspace_dir: Path) -> str:
    path = workspace_dir / "main.js"
    assert path.is_file(), "main.js is missing"
    return path.read_text(encoding="utf-8")


def _method_bodies(source: str, names: str) -> list[str]:
    """Bodies of class methods whose name matches `names` (brace matching, strings ignored)."""
    bodies = []
    for m in re.finditer(rf"\b(?:{names})\s*\([^)]*\)\s*\{{", source):
        depth, i = 1, m.end()
        while i < len(source) and depth:
            depth += {"{": 1, "}": -1}.get(source[i], 0)
            i += 1
        bodies.append(source[m.end() : i - 1])
    return bodies


def test_app_still_loads_xrblocks(workspace_dir):
    html = (workspace_dir / "index.html").read_text(encoding="utf-8")
    assert '"importmap"' in html and '"xrblocks"' in html, "index.html lost its import map"
    source = _main_js(workspace_dir)
    assert re.search(r"from\s+['\"]xrblocks['\"]", source), "main.js does not import xrblocks"
    assert "xb.init(" in source, "main.js does not start XR Blocks"


def test_cube_is_tagged(workspace_dir):
    source = _main_js(workspace_dir)
    assert "BoxGeometry" in source, "no cube (BoxGeometry) in main.js"
    assert re.search(r"xrblocksDevtools\s*=\s*\{[^}]*tag\s*:\s*['\"]color-cube['\"]", source), (
        "the cube is not tagged 'color-cube'"
    )


def test_selection_changes_color(workspace_dir):
    bodies = _method_bodies(_main_js(workspace_dir), HANDLERS)
    assert bodies, "no selection handler (onSelectStart, onObjectSelectStart, ...)"
    assert any(COLOR_CHANGE.search(b) for b in bodies), "no selection handler changes a colour"
