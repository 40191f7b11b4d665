"""Fixtures for the guidance tests: a local OpenAI-compatible server with synthetic answers, a
synthetic published-prompt file with its own declaration, and tiny task suites."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from guidance_fakes import guidance_responder
from llm_fakes import FakeServer, serve

from xrbench.guidance import baseline as baseline_mod
from xrbench.guidance.baseline import BaselineDeclaration, sha256_hex
from xrbench.guidance.task import TASKS_DIR

HERE = Path(__file__).resolve().parent


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    for var in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "XRBENCH_JUDGE_MODEL",
    ):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def fake_server() -> Iterator[FakeServer]:
    """A local OpenAI-compatible endpoint answering with `guidance_fakes`; `.url + "/v1"` is the base URL."""
    yield from serve(FakeServer(guidance_responder))


_PLANNING = baseline_mod.PUBLISHED_MAIN_JS_V1.substitutions[-1][0]
SYNTHETIC_PROMPT = f"""# Role
Act as an expert on XR Blocks.

# Context
You are authoring single-file WebXR experiences. Follow the XR Blocks architecture.

# Engineering Guidelines (Strict)

1. **Architecture (Single File):**
   - Output a SINGLE `index.html` file.
   - Logic must be in a class extending `xb.Script` inside `<script type="module">`.
   - CSS link tag must use: `https://xrblocks.github.io/css/xr.css`.

2. **Dependency Management (Critical):**
   - Use the specific versions below in `<script type="importmap">`.
   - "xrblocks": "https://cdn.jsdelivr.net/npm/xrblocks@0.10.0/build/xrblocks.js"

5. **Planning:**
{_PLANNING}

# Reference Examples
### Template: 0_basic
```html
<script type="module">
// Output a SINGLE `index.html` file. (inside the examples: never adapted)
</script>
```
"""


@pytest.fixture
def baseline_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A synthetic published prompt, and a declaration pinning it that replaces the real one.

    The real snapshot is never downloaded in tests; the declaration keeps the pinned protocol's
    substitutions, so the adaptation logic is the one that runs for the real file.
    """
    path = tmp_path / "published-prompts.txt"
    data = SYNTHETIC_PROMPT.encode("utf-8")
    path.write_bytes(data)
    pinned = baseline_mod.PUBLISHED_MAIN_JS_V1
    decl = BaselineDeclaration(
        protocol=pinned.protocol,
        source_url="https://example.invalid/prompts.txt",
        source_path=pinned.source_path,
        source_revision="test",
        deployed_revision="test",
        sha256=sha256_hex(data),
        size=len(data),
        examples_heading=pinned.examples_heading,
        substitutions=pinned.substitutions,
    )
    monkeypatch.setattr(baseline_mod, "PINNED", decl)
    return path


def make_task(root: Path, task_id: str, spec: dict, prompt: str = "Build a thing.\n") -> Path:
    """Write one task folder (`prompt.md`, `spec.json`) under `root`."""
    d = root / task_id
    d.mkdir(parents=True)
    (d / "prompt.md").write_text(prompt, encoding="utf-8")
    (d / "spec.json").write_text(json.dumps(spec, indent=2), encoding="utf-8")
    return d


BASIC_SPEC = {
    "skill": "xb-build-app",
    "reference_files": ["skills/xb-build-app/references/import-maps.md"],
    "template": "templates/basic",
    "edit_file": "main.js",
    "expected_imports": [],
    "expected_apis": ["xb.init"],
    "forbidden_patterns": ["navigator\\.xr\\."],
}


@pytest.fixture
def two_tasks(tmp_path: Path) -> Path:
    """A tasks root with two bundled tasks copied (the recorded-replay subset)."""
    root = tmp_path / "tasks"
    for tid in ("select-cube-color", "ui-button-hud"):
        shutil.copytree(TASKS_DIR / tid, root / tid)
    return root
