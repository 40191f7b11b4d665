"""The `with-baseline` arm's system prompt: a published prompt, pinned, with only its output adapted.

The published XR Blocks prompt (`prompts.txt` of the xrblocks website) asks for one `index.html`
and a planning outline, which conflicts with this harness's `main.js`-only, code-only answer. The
arm therefore uses a local, unchanged copy of one pinned snapshot and rewrites only its top-level
output instructions, by exact substitutions declared below: each `before` text must occur exactly
once in the part before the examples heading and is replaced once. Everything else (API guidance,
lifecycle rules, the complete examples, their dependency versions) stays as published, stale parts
included: the arm measures an *output-adapted published baseline*, not the raw prompt and not the
current guidance.

The file is never downloaded here (the harness has no network at run time). Fetch it once, apart
from any run, from `PUBLISHED_MAIN_JS_V1.source_url`. A missing, empty, non-UTF-8 or changed file,
or one whose structure no longer fits the substitutions, is a one-line `UserError`. Supporting a
different snapshot is a deliberate change: a new `BaselineDeclaration`, never just another file.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xrbench.errors import UserError


@dataclass(frozen=True)
class BaselineDeclaration:
    """One supported snapshot of a published prompt and its output-only adaptation protocol."""

    protocol: str
    source_url: str
    source_path: str
    source_revision: str
    deployed_revision: str
    sha256: str
    size: int
    # Only the text before this heading may be adapted; the examples after it are never touched.
    examples_heading: str
    substitutions: tuple[tuple[str, str], ...]
    edit_file: str = "main.js"


_DEPLOYED = "9d07c265088b9dbe4067c1acd0c9184452d90f0a"

# The snapshot upstream's harness pins (xrblocks/xrblocks.github.io, `build/prompts.txt` of source
# change 13dc481, deployed as `prompts.txt` in 9d07c26), and upstream's `published-main-js-v1`
# substitutions for it, verbatim.
PUBLISHED_MAIN_JS_V1 = BaselineDeclaration(
    protocol="published-main-js-v1",
    source_url=f"https://raw.githubusercontent.com/xrblocks/xrblocks.github.io/{_DEPLOYED}/prompts.txt",
    source_path="build/prompts.txt",
    source_revision="13dc481788bc5ce30d958882d26a9f1eab5e1287",
    deployed_revision=_DEPLOYED,
    sha256="0fa7a73d7ee1fefff7bdaabc4ec4bf7e4e8f6c22e0f53e7189550bfa683373a3",
    size=122657,
    examples_heading="# Reference Examples",
    substitutions=(
        (
            "You are authoring single-file WebXR experiences.",
            "You are authoring the main.js JavaScript module for a provided WebXR template.",
        ),
        ("1. **Architecture (Single File):**", "1. **Architecture (Application Module):**"),
        (
            "Output a SINGLE `index.html` file.",
            "Output only the complete contents of `main.js` inside a single ```javascript fenced block. "
            "Do not emit HTML, script tags, an importmap, or prose.",
        ),
        ('inside `<script type="module">`.', "in the JavaScript module."),
        (
            "CSS link tag must use:",
            "The host HTML template, not the generated module, owns the CSS link tag:",
        ),
        (
            'Use the specific versions below in `<script type="importmap">`.',
            "The following dependency versions belong in the host HTML template's "
            '`<script type="importmap">`, not in the generated module.',
        ),
        ("5. **Planning:**", "5. **Response Format:**"),
        (
            "   - Before generating code, briefly outline the `xb.Script` class structure, "
            "member variables, and the `init()` vs `update()` logic flow.",
            "   - Return only the complete `main.js` JavaScript module in the requested fenced block. "
            "Do not include a plan, outline, explanation, or other prose.",
        ),
    ),
)

# The declaration the CLI accepts. Tests substitute their own for a synthetic file.
PINNED = PUBLISHED_MAIN_JS_V1


@dataclass(frozen=True)
class BaselinePrompt:
    """A validated baseline: the original bytes, the adapted system prompt and its provenance."""

    original: bytes
    system_prompt: str
    provenance: dict[str, Any]


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def adapt(text: str, declaration: BaselineDeclaration) -> tuple[str, list[dict[str, str]]]:
    """Apply the declared substitutions once each to the prefix before the examples heading.

    Raises `UserError` when the heading is not there exactly once or a `before` text does not
    occur exactly once in the prefix (the structure the protocol was written for has changed).
    """
    heading = declaration.examples_heading
    if text.count(heading) != 1:
        raise UserError(f"unsupported baseline structure: expected exactly one {heading!r} heading")
    prefix, examples = text.split(heading, 1)
    changes: list[dict[str, str]] = []
    for before, after in declaration.substitutions:
        count = prefix.count(before)
        if count != 1:
            raise UserError(
                f"unsupported baseline structure: expected exactly one {before!r} before {heading!r}, found {count}"
            )
        prefix = prefix.replace(before, after, 1)
        changes.append({"before": before, "after": after})
    return prefix + heading + examples, changes


def load_baseline(
    path: str | Path, *, edit_file: str = "main.js", declaration: BaselineDeclaration | None = None
) -> BaselinePrompt:
    """Validate a local copy of the pinned prompt and adapt its output instructions.

    Checks, in order: the file exists and is a file, is not empty, has the declared byte count and
    SHA-256, is UTF-8, fits the substitutions; and the task edits the declared file.
    """
    declaration = declaration or PINNED
    path = Path(path).expanduser().resolve()
    if edit_file != declaration.edit_file:
        raise UserError(
            f"{declaration.protocol} supports tasks that edit {declaration.edit_file!r} only, not {edit_file!r}"
        )
    if not path.exists():
        raise UserError(f"baseline file does not exist: {path}")
    if not path.is_file():
        raise UserError(f"baseline file is not a file: {path}")
    original = path.read_bytes()
    if not original.strip():
        raise UserError(f"baseline file is empty: {path}")
    digest = sha256_hex(original)
    if len(original) != declaration.size or digest != declaration.sha256:
        raise UserError(
            f"baseline file {path} has changed: {len(original)} bytes, SHA-256 {digest}; "
            f"{declaration.protocol} needs the unchanged {declaration.size}-byte snapshot "
            f"{declaration.sha256} of {declaration.source_url}"
        )
    try:
        text = original.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UserError(f"baseline file is not UTF-8 text: {path} ({e.reason} at byte {e.start})") from None
    system_prompt, changes = adapt(text, declaration)
    return BaselinePrompt(
        original=original,
        system_prompt=system_prompt,
        provenance={
            "protocol": declaration.protocol,
            "source_url": declaration.source_url,
            "source_path": declaration.source_path,
            "source_revision": declaration.source_revision,
            "deployed_revision": declaration.deployed_revision,
            "input_path": str(path),
            "original_bytes": len(original),
            "original_sha256": digest,
            "effective_sha256": sha256_hex(system_prompt.encode("utf-8")),
            "adaptations": changes,
        },
    )
